package ad4j.processor.front;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * What the statement and expression lowering share for one method: the IR being built, the
 * scopes, name resolution, the source, the diagnostics, and the statement being lowered.
 */
final class LoweringContext {
  private final Elements elements;
  private final Types types;
  private final Trees trees;
  /** How names resolve: in the method's class, or in the record whose method is inlined. */
  private Symbols symbols;
  /** How names resolve in the method's own class. */
  private final Symbols ownSymbols;
  private final Map<TypeElement, Symbols> symbolsOfTypes = new HashMap<>();
  private final Reachability reachability;
  private final Predicate<TypeElement> hasGradClass;
  private final SourceText source;
  private final Diagnostics diagnostics;
  private final IrBuilder ir = new IrBuilder();
  private final LocalScopes scopes = new LocalScopes();
  private final Set<String> variableNames;
  private final Set<String> inlinedVariableNames = new java.util.HashSet<>();
  private final Set<MathOwner> shadowedOwners = EnumSet.noneOf(MathOwner.class);
  private final Set<String> referencedTypeNames = new LinkedHashSet<>();
  private final List<Statement> prologue = new ArrayList<>();
  private final Map<Integer, List<Statement>> loopPrologues = new HashMap<>();
  private SourceLine line;
  /** The innermost statement or expression being lowered: where new values are made. */
  private Tree lowering;
  private final LaunderedDependence dependences;
  /** The {@code order} of the method's {@code @Differentiable}: 1, or 2 for Hessians. */
  private int order = 1;
  /** The method's name, for messages. */
  private String methodName = "";
  private int statementStart;
  private final java.util.ArrayDeque<Integer> enclosingLoops = new java.util.ArrayDeque<>();
  private int loopsEntered;
  /** The objects and strings computed inside loops: a new one per iteration. */
  private final Set<Value> objectsMadeInLoops = new java.util.HashSet<>();
  /**
   * The arrays made inside loops ({@code new}, {@code clone()}, a vector function's result): a
   * new one per iteration.
   */
  private final Set<Value> arraysMadeInLoops = new java.util.HashSet<>();
  /** The arrays the method writes into, and those it passes to @Differentiable calls. */
  private final Set<Value> writtenArrays = new java.util.HashSet<>();
  /** The names of local classes declared in the method, each an error at its declaration. */
  private final Set<String> localClasses = new java.util.HashSet<>();
  private final Set<Value> arraysPassedToCalls = new java.util.HashSet<>();
  /**
   * The arrays this method did not make, which it reaches as written: a field's, an object's,
   * one a call run as written returns, a {@code static final} table held in a local. They
   * carry no derivative, and a write into one changes state outside the method.
   */
  private final Set<Value> foreignArrays =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  /** The array locals that have held a foreign array: what they hold is foreign too. */
  private final Set<Variable> foreignArrayVariables = new java.util.HashSet<>();
  /** The arrays the method must not write: its array parameters and their rows. */
  private final Set<Value> readOnlyArrays =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  private ArgumentOnlyMethods argumentOnlyMethods;
  private final CompilationUnitTree unit;

  LoweringContext(Elements elements, Types types, Trees trees, CompilationUnitTree unit,
      TypeElement enclosingType, Diagnostics diagnostics, Set<String> variableNames,
      Predicate<TypeElement> hasGradClass) {
    this.hasGradClass = hasGradClass;
    this.elements = elements;
    this.types = types;
    this.trees = trees;
    this.unit = unit;
    this.symbols = new Symbols(elements, types, enclosingType, unit);
    this.ownSymbols = symbols;
    this.reachability = new Reachability(elements, types, trees, symbols.packageName());
    this.source = new SourceText(trees, unit, diagnostics::unitOf);
    this.dependences = new LaunderedDependence(source);
    this.diagnostics = diagnostics;
    this.variableNames = variableNames;
    for (MathOwner owner : MathOwner.values()) {
      if (!owner.isImplicitlyImported() || symbols.packageShadows(owner.simpleName())) {
        shadowedOwners.add(owner);
      }
    }
  }

  /** The classes of this compilation that declare {@code @DerivativeOf} rules. */
  private java.util.Collection<TypeElement> ruleClasses = List.of();

  /** Tells the classes of this compilation that declare {@code @DerivativeOf} rules. */
  void setRuleClasses(java.util.Collection<TypeElement> classes) {
    this.ruleClasses = List.copyOf(classes);
  }

  /** The classes of this compilation that declare {@code @DerivativeOf} rules. */
  java.util.Collection<TypeElement> ruleClasses() {
    return ruleClasses;
  }

  /** The method's {@code @Differentiable(order)} and name. */
  void setMethod(String name, int order) {
    this.methodName = name;
    this.order = order;
  }

  /** The method being lowered; null until {@link #setElement}. */
  private ExecutableElement element;
  /**
   * Whether the method is lowered only to learn what its code calls ({@link CalleePlainCalls}):
   * its own calls are then not examined in turn.
   */
  private boolean examining;
  private CalleePlainCalls calleePlainCalls;

  void setElement(ExecutableElement element, boolean examining) {
    this.element = element;
    this.examining = examining;
  }

  ExecutableElement element() {
    return element;
  }

  boolean examining() {
    return examining;
  }

  private final List<ValueRecords.FlatParameter> flatParameters = new ArrayList<>();

  /** Records that parameter {@code parameter}, a value record, is flattened. */
  void flattensParameter(ValueRecords.FlatParameter parameter) {
    flatParameters.add(parameter);
  }

  /** The value record parameters the method's members take flattened, in order. */
  List<ValueRecords.FlatParameter> flatParameters() {
    return List.copyOf(flatParameters);
  }

  private final Map<Value, List<Operand>> carriedByCalls = new java.util.IdentityHashMap<>();

  /**
   * Records that the call whose result is {@code result} returns a value record whose leaves
   * that carry no derivative are {@code leaves}, in order: operands of the caller's.
   */
  void carriesCallResult(Value result, List<Operand> leaves) {
    carriedByCalls.put(result, List.copyOf(leaves));
  }

  /**
   * The operands that the leaves carrying no derivative of the value record a call returns are
   * ({@link #carriesCallResult}); empty for other values.
   */
  Optional<List<Operand>> carriedByCall(Value result) {
    return Optional.ofNullable(carriedByCalls.get(result));
  }

  private List<ValueRecords.Carried> carriedResult = List.of();

  /**
   * Records where the leaves that carry no derivative of the value record the method returns
   * come from, in the order of the record's leaves.
   */
  void carriesResult(List<ValueRecords.Carried> carried) {
    carriedResult = List.copyOf(carried);
  }

  /**
   * Where the leaves that carry no derivative of the value record the method returns come
   * from ({@link ValueRecords.Carried}), in order; none for other methods.
   */
  List<ValueRecords.Carried> carriedResult() {
    return carriedResult;
  }

  /** The names of the arrays the method's own double-buffer swaps exchange. */
  private Set<String> swappedArrays = Set.of();

  void swapsArrays(List<ArraySwaps> swaps) {
    Set<String> names = new java.util.HashSet<>();
    swaps.forEach(swap -> {
      names.add(swap.first());
      names.add(swap.second());
    });
    swappedArrays = names;
  }

  /**
   * The names of the arrays the method's own swaps exchange ({@link ArraySwaps}): no other
   * assignment may rebind them, since {@link VariablePlanner} gave them no variable.
   */
  Set<String> swappedArrays() {
    return swappedArrays;
  }

  /**
   * The arrays the method makes with {@code new}, each with what gives its length: the value
   * of its size ({@code n}) or the text of a constant one. Two arrays with the same entry have
   * the same length ({@link ArraySwaps}).
   */
  private final Map<Value, Object> madeArrays = new java.util.IdentityHashMap<>();

  /**
   * Records that {@code array} was made with {@code new} of length {@code length}; with
   * {@code lengthOf}, the length of that array, which is bound once, so that arrays made
   * with {@code new double[w.length]} at two places have the same entry though each read
   * of {@code w.length} is a value of its own.
   */
  void madeArray(Operand array, Operand length, Optional<Value> lengthOf) {
    if (array instanceof Operand.Use use) {
      madeArrays.put(use.value(), lengthOf.<Object>map(LengthOf::new)
          .orElse(length instanceof Operand.Use size ? size.value() : "constant " + length));
    }
  }

  /** The length of an array bound once: equal for the same array. */
  private record LengthOf(Value array) {}

  /** What gives the length of {@code array}, if the method made it with {@code new}. */
  java.util.Optional<Object> lengthOfMadeArray(Value array) {
    return java.util.Optional.ofNullable(madeArrays.get(array));
  }

  /** The private static fields the generated class copies for this method, by copy name. */
  private final Map<String, PrivateFields.Copy> privateFieldCopies =
      new java.util.LinkedHashMap<>();

  void copiesPrivateField(PrivateFields.Copy copy) {
    privateFieldCopies.putIfAbsent(copy.copy(), copy);
  }

  List<PrivateFields.Copy> privateFieldCopies() {
    return List.copyOf(privateFieldCopies.values());
  }

  /** A call of the method's own code that runs as written and not alike each time. */
  record CallRunAsWritten(String shown, long line, Tree at, long start, List<Integer> loops) {
    /** For messages and the generated class: {@code "RNG.nextGaussian() (line 8)"}. */
    String describe() {
      return shown + (line > 0 ? " (line " + line + ")" : "");
    }
  }

  /** Every {@link CallRunAsWritten}, in the order of lowering. */
  private final List<CallRunAsWritten> callsRunAsWritten = new ArrayList<>();

  List<CallRunAsWritten> callsRunAsWritten() {
    return List.copyOf(callsRunAsWritten);
  }

  /** Notes a call of the method's own code that runs as written and not alike each time. */
  void callRunsAsWritten(String shown, long line, Tree at) {
    CallRunAsWritten call = new CallRunAsWritten(shown, line, at,
        at == null ? -1 : source().start(at), enclosingLoops());
    callsRunAsWritten.add(call);
  }

  /** How many {@code throw} statements' exceptions are being lowered around the current tree. */
  private int buildingThrown;

  /**
   * Runs {@code lowering} of the exception a {@code throw} (or a failing {@code assert})
   * builds, and gives its result. The calls it makes run
   * at most once per call of any generated member: once the exception is thrown the member
   * ends (a differentiable method catches nothing), so no sweep or caller runs them again.
   */
  <T> T lowerThrown(java.util.function.Supplier<T> lowering) {
    buildingThrown++;
    try {
      return lowering.get();
    } finally {
      buildingThrown--;
    }
  }

  /** Whether the tree being lowered builds the exception of a {@code throw}. */
  boolean buildingThrown() {
    return buildingThrown > 0;
  }

  /** The first {@link CallRunAsWritten}. */
  java.util.Optional<CallRunAsWritten> firstCallRunAsWritten() {
    return callsRunAsWritten.stream().findFirst();
  }

  /** The line of the first read of a static field that is not final or an object array's element. */
  private ad4j.processor.ir.SourceLine firstStateRead;

  /**
   * {@code value} reads state that a call run as written may have written: a static field that
   * is not final, an element of an array of objects ({@link LaunderedDependence#readsState},
   * {@link StateReadAgain}).
   */
  void readsState(Operand value) {
    dependences.readsState(value);
    if (firstStateRead == null) {
      firstStateRead = line();
    }
  }

  java.util.Optional<ad4j.processor.ir.SourceLine> firstStateRead() {
    return java.util.Optional.ofNullable(firstStateRead);
  }

  /** A call of a {@code @Differentiable} method, at {@code at}, written {@code shown}. */
  record DifferentiableCall(ExecutableElement callee, Tree at, String shown, long start,
      List<Integer> loops) {}

  private final List<DifferentiableCall> differentiableCalls = new ArrayList<>();

  /** Records a resolved call, at {@code at}, of the {@code @Differentiable} method {@code callee}. */
  void calls(ExecutableElement callee, Tree at, String shown) {
    differentiableCalls.add(new DifferentiableCall(callee, at, shown, source().start(at),
        enclosingLoops()));
  }

  List<DifferentiableCall> differentiableCalls() {
    return List.copyOf(differentiableCalls);
  }

  private final List<UnrepeatableCall> unrepeatableCalls = new ArrayList<>();

  /** Notes a call whose callee's code the caller's programs must run once per call. */
  void callsUnrepeatable(UnrepeatableCall call) {
    unrepeatableCalls.add(call);
  }

  /** Every {@link UnrepeatableCall}, in the order of lowering. */
  List<UnrepeatableCall> unrepeatableCalls() {
    return List.copyOf(unrepeatableCalls);
  }

  /** The {@code @Differentiable} methods it calls, in the order its calls resolve. */
  List<ExecutableElement> callees() {
    return differentiableCalls.stream().map(DifferentiableCall::callee).toList();
  }

  /** What the method's {@code @Differentiable} callees' code calls as written. */
  CalleePlainCalls calleePlainCalls() {
    if (calleePlainCalls == null) {
      calleePlainCalls = new CalleePlainCalls(elements, types, trees, hasGradClass);
    }
    return calleePlainCalls;
  }

  int order() {
    return order;
  }

  String methodName() {
    return methodName;
  }

  /** The source file of the method being lowered. */
  CompilationUnitTree unit() {
    return unit;
  }

  Trees trees() {
    return trees;
  }

  Types types() {
    return types;
  }

  Elements elements() {
    return elements;
  }

  /** How names resolve in the method's own class, wherever the lowering is now. */
  Symbols ownSymbols() {
    return ownSymbols;
  }

  /**
   * The instance field {@code name} means without a qualifier in an instance method, when it is
   * one of the method's own object (its class's, declared or inherited), read through the
   * receiver as {@code this.name}: empty in a static method, for a static field, and for a
   * field of an enclosing instance, which the method's class does not hold. A local of that
   * name hiding it is the caller's to rule out.
   */
  Optional<javax.lang.model.element.VariableElement> ownInstanceField(String name) {
    if (scopes().lookUp(Receivers.THIS) == null) {
      return Optional.empty();
    }
    TypeElement own = symbols().enclosingType();
    return symbols().fieldQualifier(name).filter(own::equals)
        .flatMap(type -> symbols().fieldOf(type, name))
        .filter(field -> !StaticMembers.isStatic(field));
  }

  /**
   * Why a field of an enclosing instance cannot be read, for messages ("... of" it): the
   * generated members take the method's own receiver only.
   */
  String enclosingInstance() {
    return "an enclosing instance, which ad4j does not pass to generated code; read it into a"
        + " field of '" + symbols().enclosingType().getSimpleName() + "'";
  }

  Symbols symbols() {
    return symbols;
  }

  /**
   * Makes names resolve as in {@code type}'s code (a record's method inlined into the method:
   * its unqualified names are the record's, not the caller's class's); returns what to give
   * {@link #resolveAs} back after it.
   */
  Symbols resolveIn(TypeElement type) {
    Symbols outer = symbols;
    symbols = symbolsIn(type);
    return outer;
  }

  /** How names resolve in {@code type}'s code: with the imports of its own file. */
  Symbols symbolsIn(TypeElement type) {
    return symbolsOfTypes.computeIfAbsent(type, t -> new Symbols(elements, types, t,
        homeOf(t).orElse(unit)));
  }

  /** The file of this compilation that declares {@code element}; empty for a class file's. */
  Optional<CompilationUnitTree> homeOf(javax.lang.model.element.Element element) {
    com.sun.source.util.TreePath path = trees.getPath(element);
    return path == null ? Optional.empty() : Optional.of(path.getCompilationUnit());
  }

  /**
   * Reads {@code tree}, of file {@code home} of this compilation, as the method's code reads its
   * own trees: its text, lines and the messages about it are those of its own file.
   */
  void adopt(Tree tree, CompilationUnitTree home) {
    diagnostics.adopt(tree, home);
  }

  /**
   * The path to {@code tree} in its own file: the method's, or the one it was {@link #adopt
   * adopted} from (the code of a method taking a function, of another file).
   */
  com.sun.source.util.TreePath pathIn(Tree tree) {
    return trees.getPath(diagnostics.unitOf(tree), tree);
  }

  /** Makes names resolve as {@code previous} resolved them ({@link #resolveIn}). */
  void resolveAs(Symbols previous) {
    symbols = previous;
  }

  SourceText source() {
    return source;
  }

  Diagnostics diagnostics() {
    return diagnostics;
  }

  IrBuilder ir() {
    return ir;
  }

  /** Where values computed through code that carries no derivative are followed. */
  LaunderedDependence dependences() {
    return dependences;
  }

  /** The static methods of the sources that read their arguments only and keep none. */
  /** Methods that read state and change none ({@link ReadOnlyMethods}). */
  ReadOnlyMethods readOnlyMethods() {
    if (readOnlyMethods == null) {
      readOnlyMethods = new ReadOnlyMethods(trees, argumentOnlyMethods());
    }
    return readOnlyMethods;
  }

  private ReadOnlyMethods readOnlyMethods;

  ArgumentOnlyMethods argumentOnlyMethods() {
    if (argumentOnlyMethods == null) {
      argumentOnlyMethods = new ArgumentOnlyMethods(elements, types, trees);
    }
    return argumentOnlyMethods;
  }

  /** Starts lowering {@code expression}; returns what to give {@link #leaveExpression}. */
  Tree enterExpression(Tree expression) {
    Tree outer = lowering;
    lowering = expression;
    return outer;
  }

  /** Ends lowering an expression, {@code outer} being what {@link #enterExpression} gave. */
  void leaveExpression(Tree outer) {
    lowering = outer;
  }

  LocalScopes scopes() {
    return scopes;
  }

  Set<MathOwner> shadowedOwners() {
    return shadowedOwners;
  }

  Set<String> referencedTypeNames() {
    return referencedTypeNames;
  }

  /** Declarations that must precede the method's statements (flags of returns from loops). */
  List<Statement> prologue() {
    return prologue;
  }

  /** Declarations that must start each iteration of the loop {@code loopId}. */
  List<Statement> loopPrologue(int loopId) {
    return loopPrologues.computeIfAbsent(loopId, id -> new ArrayList<>());
  }

  Map<Integer, List<Statement>> loopPrologues() {
    return loopPrologues;
  }

  boolean needsVariable(String name) {
    return variableNames.contains(name) || inlinedVariableNames.contains(name);
  }

  /**
   * The names that need mutable variables in code inlined from another method (a callee taking
   * a function, {@link FunctionValues}): a local of such a name becomes one anywhere, which is
   * always correct.
   */
  void planInlined(Set<String> names) {
    inlinedVariableNames.addAll(names);
  }

  /** Starts lowering a user statement: its line for comments, and a mark for new values. */
  void startStatement(Tree statement) {
    line = new SourceLine(source.line(statement), source.forComment(statement));
    lowering = statement;
    statementStart = ir.nextValueId();
  }

  /** Where lowering is: the statement, its line and its first new value. */
  record Position(SourceLine line, Tree lowering, int statementStart) {}

  /** Where lowering is now, to {@link #resume} after lowering code written elsewhere. */
  Position position() {
    return new Position(line, lowering, statementStart);
  }

  /** Goes on lowering where {@link #position} was taken. */
  void resume(Position position) {
    line = position.line();
    lowering = position.lowering();
    statementStart = position.statementStart();
  }

  void restoreLine(SourceLine previous) {
    line = previous;
  }

  SourceLine line() {
    return line;
  }

  /**
   * How generated code writes the name of a math class; a qualified name's first segment is
   * remembered as used, so that no generated name hides it.
   */
  String mathClassName(MathOwner owner) {
    if (!shadowedOwners.contains(owner)) {
      return owner.simpleName();
    }
    if (!owner.isImplicitlyImported()) {
      referencedTypeNames.add(owner.topLevelPackage());
    }
    return owner.qualifiedName();
  }

  /** Appends {@code result = operation(arguments)} and returns a use of the result. */
  Operand emit(Operation operation, List<Operand> arguments, NumericType type, boolean active) {
    Value result = ir.temporary(type, active);
    dependences.made(result, lowering);
    ir.add(new Instruction(result, operation, arguments, line));
    if (operation.form() == Operation.Form.STORE && arguments.get(0) instanceof Operand.Use use) {
      writtenArrays.add(use.value());
    }
    if (type.isReference() && insideLoop()) {
      objectsMadeInLoops.add(result);
    }
    if ((operation.form().makesArray()
        || type.isArray() && operation.form().callsDifferentiated())
        && insideLoop()) {
      arraysMadeInLoops.add(result);
    }
    if (type.isArray() && (operation.form() == Operation.Form.PLAIN_CALL
        || operation.form() == Operation.Form.ELEMENT && isForeignArray(arguments.get(0)))) {
      foreignArrays.add(result); // read as written, or a row of such a matrix
    }
    if (operation.form() == Operation.Form.USER_CALL) {
      for (Operand argument : arguments) {
        if (argument instanceof Operand.Use use && use.value().type().isArray()) {
          arraysPassedToCalls.add(use.value());
        }
      }
    }
    return new Operand.Use(result);
  }

  /**
   * Whether {@code array} is both passed to a call of another {@code @Differentiable} method and
   * written into. The reverse sweep then puts back each element written over before it reaches
   * the call, which it must not do to an array it returns.
   */
  boolean isWrittenAndPassedToCalls(Value array) {
    return writtenArrays.contains(array) && arraysPassedToCalls.contains(array);
  }

  /**
   * Appends {@code result = operation(arguments)} whose result has the reference type
   * {@code mirror} (an object, or a {@code String}), and returns a use of the result; empty
   * when generated code cannot name the type.
   */
  Optional<Operand> emitReference(Operation operation, List<Operand> arguments,
      TypeMirror mirror) {
    NumericType type = referenceKind(mirror);
    Optional<String> text = type == NumericType.OBJECT ? javaText(mirror) : Optional.of("");
    if (text.isEmpty()) {
      return Optional.empty();
    }
    Value result = ir.temporary(type, false);
    dependences.made(result, lowering);
    if (type == NumericType.OBJECT) {
      result.declareAs(mirror, text.get());
    }
    if (insideLoop()) {
      objectsMadeInLoops.add(result);
    }
    ir.add(new Instruction(result, operation, arguments, line));
    return Optional.of(new Operand.Use(result));
  }

  private final Map<Operand, TypeMirror> constantTypes = new java.util.IdentityHashMap<>();
  private final Map<Operand, Object> recordPlaceholders = new java.util.IdentityHashMap<>();

  /**
   * A stand-in for a flattened value record ({@code value}, a {@link RecordLowering.Tuple})
   * among a call's arguments, of the record's type, while the call's method is chosen; the
   * call then passes the record's leaves instead.
   */
  Operand.Constant recordPlaceholder(RecordLowering.Tuple value) {
    Operand.Constant placeholder = referenceConstant("null", value.type().asType());
    recordPlaceholders.put(placeholder, value);
    return placeholder;
  }

  /** The record {@code operand} stands for, if it is a {@link #recordPlaceholder}. */
  Optional<RecordLowering.Tuple> recordOf(Operand operand) {
    return Optional.ofNullable((RecordLowering.Tuple) recordPlaceholders.get(operand));
  }

  /**
   * The constants whose Java type is {@code char} (their type here is {@code int}, as in
   * arithmetic): a cast {@code (int) 'z'} of one must stay, or a message would print "z", and
   * {@code sb.append('z')} calls {@code append(char)}.
   */
  private final Set<Operand> charConstants =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  Set<Operand> charConstants() {
    return charConstants;
  }

  private Overloads overloads;

  /** Overload resolution as javac does it. */
  Overloads overloads() {
    if (overloads == null) {
      overloads = new Overloads(types);
    }
    return overloads;
  }

  /**
   * The Java type of an operand, as overload resolution sees it: a primitive ({@code char} for
   * a character constant), one of the arrays ad4j computes with, or a reference type; empty
   * for the result of a {@code void} call.
   */
  Optional<TypeMirror> javaTypeOf(Operand operand) {
    return switch (operand.type()) {
      case INT -> Optional.of(types.getPrimitiveType(
          charConstants.contains(operand) ? TypeKind.CHAR : TypeKind.INT));
      case LONG -> Optional.of(types.getPrimitiveType(TypeKind.LONG));
      case FLOAT -> Optional.of(types.getPrimitiveType(TypeKind.FLOAT));
      case DOUBLE -> Optional.of(types.getPrimitiveType(TypeKind.DOUBLE));
      case BOOLEAN -> Optional.of(types.getPrimitiveType(TypeKind.BOOLEAN));
      case DOUBLE_ARRAY -> Optional.of(types.getArrayType(types.getPrimitiveType(TypeKind.DOUBLE)));
      case INT_ARRAY -> Optional.of(types.getArrayType(types.getPrimitiveType(TypeKind.INT)));
      case FLOAT_ARRAY ->
          Optional.of(types.getArrayType(types.getPrimitiveType(TypeKind.FLOAT)));
      case DOUBLE_MATRIX -> Optional.of(types.getArrayType(
          types.getArrayType(types.getPrimitiveType(TypeKind.DOUBLE))));
      case STRING, OBJECT -> referenceTypeOf(operand);
      case VOID -> Optional.empty();
    };
  }

  /** The Java types of arguments; empty when one has none (a {@code void} call's). */
  Optional<List<TypeMirror>> javaTypesOf(List<Operand> operands) {
    List<TypeMirror> mirrors = new ArrayList<>();
    for (Operand operand : operands) {
      Optional<TypeMirror> mirror = javaTypeOf(operand);
      if (mirror.isEmpty()) {
        return Optional.empty();
      }
      mirrors.add(mirror.get());
    }
    return Optional.of(mirrors);
  }

  /**
   * A constant of a reference type, as generated code writes it ({@code F.Mode.LINEAR},
   * {@code F.NAMES}), with its Java type.
   */
  Operand.Constant referenceConstant(String text, TypeMirror mirror) {
    Operand.Constant constant = new Operand.Constant(ad4j.processor.ir.Expr.atom(text),
        referenceKind(mirror), java.util.OptionalDouble.empty());
    constantTypes.put(constant, mirror);
    return constant;
  }

  /**
   * Whether record {@code record} declares a constructor that may change its components (any
   * but a compact one that only checks them, {@link #checksOnly}), or holds a value record
   * that does: its code would run again, on the components, where generated code makes the
   * record of its leaves ({@code new W(new V(a, b), c)}), and change them.
   */
  boolean changesComponents(TypeElement record) {
    return componentChanger(record).isPresent();
  }

  /**
   * The record whose constructor would change the components of {@code record} made again of
   * its leaves ({@link #changesComponents}): {@code record} itself, or a value record it holds.
   */
  Optional<TypeElement> componentChanger(TypeElement record) {
    if (trees.getPath(record) == null) {
      // a class file does not tell a compact constructor that changes the components from one
      // javac wrote
      return Optional.of(record);
    }
    if (ValueClasses.isValueClass(record)) {
      // its constructor copies its arguments into the fields, unchanged
      return componentChangerAmongComponents(record);
    }
    for (javax.lang.model.element.ExecutableElement constructor :
        javax.lang.model.util.ElementFilter.constructorsIn(record.getEnclosedElements())) {
      if (trees.getPath(constructor) != null
          && elements.getOrigin(constructor) == javax.lang.model.util.Elements.Origin.EXPLICIT
          && !checksOnly(constructor)) {
        return Optional.of(record);
      }
    }
    return componentChangerAmongComponents(record);
  }

  /**
   * Whether making {@code record} runs code of its own: a constructor written in it (a compact
   * one that only checks the components too), or in a value record it holds; a value class's,
   * or a record compiled without its source here. Generated code that makes such a record again
   * of leaves that are no record's (zeros for a null record: {@link ObjectRecordArguments})
   * would run its checks on them, where the method made no record.
   */
  boolean runsCodeWhenMade(TypeElement record) {
    if (trees.getPath(record) == null || ValueClasses.isValueClass(record)) {
      return true;
    }
    for (javax.lang.model.element.ExecutableElement constructor :
        javax.lang.model.util.ElementFilter.constructorsIn(record.getEnclosedElements())) {
      if (elements.getOrigin(constructor) == javax.lang.model.util.Elements.Origin.EXPLICIT) {
        return true;
      }
    }
    return ValueRecords.components(record).stream().anyMatch(component ->
        ValueRecords.valueRecord(component.type()).map(this::runsCodeWhenMade).orElse(false));
  }

  private Optional<TypeElement> componentChangerAmongComponents(TypeElement record) {
    for (ValueRecords.Component component : ValueRecords.components(record)) {
      Optional<TypeElement> changer = ValueRecords.valueRecord(component.type())
          .flatMap(this::componentChanger);
      if (changer.isPresent()) {
        return changer;
      }
    }
    return Optional.empty();
  }

  /**
   * How messages name the constructor {@link #componentChanger} found for {@code record}:
   * {@code whose constructor changes its components}, {@code which holds value record 'V',
   * whose constructor changes its components}, or one compiled without its source.
   */
  String changerText(TypeElement record) {
    TypeElement changer = componentChanger(record).orElse(record);
    String constructor = trees.getPath(changer) == null
        ? "whose constructor, compiled without its source here, may change its components"
        : "whose constructor changes its components";
    return changer.equals(record) ? constructor
        : "which holds value record '" + changer.getSimpleName() + "', " + constructor;
  }

  /**
   * The tree of {@code constructor} when it is a compact canonical constructor of a file of
   * this compilation ({@code V { ... }}: it cannot set the fields itself, and its parameters are
   * the components, assigned to the fields after its body); empty for any other.
   */
  Optional<com.sun.source.tree.MethodTree> compact(
      javax.lang.model.element.ExecutableElement constructor) {
    com.sun.source.util.TreePath path = trees.getPath(constructor);
    if (path == null || !(path.getLeaf() instanceof com.sun.source.tree.MethodTree tree)
        || tree.getBody() == null) {
      return Optional.empty();
    }
    adopt(tree, path.getCompilationUnit());
    // compact: no parameter list written ('V {')
    String text = source().of(tree);
    int body = text.indexOf('{');
    if (body < 0 || text.substring(0, body).indexOf('(') >= 0) {
      return Optional.empty();
    }
    return Optional.of(tree);
  }

  /**
   * Whether {@code constructor} is a compact canonical constructor, in a file of this
   * compilation, that leaves the components as given (it assigns none of them): its checks may
   * run as written, and the record's components are its arguments.
   */
  boolean checksOnly(javax.lang.model.element.ExecutableElement constructor) {
    Optional<com.sun.source.tree.MethodTree> compact = compact(constructor);
    if (compact.isEmpty()) {
      return false;
    }
    com.sun.source.tree.MethodTree tree = compact.get();
    java.util.Set<String> components = new java.util.HashSet<>();
    constructor.getParameters().forEach(p -> components.add(p.getSimpleName().toString()));
    boolean[] assigns = {false};
    new com.sun.source.util.TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(com.sun.source.tree.AssignmentTree assignment,
          Void unused) {
        assigns[0] |= names(assignment.getVariable());
        return super.visitAssignment(assignment, unused);
      }

      @Override
      public Void visitCompoundAssignment(com.sun.source.tree.CompoundAssignmentTree assignment,
          Void unused) {
        assigns[0] |= names(assignment.getVariable());
        return super.visitCompoundAssignment(assignment, unused);
      }

      @Override
      public Void visitUnary(com.sun.source.tree.UnaryTree unary, Void unused) {
        boolean step = switch (unary.getKind()) {
          case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT -> true;
          default -> false;
        };
        assigns[0] |= step && names(unary.getExpression());
        return super.visitUnary(unary, unused);
      }

      private boolean names(com.sun.source.tree.ExpressionTree target) {
        return target instanceof com.sun.source.tree.IdentifierTree identifier
            && components.contains(identifier.getName().toString());
      }
    }.scan(tree.getBody(), null);
    return !assigns[0];
  }

  /** The Java type of an operand of a reference type ({@code String} or an object). */
  Optional<TypeMirror> referenceTypeOf(Operand operand) {
    if (operand.type() == NumericType.STRING) {
      return Optional.of(elements.getTypeElement("java.lang.String").asType());
    }
    if (operand instanceof Operand.Use use && use.value().referenceType() != null) {
      return Optional.of(use.value().referenceType());
    }
    return Optional.ofNullable(constantTypes.get(operand));
  }

  /** {@code String} for {@code java.lang.String}, else an object. */
  NumericType referenceKind(TypeMirror mirror) {
    return mirror.getKind() != TypeKind.NULL && isString(mirror)
        ? NumericType.STRING : NumericType.OBJECT;
  }

  boolean isString(TypeMirror mirror) {
    TypeElement string = elements.getTypeElement("java.lang.String");
    return string != null && types.isSameType(mirror, string.asType());
  }

  /**
   * The IR type of a value of Java type {@code mirror}: a primitive ad4j computes with, one of
   * its array types, {@code String}, or an object; empty for {@code char}, {@code short},
   * {@code byte} and type variables.
   */
  Optional<NumericType> irType(TypeMirror mirror) {
    switch (mirror.getKind()) {
      case DECLARED -> {
        return Optional.of(referenceKind(mirror));
      }
      case ARRAY -> {
        javax.lang.model.type.TypeMirror component =
            ((javax.lang.model.type.ArrayType) mirror).getComponentType();
        if (component.getKind() == TypeKind.DOUBLE) {
          return Optional.of(NumericType.DOUBLE_ARRAY);
        }
        if (component.getKind() == TypeKind.INT) {
          return Optional.of(NumericType.INT_ARRAY);
        }
        if (component.getKind() == TypeKind.FLOAT) {
          return Optional.of(NumericType.FLOAT_ARRAY);
        }
        if (component.getKind() == TypeKind.ARRAY && ((javax.lang.model.type.ArrayType) component)
            .getComponentType().getKind() == TypeKind.DOUBLE) {
          return Optional.of(NumericType.DOUBLE_MATRIX);
        }
        return javaText(mirror).isPresent() ? Optional.of(NumericType.OBJECT) : Optional.empty();
      }
      case VOID -> {
        return Optional.of(NumericType.VOID);
      }
      case FLOAT -> {
        return Optional.of(NumericType.FLOAT);
      }
      default -> {
        return variableType(mirror.getKind());
      }
    }
  }

  /**
   * How generated code in the user's package writes the type {@code mirror}: classes by the
   * names {@link #referenceTo} gives, with their type arguments; arrays of any rank. Empty for
   * what it cannot write (type variables, wildcards, intersections).
   */
  Optional<String> javaText(TypeMirror mirror) {
    switch (mirror.getKind()) {
      case ARRAY -> {
        return javaText(((javax.lang.model.type.ArrayType) mirror).getComponentType())
            .map(component -> component + "[]");
      }
      case DECLARED -> {
        javax.lang.model.type.DeclaredType declared =
            (javax.lang.model.type.DeclaredType) mirror;
        if (reachability.ofType((TypeElement) declared.asElement()).isPresent()) {
          return Optional.empty();
        }
        StringBuilder text =
            new StringBuilder(referenceTo((TypeElement) declared.asElement()));
        if (!declared.getTypeArguments().isEmpty()) {
          List<String> arguments = new ArrayList<>();
          for (TypeMirror argument : declared.getTypeArguments()) {
            Optional<String> argumentText = javaText(argument);
            if (argumentText.isEmpty()) {
              return Optional.empty();
            }
            arguments.add(argumentText.get());
          }
          text.append('<').append(String.join(", ", arguments)).append('>');
        }
        return Optional.of(text.toString());
      }
      case WILDCARD -> {
        javax.lang.model.type.WildcardType wildcard = (javax.lang.model.type.WildcardType) mirror;
        if (wildcard.getExtendsBound() != null) {
          return javaText(wildcard.getExtendsBound()).map(bound -> "? extends " + bound);
        }
        if (wildcard.getSuperBound() != null) {
          return javaText(wildcard.getSuperBound()).map(bound -> "? super " + bound);
        }
        return Optional.of("?");
      }
      default -> {
        return mirror.getKind().isPrimitive()
            ? Optional.of(mirror.toString()) : Optional.empty();
      }
    }
  }

  /**
   * The Java type a declaration's type tree names: a primitive, an array, a class (raw when
   * written without type arguments) or a parameterized class; empty when it cannot be resolved
   * (or has wildcards).
   */
  Optional<TypeMirror> typeMirrorOf(Tree tree) {
    if (tree instanceof PrimitiveTypeTree primitive) {
      return Optional.of(types.getPrimitiveType(primitive.getPrimitiveTypeKind()));
    }
    if (tree instanceof com.sun.source.tree.ArrayTypeTree array) {
      return typeMirrorOf(array.getType()).map(types::getArrayType);
    }
    if (tree instanceof com.sun.source.tree.ParameterizedTypeTree parameterized) {
      Optional<TypeElement> raw = parameterized.getType() instanceof
          com.sun.source.tree.ExpressionTree name ? symbols.resolveType(name) : Optional.empty();
      if (raw.isEmpty()) {
        return Optional.empty();
      }
      List<TypeMirror> arguments = new ArrayList<>();
      for (Tree argument : parameterized.getTypeArguments()) {
        Optional<TypeMirror> mirror = typeMirrorOf(argument);
        if (mirror.isEmpty() || mirror.get().getKind().isPrimitive()) {
          return Optional.empty();
        }
        arguments.add(mirror.get());
      }
      if (arguments.size() != raw.get().getTypeParameters().size()) {
        return Optional.empty();
      }
      return Optional.of(types.getDeclaredType(raw.get(), arguments.toArray(TypeMirror[]::new)));
    }
    if (tree instanceof com.sun.source.tree.ExpressionTree name && Symbols.isName(name)) {
      return symbols.resolveType(name).map(type -> types.erasure(type.asType()));
    }
    return Optional.empty();
  }

  /** Why generated code cannot name the type {@code mirror}, when {@link #javaText} is empty. */
  String typeProblem(TypeMirror mirror) {
    switch (mirror.getKind()) {
      case ARRAY -> {
        return typeProblem(((javax.lang.model.type.ArrayType) mirror).getComponentType());
      }
      case DECLARED -> {
        javax.lang.model.type.DeclaredType declared =
            (javax.lang.model.type.DeclaredType) mirror;
        Optional<String> unreachable =
            reachability.ofType((TypeElement) declared.asElement());
        if (unreachable.isPresent()) {
          return unreachable.get();
        }
        for (TypeMirror argument : declared.getTypeArguments()) {
          if (javaText(argument).isEmpty()) {
            return typeProblem(argument);
          }
        }
        return "it cannot be named";
      }
      default -> {
        return "'" + mirror + "' is not a type generated code can declare (a type variable or"
            + " a wildcard)";
      }
    }
  }

  /**
   * What a call of {@code type} reported as not differentiable stands for: an error is
   * reported already, so this IR is never emitted; a value that carries a derivative, as the
   * call's result would once the call is made differentiable, lets the calls and uses it
   * reaches be checked for errors of their own ({@code g(h(x))} reports {@code g} as well).
   */
  Operand notDifferentiableResult(NumericType type) {
    return new Operand.Use(ir.temporary(type, true));
  }

  /** The current value of a local, or null after reporting that it has none. */
  Operand read(LocalScopes.Local local, Tree use) {
    if (local.isBroken()) {
      // an error is reported already, so this IR is never emitted: a stand-in of the local's
      // type lets the uses be checked for errors of their own
      return local.hasKnownType()
          ? new Operand.Use(ir.temporary(local.type(), local.type().isFloatingPoint()))
          : null;
    }
    if (local.variable() != null) {
      return new Operand.Use(readVariable(local.variable()));
    }
    if (local.value() == null) {
      diagnostics.error(use, "variable '" + local.name() + "' might not have been initialized");
      return null;
    }
    return new Operand.Use(local.value());
  }

  /** Copies a variable's current value into a new value. */
  Value readVariable(Variable variable) {
    Value earlier = ir.lastRead(variable);
    if (earlier != null) {
      return earlier;
    }
    Value copy = ir.local(variable.name(), variable.type(), variable.isActive());
    dependences.made(copy, lowering);
    if (foreignArrayVariables.contains(variable)) {
      foreignArrays.add(copy);
    }
    if (variable.referenceType() != null) {
      copy.declareAs(variable.referenceType(), variable.javaType());
    }
    ir.add(new Instruction(copy, Operation.COPY, List.of(new Operand.Read(variable)), line));
    ir.rememberRead(variable, copy);
    return copy;
  }

  /** Makes {@code local} hold {@code value} from now on. */
  void bind(LocalScopes.Local local, Operand value) {
    if (local.isBroken()) {
      return;
    }
    if (local.variable() != null) {
      if (isForeignArray(value)) {
        foreignArrayVariables.add(local.variable());
      }
      ir.add(new Store(local.variable(), value, line));
      return;
    }
    boolean fresh = value instanceof Operand.Use use
        && use.value().origin() == Value.Origin.TEMPORARY && use.value().id() >= statementStart;
    if (value instanceof Operand.Use use && (fresh || !retyped(local, use.value()))) {
      Value defined = use.value();
      if (fresh) {
        defined.nameAsLocal(local.name());
        if (local.referenceType() != null && defined.type() == NumericType.OBJECT) {
          defined.declareAs(local.referenceType(), local.javaType()); // as the user declared it
        }
      }
      local.hold(defined);
    } else {
      Value copy = ir.local(local.name(), local.type(), false);
      if (local.referenceType() != null) {
        copy.declareAs(local.referenceType(), local.javaType());
      }
      ir.add(new Instruction(copy, Operation.COPY, List.of(value), line));
      if (isForeignArray(value)) {
        foreignArrays.add(copy);
      }
      local.hold(copy);
    }
  }

  /**
   * Whether {@code array} is an array this method did not make and reaches as written (a
   * field's, an object's, one a call run as written returns, a {@code static final} table): it
   * carries no derivative, and writing into it changes state outside the method.
   */
  boolean isForeignArray(Operand array) {
    if (array instanceof Operand.Constant constant) {
      return constant.type().isArray();
    }
    return array instanceof Operand.Use use && foreignArrays.contains(use.value());
  }

  /**
   * Whether an object local takes a value of another declared type ({@code Distribution d = n}
   * of a {@code Normal n}): it gets a copy of its own type, as calls on it see that type.
   */
  private boolean retyped(LocalScopes.Local local, Value value) {
    return local.referenceType() != null && value.type() == NumericType.OBJECT
        && (value.referenceType() == null
            || !types.isSameType(value.referenceType(), local.referenceType()));
  }

  /** Whether {@code element} is in this compilation's sources, where the user can annotate it. */
  boolean isCompiledFromSource(javax.lang.model.element.Element element) {
    return trees.getPath(element) != null;
  }

  boolean isUncheckedException(TypeElement type) {
    TypeElement runtime = elements.getTypeElement("java.lang.RuntimeException");
    TypeMirror mirror = types.erasure(type.asType());
    return runtime != null && types.isSubtype(mirror, types.erasure(runtime.asType()));
  }

  /**
   * Whether the generated class of {@code type} exists or will be written in this compilation:
   * ad4j writes it only for classes among javac's source files, not for those javac compiles
   * implicitly from the source path.
   */
  boolean hasGradClass(TypeElement type) {
    return hasGradClass.test(type);
  }

  /** What generated code, in another class of the user's package, can refer to. */
  Reachability reachability() {
    return reachability;
  }

  /**
   * The class generated code names to reach {@code member}, which the user's code reaches as a
   * member of {@code qualifier} (the class a name was looked up in, JLS 13.1: {@code Sub} in
   * {@code Sub.EPS}, or the enclosing class inheriting an unqualified {@code helper}): the
   * qualifier, where generated code can reach the member through it, else the class declaring
   * the member. Naming the qualifier keeps javac's choice (a field hidden in a subclass is not
   * the same as the inherited one) and reaches public members of classes generated code cannot
   * name, such as a package-private superclass of another package.
   */
  TypeElement qualifyingType(javax.lang.model.element.Element member, TypeElement qualifier) {
    TypeElement declaring = (TypeElement) member.getEnclosingElement();
    if (qualifier == null || qualifier.equals(declaring)) {
      return declaring;
    }
    return reachableThrough(member, qualifier) ? qualifier : declaring;
  }

  /**
   * Why generated code cannot use {@code member} as a member of {@code qualifier}
   * ({@link #qualifyingType}), if it cannot.
   */
  Optional<String> memberReachability(javax.lang.model.element.Element member,
      TypeElement qualifier) {
    TypeElement declaring = (TypeElement) member.getEnclosingElement();
    return qualifyingType(member, qualifier).equals(declaring)
        ? reachability.ofMember(member) : Optional.empty();
  }

  private boolean reachableThrough(javax.lang.model.element.Element member, TypeElement via) {
    if (reachability.ofType(via).isPresent()
        || member.getModifiers().contains(Modifier.PRIVATE)) {
      return false;
    }
    // protected and package-private members are accessible in generated code only from their
    // own package, which generated code is in only when the user's class is
    return member.getModifiers().contains(Modifier.PUBLIC)
        || elements.getPackageOf(member).getQualifiedName()
            .contentEquals(ownSymbols.packageName());
  }

  /**
   * How generated code in the user's package names {@code type}; remembered as used. The
   * package is the method's own class's, also while code of another package is lowered (a
   * method taking a function inlined from there).
   */
  String referenceTo(TypeElement type) {
    String qualified = type.getQualifiedName().toString();
    String pkg = elements.getPackageOf(type).getQualifiedName().toString();
    String relative = qualified;
    if (pkg.equals(ownSymbols.packageName()) && !pkg.isEmpty()) {
      relative = qualified.substring(pkg.length() + 1);
    } else if (pkg.equals("java.lang")
        && !ownSymbols.packageShadows(type.getSimpleName().toString())) {
      // java.lang's name, unless a class of the user's package hides it
      relative = qualified.substring("java.lang.".length());
    }
    int dot = relative.indexOf('.');
    referencedTypeNames.add(dot < 0 ? relative : relative.substring(0, dot));
    return relative;
  }

  /** The type of a declared local or parameter, if ad4j supports it. */
  /** Lowering enters the condition and body of a loop. */
  void enterLoop() {
    enclosingLoops.push(++loopsEntered);
  }

  /** Lowering leaves a loop. */
  void leaveLoop() {
    enclosingLoops.pop();
  }

  /** The loops around what is being lowered, each by the number of loops entered before it. */
  List<Integer> enclosingLoops() {
    return List.copyOf(enclosingLoops);
  }

  /** Whether {@code value} is an object or a string computed inside a loop. */
  boolean isMadeInALoop(Value value) {
    return objectsMadeInLoops.contains(value) || arraysMadeInLoops.contains(value);
  }

  /** Whether what is being lowered runs once per iteration of some loop. */
  boolean insideLoop() {
    return !enclosingLoops.isEmpty();
  }

  /**
   * Records a local class of the method, reported at its declaration: its uses, which ad4j
   * cannot resolve, add no errors ({@link #isLocalClass}).
   */
  void declareLocalClass(String name) {
    localClasses.add(name);
  }

  /** Whether {@code type} names a local class of the method ({@link #declareLocalClass}). */
  boolean isLocalClass(Tree type) {
    Tree named = type instanceof com.sun.source.tree.ParameterizedTypeTree parameterized
        ? parameterized.getType() : type;
    return named instanceof com.sun.source.tree.IdentifierTree identifier
        && localClasses.contains(identifier.getName().toString());
  }

  /** Marks an array the method must not write into (a parameter, a row of one). */
  void markReadOnly(Value array) {
    readOnlyArrays.add(array);
  }

  /** Whether {@code array} is a parameter or a row of one, which the method must not write. */
  boolean isReadOnly(Value array) {
    return readOnlyArrays.contains(array);
  }

  static Optional<NumericType> typeOf(Tree type) {
    if (type instanceof com.sun.source.tree.ArrayTypeTree array) {
      Tree element = array.getType();
      if (element instanceof com.sun.source.tree.ArrayTypeTree inner
          && inner.getType() instanceof PrimitiveTypeTree primitive
          && primitive.getPrimitiveTypeKind() == TypeKind.DOUBLE) {
        return Optional.of(NumericType.DOUBLE_MATRIX);
      }
      if (element instanceof PrimitiveTypeTree primitive) {
        return switch (primitive.getPrimitiveTypeKind()) {
          case DOUBLE -> Optional.of(NumericType.DOUBLE_ARRAY);
          case INT -> Optional.of(NumericType.INT_ARRAY);
          case FLOAT -> Optional.of(NumericType.FLOAT_ARRAY);
          default -> Optional.empty();
        };
      }
      return Optional.empty();
    }
    if (type instanceof PrimitiveTypeTree primitive) {
      // a float local computes in float and carries a derivative
      return primitive.getPrimitiveTypeKind() == TypeKind.FLOAT
          ? Optional.of(NumericType.FLOAT) : variableType(primitive.getPrimitiveTypeKind());
    }
    return Optional.empty();
  }

  /**
   * The type of a local or parameter of this kind, if ad4j supports it: {@code double},
   * {@code int}, {@code long} and {@code boolean}.
   */
  static Optional<NumericType> variableType(TypeKind kind) {
    return switch (kind) {
      case DOUBLE -> Optional.of(NumericType.DOUBLE);
      case INT -> Optional.of(NumericType.INT);
      case LONG -> Optional.of(NumericType.LONG);
      case BOOLEAN -> Optional.of(NumericType.BOOLEAN);
      default -> Optional.empty();
    };
  }
}
