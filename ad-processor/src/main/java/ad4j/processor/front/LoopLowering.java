package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
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
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import javax.lang.model.type.TypeMirror;

/**
 * Lowers loops ({@code while}, {@code do}, {@code for}, the enhanced {@code for}, and the
 * counting loops of stream pipelines and array copies), {@code break} and {@code continue}, and
 * a {@code return} inside a loop. Apart from {@link Lowering}'s statement walk because the loops
 * being lowered and the exits pending at their ends are state that only these statements read.
 *
 * <p>Multi-level exits are made single-level here, so that every loop completes normally: a
 * {@code return} inside a loop, or a {@code break} or {@code continue} of an outer loop, sets a
 * flag and breaks out of the innermost loop; after each loop the flag is tested and the exit
 * continues outwards. The reverse sweep then only meets loops that end by their own test or
 * {@code break}, and branches.
 */
final class LoopLowering {
  /** The statement walk, which lowers a loop's body and a {@code for} loop's updates. */
  interface Statements {
    /** Lowers one statement; returns whether it can complete normally. */
    boolean lowerStatement(StatementTree statement);

    /** Lowers a statement that is an expression ({@code i++}). */
    void lowerExpressionStatement(ExpressionTree expression);
  }

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
  private final DeclarationLowering declarations;
  private final Statements statements;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  private LoopFrame loop;
  /**
   * The first update of the {@code for} loop being lowered that changes a value with a
   * derivative, which {@link #lowerLoop} moves to the end of its body; null when none does.
   */
  private ExpressionStatementTree updateIntoBody;
  private Variable returning;
  private Variable returnValue;

  LoopLowering(LoweringContext context, ExpressionLowering expressions, SwitchLowering switches,
      DeclarationLowering declarations, Statements statements) {
    this.context = context;
    this.expressions = expressions;
    this.switches = switches;
    this.declarations = declarations;
    this.statements = statements;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
  }

  /** Whether a loop is being lowered: a {@code return} leaves the loops first. */
  boolean inLoop() {
    return loop != null;
  }

  /**
   * {@code return value} inside a loop, of a method whose result has type {@code resultType}:
   * {@code expression} is the returned expression.
   */
  void returnFromLoop(Operand value, ExpressionTree expression, NumericType resultType) {
    // A return inside a loop: remember the value, leave the loops one by one, return after.
    if (returning == null) {
      returning = context.ir().variable("returning", NumericType.BOOLEAN, null);
      returnValue = context.ir().variable("returnValue", resultType, null);
      context.variables().prologue().add(new Declare(returning, Operand.Constant.of(false),
          context.line()));
      context.variables().prologue().add(new Declare(returnValue,
          Operand.Constant.zero(resultType), context.line()));
    }
    Store result = new Store(returnValue, value, context.line());
    context.dependences().givesResult(result, expression);
    ir.add(result);
    ir.add(new Store(returning, Operand.Constant.of(true), context.line()));
    ir.add(new Jump(Jump.Kind.BREAK, loop.id, context.line()));
    loop.exits.add(new Exit(returning, Jump.Kind.BREAK, null));
  }

  /**
   * {@code for (index = from; index < to; index++) body(index)} with an index of
   * {@code indexType} ({@code int} or {@code long}): the loop of a stream pipeline. With a
   * {@code guard} (null for none), the loop ends as soon as it is false.
   */
  void countingLoop(Operand from, Operand to, NumericType indexType, Supplier<Operand> guard,
      java.util.function.Consumer<Operand> body) {
    Variable index = ir.variable("index", indexType, null);
    ir.add(new Declare(index, from, context.line()));
    Supplier<Operand> below = () -> context.emit(Operation.infix("<"),
        List.of(new Operand.Use(context.readVariable(index)), to), NumericType.BOOLEAN, false);
    // comparing the index has no effect, so both are evaluated: '!decided & index < n'
    Supplier<Operand> test = guard == null ? below : () -> context.emit(Operation.infix("&"),
        List.of(guard.get(), below.get()), NumericType.BOOLEAN, false);
    Runnable step = () -> {
      Operand next = context.emit(Operation.ADD,
          List.of(new Operand.Use(context.readVariable(index)), Operand.Constant.of(1)),
          indexType, false);
      ir.add(new Store(index, next, context.line()));
    };
    lowerLoop(null, null, test, true,
        () -> body.accept(new Operand.Use(context.readVariable(index))), null, step);
  }

  /**
   * {@code for (T e : array)} over an array of another element type or rank ({@code long[]},
   * {@code Mode[]}, {@code int[][]}): a counting loop whose elements are read as written.
   */
  private boolean lowerForEachOther(String label, EnhancedForLoopTree tree, Operand array) {
    VariableTree element = tree.getVariable();
    String name = element.getName().toString();
    TypeMirror component = ((javax.lang.model.type.ArrayType)
        context.javaTypes().referenceTypeOf(array).orElseThrow()).getComponentType();
    Tree typeTree = element.getType();
    boolean inferred = typeTree == null || (typeTree instanceof IdentifierTree identifier
        && identifier.getName().contentEquals("var"));
    TypeMirror declared = inferred ? component
        : context.javaTypes().typeMirrorOf(typeTree).orElse(null);
    if (context.javaTypes().irType(component).isEmpty()) {
      // short, byte or char elements: no variable, of any type, could be given one of them
      unsupported(tree.getExpression(), "enhanced 'for' loop over '"
          + context.source().of(tree.getExpression()) + "', a '"
          + context.javaTypes().referenceTypeOf(array).orElseThrow() + "': ad4j does not"
          + " compute with '" + component + "' elements; read them with a method that is not"
          + " @Differentiable, which runs as written ('static int at(" + component
          + "[] a, int i) { return a[i]; }')");
      return true;
    }
    NumericType kind = declared == null ? null : context.javaTypes().irType(declared).orElse(null);
    if (declared == null || kind == null || !context.types().isAssignable(component, declared)) {
      unsupported(inferred ? tree.getVariable() : typeTree, "the variable '" + name + "' of an"
          + " enhanced 'for' loop over a '"
          + context.javaTypes().referenceTypeOf(array).orElseThrow()
          + "' must have type '" + component + "'");
      return true;
    }
    return lowerCountingLoop(label, tree, array, index -> {
      Operand value = expressions.otherElement(array, index, tree.getExpression());
      if (value == null) {
        return; // after an error at the array: its elements' type cannot be named
      }
      if (kind == NumericType.OBJECT) {
        context.scopes().declareLocal(name, kind, declared,
            context.javaTypes().javaText(declared).orElseThrow(), context);
      } else {
        value = expressions.conversions().convert(value, kind);
        context.scopes().declareLocal(name, kind, context);
      }
      declarations.declareOrBind(name, value);
    });
  }

  /**
   * {@code for (T v : a) body}: {@code a} evaluated once, then a counting loop over its
   * elements, {@code v} declared from {@code a[index]} at the start of each iteration.
   */
  boolean lowerForEach(String label, EnhancedForLoopTree tree) {
    Operand array = expressions.lower(tree.getExpression());
    if (array == null) {
      return true;
    }
    if (expressions.isOtherArray(array)) {
      return lowerForEachOther(label, tree, array);
    }
    IterableLoops iterables = new IterableLoops(context, expressions);
    if (iterables.isIterable(array)) {
      return lowerForEachIterable(label, tree, array, iterables);
    }
    if (!array.type().isArray()) {
      unsupported(tree.getExpression(), "enhanced 'for' loop over '"
          + context.source().of(tree.getExpression()) + "', of type '" + array.type().keyword()
          + "': only arrays and Iterables can be walked; use a counting loop");
      return true;
    }
    VariableTree element = tree.getVariable();
    String name = element.getName().toString();
    Tree typeTree = element.getType();
    boolean inferred = typeTree == null || (typeTree instanceof IdentifierTree identifier
        && identifier.getName().contentEquals("var"));
    NumericType elementType = array.type().elementType();
    NumericType declared = inferred ? elementType
        : JavaTypes.typeOf(typeTree).orElse(null);
    if (declared == null || !elementType.widensTo(declared)) {
      unsupported(typeTree, "the variable '" + name + "' of an enhanced 'for' loop over a '"
          + array.type().keyword() + "' must have type '" + elementType.keyword() + "'");
      return true;
    }
    return lowerCountingLoop(label, tree, array, index -> {
      Operand value = context.emit(Operation.ELEMENT, List.of(array, index), elementType,
          array instanceof Operand.Use use && use.value().isActiveArray());
      if (elementType.isArray() && array instanceof Operand.Use use
          && context.arrays().isReadOnly(use.value())) {
        context.arrays().markReadOnly(((Operand.Use) value).value());
      }
      value = expressions.conversions().convert(value, declared);
      context.scopes().declareLocal(name, declared, context);
      declarations.declareOrBind(name, value);
    });
  }

  /**
   * {@code for (T v : iterable) body} over an {@code Iterable} that carries no derivative:
   * {@code iterable.iterator()} once, then {@code hasNext()} before each iteration and
   * {@code v} declared from {@code next()} at its start ({@link IterableLoops}).
   */
  private boolean lowerForEachIterable(String label, EnhancedForLoopTree tree, Operand iterable,
      IterableLoops iterables) {
    IterableLoops.Walk walk = IterableLoops.Walk.of(tree,
        context.source().of(tree.getExpression()));
    Operand iterator = iterables.iterator(walk, iterable);
    java.util.Optional<IterableLoops.Variable> variable = iterator == null
        ? java.util.Optional.empty() : iterables.variable(tree, iterator);
    if (variable.isEmpty()) {
      return true; // the body is not lowered: the error is the loop's
    }
    IterableLoops.Variable declared = variable.get();
    return walkLoop(label, iterables, walk, iterator, null, element -> {
      context.scopes().declareLocal(declared.name(), declared.kind(), declared.mirror(),
          declared.text(), context);
      declarations.declareOrBind(declared.name(), iterables.held(element, declared));
    }, tree.getStatement());
  }

  /**
   * A loop over the elements of {@code iterable}, an {@code Iterable} that carries no
   * derivative, as {@code walk} names it: {@code iterator()} once, then {@code hasNext()}
   * before each iteration and {@code body} given what {@code next()} returns at its start (the
   * loop of a stream pipeline over a collection). With a {@code guard} (null for none), the
   * loop ends as soon as it is false, before {@code hasNext()} is called again
   * ({@link #guarded}). Returns false after an error before it.
   */
  boolean iteratorLoop(Operand iterable, IterableLoops.Walk walk, Supplier<Operand> guard,
      java.util.function.Consumer<Operand> body) {
    IterableLoops iterables = new IterableLoops(context, expressions);
    Operand iterator = iterables.iterator(walk, iterable);
    if (iterator == null) {
      return false;
    }
    walkLoop(null, iterables, walk, iterator, guard, body, null);
    return true;
  }

  /**
   * The loop over what {@code iterator} gives: {@code hasNext()} before each iteration (after
   * {@code guard}, when there is one), {@code atStart} given what {@code next()} returns, then
   * {@code bodyTree} (none for a stream's).
   */
  private boolean walkLoop(String label, IterableLoops iterables, IterableLoops.Walk walk,
      Operand iterator, Supplier<Operand> guard, java.util.function.Consumer<Operand> atStart,
      StatementTree bodyTree) {
    Runnable start = () -> {
      Operand element = iterables.next(walk, iterator);
      if (element != null) {
        atStart.accept(element);
      }
    };
    return lowerLoop(label, null, guarded(guard, () -> iterables.hasNext(walk, iterator)), true,
        start, bodyTree, () -> { });
  }

  /**
   * {@code guard && test}, {@code test} lowered only where {@code guard} is true, as a stream's
   * short-circuiting end stops pulling elements once it has its answer ({@code anyMatch}): an
   * iterator's {@code hasNext()} is then not called again. {@code test} itself when there is
   * no guard.
   */
  private Supplier<Operand> guarded(Supplier<Operand> guard, Supplier<Operand> test) {
    if (guard == null) {
      return test;
    }
    return () -> {
      Operand open = guard.get();
      Variable more = ir.variable("more", NumericType.BOOLEAN, null);
      ir.add(new Declare(more, open, context.line()));
      ir.openBlock();
      ir.add(new Store(more, test.get(), context.line()));
      Block tested = ir.closeBlock();
      ir.add(new If(ir.nextStatementId(), open, tested, new Block(List.of()), context.line()));
      return new Operand.Use(context.readVariable(more));
    };
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

  boolean lowerLoop(String label, ExpressionTree conditionTree, boolean testFirst,
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
        statements.lowerExpressionStatement(update.getExpression());
        List<Statement> lowered = ir.closeBlock().statements();
        if (updateIntoBody == null && (assignsADouble(new Block(lowered))
            || lowered.stream().anyMatch(LoopLowering::changesADouble))) {
          // 't += dt' of a double, or 'i += 1.5 + x * x' computed from a value with a
          // derivative: the loop's update holds counters only, so it ends the body instead
          updateIntoBody = update;
        }
        lowered.forEach(ir::add);
      }
    };
    return lowerLoop(label, conditionTree, test, testFirst, () -> { }, bodyTree, updates);
  }

  /**
   * A loop of the user's: {@code lowerTest} lowers its condition (null for none: an endless
   * loop), {@code bodyStart} what each iteration does before the body's statements,
   * {@code lowerUpdate} what it does after them ({@code i++}).
   */
  boolean lowerLoop(String label, ExpressionTree conditionTree,
      Supplier<Operand> lowerTest, boolean testFirst, Runnable bodyStart, StatementTree bodyTree,
      Runnable lowerUpdate) {
    return lowerLoop(label, conditionTree, lowerTest, testFirst, bodyStart, bodyTree,
        lowerUpdate, Loop.Kind.WRITTEN);
  }

  /**
   * The loop a library call's copy or fill is written out as ({@link ArrayCopies}):
   * {@code lowerTest} before each iteration, then {@code body}, then {@code step}.
   */
  void generatedLoop(Supplier<Operand> lowerTest, Runnable body, Runnable step) {
    lowerLoop(null, null, lowerTest, true, body, null, step, Loop.Kind.GENERATED);
  }

  private boolean lowerLoop(String label, ExpressionTree conditionTree,
      Supplier<Operand> lowerTest, boolean testFirst, Runnable bodyStart, StatementTree bodyTree,
      Runnable lowerUpdate, Loop.Kind kind) {
    SourceLine line = context.line();
    LoopFrame frame = new LoopFrame(ir.nextStatementId(), label, loop);
    context.loops().enter();
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
      statements.lowerStatement(bodyTree);
    }
    switches.setBreakLeavesSwitch(breakLeftSwitch);
    context.scopes().pop();
    Block body = Lowering.prepend(context.variables().loopPrologue(frame.id), ir.closeBlock());
    ir.openBlock();
    lowerUpdate.run();
    Block update = ir.closeBlock();
    if (updateIntoBody != null) {
      body = updateEndingBody(frame.id, updateIntoBody, body, update);
      update = new Block(List.of());
      updateIntoBody = null;
    }
    loop = frame.outer;
    context.loops().leave();
    context.restoreLine(line);
    if (test != null && !constantTrue && assignsADouble(condition)) {
      // The condition changes a derivative-carrying local: it becomes part of the body, so that
      // every evaluation of it is differentiated like the body's own statements.
      body = conditionInBody(frame.id, conditionTree, condition, test, testFirst, body, line);
      condition = new Block(List.of());
      test = null;
    }
    ir.add(new Loop(frame.id, condition, constantTrue ? null : test, testFirst, body, update,
        line, kind));
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
    List<Statement> prologue = context.variables().loopPrologue(loopId);
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

  /**
   * {@code body} followed by {@code update}, the update of a {@code for} loop that changes a
   * value with a derivative ({@code for (double t = 0; t < end; t += dt)}): Java runs the update
   * after each iteration that ends normally or by {@code continue}, which is what ending the
   * body with it does when nothing continues the loop. A {@code continue} would skip it there,
   * so it is an error; after a body that always leaves by a jump, the update never runs.
   */
  private Block updateEndingBody(int loopId, ExpressionStatementTree updateTree, Block body,
      Block update) {
    if (body.jumpsTo(loopId, Jump.Kind.CONTINUE)) {
      unsupported(updateTree, "a 'for' loop whose update changes a 'double' ('"
          + context.source().of(updateTree.getExpression()) + "') cannot be continued: ad4j"
          + " differentiates such an update as the end of the loop body, which 'continue'"
          + " would skip; use 'if' instead of 'continue', or make the update in the body");
      return body;
    }
    List<Statement> statements = new ArrayList<>(body.statements());
    if (!statements.isEmpty() && statements.get(statements.size() - 1) instanceof Jump) {
      return body;
    }
    statements.addAll(update.statements());
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

  void lowerJump(Jump.Kind kind, javax.lang.model.element.Name label, Tree tree) {
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
    context.variables().loopPrologue(target.id).add(new Declare(flag, Operand.Constant.of(false),
        context.line()));
    ir.add(new Store(flag, Operand.Constant.of(true), context.line()));
    ir.add(new Jump(Jump.Kind.BREAK, loop.id, context.line()));
    loop.exits.add(new Exit(flag, kind, target));
  }

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
