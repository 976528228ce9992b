package ad4j.processor.front;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.Trees;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * What the statement and expression lowering share for one method: the IR being built, the
 * scopes, the source, the diagnostics, and the statement being lowered. Where names resolve is
 * {@link NameResolution}'s, what lowering learns of the method's arrays {@link MethodArrays}',
 * the loops around and what is made in them {@link EnclosingLoops}', which locals are mutable
 * variables {@link MutableVariables}'.
 */
final class LoweringContext {
  private final Elements elements;
  private final ClassFiles classFiles;
  private final Types types;
  private final Trees trees;
  private final NameResolution resolution;
  private final Reachability reachability;
  private final SourceText source;
  private final Diagnostics diagnostics;
  private final IrBuilder ir = new IrBuilder();
  private final LocalScopes scopes = new LocalScopes();
  private final MutableVariables variables;
  private final Set<MathOwner> shadowedOwners = EnumSet.noneOf(MathOwner.class);
  private final Set<String> referencedTypeNames = new LinkedHashSet<>();
  private SourceLine line;
  /** The innermost statement or expression being lowered: where new values are made. */
  private Tree lowering;
  private final LaunderedDependence dependences;
  /** The {@code order} of the method's {@code @Differentiable}: 1, or 2 for Hessians. */
  private int order = 1;
  /** The method's name, for messages. */
  private String methodName = "";
  private int statementStart;
  /** See {@link #bindingDepth}. */
  private int bindingDepth = 1;
  private final EnclosingLoops loops = new EnclosingLoops();
  /** The names of local classes declared in the method, each an error at its declaration. */
  private final Set<String> localClasses = new java.util.HashSet<>();

  private final CompilationUnitTree unit;
  private final JavaTypes javaTypes;
  private final RecordConstructors recordConstructors;
  private final NotedCalls notedCalls;
  private final FlatRecords flatRecords;
  private final CalleeServices calleeServices;
  private final MethodArrays arrays = new MethodArrays();

  LoweringContext(Elements elements, Types types, Trees trees, CompilationUnitTree unit,
      TypeElement enclosingType, Diagnostics diagnostics, Set<String> variableNames,
      Predicate<TypeElement> hasGradClass, ClassFiles classFiles) {
    this.elements = elements;
    this.classFiles = classFiles;
    this.types = types;
    this.trees = trees;
    this.unit = unit;
    this.resolution = new NameResolution(elements, types, trees, unit, enclosingType,
        diagnostics, scopes);
    Symbols symbols = resolution.symbols();
    this.reachability = new Reachability(elements, types, trees, symbols.packageName());
    this.source = new SourceText(trees, unit, diagnostics::unitOf);
    this.dependences = new LaunderedDependence(source);
    this.diagnostics = diagnostics;
    this.variables = new MutableVariables(variableNames);
    for (MathOwner owner : MathOwner.values()) {
      if (!owner.isImplicitlyImported() || symbols.packageShadows(owner.simpleName())) {
        shadowedOwners.add(owner);
      }
    }
    this.javaTypes = new JavaTypes(this, elements, types, reachability,
        resolution.ownSymbols(), referencedTypeNames);
    this.recordConstructors = new RecordConstructors(this, elements, trees);
    this.notedCalls = new NotedCalls(this);
    this.flatRecords = new FlatRecords(this);
    this.calleeServices = new CalleeServices(elements, types, trees, hasGradClass, classFiles);
  }

  /** The Java types of values and type trees, and how generated code names types. */
  JavaTypes javaTypes() {
    return javaTypes;
  }

  /** Whether making a value record runs code of its own, which may change its components. */
  RecordConstructors recordConstructors() {
    return recordConstructors;
  }

  /** The calls of the method's code that its generated class, callers and plan must know. */
  NotedCalls notedCalls() {
    return notedCalls;
  }

  /** Where flattened value records' leaves go across the method's boundary and its calls. */
  FlatRecords flatRecords() {
    return flatRecords;
  }

  /** What lowering consults about the methods calls reach and the classes they are in. */
  CalleeServices calleeServices() {
    return calleeServices;
  }

  /** What lowering has learnt of the method's arrays: made, written, foreign, read-only. */
  MethodArrays arrays() {
    return arrays;
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

  /** The private static fields the generated class copies for this method, by copy name. */
  private final Map<String, PrivateFields.Copy> privateFieldCopies =
      new java.util.LinkedHashMap<>();

  void copiesPrivateField(PrivateFields.Copy copy) {
    privateFieldCopies.putIfAbsent(copy.copy(), copy);
  }

  List<PrivateFields.Copy> privateFieldCopies() {
    return List.copyOf(privateFieldCopies.values());
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

  /** The class files of the types this compilation has without their source. */
  ClassFiles classFiles() {
    return classFiles;
  }

  Elements elements() {
    return elements;
  }

  /**
   * How names resolve where lowering is now: in the method's class, or in the class whose code
   * is lowered in its place ({@link NameResolution}).
   */
  Symbols symbols() {
    return resolution.symbols();
  }

  /** Where names resolve, and in which class's code lowering is. */
  NameResolution resolution() {
    return resolution;
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

  /** Starts lowering {@code expression}; returns what to give {@link #leaveExpression}. */
  Tree enterExpression(Tree expression) {
    Tree outer = lowering;
    lowering = expression;
    return outer;
  }

  /** The expression (or statement) being lowered now. */
  Tree lowering() {
    return lowering;
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

  /** Which locals are mutable variables, and where the declarations lowering makes go. */
  MutableVariables variables() {
    return variables;
  }

  /** Starts lowering a user statement: its line for comments, and a mark for new values. */
  void startStatement(Tree statement) {
    line = new SourceLine(source.line(statement), source.forComment(statement));
    lowering = statement;
    statementStart = ir.nextValueId();
    bindingDepth = ir.depth();
  }

  /**
   * The depth of the IR block ({@link IrBuilder#depth}) where the statement being lowered
   * stands, or the code of a lambda: where a pattern's variable is declared when the test is
   * lowered in a nested block ({@code a > 0 && o instanceof Circle c}), so that it is in scope
   * where Java puts it (the statement's branch, the rest of the block).
   */
  int bindingDepth() {
    return bindingDepth;
  }

  /** The code lowered from now on declares patterns' variables in the block open now. */
  void bindingsStartHere() {
    bindingDepth = ir.depth();
  }

  /** The code lowered from now on declares patterns' variables at {@code depth}. */
  void bindingsStartAt(int depth) {
    bindingDepth = depth;
  }

  /** Where lowering is: the statement, its line and its first new value. */
  record Position(SourceLine line, Tree lowering, int statementStart, int bindingDepth) {}

  /** Where lowering is now, to {@link #resume} after lowering code written elsewhere. */
  Position position() {
    return new Position(line, lowering, statementStart, bindingDepth);
  }

  /** Goes on lowering where {@link #position} was taken. */
  void resume(Position position) {
    line = position.line();
    lowering = position.lowering();
    statementStart = position.statementStart();
    bindingDepth = position.bindingDepth();
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
    arrays.emitted(result, operation, arguments);
    if (type.isReference() || operation.form().makesArray()
        || type.isArray() && operation.form().callsDifferentiated()) {
      loops.made(result); // a new one per iteration of a loop around
    }
    return new Operand.Use(result);
  }

  /**
   * Appends {@code result = operation(arguments)} whose result has the reference type
   * {@code mirror} (an object, or a {@code String}), and returns a use of the result; empty
   * when generated code cannot name the type.
   */
  Optional<Operand> emitReference(Operation operation, List<Operand> arguments,
      TypeMirror mirror) {
    NumericType type = javaTypes.referenceKind(mirror);
    Optional<String> text = type == NumericType.OBJECT ? javaTypes.javaText(mirror)
        : Optional.of("");
    if (text.isEmpty()) {
      return Optional.empty();
    }
    Value result = ir.temporary(type, false);
    dependences.made(result, lowering);
    if (type == NumericType.OBJECT) {
      result.declareAs(mirror, text.get());
    }
    loops.made(result);
    ir.add(new Instruction(result, operation, arguments, line));
    return Optional.of(new Operand.Use(result));
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
      // type (a box's or an object's class too) lets the uses be checked for errors of their own
      if (!local.hasKnownType()) {
        return null;
      }
      Value standIn = ir.temporary(local.type(), local.type().isFloatingPoint());
      if (local.referenceType() != null) {
        standIn.declareAs(local.referenceType(), local.javaType());
      }
      return new Operand.Use(standIn);
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
    arrays.read(variable, copy);
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
      arrays.stored(local.variable(), value);
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
      arrays.copied(value, copy);
      local.hold(copy);
    }
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

  /** What generated code, in another class of the user's package, can refer to. */
  Reachability reachability() {
    return reachability;
  }

  /** The loops around what is being lowered, and what is made inside loops. */
  EnclosingLoops loops() {
    return loops;
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
}
