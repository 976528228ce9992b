package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import com.sun.source.tree.PrimitiveTypeTree;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The front end: lowers the body of a {@code @Differentiable} method from javac's syntax trees to
 * the structured IR, resolving names as Java does and recording an error at each construct it
 * cannot differentiate. Lowering goes on after an error so that all errors of a method are
 * reported together. Expressions are lowered by {@link ExpressionLowering}.
 *
 * <p>Multi-level exits are made single-level here, so that every loop completes normally: a
 * {@code return} inside a loop, or a {@code break} or {@code continue} of an outer loop, sets a
 * flag and breaks out of the innermost loop; after each loop the flag is tested and the exit
 * continues outwards. The reverse sweep then only meets loops that end by their own test or
 * {@code break}, and branches.
 */
public final class Lowering {

  /** A loop being lowered: the target of {@code break} and {@code continue}. */
  private static final class LoopFrame {
    final int id;
    final String label;
    final LoopFrame outer;
    /** Exits pending at this loop's end: flags set by jumps to loops further out, or returns. */
    final Set<Exit> exits = new LinkedHashSet<>();
    /**
     * Whether a {@code break} of the user's targets this loop. The breaks that lowering adds for
     * returns and multi-level exits do not count: a {@code for (;;)} left only by
     * {@code return} cannot complete normally, as Java sees it.
     */
    boolean broken;

    LoopFrame(int id, String label, LoopFrame outer) {
      this.id = id;
      this.label = label;
      this.outer = outer;
    }
  }

  /**
   * A jump that leaves more than the innermost loop. {@code target} is null for a return.
   */
  private record Exit(Variable flag, Jump.Kind kind, LoopFrame target) {}

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final SwitchLowering switches;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  private final ArrayCopies arrays;
  private LoopFrame loop;
  /** {@code double}, or {@code double[]} for a vector function. */
  private NumericType resultType = NumericType.DOUBLE;
  /** The value record the method returns, if it returns one: its leaves, as a {@code double[]}. */
  private TypeElement resultRecord;
  /** The method body's last statement: where a vector function returns. */
  private StatementTree lastStatement;
  private Variable returning;
  private Variable returnValue;
  private String pendingLabel;

  private Lowering(LoweringContext context) {
    this.context = context;
    this.expressions = new ExpressionLowering(context);
    this.switches = new SwitchLowering(context, expressions,
        new SwitchLowering.StatementLowerer() {
          @Override
          public boolean lower(List<? extends StatementTree> statements) {
            return lowerStatements(statements);
          }

          @Override
          public void declareInLaterCase(VariableTree declaration) {
            Lowering.this.declareInLaterCase(declaration);
          }
        });
    expressions.useSwitches(switches);
    expressions.functions().useStatements(this::lowerStatements);
    expressions.streams().useLoops(this::countingLoop);
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
    this.arrays = new ArrayCopies(context, expressions,
        (test, body, step) -> lowerLoop(null, null, test, true, body, null, step),
        () -> methodBody);
  }

  /**
   * Lowers {@code method}, whose signature has been validated. Returns empty when an error was
   * recorded in {@code diagnostics}. {@code hasGradClass} tells whether the generated class of
   * a callee's class exists or will be written in this compilation.
   */
  public static Optional<Function> lower(Elements elements, Types types, Trees trees,
      CompilationUnitTree unit, ExecutableElement method, MethodTree tree,
      Diagnostics diagnostics, Predicate<TypeElement> hasGradClass) {
    return lower(elements, types, trees, unit, method, tree, diagnostics, hasGradClass,
        java.util.List.of());
  }

  /**
   * As {@link #lower(Elements, Types, Trees, CompilationUnitTree, ExecutableElement, MethodTree,
   * Diagnostics, Predicate)}; {@code ruleClasses} are the classes of this compilation that
   * declare {@code @DerivativeOf} rules, which every call sees.
   */
  public static Optional<Function> lower(Elements elements, Types types, Trees trees,
      CompilationUnitTree unit, ExecutableElement method, MethodTree tree,
      Diagnostics diagnostics, Predicate<TypeElement> hasGradClass,
      java.util.Collection<TypeElement> ruleClasses) {
    return lowerMethod(elements, types, trees, unit, method, tree, diagnostics, hasGradClass,
        ruleClasses).map(Lowered::function);
  }

  /**
   * Whether {@code method} takes a function (a parameter of a functional interface type): it is
   * differentiated at each call, for the function passed there, and has no generated members.
   */
  public static boolean takesFunction(ExecutableElement method, Elements elements) {
    return FunctionTypes.takesFunction(method, elements);
  }

  /**
   * A method lowered for its generated members: its IR, and the first call of its own code that
   * runs as written and may not run alike again ({@code "RNG.nextGaussian() (line 8)"}), which
   * the generated class records for callers compiled later; the private static fields it reads,
   * which the generated class copies ({@link PrivateFields}); where the leaves that carry no
   * derivative of the value record it returns come from ({@link ValueRecords.Carried}); the
   * calls of callees whose code its generated members must run once per call, which the plan
   * judges ({@link UnrepeatableCall}).
   */
  public record Lowered(Function function, Optional<String> callRunAsWritten,
      List<PrivateFields.Copy> privateFields, List<ValueRecords.FlatParameter> recordParameters,
      List<ValueRecords.Carried> carriedResult, List<UnrepeatableCall> unrepeatableCalls) {
    /**
     * The generated class records {@code callRunAsWritten} of its method {@code m} in a
     * constant {@code mCallRunAsWritten}: all that ad4j can see of it when it compiles callers
     * of {@code m} later, against the class file.
     */
    public static final String CONSTANT_SUFFIX = "CallRunAsWritten";

    /**
     * The generated class records {@code carriedResult} of its method {@code m}, which returns
     * a value record with components that carry no derivative, in a constant
     * {@code mCarriedResult} ({@link ValueRecords.Carried#encode}): for callers of {@code m}
     * compiled later, against the class file, which take those components from their arguments.
     */
    public static final String CARRIED_SUFFIX = "CarriedResult";
  }

  /**
   * As {@link #lower(Elements, Types, Trees, CompilationUnitTree, ExecutableElement, MethodTree,
   * Diagnostics, Predicate, java.util.Collection)}, with what the generated class records of it.
   */
  public static Optional<Lowered> lowerMethod(Elements elements, Types types, Trees trees,
      CompilationUnitTree unit, ExecutableElement method, MethodTree tree,
      Diagnostics diagnostics, Predicate<TypeElement> hasGradClass,
      java.util.Collection<TypeElement> ruleClasses) {
    TypeElement enclosingType = (TypeElement) method.getEnclosingElement();
    LoweringContext context = new LoweringContext(elements, types, trees, unit, enclosingType,
        diagnostics, VariablePlanner.plan(tree), hasGradClass);
    context.setRuleClasses(ruleClasses);
    context.setMethod(method.getSimpleName().toString(), DerivativeOrder.of(method));
    context.setElement(method, false);
    return lower(context, method, tree)
        .map(function -> new Lowered(function,
            context.firstCallRunAsWritten().map(LoweringContext.CallRunAsWritten::describe),
            context.privateFieldCopies(), context.flatParameters(),
            context.carriedResult(), context.unrepeatableCalls()));
  }

  /**
   * What {@code method}'s code calls: it is lowered as for its own generated members, its
   * errors left in {@code diagnostics} (they are reported where it is processed itself).
   */
  static Examined examine(Elements elements, Types types, Trees trees,
      CompilationUnitTree unit, ExecutableElement method, MethodTree tree,
      Diagnostics diagnostics, Predicate<TypeElement> hasGradClass) {
    TypeElement enclosingType = (TypeElement) method.getEnclosingElement();
    LoweringContext context = new LoweringContext(elements, types, trees, unit, enclosingType,
        diagnostics, VariablePlanner.plan(tree), hasGradClass);
    context.setMethod(method.getSimpleName().toString(), DerivativeOrder.of(method));
    context.setElement(method, true);
    Optional<Function> function = lower(context, method, tree);
    return new Examined(function, context.callees(), context.firstCallRunAsWritten(),
        context.firstStateRead(), context.carriedResult());
  }

  /**
   * A method lowered by {@link #examine}: its IR (empty after an error), the
   * {@code @Differentiable} methods it calls, the first call of its own code that runs as
   * written and not alike each time, and the first read of a static field that is not final
   * or of an object array's element; where the leaves that carry no derivative of the value
   * record it returns come from.
   */
  record Examined(Optional<Function> function, List<ExecutableElement> callees,
      Optional<LoweringContext.CallRunAsWritten> callRunAsWritten,
      Optional<ad4j.processor.ir.SourceLine> stateRead,
      List<ValueRecords.Carried> carriedResult) {}

  private static Optional<Function> lower(LoweringContext context, ExecutableElement method,
      MethodTree tree) {
    Lowering lowering = new Lowering(context);
    // double, float, double[] or float[] (MethodValidator)
    lowering.resultRecord = ValueRecords.valueRecord(method.getReturnType()).orElse(null);
    // a value record result is a vector function over its leaves (DESIGN.md, part 3)
    lowering.resultType = lowering.resultRecord != null ? NumericType.DOUBLE_ARRAY
        : context.irType(method.getReturnType()).orElse(NumericType.DOUBLE);
    lowering.lastStatement = tree.getBody() == null || tree.getBody().getStatements().isEmpty()
        ? null : tree.getBody().getStatements().get(tree.getBody().getStatements().size() - 1);
    return lowering.lowerMethod(tree, method);
  }

  /**
   * The names a record parameter's leaves may not take: the method's own, and earlier leaves'
   * ({@link RecordLowering#parameterLeafNames}).
   */
  private java.util.Set<String> namesTaken = java.util.Set.of();

  /** The body of the method being lowered, and the double-buffer swaps in it. */
  private Tree methodBody;
  private List<ArraySwaps> swaps = List.of();

  private Optional<Function> lowerMethod(MethodTree method, ExecutableElement element) {
    methodBody = method.getBody();
    swaps = ArraySwaps.in(method.getBody());
    context.swapsArrays(swaps);
    List<Value> parameters = new ArrayList<>();
    namesTaken = new java.util.HashSet<>(userNames(method));
    if (resultRecord != null) {
      Tree returnType = method.getReturnType() != null ? method.getReturnType() : method;
      expressions.records().checkAccessors(resultRecord, returnType,
          "the value record '" + method.getName() + "' returns");
      // generated members make the result again of its leaves, read through its accessors
      RecordAccessors.withoutSource(resultRecord, context.trees()).ifPresent(record ->
          diagnostics.error(returnType, "@Differentiable method '" + method.getName()
              + "' returns value record '" + resultRecord.getSimpleName() + "', which is"
              + (record.equals(resultRecord) ? "" : " made of '" + record.getSimpleName()
                  + "', which is") + " compiled without its source here: generated members"
              + " make the result again of what its accessors give, and ad4j cannot see"
              + " whether they return the values the record was made of; return its"
              + " components as a 'double[]', or compile the record's source with this class"));
    }
    if (Receivers.hasReceiver(element)) {
      declareReceiver(method, element, parameters);
    }
    for (int i = 0; i < method.getParameters().size(); i++) {
      VariableTree parameter = method.getParameters().get(i);
      String name = parameter.getName().toString();
      VariableElement parameterElement = element.getParameters().get(i);
      Optional<NumericType> declared = ActiveParameters.typeProblem(parameterElement).isPresent()
          ? Optional.empty() : context.irType(parameterElement.asType());
      Optional<String> text = declared.isPresent() && declared.get() == NumericType.OBJECT
          ? context.javaText(parameterElement.asType()) : Optional.of("");
      if (declared.isPresent() && text.isEmpty()) {
        diagnostics.error(parameter.getType(), "parameter '" + name + "' has type '"
            + parameterElement.asType() + "', which generated code cannot name: "
            + context.typeProblem(parameterElement.asType()));
      }
      if (declared.isEmpty() || text.isEmpty()) {
        // the signature's error is reported already; the body is checked all the same
        context.scopes().declareBroken(name);
        continue;
      }
      Optional<TypeElement> record = ValueRecords.valueRecord(parameterElement.asType())
          .filter(r -> !ActiveParameters.isMarkedNoDerivative(parameterElement));
      if (record.isPresent()) {
        // a value record: one active parameter per leaf, in place of the record
        expressions.records().checkAccessors(record.get(), parameter,
            "value record parameter '" + name + "'");
        expressions.records().declareParameter(name, record.get(),
            flatten(name, record.get(), parameterElement.asType(), parameters, parameter));
        continue;
      }
      NumericType type = declared.get();
      boolean active = ActiveParameters.isActive(parameterElement);
      Value value = ir.parameter(name, type, active, parameters.size());
      if (type == NumericType.OBJECT) {
        value.declareAs(parameterElement.asType(), text.get());
      }
      if (type.isArray()) {
        context.markReadOnly(value);
      }
      parameters.add(value);
      context.scopes().declareParameter(name, value, context);
    }
    List<StatementTree> body = List.copyOf(method.getBody().getStatements());
    boolean completes = lowerStatements(body);
    arrays.rejectChoicesWrittenLater();
    if (completes && !diagnostics.hasErrors()) {
      diagnostics.error(method, "method '" + method.getName()
          + "' can reach its end without a 'return'");
    }
    if (diagnostics.hasErrors()) {
      return Optional.empty();
    }
    Block whole = prepend(context.prologue(), ir.body());
    context.dependences().check(whole, diagnostics, !suppressesZeroDerivatives(element), method);
    if (diagnostics.hasErrors()) {
      return Optional.empty();
    }
    Block lowered = new ControlFlowNormalizer(ir).normalize(whole);
    int snapshots = CheckpointedLoops.snapshots(element, method, context.order(), lowered,
        context.source(), diagnostics);
    if (diagnostics.hasErrors()) {
      return Optional.empty();
    }
    List<String> userNames = new ArrayList<>(userNames(method));
    userNames.addAll(context.referencedTypeNames());
    // the leaves of record parameters: no generated name may take them either
    namesTaken.stream().filter(n -> !userNames.contains(n)).sorted().forEach(userNames::add);
    new StateReadAgain(context).check(element, method);
    if (diagnostics.hasErrors()) {
      return Optional.empty();
    }
    return Optional.of(new Function(method.getName().toString(), parameters, lowered, userNames,
        context.shadowedOwners(), snapshots, context.firstCallRunAsWritten().isPresent(),
        resultType));
  }

  /**
   * Whether {@code @SuppressWarnings("ad4j.zero-derivative")} on the method or a class around
   * it silences the warnings about integers that carry no derivative.
   */
  private static boolean suppressesZeroDerivatives(Element element) {
    for (Element at = element; at != null; at = at.getEnclosingElement()) {
      SuppressWarnings suppressed = at.getAnnotation(SuppressWarnings.class);
      if (suppressed != null
          && List.of(suppressed.value()).contains(LaunderedDependence.ZERO_DERIVATIVE)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The receiver of an instance method: the first parameter of every generated member, an
   * object that carries no derivative, which {@code this} (written or implied) names.
   */
  private void declareReceiver(MethodTree method, ExecutableElement element,
      List<Value> parameters) {
    TypeElement owner = (TypeElement) element.getEnclosingElement();
    javax.lang.model.type.TypeMirror type = owner.asType();
    if (Receivers.valueRecordReceiver(element).isPresent()) {
      // a value record's own method: its receiver carries derivatives, flattened, first
      expressions.records().checkAccessors(owner, method, "the receiver of '"
          + method.getName() + "'");
      expressions.records().enterOwnMethod(owner,
          flatten(Receivers.name(method, owner), owner, type, parameters, method));
      return;
    }
    Optional<String> text = context.javaText(type);
    if (text.isEmpty()) {
      diagnostics.error(method, "method '" + method.getName() + "' is an instance method of '"
          + owner.getSimpleName() + "', which generated code cannot name: "
          + context.typeProblem(type));
      context.scopes().declareBroken(Receivers.THIS);
      return;
    }
    Value receiver = ir.parameter(Receivers.name(method, owner), NumericType.OBJECT, false, 0);
    receiver.declareAs(type, text.get());
    parameters.add(receiver);
    context.scopes().declareParameter(Receivers.THIS, receiver, context);
  }

  /**
   * The leaves of value record parameter {@code name} (of {@code record}, declared as
   * {@code type}, at {@code declaration}) as parameters of their own, each of its leaf's type
   * (a {@code double} active), added to {@code parameters}; the members that take the record are
   * told of them.
   */
  private List<Value> flatten(String name, TypeElement record,
      javax.lang.model.type.TypeMirror type, List<Value> parameters, Tree declaration) {
    List<String> leafNames = RecordLowering.parameterLeafNames(name, record, namesTaken);
    List<ValueRecords.Leaf> types = ValueRecords.leaves(record);
    List<Value> leaves = new ArrayList<>();
    for (int i = 0; i < leafNames.size(); i++) {
      // a double or float carries a derivative, an int, long or boolean none
      Value value = ir.parameter(leafNames.get(i), types.get(i).type(), types.get(i).active(),
          parameters.size());
      if (types.get(i).type().isArray()) {
        context.markReadOnly(value); // as an array parameter is
      }
      if (types.get(i).type() == NumericType.OBJECT) {
        // a component that carries nothing, of an object type: passed along as declared
        javax.lang.model.type.TypeMirror declared = types.get(i).declared();
        Optional<String> text = context.javaText(declared);
        if (text.isEmpty()) {
          diagnostics.error(declaration, "component '"
              + String.join(".", types.get(i).path()) + "' of value record '"
              + record.getSimpleName() + "' has type '" + declared + "', which generated code"
              + " cannot name: " + context.typeProblem(declared));
        }
        value.declareAs(declared, text.orElse("Object"));
      }
      parameters.add(value);
      leaves.add(value);
    }
    context.flattensParameter(new ValueRecords.FlatParameter(name, type, leafNames,
        ValueRecords.leaves(record)));
    return leaves;
  }

  /** Every parameter and local name the user wrote; generated names must avoid them. */
  private static Set<String> userNames(MethodTree method) {
    Set<String> names = new LinkedHashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree variable, Void unused) {
        names.add(variable.getName().toString());
        return super.visitVariable(variable, unused);
      }
    }.scan(method, null);
    return names;
  }

  // ---- statements --------------------------------------------------------------------------

  /**
   * Lowers a statement list in the current block; returns whether its end is reachable, as
   * Java's rules for unreachable code decide.
   */
  private boolean lowerStatements(List<? extends StatementTree> statements) {
    boolean reachable = true;
    for (int i = 0; i < statements.size(); i++) {
      StatementTree statement = statements.get(i);
      if (!reachable) {
        diagnostics.error(statement, "unreachable statement");
        return false;
      }
      if (NullArrayDeclarations.assignedBeforeUse(statements, i)) {
        context.startStatement(statement);
        lowerDeclaration((VariableTree) statement, false); // as 'double[] a;'
        continue;
      }
      Optional<ArraySwaps> swap = ArraySwaps.at(statements, i);
      if (swap.isPresent() && swapsElements(swap.get(), statements.subList(i, i + 3))) {
        i += 2;
        continue;
      }
      reachable = lowerStatement(statement);
    }
    return reachable;
  }

  /**
   * Lowers the double-buffer swap {@code swap} (its three statements) as an exchange of the two
   * arrays' elements, which computes what Java's exchange of the arrays computes when the
   * method made both with {@code new} of the same length and no other variable names either;
   * otherwise an error at the swap. False, lowering nothing, when the two are not both array
   * variables kept bound to one array each: the statements are then lowered as written.
   */
  private boolean swapsElements(ArraySwaps swap, List<? extends StatementTree> statements) {
    LocalScopes.Local first = context.scopes().lookUp(swap.first());
    LocalScopes.Local second = context.scopes().lookUp(swap.second());
    if (first == null || second == null || first.isBroken() || second.isBroken()
        || !first.type().isArray() || first.type() != second.type()
        || first.variable() != null || second.variable() != null
        || context.needsVariable(swap.first()) || context.needsVariable(swap.second())
        || first.value() == null || second.value() == null) {
      return false;
    }
    context.startStatement(statements.get(1));
    Value a = first.value();
    Value b = second.value();
    String problem = null;
    if (first.type() != NumericType.DOUBLE_ARRAY && first.type() != NumericType.FLOAT_ARRAY) {
      problem = "ad4j exchanges the elements of 'double[]' and 'float[]' arrays only";
    } else if (context.lengthOfMadeArray(a).isEmpty()
        || context.lengthOfMadeArray(b).isEmpty()) {
      problem = "ad4j exchanges their elements instead, so both must be arrays the method makes"
          + " with 'new' (not parameters, rows, clones or results of calls)";
    } else if (!context.lengthOfMadeArray(a).equals(context.lengthOfMadeArray(b))) {
      problem = "ad4j exchanges their elements instead, so both must be made with the same"
          + " length ('new double[n]' with the same 'n', or the same number of elements)";
    } else if (!context.swappedArrays().contains(swap.first())
        || !context.swappedArrays().contains(swap.second())) {
      problem = "ad4j exchanges the elements of arrays of the method's own code only";
    } else {
      for (String name : List.of(swap.first(), swap.second())) {
        if (!ArraySwaps.onlyIndexed(methodBody, name, swaps)) {
          problem = "ad4j exchanges their elements instead, so '" + name + "' may only be"
              + " indexed, have its length read, be iterated or copied with System.arraycopy;"
              + " here it is also used otherwise (bound to another variable, passed to a"
              + " method or returned), which could name the array itself";
          break;
        }
      }
    }
    if (problem != null) {
      diagnostics.error(statements.get(1), "the swap of array variables '" + swap.first()
          + "' and '" + swap.second() + "' is not supported here: " + problem);
      return true;
    }
    NumericType element = first.type().elementType();
    Operand length = context.emit(Operation.LENGTH, List.of(new Operand.Use(a)),
        NumericType.INT, false);
    Operand arrayA = new Operand.Use(a);
    Operand arrayB = new Operand.Use(b);
    arrays.writeLoop(Operand.Constant.of(0), length, k -> {
      Operand fromFirst = context.emit(Operation.ELEMENT, List.of(arrayA, k), element,
          ArrayCopies.isActive(arrayA, element));
      Operand fromSecond = context.emit(Operation.ELEMENT, List.of(arrayB, k), element,
          ArrayCopies.isActive(arrayB, element));
      context.emit(Operation.STORE, List.of(arrayA, k, fromSecond), element,
          ArrayCopies.isActive(arrayA, element));
      return context.emit(Operation.STORE, List.of(arrayB, k, fromFirst), element,
          ArrayCopies.isActive(arrayB, element));
    });
    return true;
  }

  /** Lowers one statement; returns whether it can complete normally. */
  private boolean lowerStatement(StatementTree statement) {
    context.startStatement(statement);
    String label = pendingLabel;
    pendingLabel = null;
    switch (statement.getKind()) {
      case VARIABLE -> lowerDeclaration((VariableTree) statement);
      case EXPRESSION_STATEMENT ->
          lowerExpressionStatement(((ExpressionStatementTree) statement).getExpression());
      case BLOCK -> {
        context.scopes().push();
        boolean completes = lowerStatements(((BlockTree) statement).getStatements());
        context.scopes().pop();
        return completes;
      }
      case EMPTY_STATEMENT -> { }
      case RETURN -> {
        lowerReturn((ReturnTree) statement);
        return false;
      }
      case IF -> {
        return lowerIf((IfTree) statement);
      }
      case WHILE_LOOP -> {
        WhileLoopTree loopTree = (WhileLoopTree) statement;
        return lowerLoop(label, loopTree.getCondition(), true, loopTree.getStatement(),
            List.of());
      }
      case DO_WHILE_LOOP -> {
        DoWhileLoopTree loopTree = (DoWhileLoopTree) statement;
        return lowerLoop(label, loopTree.getCondition(), false, loopTree.getStatement(),
            List.of());
      }
      case FOR_LOOP -> {
        ForLoopTree loopTree = (ForLoopTree) statement;
        context.scopes().push();
        lowerStatements(loopTree.getInitializer());
        context.startStatement(statement);
        boolean completes = lowerLoop(label, loopTree.getCondition(), true,
            loopTree.getStatement(), loopTree.getUpdate());
        context.scopes().pop();
        return completes;
      }
      case LABELED_STATEMENT -> {
        LabeledStatementTree labeled = (LabeledStatementTree) statement;
        Tree.Kind kind = labeled.getStatement().getKind();
        if (kind != Tree.Kind.WHILE_LOOP && kind != Tree.Kind.DO_WHILE_LOOP
            && kind != Tree.Kind.FOR_LOOP) {
          unsupported(statement, "a label is supported only on a loop");
          return true;
        }
        pendingLabel = labeled.getLabel().toString();
        return lowerStatement(labeled.getStatement());
      }
      case BREAK -> {
        if (((BreakTree) statement).getLabel() == null && switches.breakLeavesSwitch()) {
          unsupported(statement, "'break' inside a 'switch' is supported only as the last"
              + " statement of a case");
          return false;
        }
        lowerJump(Jump.Kind.BREAK, ((BreakTree) statement).getLabel(), statement);
        return false;
      }
      case CONTINUE -> {
        lowerJump(Jump.Kind.CONTINUE, ((ContinueTree) statement).getLabel(), statement);
        return false;
      }
      case THROW -> {
        lowerThrow((ThrowTree) statement);
        return false;
      }
      case ENHANCED_FOR_LOOP -> {
        return lowerForEach(label, (EnhancedForLoopTree) statement);
      }
      case SWITCH -> {
        return switches.statement((SwitchTree) statement);
      }
      case YIELD -> unsupported(statement, "'yield' is supported only as the last statement of"
          + " a case of a 'switch' expression");
      case TRY -> unsupported(statement,
          "'try' statement is not supported: a differentiable method may throw unchecked"
              + " exceptions for argument checks, but not catch them");
      case SYNCHRONIZED -> unsupported(statement,
          "'synchronized' statement is not supported: a differentiable method reads no shared"
              + " state");
      case ASSERT -> lowerAssert((com.sun.source.tree.AssertTree) statement);
      case CLASS, INTERFACE, ENUM, RECORD -> {
        unsupported(statement,
            "local class declaration is not supported in a differentiable method");
        context.declareLocalClass(((com.sun.source.tree.ClassTree) statement).getSimpleName()
            .toString());
      }
      default -> unsupported(statement, ExpressionLowering.describe(statement)
          + " is not supported in a differentiable method");
    }
    return true;
  }

  private void lowerDeclaration(VariableTree declaration) {
    lowerDeclaration(declaration, true);
  }

  /**
   * Declares again, with no value, a local that an earlier group of statements of an old-style
   * switch declared: its scope is the rest of the switch block (JLS 6.3), so a later case may
   * assign and read it. Only a local of an explicit type that was declared without error.
   */
  void declareInLaterCase(VariableTree declaration) {
    lowerDeclaration(declaration, false);
  }

  private void lowerDeclaration(VariableTree declaration, boolean withInitializer) {
    String name = declaration.getName().toString();
    Tree type = declaration.getType();
    boolean inferred = type == null
        || (type instanceof IdentifierTree identifier && identifier.getName().contentEquals("var"));
    Optional<NumericType> declared = inferred ? Optional.empty() : LoweringContext.typeOf(type);
    if (!inferred && declared.isEmpty() && !(type instanceof PrimitiveTypeTree)) {
      Optional<TypeMirror> mirror = context.typeMirrorOf(type);
      Optional<FunctionValues.Signature> function =
          mirror.flatMap(expressions.functions()::signature);
      if (function.isPresent() && withInitializer
          && expressions.functions().holdsFunction(declaration, mirror.get())) {
        expressions.functions().declare(declaration, function.get());
        return;
      }
      lowerObjectDeclaration(declaration, name, type, withInitializer);
      return;
    }
    Optional<TypeElement> inferredRecord = inferred && declaration.getInitializer() != null
        ? expressions.records().typeOf(declaration.getInitializer()) : Optional.empty();
    if (inferredRecord.isPresent()) {
      lowerRecordDeclaration(declaration, name, inferredRecord.get(), withInitializer);
      return;
    }
    if (!inferred && declared.isEmpty()) {
      diagnostics.error(type, "local variable '" + name + "' has type '" + type
          + "': only 'double', 'float', 'int', 'long' and 'boolean' locals are supported");
      context.scopes().declareBroken(name);
      return;
    }
    ExpressionTree initializer = withInitializer ? declaration.getInitializer() : null;
    Operand value;
    boolean neverWritten = !inferred && declared.get().isArray()
        && initializer instanceof NewArrayTree && arrays.isOwnLocal(declaration)
        && ArrayChoices.onlyRead(methodBody, name, true);
    if (initializer instanceof NewArrayTree array && array.getType() == null && !inferred
        && declared.get().isArray()) {
      value = expressions.newArray(array, declared.get(), neverWritten); // double[] a = {x, y};
    } else if (initializer instanceof NewArrayTree array && neverWritten) {
      value = expressions.newArray(array, null, true); // double[] a = new double[] {x, y};
    } else if (initializer instanceof MethodInvocationTree call && arrays.isArraysCopy(call)) {
      value = arrays.lowerArraysCopy(call); // double[] c = Arrays.copyOf(w, n);
    } else if (!inferred && ArrayCopies.isChosenArray(declared.get())
        && ExpressionLowering.withoutParentheses(initializer)
            instanceof ConditionalExpressionTree choice) {
      value = arrays.lowerArrayChoice(name, declared.get(), choice); // double[] t = c ? u : v;
    } else {
      value = initializer == null ? null : expressions.lower(initializer);
    }
    NumericType localType;
    if (inferred) {
      if (initializer == null) {
        diagnostics.error(declaration, "'var " + name + "' needs an initializer");
        context.scopes().declareBroken(name);
        return;
      }
      if (value == null) {
        context.scopes().declareBroken(name);
        return;
      }
      localType = value.type();
      if (localType == NumericType.OBJECT) {
        // 'var' of an object: declared as the initializer's type
        TypeMirror mirror = context.referenceTypeOf(value).orElseThrow();
        context.scopes().declareLocal(name, localType, mirror,
            context.javaText(mirror).orElseThrow(), context);
        declareOrBind(name, value);
        return;
      }
    } else {
      localType = declared.get();
    }
    if (value != null && !expressions.assignable(value, localType, initializer)) {
      value = null;
    }
    if (initializer != null && value == null) {
      // the initializer's error is reported already
      if (inferred) {
        context.scopes().declareBroken(name);
      } else {
        context.scopes().declareBroken(name, localType);
      }
      return;
    }
    if (value != null) {
      value = expressions.convert(value, localType);
    }
    if (name.isEmpty()) {
      return; // an unnamed variable '_' (Java 22): its initializer runs, nothing can read it
    }
    context.scopes().declareLocal(name, localType, context);
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local.variable() != null) {
      Operand initial = value != null ? value : Operand.Constant.zero(localType);
      ir.add(new Declare(local.variable(), initial, context.line()));
    } else if (value != null) {
      context.bind(local, value);
    }
  }

  /**
   * A local of a reference type other than the arrays ad4j computes with: an object, an enum,
   * a {@code String}, another array. It carries no derivative: its initializer runs as written,
   * and so does the code that uses it.
   */
  private void lowerObjectDeclaration(VariableTree declaration, String name, Tree type,
      boolean withInitializer) {
    Optional<TypeMirror> mirror = context.typeMirrorOf(type);
    if (mirror.isEmpty() && context.isLocalClass(type)) {
      context.scopes().declareBroken(name); // the class's declaration is the error
      return;
    }
    if (mirror.isEmpty()) {
      diagnostics.unresolved(type, "cannot find the type '" + type + "' of local variable '"
          + name + "'");
      context.scopes().declareBroken(name);
      lowerInitializerAfterError(declaration);
      return;
    }
    Optional<TypeElement> record = ValueRecords.valueRecord(mirror.get());
    if (record.isPresent() && !keepsObject(declaration, name, withInitializer)) {
      lowerRecordDeclaration(declaration, name, record.get(), withInitializer);
      return;
    }
    NumericType kind = context.irType(mirror.get()).orElse(null);
    Optional<String> text = context.javaText(mirror.get());
    if (kind == null || text.isEmpty()) {
      diagnostics.error(type, "local variable '" + name + "' has type '" + mirror.get()
          + "', which generated code cannot name: " + context.typeProblem(mirror.get()));
      context.scopes().declareBroken(name);
      lowerInitializerAfterError(declaration);
      return;
    }
    ExpressionTree initializer = withInitializer ? declaration.getInitializer() : null;
    Operand value = initializer == null ? null : expressions.lower(initializer);
    if (initializer != null && (value == null
        || !expressions.assignableReference(value, mirror.get(), initializer))) {
      context.scopes().declareBroken(name);
      return;
    }
    if (name.isEmpty()) {
      return;
    }
    if (kind == NumericType.OBJECT) {
      context.scopes().declareLocal(name, kind, mirror.get(), text.get(), context);
    } else {
      context.scopes().declareLocal(name, kind, context);
    }
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local.variable() != null) {
      Operand initial = value != null ? value : Operand.Constant.zero(kind);
      ir.add(new Declare(local.variable(), initial, context.line()));
    } else if (value != null) {
      context.bind(local, value);
    }
  }

  /**
   * Whether a value record local that its declaration gives a record held as an object ({@code
   * Damping d = damping}, a field's or a {@code @NoDerivative} parameter's: {@link
   * RecordLowering#readsAnObject}) and that its block never assigns again stays that object,
   * as a {@code @NoDerivative} parameter does: its components are then read where the method
   * reads them, as Java reads them (a null record throws there, or nowhere), where a flattened
   * local would read them all at its declaration.
   */
  private boolean keepsObject(VariableTree declaration, String name, boolean withInitializer) {
    if (!withInitializer || !expressions.records().readsAnObject(declaration.getInitializer())) {
      return false;
    }
    com.sun.source.util.TreePath path = context.pathIn(declaration);
    Tree block = path == null || path.getParentPath() == null ? null
        : path.getParentPath().getLeaf();
    if (block == null) {
      return false;
    }
    boolean[] assigned = {false};
    new com.sun.source.util.TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(com.sun.source.tree.AssignmentTree assignment, Void unused) {
        assigned[0] |= assignment.getVariable() instanceof IdentifierTree target
            && target.getName().contentEquals(name);
        return super.visitAssignment(assignment, unused);
      }
    }.scan(block, null);
    return !assigned[0];
  }

  /**
   * A local of a value record ({@code Vec3 p = new Vec3(x, y, z)}), flattened: one local per
   * leaf ({@link RecordLowering}).
   */
  private void lowerRecordDeclaration(VariableTree declaration, String name, TypeElement record,
      boolean withInitializer) {
    ExpressionTree initializer = withInitializer ? declaration.getInitializer() : null;
    RecordLowering records = expressions.records();
    RecordLowering.Tuple value = null;
    if (initializer != null) {
      Optional<TypeElement> type = records.typeOf(initializer);
      if (type.isEmpty() || !type.get().equals(record)) {
        diagnostics.error(initializer, "'" + context.source().of(initializer) + "' cannot"
            + " initialize value record local '" + name + "': ad4j gives it values of its"
            + " record made in the method (a local, 'new', a call of the record's methods)");
        context.scopes().declareBroken(name);
        return;
      }
      value = records.lower(initializer);
      if (value == null) {
        context.scopes().declareBroken(name);
        return;
      }
    }
    records.declareLocal(name, record, value);
  }

  private void lowerInitializerAfterError(VariableTree declaration) {
    if (declaration.getInitializer() != null) {
      expressions.lower(declaration.getInitializer());
    }
  }

  private void lowerExpressionStatement(ExpressionTree expression) {
    if (expression instanceof AssignmentTree assignment && isRecordAssignment(assignment)) {
      String name = ((IdentifierTree) assignment.getVariable()).getName().toString();
      expressions.records().assign(assignment, name, context.scopes().lookUp(name));
      return;
    }
    switch (expression.getKind()) {
      // Assignments, increments and calls for their effect: a @Differentiable callee runs
      // (and may throw) in every generated member, as in the user's method; an unused value
      // gets no derivative.
      case ASSIGNMENT, PLUS_ASSIGNMENT, MINUS_ASSIGNMENT, MULTIPLY_ASSIGNMENT, DIVIDE_ASSIGNMENT,
          REMAINDER_ASSIGNMENT, AND_ASSIGNMENT, OR_ASSIGNMENT, XOR_ASSIGNMENT,
          LEFT_SHIFT_ASSIGNMENT, RIGHT_SHIFT_ASSIGNMENT, UNSIGNED_RIGHT_SHIFT_ASSIGNMENT,
          PREFIX_INCREMENT, POSTFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_DECREMENT ->
          expressions.lower(expression);
      case METHOD_INVOCATION -> {
        if (!arrays.lowerArrayLibraryCall((MethodInvocationTree) expression)) {
          expressions.lowerForEffect((MethodInvocationTree) expression);
        }
      }
      default -> unsupported(expression, ExpressionLowering.describe(expression)
          + " is not supported as a statement");
    }
  }

  /** {@code p = ...} of a local of a value record, flattened ({@link RecordLowering}). */
  private boolean isRecordAssignment(AssignmentTree assignment) {
    if (!(assignment.getVariable() instanceof IdentifierTree identifier)) {
      return false;
    }
    LocalScopes.Local local = context.scopes().lookUp(identifier.getName().toString());
    return local != null && local.valueRecord() != null;
  }

  /**
   * {@code for (index = from; index < to; index++) body(index)} with an index of
   * {@code indexType} ({@code int} or {@code long}): the loop of a stream pipeline.
   */
  private void countingLoop(Operand from, Operand to, NumericType indexType,
      java.util.function.Consumer<Operand> body) {
    Variable index = ir.variable("index", indexType, null);
    ir.add(new Declare(index, from, context.line()));
    Supplier<Operand> test = () -> context.emit(Operation.infix("<"),
        List.of(new Operand.Use(context.readVariable(index)), to), NumericType.BOOLEAN, false);
    Runnable step = () -> {
      Operand next = context.emit(Operation.ADD,
          List.of(new Operand.Use(context.readVariable(index)), Operand.Constant.of(1)),
          indexType, false);
      ir.add(new Store(index, next, context.line()));
    };
    lowerLoop(null, null, test, true,
        () -> body.accept(new Operand.Use(context.readVariable(index))), null, step);
  }


  private void lowerReturn(ReturnTree statement) {
    if (statement.getExpression() == null) {
      unsupported(statement, "'return' without a value: the method returns 'double'");
      return;
    }
    if (resultRecord != null) {
      lowerRecordReturn(statement);
      return;
    }
    Operand value = expressions.lower(statement.getExpression());
    if (value == null || !expressions.assignable(value, resultType,
        statement.getExpression())) {
      return;
    }
    if (resultType.isArray()) {
      if (statement != lastStatement) {
        unsupported(statement, "a method returning '" + resultType.keyword()
            + "' must return once, as its last"
            + " statement: compute the result into one local array and return it at the end");
        return;
      }
      if (!(value instanceof Operand.Use use) || context.isReadOnly(use.value())) {
        unsupported(statement.getExpression(), "'" + context.source().of(
            statement.getExpression()) + "' is a parameter's array, which callers own: return"
            + " a local array ('" + context.source().of(statement.getExpression())
            + ".clone()')");
        return;
      }
      if (context.isWrittenAndPassedToCalls(use.value())) {
        unsupported(statement.getExpression(), "'" + context.source().of(
            statement.getExpression()) + "' is passed to a call of a @Differentiable method and"
            + " written into, and ad4j cannot return such an array yet: return a copy ('"
            + context.source().of(statement.getExpression()) + ".clone()')");
        return;
      }
    }
    if (loop == null) {
      Return result = new Return(value, context.line());
      context.dependences().givesResult(result, statement.getExpression());
      ir.add(result);
      return;
    }
    // A return inside a loop: remember the value, leave the loops one by one, return after.
    if (returning == null) {
      returning = context.ir().variable("returning", NumericType.BOOLEAN, null);
      returnValue = context.ir().variable("returnValue", resultType, null);
      context.prologue().add(new Declare(returning, Operand.Constant.of(false), context.line()));
      context.prologue().add(new Declare(returnValue, Operand.Constant.zero(resultType),
          context.line()));
    }
    Store result = new Store(returnValue, value, context.line());
    context.dependences().givesResult(result, statement.getExpression());
    ir.add(result);
    ir.add(new Store(returning, Operand.Constant.of(true), context.line()));
    ir.add(new Jump(Jump.Kind.BREAK, loop.id, context.line()));
    loop.exits.add(new Exit(returning, Jump.Kind.BREAK, null));
  }

  /**
   * {@code return r;} of a method returning value record {@code R}: a new {@code double[]} of
   * {@code r}'s leaves, depth first, the vector function's result; the public members make the
   * record of it ({@code write/RecordAdapters}).
   */
  private void lowerRecordReturn(ReturnTree statement) {
    ExpressionTree expression = statement.getExpression();
    String shown = resultRecord.getSimpleName().toString();
    if (statement != lastStatement) {
      unsupported(statement, "a method returning value record '" + shown + "' must return"
          + " once, as its last statement: assign the result to one local '" + shown + "' and"
          + " return it at the end");
      return;
    }
    Optional<TypeElement> type = expressions.records().typeOf(expression);
    if (type.isEmpty() || !type.get().equals(resultRecord)) {
      unsupported(expression, "'" + context.source().of(expression) + "' cannot be returned as"
          + " value record '" + shown + "': ad4j returns values of the record made in the"
          + " method (a local, a parameter, 'new', a call of the record's methods)");
      return;
    }
    if (context.changesComponents(resultRecord)
        && RecordAccessors.withoutSource(resultRecord, context.trees()).isEmpty()) {
      // (one compiled without its source is an error at the method already)
      unsupported(expression, "'" + context.source().of(expression) + "' is returned as value"
          + " record '" + shown + "', " + context.changerText(resultRecord)
          + ": the generated"
          + " members make the record of the result's components and of its tangents, and would"
          + " run its code on them again; ad4j does not yet return such records");
      return;
    }
    RecordLowering.Tuple tuple = expressions.records().lower(expression);
    if (tuple == null || !ValueRecords.isReturnable(resultRecord)) {
      return; // a record with a 'double[]' component: rejected at the method already
    }
    // the leaves that carry derivatives are the vector function's value; the others the
    // record's members pass along from where they come, without running any code again
    List<ValueRecords.Leaf> types = ValueRecords.leaves(resultRecord);
    List<Operand> active = new ArrayList<>();
    List<ValueRecords.Carried> carried = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      Operand leaf = tuple.leaves().get(i);
      if (types.get(i).active()) {
        active.add(leaf);
      } else if (leaf instanceof Operand.Use use
          && use.value().origin() == Value.Origin.PARAMETER) {
        carried.add(new ValueRecords.Carried(use.value().parameterIndex(), null));
      } else if (leaf instanceof Operand.Constant constant) {
        carried.add(new ValueRecords.Carried(-1, constant.expression().toString()));
      } else {
        unsupported(expression, "component '" + String.join(".", types.get(i).path())
            + "' of value record '" + shown + "' returned by '" + context.source().of(expression)
            + "' carries no derivative and is computed in the method: ad4j returns such"
            + " components only as the method's parameters or constants hold them (the"
            + " generated members return the record without running the method's code again);"
            + " return it from a method of its own, or pass it in as a parameter");
        return;
      }
    }
    context.carriesResult(carried);
    Operand array = expressions.arrayOf(active, expression);
    if (array == null) {
      return;
    }
    Return result = new Return(array, context.line());
    context.dependences().givesResult(result, expression);
    ir.add(result);
  }

  private boolean lowerIf(IfTree tree) {
    Operand condition = expressions.lower(tree.getCondition());
    if (condition != null && condition.type() != NumericType.BOOLEAN) {
      unsupported(tree.getCondition(), "the condition must be a boolean");
      condition = null;
    }
    SourceLine line = context.line();
    ir.openBlock();
    context.scopes().push();
    boolean thenCompletes = lowerStatement(tree.getThenStatement());
    context.scopes().pop();
    Block thenBlock = ir.closeBlock();
    ir.openBlock();
    boolean elseCompletes = true;
    if (tree.getElseStatement() != null) {
      context.scopes().push();
      elseCompletes = lowerStatement(tree.getElseStatement());
      context.scopes().pop();
    }
    Block elseBlock = ir.closeBlock();
    if (condition != null) {
      ir.add(new If(ir.nextStatementId(), condition, thenBlock, elseBlock, line));
    }
    context.restoreLine(line);
    return thenCompletes || elseCompletes;
  }

  /**
   * {@code for (T e : array)} over an array of another element type or rank ({@code long[]},
   * {@code Mode[]}, {@code int[][]}): a counting loop whose elements are read as written.
   */
  private boolean lowerForEachOther(String label, EnhancedForLoopTree tree, Operand array) {
    VariableTree element = tree.getVariable();
    String name = element.getName().toString();
    TypeMirror component = ((javax.lang.model.type.ArrayType)
        context.referenceTypeOf(array).orElseThrow()).getComponentType();
    Tree typeTree = element.getType();
    boolean inferred = typeTree == null || (typeTree instanceof IdentifierTree identifier
        && identifier.getName().contentEquals("var"));
    TypeMirror declared = inferred ? component : context.typeMirrorOf(typeTree).orElse(null);
    NumericType kind = declared == null ? null : context.irType(declared).orElse(null);
    if (declared == null || kind == null || !context.types().isAssignable(component, declared)) {
      unsupported(inferred ? tree.getVariable() : typeTree, "the variable '" + name + "' of an"
          + " enhanced 'for' loop over a '" + context.referenceTypeOf(array).orElseThrow()
          + "' must have type '" + component + "'");
      return true;
    }
    return lowerCountingLoop(label, tree, array, index -> {
      Operand value = expressions.otherElement(array, index, tree.getExpression());
      if (kind == NumericType.OBJECT) {
        context.scopes().declareLocal(name, kind, declared,
            context.javaText(declared).orElseThrow(), context);
      } else {
        value = expressions.convert(value, kind);
        context.scopes().declareLocal(name, kind, context);
      }
      declareOrBind(name, value);
    });
  }

  /**
   * {@code for (T v : a) body}: {@code a} evaluated once, then a counting loop over its
   * elements, {@code v} declared from {@code a[index]} at the start of each iteration.
   */
  private boolean lowerForEach(String label, EnhancedForLoopTree tree) {
    Operand array = expressions.lower(tree.getExpression());
    if (array == null) {
      return true;
    }
    if (expressions.isOtherArray(array)) {
      return lowerForEachOther(label, tree, array);
    }
    if (!array.type().isArray()) {
      unsupported(tree.getExpression(), "enhanced 'for' loop over '"
          + context.source().of(tree.getExpression()) + "', of type '" + array.type().keyword()
          + "': only arrays can be walked; use a counting loop");
      return true;
    }
    VariableTree element = tree.getVariable();
    String name = element.getName().toString();
    Tree typeTree = element.getType();
    boolean inferred = typeTree == null || (typeTree instanceof IdentifierTree identifier
        && identifier.getName().contentEquals("var"));
    NumericType elementType = array.type().elementType();
    NumericType declared = inferred ? elementType
        : LoweringContext.typeOf(typeTree).orElse(null);
    if (declared == null || !elementType.widensTo(declared)) {
      unsupported(typeTree, "the variable '" + name + "' of an enhanced 'for' loop over a '"
          + array.type().keyword() + "' must have type '" + elementType.keyword() + "'");
      return true;
    }
    return lowerCountingLoop(label, tree, array, index -> {
      Operand value = context.emit(Operation.ELEMENT, List.of(array, index), elementType,
          array instanceof Operand.Use use && use.value().isActiveArray());
      if (elementType.isArray() && array instanceof Operand.Use use
          && context.isReadOnly(use.value())) {
        context.markReadOnly(((Operand.Use) value).value());
      }
      value = expressions.convert(value, declared);
      context.scopes().declareLocal(name, declared, context);
      declareOrBind(name, value);
    });
  }

  /**
   * The loop of an enhanced {@code for} over {@code array}: an {@code index} from 0 while it is
   * below the array's length, {@code declareElement} given the index at the start of each
   * iteration, then the body.
   */
  private boolean lowerCountingLoop(String label, EnhancedForLoopTree tree, Operand array,
      java.util.function.Consumer<Operand> declareElement) {
    Variable index = ir.variable("index", NumericType.INT, null);
    ir.add(new Declare(index, Operand.Constant.of(0), context.line()));
    Supplier<Operand> test = () -> {
      Operand length = context.emit(Operation.LENGTH, List.of(array), NumericType.INT, false);
      return context.emit(Operation.infix("<"),
          List.of(new Operand.Use(context.readVariable(index)), length), NumericType.BOOLEAN,
          false);
    };
    Runnable step = () -> {
      Operand next = context.emit(Operation.ADD,
          List.of(new Operand.Use(context.readVariable(index)), Operand.Constant.of(1)),
          NumericType.INT, false);
      ir.add(new Store(index, next, context.line()));
    };
    return lowerLoop(label, null, test, true,
        () -> declareElement.accept(new Operand.Use(context.readVariable(index))),
        tree.getStatement(), step);
  }

  /** The local just declared as {@code name} gets {@code value}: a variable's or a bound one. */
  private void declareOrBind(String name, Operand value) {
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local.variable() != null) {
      ir.add(new Declare(local.variable(), value, context.line()));
    } else {
      context.bind(local, value);
    }
  }

  private boolean lowerLoop(String label, ExpressionTree conditionTree, boolean testFirst,
      StatementTree bodyTree, List<? extends ExpressionStatementTree> updateTrees) {
    Supplier<Operand> test = conditionTree == null ? () -> null : () -> {
      Operand lowered = expressions.lower(conditionTree);
      if (lowered != null && lowered.type() != NumericType.BOOLEAN) {
        unsupported(conditionTree, "the loop condition must be a boolean");
        return null;
      }
      return lowered;
    };
    Runnable updates = () -> {
      for (ExpressionStatementTree update : updateTrees) {
        context.startStatement(update);
        ir.openBlock();
        lowerExpressionStatement(update.getExpression());
        List<Statement> lowered = ir.closeBlock().statements();
        if (lowered.stream().anyMatch(Lowering::changesADouble)) {
          unsupported(update, "the update of a 'for' loop may change only 'int' and 'long'"
              + " counters: move the assignment of a 'double' into the loop body");
        }
        lowered.forEach(ir::add);
      }
    };
    return lowerLoop(label, conditionTree, test, testFirst, () -> { }, bodyTree, updates);
  }

  /**
   * A loop: {@code lowerTest} lowers its condition (null for none: an endless loop),
   * {@code bodyStart} what each iteration does before the body's statements, {@code lowerUpdate}
   * what it does after them ({@code i++}).
   */
  private boolean lowerLoop(String label, ExpressionTree conditionTree,
      Supplier<Operand> lowerTest, boolean testFirst, Runnable bodyStart, StatementTree bodyTree,
      Runnable lowerUpdate) {
    SourceLine line = context.line();
    LoopFrame frame = new LoopFrame(ir.nextStatementId(), label, loop);
    context.enterLoop();
    ir.openBlock();
    Operand test = lowerTest.get();
    boolean constantTrue = test == null && conditionTree == null;
    if (test instanceof Operand.Constant constant
        && constant.expression().toString().replaceAll("[()\\s]", "").equals("true")) {
      constantTrue = true;
    }
    Block condition = ir.closeBlock();
    loop = frame;
    ir.openBlock();
    context.scopes().push();
    boolean breakLeftSwitch = switches.setBreakLeavesSwitch(false);
    bodyStart.run();
    if (bodyTree != null) {
      lowerStatement(bodyTree);
    }
    switches.setBreakLeavesSwitch(breakLeftSwitch);
    context.scopes().pop();
    Block body = prepend(context.loopPrologue(frame.id), ir.closeBlock());
    ir.openBlock();
    lowerUpdate.run();
    Block update = ir.closeBlock();
    loop = frame.outer;
    context.leaveLoop();
    context.restoreLine(line);
    if (test != null && !constantTrue && assignsADouble(condition)) {
      // The condition changes a derivative-carrying local: it becomes part of the body, so that
      // every evaluation of it is differentiated like the body's own statements.
      body = conditionInBody(frame.id, conditionTree, condition, test, testFirst, body, line);
      condition = new Block(List.of());
      test = null;
    }
    ir.add(new Loop(frame.id, condition, constantTrue ? null : test, testFirst, body, update,
        line));
    // A loop that only ends by leaving further out continues with that exit unconditionally,
    // as Java sees it: nothing after it is reachable.
    continueExits(frame, line, constantTrue && !frame.broken);
    return !constantTrue || frame.broken;
  }

  /**
   * {@code for (;;) { condition; if (!test) break; body }}, or for a {@code do} loop
   * {@code for (;;) { body; condition; if (!test) break; }}; a {@code continue} of a {@code do}
   * loop would skip its condition there, so it is an error.
   */
  private Block conditionInBody(int loopId, ExpressionTree conditionTree, Block condition,
      Operand test, boolean testFirst, Block body, SourceLine line) {
    List<Statement> statements = new ArrayList<>();
    Statement exit = new If(ir.nextStatementId(), test, new Block(List.of()),
        new Block(List.of(new Jump(Jump.Kind.BREAK, loopId, line))), line);
    List<Statement> prologue = context.loopPrologue(loopId);
    if (testFirst) {
      statements.addAll(prologue);
      statements.addAll(condition.statements());
      statements.add(exit);
      statements.addAll(body.statements().subList(prologue.size(), body.statements().size()));
    } else {
      if (body.jumpsTo(loopId, Jump.Kind.CONTINUE)) {
        unsupported(conditionTree, "a 'do' loop whose condition assigns a 'double' cannot be"
            + " continued: ad4j differentiates such a condition as part of the loop body; use"
            + " 'if' instead of 'continue', or assign the 'double' in the body");
      }
      statements.addAll(body.statements());
      statements.addAll(condition.statements());
      statements.add(exit);
    }
    return new Block(statements);
  }

  /** Whether a statement of {@code block}, nested ones included, stores a {@code double}. */
  private static boolean assignsADouble(Block block) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Store store && store.variable().isActive()) {
        return true;
      }
      // a[i] *= 0.5 into an array that carries derivatives: its reverse moves the element's
      // adjoint, once per evaluation of the condition
      if (statement instanceof ad4j.processor.ir.Instruction instruction
          && instruction.operation().equals(Operation.STORE) && instruction.result().isActive()) {
        return true;
      }
      if (statement instanceof If branch
          && (assignsADouble(branch.thenBlock()) || assignsADouble(branch.elseBlock()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean changesADouble(Statement statement) {
    return (statement instanceof ad4j.processor.ir.Instruction instruction
            && instruction.result().isActive())
        || (statement instanceof Store store && store.variable().isActive());
  }

  /**
   * After a loop: each exit that passed through it goes on outwards, by a test of its flag
   * here: a return at the top level, the jump itself in its target loop, else another break.
   */
  private void continueExits(LoopFrame frame, SourceLine line, boolean onlyExits) {
    List<Exit> exits = new ArrayList<>(frame.exits);
    for (int i = 0; i < exits.size(); i++) {
      Exit exit = exits.get(i);
      boolean unconditional = onlyExits && i == exits.size() - 1;
      Value flag = unconditional ? null : context.readVariable(exit.flag());
      ir.openBlock();
      if (exit.target() == null && loop == null) {
        Value result = context.readVariable(returnValue);
        ir.add(new Return(new Operand.Use(result), line));
      } else if (exit.target() != null && exit.target() == loop) {
        ir.add(new Jump(exit.kind(), loop.id, line));
      } else {
        ir.add(new Jump(Jump.Kind.BREAK, loop.id, line));
        loop.exits.add(exit);
      }
      Block exitBlock = ir.closeBlock();
      if (unconditional) {
        exitBlock.statements().forEach(ir::add);
      } else {
        ir.add(new If(ir.nextStatementId(), new Operand.Use(flag), exitBlock,
            new Block(List.of()), line));
      }
    }
  }

  private void lowerJump(Jump.Kind kind, javax.lang.model.element.Name label, Tree tree) {
    String keyword = kind == Jump.Kind.BREAK ? "break" : "continue";
    if (loop == null) {
      unsupported(tree, "'" + keyword + "' outside a loop is not supported");
      return;
    }
    LoopFrame target = loop;
    if (label != null) {
      while (target != null && !label.contentEquals(String.valueOf(target.label))) {
        target = target.outer;
      }
      if (target == null) {
        unsupported(tree, "'" + keyword + " " + label + "': no enclosing loop has that label");
        return;
      }
    }
    if (kind == Jump.Kind.BREAK) {
      target.broken = true;
    }
    if (target == loop) {
      ir.add(new Jump(kind, loop.id, context.line()));
      return;
    }
    // Leaving several loops: a flag, declared at each iteration of the target, tells the
    // loops in between to leave as well.
    Variable flag = context.ir().variable(keyword + "Loop" + target.id, NumericType.BOOLEAN,
        null);
    context.loopPrologue(target.id).add(new Declare(flag, Operand.Constant.of(false), context.line()));
    ir.add(new Store(flag, Operand.Constant.of(true), context.line()));
    ir.add(new Jump(Jump.Kind.BREAK, loop.id, context.line()));
    loop.exits.add(new Exit(flag, kind, target));
  }

  /**
   * {@code assert condition : detail;} as Java runs it: only when assertions are enabled for
   * the user's top-level class ({@code ad4j.runtime.internal.Assertions}; JLS 14.10: a nested
   * class's
   * assertions follow the class that encloses it at the top, as javac's code asks), the
   * condition is evaluated, and when it is false, {@code new AssertionError(detail)} is thrown.
   */
  private void lowerAssert(com.sun.source.tree.AssertTree tree) {
    TypeElement userClass = context.symbols().enclosingType();
    for (Element around = userClass.getEnclosingElement();
        around != null && !(around instanceof PackageElement);
        around = around.getEnclosingElement()) {
      if (around instanceof TypeElement type) {
        userClass = type;
      }
    }
    TypeElement classType = context.elements().getTypeElement("java.lang.Class");
    Operand.Constant classLiteral = context.referenceConstant(
        context.referenceTo(userClass) + ".class",
        context.types().getDeclaredType(classType, context.types().erasure(userClass.asType())));
    Operand enabled = context.emit(
        Operation.plainCall("ad4j.runtime.internal.Assertions.enabled", 1), List.of(classLiteral), NumericType.BOOLEAN, false);
    ir.openBlock();
    Operand condition = expressions.lower(tree.getCondition());
    if (condition != null && condition.type() != NumericType.BOOLEAN) {
      unsupported(tree.getCondition(), "the condition of 'assert' must be a 'boolean'");
      condition = null;
    }
    ir.openBlock();
    Operand detail = tree.getDetail() == null ? null
        : context.lowerThrown(() -> expressions.lower(tree.getDetail()));
    String error = context.referenceTo(context.elements().getTypeElement("java.lang.AssertionError"));
    if (tree.getDetail() == null) {
      ir.add(new Throw(error, List.of(), false, context.line()));
    } else if (detail != null) {
      ir.add(new Throw(error, List.of(), false, List.of(detail), context.line()));
    }
    Block failing = ir.closeBlock();
    if (condition != null) {
      Operand fails = context.emit(Operation.NOT, List.of(condition), NumericType.BOOLEAN,
          false);
      ir.add(new If(ir.nextStatementId(), fails, failing, new Block(List.of()),
          context.line()));
    }
    Block check = ir.closeBlock();
    ir.add(new If(ir.nextStatementId(), enabled, check, new Block(List.of()), context.line()));
  }

  private void lowerThrow(ThrowTree tree) {
    context.lowerThrown(() -> {
      lowerThrownException(tree);
      return null;
    });
  }

  private void lowerThrownException(ThrowTree tree) {
    ExpressionTree thrown = tree.getExpression();
    if (!(thrown instanceof NewClassTree creation) || creation.getClassBody() != null) {
      unsupported(tree, "'throw' is supported only as 'throw new SomeException(message)'");
      return;
    }
    Optional<TypeElement> type = context.symbols().resolveType(creation.getIdentifier());
    if (type.isEmpty()) {
      diagnostics.unresolved(creation.getIdentifier(), "cannot find class '"
          + context.source().of(creation.getIdentifier()) + "'");
      return;
    }
    if (!context.isUncheckedException(type.get())) {
      unsupported(creation.getIdentifier(), "'throw' needs an unchecked exception class"
          + " (a RuntimeException)");
      return;
    }
    List<Object> parts = new ArrayList<>();
    boolean hasMessage = !creation.getArguments().isEmpty();
    if (hasMessage && (creation.getArguments().size() > 1
        || !isStringConcatenation(creation.getArguments().get(0)))) {
      // a cause, an enum, a message made by a call or a '?:': built as written
      lowerConstruction(creation, type.get());
      return;
    }
    Optional<String> unreachable = context.reachability().ofConstruction(type.get(), hasMessage);
    if (unreachable.isPresent()) {
      unsupported(creation.getIdentifier(), "generated code cannot create this exception: "
          + unreachable.get());
      return;
    }
    if (hasMessage && !messageParts(creation.getArguments().get(0), parts)) {
      return;
    }
    ir.add(new Throw(context.referenceTo(type.get()), parts, hasMessage, context.line()));
  }

  /**
   * {@code throw new Type(a, b, ...)} with several arguments, or one that is not a message
   * joined with '+' ({@code String.format(...)}, a cause): they carry no derivative into
   * anything and are evaluated as written, then the exception is built as written.
   */
  private void lowerConstruction(NewClassTree creation, TypeElement type) {
    List<Operand> arguments = new ArrayList<>();
    boolean failed = false;
    for (ExpressionTree argument : creation.getArguments()) {
      Operand operand = expressions.lower(argument);
      failed |= operand == null;
      arguments.add(operand);
    }
    if (failed) {
      return;
    }
    Optional<String> problem = new InactiveCalls(context).constructionProblem(type, arguments);
    if (problem.isPresent()) {
      unsupported(creation.getIdentifier(), "generated code cannot create this exception: "
          + problem.get());
      return;
    }
    ir.add(new Throw(context.referenceTo(type), List.of(), false, arguments, context.line()));
  }

  /**
   * Splits a message {@code "x = " + x} into literal texts and operands; a part that is
   * neither ({@code String.format(...)}, {@code c ? "a" : "b"}) is one operand, computed as
   * written.
   */
  private boolean messageParts(ExpressionTree message, List<Object> parts) {
    ExpressionTree expression = message;
    while (expression instanceof ParenthesizedTree parenthesized) {
      expression = parenthesized.getExpression();
    }
    if (expression.getKind() == Tree.Kind.STRING_LITERAL) {
      parts.add(context.source().of(expression));
      return true;
    }
    if (expression.getKind() == Tree.Kind.PLUS && isStringConcatenation(expression)) {
      BinaryTree concatenation = (BinaryTree) expression;
      return messageParts(concatenation.getLeftOperand(), parts)
          && messageParts(concatenation.getRightOperand(), parts);
    }
    Operand value = expressions.lower(expression);
    if (value == null) {
      return false;
    }
    parts.add(value);
    return true;
  }

  private static boolean isStringConcatenation(ExpressionTree expression) {
    if (expression.getKind() == Tree.Kind.STRING_LITERAL) {
      return true;
    }
    if (expression instanceof ParenthesizedTree parenthesized) {
      return isStringConcatenation(parenthesized.getExpression());
    }
    return expression instanceof BinaryTree binary && binary.getKind() == Tree.Kind.PLUS
        && (isStringConcatenation(binary.getLeftOperand())
            || isStringConcatenation(binary.getRightOperand()));
  }

  // ---- helpers -----------------------------------------------------------------------------

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }

  private static Block prepend(List<Statement> first, Block block) {
    if (first.isEmpty()) {
      return block;
    }
    List<Statement> statements = new ArrayList<>(first);
    statements.addAll(block.statements());
    return new Block(statements);
  }
}
