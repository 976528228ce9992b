package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.CompilationUnitTree;
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
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The front end: lowers the body of a {@code @Differentiable} method from javac's syntax trees to
 * the structured IR, resolving names as Java does and recording an error at each construct it
 * cannot differentiate. Lowering goes on after an error so that all errors of a method are
 * reported together. This class walks the statements and lowers blocks, {@code if} and
 * expression statements itself; expressions are lowered by {@link ExpressionLowering}, the
 * method's parameters declared by {@link MethodParameters}, and the other kinds of statement
 * lowered by {@link DeclarationLowering} (locals), {@link LoopLowering} (loops, {@code break},
 * {@code continue}), {@link SwitchLowering}, {@link ReturnLowering} and {@link ThrowLowering}
 * ({@code throw}, {@code assert}).
 */
public final class Lowering {

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final SwitchLowering switches;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  private final ArrayCopies arrays;
  private final MethodParameters methodParameters;
  private final DeclarationLowering declarations;
  private final LoopLowering loops;
  private final ReturnLowering returns;
  private final ThrowLowering throwing;
  private String pendingLabel;

  private Lowering(LoweringContext context, ExecutableElement method, MethodTree tree) {
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
            declarations.declareInLaterCase(declaration);
          }
        });
    expressions.useSwitches(switches);
    expressions.functions().useStatements(this::lowerStatements);
    expressions.streams().useLoops(new StreamLowering.Loops() {
      @Override
      public void countingLoop(Operand from, Operand to, NumericType indexType,
          java.util.function.Supplier<Operand> guard,
          java.util.function.Consumer<Operand> body) {
        Lowering.this.loops.countingLoop(from, to, indexType, guard, body);
      }

      @Override
      public boolean iteratorLoop(Operand iterable, IterableLoops.Walk walk,
          java.util.function.Supplier<Operand> guard,
          java.util.function.Consumer<Operand> body) {
        return Lowering.this.loops.iteratorLoop(iterable, walk, guard, body);
      }
    });
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
    this.arrays = new ArrayCopies(context, expressions,
        (test, body, step) -> Lowering.this.loops.generatedLoop(test, body, step),
        () -> methodBody);
    this.methodParameters = new MethodParameters(context, expressions);
    this.declarations = new DeclarationLowering(context, expressions, arrays, () -> methodBody);
    this.loops = new LoopLowering(context, expressions, switches, declarations,
        new LoopLowering.Statements() {
          @Override
          public boolean lowerStatement(StatementTree statement) {
            return Lowering.this.lowerStatement(statement);
          }

          @Override
          public void lowerExpressionStatement(ExpressionTree expression) {
            Lowering.this.lowerExpressionStatement(expression);
          }
        });
    this.returns = new ReturnLowering(context, expressions, loops, method, tree);
    this.throwing = new ThrowLowering(context, expressions);
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
   * declare {@code @DerivativeOf} rules, which every call sees. No class file is read: a value
   * record compiled without its source is an error where generated code would read it.
   */
  public static Optional<Function> lower(Elements elements, Types types, Trees trees,
      CompilationUnitTree unit, ExecutableElement method, MethodTree tree,
      Diagnostics diagnostics, Predicate<TypeElement> hasGradClass,
      java.util.Collection<TypeElement> ruleClasses) {
    return lowerMethod(elements, types, trees, unit, method, tree, diagnostics, hasGradClass,
        ruleClasses, ClassFiles.NONE).map(Lowered::function);
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
   * Diagnostics, Predicate, java.util.Collection)}, with what the generated class records of it;
   * {@code classFiles} gives the class files of the records the compilation has without their
   * source.
   */
  public static Optional<Lowered> lowerMethod(Elements elements, Types types, Trees trees,
      CompilationUnitTree unit, ExecutableElement method, MethodTree tree,
      Diagnostics diagnostics, Predicate<TypeElement> hasGradClass,
      java.util.Collection<TypeElement> ruleClasses, ClassFiles classFiles) {
    TypeElement enclosingType = (TypeElement) method.getEnclosingElement();
    LoweringContext context = new LoweringContext(elements, types, trees, unit, enclosingType,
        diagnostics, VariablePlanner.plan(tree), hasGradClass, classFiles);
    context.calleeServices().setRuleClasses(ruleClasses);
    context.setMethod(method.getSimpleName().toString(), DerivativeOrder.of(method));
    context.setElement(method, false);
    return lower(context, method, tree)
        .map(function -> new Lowered(function,
            context.notedCalls().firstCallRunAsWritten().map(NotedCalls.CallRunAsWritten::describe),
            context.privateFieldCopies(), context.flatRecords().flatParameters(),
            context.flatRecords().carriedResult(), context.notedCalls().unrepeatableCalls()));
  }

  /**
   * What {@code method}'s code calls: it is lowered as for its own generated members, its
   * errors left in {@code diagnostics} (they are reported where it is processed itself).
   */
  static Examined examine(Elements elements, Types types, Trees trees,
      CompilationUnitTree unit, ExecutableElement method, MethodTree tree,
      Diagnostics diagnostics, Predicate<TypeElement> hasGradClass, ClassFiles classFiles) {
    TypeElement enclosingType = (TypeElement) method.getEnclosingElement();
    LoweringContext context = new LoweringContext(elements, types, trees, unit, enclosingType,
        diagnostics, VariablePlanner.plan(tree), hasGradClass, classFiles);
    context.setMethod(method.getSimpleName().toString(), DerivativeOrder.of(method));
    context.setElement(method, true);
    Optional<Function> function = lower(context, method, tree);
    return new Examined(function, context.notedCalls().callees(),
        context.notedCalls().firstCallRunAsWritten(),
        context.notedCalls().firstStateRead(), context.flatRecords().carriedResult());
  }

  /**
   * A method lowered by {@link #examine}: its IR (empty after an error), the
   * {@code @Differentiable} methods it calls, the first call of its own code that runs as
   * written and not alike each time, and the first read of a static field that is not final
   * or of an object array's element; where the leaves that carry no derivative of the value
   * record it returns come from.
   */
  record Examined(Optional<Function> function, List<ExecutableElement> callees,
      Optional<NotedCalls.CallRunAsWritten> callRunAsWritten,
      Optional<ad4j.processor.ir.SourceLine> stateRead,
      List<ValueRecords.Carried> carriedResult) {}

  private static Optional<Function> lower(LoweringContext context, ExecutableElement method,
      MethodTree tree) {
    Lowering lowering = new Lowering(context, method, tree);
    return lowering.lowerMethod(tree, method);
  }

  /** The body of the method being lowered, and the double-buffer swaps in it. */
  private Tree methodBody;
  private List<ArraySwaps> swaps = List.of();
  /** The row swaps of the method's own body (not of bodies inlined into it). */
  private List<RowSwaps> rowSwaps = List.of();

  private Optional<Function> lowerMethod(MethodTree method, ExecutableElement element) {
    methodBody = method.getBody();
    swaps = ArraySwaps.in(method.getBody());
    rowSwaps = RowSwaps.in(method.getBody());
    context.arrays().swapsArrays(swaps);
    returns.checkResultRecord(method);
    List<Value> parameters = methodParameters.declare(method, element);
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
    Block whole = prepend(context.variables().prologue(), ir.body());
    context.dependences().check(whole, diagnostics, !suppressesZeroDerivatives(element), method);
    if (diagnostics.hasErrors()) {
      return Optional.empty();
    }
    Block lowered = new ControlFlowNormalizer(ir).normalize(whole);
    int snapshots = CheckpointedLoops.snapshots(element, method, context.order(), lowered,
        context.source(), context.dependences(), context.flatRecords(), diagnostics);
    if (diagnostics.hasErrors()) {
      return Optional.empty();
    }
    List<String> userNames = new ArrayList<>(MethodParameters.userNames(method));
    userNames.addAll(context.referencedTypeNames());
    // the leaves of record parameters: no generated name may take them either
    methodParameters.namesTaken().stream().filter(n -> !userNames.contains(n)).sorted()
        .forEach(userNames::add);
    new StateReadAgain(context).check(element, method);
    if (diagnostics.hasErrors()) {
      return Optional.empty();
    }
    return Optional.of(new Function(method.getName().toString(), parameters, lowered, userNames,
        context.shadowedOwners(), snapshots,
        context.notedCalls().firstCallRunAsWritten().isPresent(),
        returns.resultType()));
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
        declarations.lowerDeclaration((VariableTree) statement, false); // as 'double[] a;'
        continue;
      }
      Optional<RowSwaps> rowSwap = RowSwaps.at(statements, i);
      if (rowSwap.isPresent() && swapsRows(rowSwap.get())) {
        i += 2;
        continue;
      }
      Optional<ArraySwaps> swap = ArraySwaps.at(statements, i);
      if (swap.isPresent() && swapsElements(swap.get(), statements.subList(i, i + 3))) {
        i += 2;
        continue;
      }
      reachable = lowerStatement(statement);
      if (reachable && i + 1 < statements.size() && switches.guardsAfter(statement)) {
        // a break in it may have left the switch: the rest of this block runs only if not
        List<? extends StatementTree> rest = statements.subList(i + 1, statements.size());
        return switches.unlessLeft(() -> lowerStatements(rest));
      }
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
        || context.variables().needsVariable(swap.first())
        || context.variables().needsVariable(swap.second())
        || first.value() == null || second.value() == null) {
      return false;
    }
    context.startStatement(statements.get(1));
    Value a = first.value();
    Value b = second.value();
    String problem = null;
    if (first.type() != NumericType.DOUBLE_ARRAY && first.type() != NumericType.FLOAT_ARRAY) {
      problem = "ad4j exchanges the elements of 'double[]' and 'float[]' arrays only";
    } else if (context.arrays().lengthOfMadeArray(a).isEmpty()
        || context.arrays().lengthOfMadeArray(b).isEmpty()) {
      problem = "ad4j exchanges their elements instead, so both must be arrays the method makes"
          + " with 'new' (not parameters, rows, clones or results of calls)";
    } else if (!context.arrays().lengthOfMadeArray(a)
        .equals(context.arrays().lengthOfMadeArray(b))) {
      problem = "ad4j exchanges their elements instead, so both must be made with the same"
          + " length ('new double[n]' with the same 'n', or the same number of elements)";
    } else if (!context.arrays().swappedArrays().contains(swap.first())
        || !context.arrays().swappedArrays().contains(swap.second())) {
      problem = "ad4j exchanges the elements of arrays of the method's own code only";
    } else {
      for (String name : List.of(swap.first(), swap.second())) {
        if (ArraySwaps.iteratedAcrossSwap(methodBody, name)) {
          problem = "ad4j exchanges their elements instead, and the enhanced 'for' over '"
              + name + "' that holds the swap goes on over the array it started with, which"
              + " Java's swap leaves in place and the exchange would fill with the other's"
              + " elements; iterate '" + name + "' by index, or swap after the loop";
          break;
        }
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
    exchangeElements(new Operand.Use(a), new Operand.Use(b), first.type().elementType());
    return true;
  }

  /**
   * A loop exchanging each element of {@code a} with {@code b}'s at the same index, as many as
   * {@code a} has: a swap of two arrays, or of two rows, where nothing else names them.
   */
  private void exchangeElements(Operand a, Operand b, NumericType element) {
    Operand length = context.emit(Operation.LENGTH, List.of(a), NumericType.INT, false);
    arrays.writeLoop(Operand.Constant.of(0), length, k -> {
      Operand fromA = context.emit(Operation.ELEMENT, List.of(a, k), element,
          ArrayCopies.isActive(a, element));
      Operand fromB = context.emit(Operation.ELEMENT, List.of(b, k), element,
          ArrayCopies.isActive(b, element));
      context.emit(Operation.STORE, List.of(a, k, fromB), element,
          ArrayCopies.isActive(a, element));
      return context.emit(Operation.STORE, List.of(b, k, fromA), element,
          ArrayCopies.isActive(b, element));
    });
  }

  /**
   * Lowers the row swap {@code swap} (its three statements) as an exchange of the two rows'
   * elements, which computes what Java's exchange of the rows computes when the method made
   * the matrix with rows of one length and uses it only through its elements and lengths;
   * otherwise an error at the swap. False, lowering nothing, when {@code m} is not a local
   * matrix bound to one matrix, or the swap is in a body inlined into the method: the statements
   * are then lowered as written.
   */
  private boolean swapsRows(RowSwaps swap) {
    LocalScopes.Local matrix = context.scopes().lookUp(swap.matrix());
    if (matrix == null || matrix.isBroken() || matrix.type() != NumericType.DOUBLE_MATRIX
        || matrix.variable() != null || matrix.value() == null
        || rowSwaps.stream().noneMatch(own -> own.statements().get(0)
            == swap.statements().get(0))) {
      return false;
    }
    context.startStatement(swap.statements().get(1));
    String problem = null;
    if (!context.arrays().isRectangular(matrix.value())) {
      problem = "ad4j exchanges the rows' elements instead, so the method must make the matrix"
          + " with rows of one length ('new double[n][m]', or rows in braces with as many"
          + " elements each)";
    } else if (!RowSwaps.onlyElementsUsed(methodBody, swap.matrix(), rowSwaps)) {
      problem = "ad4j exchanges the rows' elements instead, so '" + swap.matrix() + "' may only"
          + " be indexed twice ('" + swap.matrix() + "[i][j]'), have its lengths read and its"
          + " rows swapped; here it is also used otherwise (a row bound to a variable or"
          + " iterated, the matrix passed to a method or returned), which could name a row"
          + " itself";
    }
    if (problem != null) {
      diagnostics.error(swap.statements().get(1), "the swap of rows of '" + swap.matrix()
          + "' is not supported here: " + problem);
      return true;
    }
    Operand first = expressions.lower(swap.firstRow());
    Operand second = expressions.lower(swap.secondRow());
    if (first == null || second == null) {
      return true;
    }
    exchangeElements(first, second, NumericType.DOUBLE);
    return true;
  }

  /** Lowers one statement; returns whether it can complete normally. */
  private boolean lowerStatement(StatementTree statement) {
    context.startStatement(statement);
    String label = pendingLabel;
    pendingLabel = null;
    switch (statement.getKind()) {
      case VARIABLE -> declarations.lowerDeclaration((VariableTree) statement);
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
        returns.lowerReturn((ReturnTree) statement);
        return false;
      }
      case IF -> {
        return lowerIf((IfTree) statement);
      }
      case WHILE_LOOP -> {
        WhileLoopTree loopTree = (WhileLoopTree) statement;
        return loops.lowerLoop(label, loopTree.getCondition(), true, loopTree.getStatement(),
            List.of());
      }
      case DO_WHILE_LOOP -> {
        DoWhileLoopTree loopTree = (DoWhileLoopTree) statement;
        return loops.lowerLoop(label, loopTree.getCondition(), false, loopTree.getStatement(),
            List.of());
      }
      case FOR_LOOP -> {
        ForLoopTree loopTree = (ForLoopTree) statement;
        context.scopes().push();
        lowerStatements(loopTree.getInitializer());
        context.startStatement(statement);
        boolean completes = loops.lowerLoop(label, loopTree.getCondition(), true,
            loopTree.getStatement(), loopTree.getUpdate());
        // a pattern of the condition is in scope after the loop where it did not hold
        context.scopes().popKeeping(loopTree.getCondition() == null ? java.util.Set.of()
            : TypeTests.boundNames(loopTree.getCondition()));
        return completes;
      }
      case LABELED_STATEMENT -> {
        LabeledStatementTree labeled = (LabeledStatementTree) statement;
        Tree.Kind kind = labeled.getStatement().getKind();
        if (kind != Tree.Kind.WHILE_LOOP && kind != Tree.Kind.DO_WHILE_LOOP
            && kind != Tree.Kind.FOR_LOOP && kind != Tree.Kind.ENHANCED_FOR_LOOP) {
          unsupported(statement, "a label is supported only on a loop");
          return true;
        }
        pendingLabel = labeled.getLabel().toString();
        return lowerStatement(labeled.getStatement());
      }
      case BREAK -> {
        if (((BreakTree) statement).getLabel() == null && switches.breakLeavesSwitch()) {
          if (!switches.breakFromCase()) {
            unsupported(statement, "'break' inside a 'switch' is supported only as the last"
                + " statement of a case");
          }
          return false;
        }
        loops.lowerJump(Jump.Kind.BREAK, ((BreakTree) statement).getLabel(), statement);
        return false;
      }
      case CONTINUE -> {
        loops.lowerJump(Jump.Kind.CONTINUE, ((ContinueTree) statement).getLabel(), statement);
        return false;
      }
      case THROW -> {
        throwing.lowerThrow((ThrowTree) statement);
        return false;
      }
      case ENHANCED_FOR_LOOP -> {
        return loops.lowerForEach(label, (EnhancedForLoopTree) statement);
      }
      case SWITCH -> {
        return switches.statement((SwitchTree) statement);
      }
      case YIELD -> unsupported(statement, "'yield' is supported only as the last statement of"
          + " a case of a 'switch' expression: assign the value to a local declared at the"
          + " case's start, and yield that local as the case's last statement");
      case TRY -> {
        unsupported(statement, "'try' statement is not supported: a differentiable method may"
            + " throw unchecked exceptions for argument checks, but not catch them");
        markAssignedLocalsBroken(statement);
      }
      case SYNCHRONIZED -> {
        unsupported(statement, "'synchronized' statement is not supported: a differentiable"
            + " method reads no shared state");
        markAssignedLocalsBroken(statement);
      }
      case ASSERT -> throwing.lowerAssert((com.sun.source.tree.AssertTree) statement);
      case CLASS, INTERFACE, ENUM, RECORD -> {
        unsupported(statement,
            "local class declaration is not supported in a differentiable method");
        context.declareLocalClass(((com.sun.source.tree.ClassTree) statement).getSimpleName()
            .toString());
      }
      default -> {
        unsupported(statement, ExpressionLowering.describe(statement)
            + " is not supported in a differentiable method");
        markAssignedLocalsBroken(statement);
      }
    }
    return true;
  }

  private void lowerExpressionStatement(ExpressionTree expression) {
    if (expression instanceof AssignmentTree assignment && isRecordAssignment(assignment)) {
      String name = ((IdentifierTree) assignment.getVariable()).getName().toString();
      expressions.records().locals().assign(assignment, name, context.scopes().lookUp(name));
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

  // ---- helpers -----------------------------------------------------------------------------

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }

  /**
   * After an error at {@code statement}, which is not lowered: the locals it assigns hold
   * values no one knows, and their later reads report nothing more ("variable 's' might not
   * have been initialized" would follow the error that says what to change).
   */
  private void markAssignedLocalsBroken(StatementTree statement) {
    for (String name : AssignedNames.in(statement)) {
      LocalScopes.Local local = context.scopes().lookUp(name);
      if (local != null) {
        local.markBroken();
      }
    }
  }

  static Block prepend(List<Statement> first, Block block) {
    if (first.isEmpty()) {
      return block;
    }
    List<Statement> statements = new ArrayList<>(first);
    statements.addAll(block.statements());
    return new Block(statements);
  }
}
