package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Expr;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Consumer;

/**
 * {@code DoubleStream} and {@code IntStream} pipelines over arrays, listed values and ranges,
 * lowered to the loops they are: {@code Arrays.stream(a)}, {@code Arrays.stream(a, from, to)},
 * {@code DoubleStream.of(...)}, {@code IntStream.of(...)}, {@code IntStream.range(i, j)} and
 * {@code rangeClosed(i, j)}, then
 * {@code map}, {@code mapToDouble}, {@code asDoubleStream} and {@code filter}, ended by
 * {@code sum()}, {@code reduce(identity, op)}, or {@code average()}, {@code max()} or
 * {@code min()} with {@code getAsDouble()}, {@code getAsInt()} or {@code orElse(v)}. A sequential
 * stream takes each element through every stage before the next, so the loop does the same, in
 * the same order; the functions of the stages are inlined ({@link FunctionValues}).
 *
 * <p>{@code DoubleStream.sum()} and {@code average()} add with compensation (Kahan's, as the
 * JDK's {@code Collectors.sumWithCompensation} and {@code computeFinalSum} do), so their value
 * differs in the last bits from a plain loop's: the lowered loop does the same arithmetic, so the
 * generated members return the user's value bit for bit. Its derivative is the derivative of the
 * exact sum, which the plain sum it keeps beside has too (in exact arithmetic the compensation
 * is identically zero): the sum is {@link Operation#WITH_DERIVATIVE_OF} the plain sum, so that
 * no derivative flows through the compensation's chain of dependent additions. The reverse
 * sweep then runs none of it, and a member that returns no value leaves it out
 * ({@code optimize/GradientWithoutValue}). The adjoints are what the compensated chain gave
 * them, bit for bit (each element's is the sum's); a tangent is the plain sum of the
 * elements' tangents.
 */
final class StreamLowering {

  /** Builds counting loops; {@link LoopLowering#countingLoop} gives them. */
  interface Loops {
    /** {@code for (index = from; index < to; index++) body(index)}, of {@code indexType}. */
    void countingLoop(Operand from, Operand to, NumericType indexType, Consumer<Operand> body);
  }

  /** The operations ad4j lowers, for messages. */
  static final String SUPPORTED = "ad4j lowers streams made by 'Arrays.stream(a)',"
      + " 'Arrays.stream(a, from, to)',"
      + " 'DoubleStream.of(...)', 'IntStream.of(...)', 'IntStream.range(i, j)' and"
      + " 'rangeClosed(i, j)', with 'map', 'mapToDouble', 'asDoubleStream' and 'filter', ended by"
      + " 'sum()', 'reduce(identity, op)', or 'average()', 'max()' or 'min()' with"
      + " 'getAsDouble()', 'getAsInt()' or 'orElse(v)'";

  /** A stage between the source and the end. */
  private sealed interface Stage {}

  private record Map(FunctionValues.Known function, MethodInvocationTree call,
      NumericType to) implements Stage {}

  private record Filter(FunctionValues.Known predicate, MethodInvocationTree call)
      implements Stage {}

  private record Widen() implements Stage {}

  /** What a terminal operation keeps while the elements go by. */
  private enum Terminal { SUM, AVERAGE, REDUCE, MAX, MIN }

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final FunctionValues functions;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  private Loops loops;

  StreamLowering(LoweringContext context, ExpressionLowering expressions,
      FunctionValues functions) {
    this.context = context;
    this.expressions = expressions;
    this.functions = functions;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
  }

  void useLoops(Loops loopBuilder) {
    this.loops = loopBuilder;
  }

  /**
   * The source of the stream {@code call} operates on, or empty when it is no such call. A
   * pipeline with an operation that is not lowered and no function given to any stage
   * ({@code IntStream.range(0, n).toArray()}) is not one either: it runs as written, as calls on
   * objects do, and carries no derivative.
   */
  Optional<MethodInvocationTree> source(MethodInvocationTree call) {
    if (runAsWritten.contains(call)) {
      return Optional.empty();
    }
    ExpressionTree at = call;
    boolean unlisted = false;
    boolean givesFunction = false;
    List<MethodInvocationTree> chain = new ArrayList<>();
    while (at instanceof MethodInvocationTree invocation
        && invocation.getMethodSelect() instanceof MemberSelectTree select) {
      chain.add(invocation);
      if (isSource(invocation)) {
        if (unlisted && !givesFunction) {
          runAsWritten.addAll(chain); // its receivers are lowered next, as objects
          return Optional.empty();
        }
        return Optional.of(invocation);
      }
      unlisted |= !LISTED.contains(select.getIdentifier().toString());
      givesFunction |= invocation.getArguments().stream().anyMatch(argument ->
          argument.getKind() == com.sun.source.tree.Tree.Kind.LAMBDA_EXPRESSION
              || argument.getKind() == com.sun.source.tree.Tree.Kind.MEMBER_REFERENCE);
      at = select.getExpression();
    }
    return Optional.empty();
  }

  /** The calls of pipelines that run as written ({@link #source}). */
  private final java.util.Set<com.sun.source.tree.Tree> runAsWritten = new java.util.HashSet<>();

  /** The stream operations after a source that ad4j lowers, as messages list them. */
  private static final List<String> OPERATIONS = List.of("map", "mapToDouble",
      "asDoubleStream", "filter", "sum", "average", "reduce", "max", "min");

  /** The calls after a source that ad4j lowers: the operations, and the optional's readers. */
  private static final java.util.Set<String> LISTED = java.util.Set.copyOf(
      java.util.stream.Stream.concat(OPERATIONS.stream(),
          java.util.stream.Stream.of("getAsDouble", "getAsInt", "orElse")).toList());

  /**
   * What to add to an error at {@code method}, a call run as written that is given an array
   * carrying derivatives: where it is the source of a stream over that array, the pipeline
   * runs as written because one of its operations is not in {@link #OPERATIONS} ({@code
   * sorted()}, {@code toArray()}; see {@link #source}), which the error about the source alone
   * would not say. Empty for other methods.
   */
  static String runAsWrittenAdvice(javax.lang.model.element.ExecutableElement method) {
    String owner = ((javax.lang.model.element.TypeElement) method.getEnclosingElement())
        .getQualifiedName().toString();
    String name = method.getSimpleName().toString();
    boolean source = owner.equals("java.util.Arrays") && name.equals("stream")
        || owner.equals("java.util.stream.DoubleStream") && name.equals("of");
    return source ? "; a stream over the array is differentiated only where each of its"
        + " operations is " + String.join(", ", OPERATIONS.subList(0, OPERATIONS.size() - 1))
        + " or " + OPERATIONS.get(OPERATIONS.size() - 1) + ": another one (sorted, toArray,"
        + " ...) makes the pipeline run as written" : "";
  }

  /** {@code Arrays.stream}, {@code DoubleStream.of}, {@code IntStream.of}, {@code range}... */
  private boolean isSource(MethodInvocationTree call) {
    if (!(call.getMethodSelect() instanceof MemberSelectTree select)
        || !Symbols.isName(select.getExpression())
        || (select.getExpression() instanceof IdentifierTree name
            && (context.scopes().lookUp(name.getName().toString()) != null
                || context.symbols().resolveField(name.getName().toString()).isPresent()))) {
      return false;
    }
    String method = select.getIdentifier().toString();
    Optional<String> owner = context.symbols().resolveType(select.getExpression())
        .map(type -> type.getQualifiedName().toString());
    if (owner.isEmpty()) {
      return false;
    }
    return switch (owner.get()) {
      case "java.util.Arrays" -> method.equals("stream");
      case "java.util.stream.DoubleStream" -> method.equals("of");
      case "java.util.stream.IntStream" -> method.equals("of") || method.equals("range")
          || method.equals("rangeClosed");
      default -> false;
    };
  }

  /** Lowers the pipeline that {@code call} ends, from {@code source}; null after an error. */
  Operand lower(MethodInvocationTree call, MethodInvocationTree source) {
    LinkedList<MethodInvocationTree> calls = new LinkedList<>();
    for (ExpressionTree at = call; at != source;
        at = ((MemberSelectTree) ((MethodInvocationTree) at).getMethodSelect()).getExpression()) {
      calls.addFirst((MethodInvocationTree) at);
    }
    Elements elements = elements(source);
    if (elements == null) {
      return null;
    }
    NumericType type = elements.type();
    List<Stage> stages = new ArrayList<>();
    int i = 0;
    for (; i < calls.size(); i++) {
      MethodInvocationTree stage = calls.get(i);
      String name = name(stage);
      String streamName = type == NumericType.DOUBLE ? "DoubleStream" : "IntStream";
      if (name.equals("map") && stage.getArguments().size() == 1) {
        FunctionValues.Known function = functions.argument(stage.getArguments().get(0),
            new FunctionValues.Signature(type == NumericType.DOUBLE ? "applyAsDouble"
                : "applyAsInt", List.of(type), type, false));
        if (function == null) {
          return null;
        }
        stages.add(new Map(function, stage, type));
      } else if (name.equals("mapToDouble") && type == NumericType.INT
          && stage.getArguments().size() == 1) {
        FunctionValues.Known function = functions.argument(stage.getArguments().get(0),
            new FunctionValues.Signature("applyAsDouble", List.of(type), NumericType.DOUBLE,
                false));
        if (function == null) {
          return null;
        }
        stages.add(new Map(function, stage, NumericType.DOUBLE));
        type = NumericType.DOUBLE;
      } else if (name.equals("asDoubleStream") && type == NumericType.INT
          && stage.getArguments().isEmpty()) {
        stages.add(new Widen());
        type = NumericType.DOUBLE;
      } else if (name.equals("filter") && stage.getArguments().size() == 1) {
        FunctionValues.Known predicate = functions.argument(stage.getArguments().get(0),
            new FunctionValues.Signature("test", List.of(type), NumericType.BOOLEAN, false));
        if (predicate == null) {
          return null;
        }
        stages.add(new Filter(predicate, stage));
      } else if (isTerminal(name, stage)) {
        break;
      } else {
        unsupported(stage, "stream operation '" + name + "' of " + streamName
            + " is not supported: " + SUPPORTED);
        return null;
      }
    }
    if (i == calls.size()) {
      unsupported(calls.isEmpty() ? source : calls.getLast(), "the stream '"
          + context.source().of(calls.isEmpty() ? source : calls.getLast()) + "' is not ended"
          + " here: " + SUPPORTED + "; a stream cannot be stored or passed on");
      return null;
    }
    MethodInvocationTree end = calls.get(i);
    Terminal terminal = Terminal.valueOf(name(end).toUpperCase(java.util.Locale.ROOT));
    boolean optional = terminal == Terminal.AVERAGE || terminal == Terminal.MAX
        || terminal == Terminal.MIN;
    MethodInvocationTree unwrap = null;
    if (optional) {
      NumericType optionalType = terminal == Terminal.AVERAGE ? NumericType.DOUBLE : type;
      String getter = optionalType == NumericType.DOUBLE ? "getAsDouble" : "getAsInt";
      unwrap = i + 1 < calls.size() ? calls.get(i + 1) : null;
      if (unwrap == null || !(name(unwrap).equals(getter) && unwrap.getArguments().isEmpty()
          || name(unwrap).equals("orElse") && unwrap.getArguments().size() == 1)) {
        unsupported(unwrap == null ? end : unwrap, "the result of '" + name(end) + "()' must be"
            + " read at once by '" + getter + "()' or 'orElse(v)': " + SUPPORTED);
        return null;
      }
      i++;
    }
    if (i + 1 < calls.size()) {
      unsupported(calls.get(i + 1), "stream operation '" + name(calls.get(i + 1))
          + "' is not supported after '" + name(calls.get(i)) + "': " + SUPPORTED);
      return null;
    }
    return run(elements, stages, terminal, end, unwrap, type);
  }

  private static String name(MethodInvocationTree call) {
    return ((MemberSelectTree) call.getMethodSelect()).getIdentifier().toString();
  }

  private static boolean isTerminal(String name, MethodInvocationTree call) {
    int arity = call.getArguments().size();
    return switch (name) {
      case "sum", "average", "max", "min" -> arity == 0;
      case "reduce" -> arity == 2;
      default -> false;
    };
  }

  // ---- sources ----------------------------------------------------------------------------

  /**
   * The elements a stream goes over: an array's from index 0 to its length, a range of ints
   * ({@code array} null), or values listed one by one ({@code listed}).
   */
  private record Elements(NumericType type, Operand array, Operand from, Operand to,
      boolean closed, List<Operand> listed) {}

  private Elements elements(MethodInvocationTree source) {
    String name = name(source);
    List<Operand> arguments = new ArrayList<>();
    for (ExpressionTree argument : source.getArguments()) {
      arguments.add(expressions.lower(argument));
    }
    if (arguments.contains(null)) {
      return null;
    }
    String owner = context.source().of(
        ((MemberSelectTree) source.getMethodSelect()).getExpression());
    if (name.equals("range") || name.equals("rangeClosed")) {
      if (arguments.size() != 2 || !arguments.stream().allMatch(
          a -> a.type().widensTo(NumericType.INT))) {
        unsupported(source, "'" + context.source().of(source) + "' takes two 'int' bounds");
        return null;
      }
      return new Elements(NumericType.INT, null, expressions.conversions().convert(arguments.get(0),
          NumericType.INT), expressions.conversions().convert(arguments.get(1), NumericType.INT),
          name.equals("rangeClosed"), null);
    }
    boolean ofArray = arguments.size() == 1 && arguments.get(0).type().isArray();
    if (name.equals("stream") || ofArray) {
      boolean ranged = name.equals("stream") && arguments.size() == 3
          && arguments.get(1).type().widensTo(NumericType.INT)
          && arguments.get(2).type().widensTo(NumericType.INT);
      if (arguments.size() != 1 && !ranged || (arguments.get(0).type() != NumericType.DOUBLE_ARRAY
          && arguments.get(0).type() != NumericType.INT_ARRAY)) {
        unsupported(source, "'" + context.source().of(source) + "' is not supported: " + SUPPORTED
            + " over a 'double[]' or 'int[]'");
        return null;
      }
      Operand array = arguments.get(0);
      Operand length = context.emit(Operation.LENGTH, List.of(array), NumericType.INT, false);
      if (!ranged) {
        return new Elements(array.type().elementType(), array, Operand.Constant.of(0), length,
            false, null);
      }
      Operand from = expressions.conversions().convert(arguments.get(1), NumericType.INT);
      Operand to = expressions.conversions().convert(arguments.get(2), NumericType.INT);
      checkBounds(length, from, to);
      return new Elements(array.type().elementType(), array, from, to, false, null);
    }
    NumericType type = owner.endsWith("IntStream") ? NumericType.INT : NumericType.DOUBLE;
    List<Operand> listed = new ArrayList<>();
    for (int k = 0; k < arguments.size(); k++) {
      if (!expressions.conversions()
          .assignable(arguments.get(k), type, source.getArguments().get(k))) {
        return null;
      }
      listed.add(expressions.conversions().widened(arguments.get(k), type));
    }
    return new Elements(type, null, null, null, false, listed);
  }

  /**
   * The checks {@code Arrays.stream(a, from, to)} makes before it streams anything (the JDK's
   * {@code Spliterators.checkFromToBounds}), with the same exceptions and messages, so that
   * every generated member fails where and as the method does.
   */
  private void checkBounds(Operand length, Operand from, Operand to) {
    String exception = context.javaTypes().referenceTo(
        context.elements().getTypeElement("java.lang.ArrayIndexOutOfBoundsException"));
    throwIf(Operation.infix(">"), from, to, new Throw(exception,
        List.of("\"origin(\"", from, "\") > fence(\"", to, "\")\""), true, context.line()));
    throwIf(Operation.infix("<"), from, Operand.Constant.of(0),
        new Throw(exception, List.of(), false, List.of(from), context.line()));
    throwIf(Operation.infix(">"), to, length,
        new Throw(exception, List.of(), false, List.of(to), context.line()));
  }

  /** {@code if (left comparison right) thrown}. */
  private void throwIf(Operation comparison, Operand left, Operand right, Throw thrown) {
    Operand condition = context.emit(comparison, List.of(left, right), NumericType.BOOLEAN,
        false);
    ir.openBlock();
    ir.add(thrown);
    Block then = ir.closeBlock();
    ir.add(new If(ir.nextStatementId(), condition, then, new Block(List.of()), context.line()));
  }

  // ---- the loop ---------------------------------------------------------------------------

  /** What the terminal operation keeps: its variables. */
  private final class State {
    final Terminal terminal;
    final NumericType type;
    Variable sum;
    Variable compensation;
    Variable simple;
    Variable count;
    Variable longSum;
    Variable accumulator;
    Variable seen;
    FunctionValues.Known operator;
    MethodInvocationTree end;

    State(Terminal terminal, NumericType type) {
      this.terminal = terminal;
      this.type = type;
    }

    Variable declare(String name, NumericType variableType, Operand initial) {
      Variable variable = ir.variable(name, variableType, null);
      ir.add(new Declare(variable, initial, context.line()));
      return variable;
    }

    Operand read(Variable variable) {
      return new Operand.Use(context.readVariable(variable));
    }

    void store(Variable variable, Operand value) {
      ir.add(new Store(variable, value, context.line()));
    }

    /**
     * One step of {@code Collectors.sumWithCompensation}, and the simple sum. The compensated
     * sum's steps carry no derivative: the derivative is the simple sum's ({@link #finalSum}).
     */
    void addCompensated(Operand value) {
      Operand tmp = valueOnly(Operation.SUBTRACT, value, read(compensation));
      Operand before = read(sum);
      Operand velvel = valueOnly(Operation.ADD, before, tmp);
      Operand low = valueOnly(Operation.SUBTRACT,
          valueOnly(Operation.SUBTRACT, velvel, before), tmp);
      store(compensation, low);
      store(sum, velvel);
      store(simple, emit(Operation.ADD, read(simple), value));
    }

    /** {@code left op right}, computed for its value only: it carries no derivative. */
    private Operand valueOnly(Operation operation, Operand left, Operand right) {
      return context.emit(operation, List.of(left, right), NumericType.DOUBLE, false);
    }

    /**
     * {@code Collectors.computeFinalSum}: the sum less its compensation, or the simple sum,
     * with the simple sum's derivative.
     */
    Operand finalSum() {
      Operand tmp = valueOnly(Operation.SUBTRACT, read(sum), read(compensation));
      Variable result = declare("sum", NumericType.DOUBLE, tmp);
      String infinity = context.javaTypes().referenceTo(
          context.elements().getTypeElement("java.lang.Double"));
      Operand positive = new Operand.Constant(Expr.atom(infinity + ".POSITIVE_INFINITY"),
          NumericType.DOUBLE, OptionalDouble.of(Double.POSITIVE_INFINITY));
      Operand negative = new Operand.Constant(Expr.atom(infinity + ".NEGATIVE_INFINITY"),
          NumericType.DOUBLE, OptionalDouble.of(Double.NEGATIVE_INFINITY));
      Operand simpleSum = read(simple);
      Operand isNaN = context.emit(Operation.infix("!="), List.of(tmp, tmp), NumericType.BOOLEAN,
          false);
      Operand infinite = context.emit(Operation.infix("|"), List.of(
          context.emit(Operation.infix("=="), List.of(simpleSum, positive), NumericType.BOOLEAN,
              false),
          context.emit(Operation.infix("=="), List.of(simpleSum, negative), NumericType.BOOLEAN,
              false)), NumericType.BOOLEAN, false);
      Operand both = context.emit(Operation.infix("&"), List.of(isNaN, infinite),
          NumericType.BOOLEAN, false);
      ir.openBlock();
      store(result, context.emit(Operation.COPY, List.of(simpleSum), NumericType.DOUBLE, false));
      Block then = ir.closeBlock();
      ir.add(new If(ir.nextStatementId(), both, then, new Block(List.of()), context.line()));
      // the value is the compensated sum's; the derivative, the plain sum's
      return context.emit(Operation.WITH_DERIVATIVE_OF, List.of(read(result), read(simple)),
          NumericType.DOUBLE, simpleSum.isActive());
    }
  }

  private Operand emit(Operation operation, Operand left, Operand right) {
    boolean active = left.isActive() || right.isActive();
    NumericType type = left.type() == NumericType.DOUBLE || right.type() == NumericType.DOUBLE
        ? NumericType.DOUBLE : left.type();
    return context.emit(operation, List.of(left, right), type, active);
  }

  private Operand run(Elements elements, List<Stage> stages, Terminal terminal,
      MethodInvocationTree end, MethodInvocationTree unwrap, NumericType type) {
    State state = new State(terminal, type);
    state.end = end;
    switch (terminal) {
      case SUM -> {
        if (type == NumericType.DOUBLE) {
          declareCompensated(state);
        } else {
          state.accumulator = state.declare("sum", NumericType.INT, Operand.Constant.of(0));
        }
      }
      case AVERAGE -> {
        if (type == NumericType.DOUBLE) {
          declareCompensated(state);
          state.count = state.declare("count", NumericType.DOUBLE, Operand.Constant.of(0.0));
        } else {
          state.count = state.declare("count", NumericType.LONG, longZero());
          state.longSum = state.declare("sum", NumericType.LONG, longZero());
        }
      }
      case REDUCE -> {
        Operand identity = expressions.lower(end.getArguments().get(0));
        if (identity == null
            || !expressions.conversions().assignable(identity, type, end.getArguments().get(0))) {
          return null;
        }
        state.operator = functions.argument(end.getArguments().get(1),
            new FunctionValues.Signature(type == NumericType.DOUBLE ? "applyAsDouble"
                : "applyAsInt", List.of(type, type), type, false));
        if (state.operator == null) {
          return null;
        }
        state.accumulator = state.declare("reduced", type,
            expressions.conversions().convert(identity, type));
      }
      case MAX, MIN -> {
        state.seen = state.declare("seen", NumericType.BOOLEAN, Operand.Constant.of(false));
        state.accumulator = state.declare(terminal == Terminal.MAX ? "max" : "min", type,
            Operand.Constant.zero(type));
      }
    }
    boolean[] failed = {false};
    Consumer<Operand> each = element -> failed[0] |= !element(element, stages, 0, state);
    if (elements.listed() != null) {
      elements.listed().forEach(each);
    } else if (elements.array() != null) {
      Operand array = elements.array();
      boolean active = array instanceof Operand.Use use && use.value().isActiveArray();
      loops.countingLoop(elements.from(), elements.to(), NumericType.INT, index -> each.accept(
          context.emit(Operation.ELEMENT, List.of(array, index), elements.type(),
              active && elements.type() == NumericType.DOUBLE)));
    } else if (elements.closed()) {
      // rangeClosed(i, j) up to Integer.MAX_VALUE: a long index, each element its int value
      Operand from = expressions.conversions().convert(elements.from(), NumericType.LONG);
      Operand to = context.emit(Operation.ADD, List.of(
          expressions.conversions().convert(elements.to(), NumericType.LONG), longOne()),
          NumericType.LONG, false);
      loops.countingLoop(from, to, NumericType.LONG,
          index -> each.accept(expressions.conversions().convert(index, NumericType.INT)));
    } else {
      loops.countingLoop(elements.from(), elements.to(), NumericType.INT, each);
    }
    if (failed[0]) {
      return null;
    }
    return result(state, unwrap);
  }

  private static Operand longZero() {
    return new Operand.Constant(Expr.atom("0L"), NumericType.LONG, OptionalDouble.of(0));
  }

  private static Operand longOne() {
    return new Operand.Constant(Expr.atom("1L"), NumericType.LONG, OptionalDouble.of(1));
  }

  private void declareCompensated(State state) {
    state.sum = state.declare("sum", NumericType.DOUBLE, Operand.Constant.of(0.0));
    state.compensation = state.declare("compensation", NumericType.DOUBLE,
        Operand.Constant.of(0.0));
    state.simple = state.declare("simpleSum", NumericType.DOUBLE, Operand.Constant.of(0.0));
  }

  /** One element through the stages from {@code index} on, then into the terminal's state. */
  private boolean element(Operand value, List<Stage> stages, int index, State state) {
    if (index == stages.size()) {
      return accumulate(value, state);
    }
    Stage stage = stages.get(index);
    if (stage instanceof Widen) {
      return element(expressions.conversions().convert(value, NumericType.DOUBLE), stages,
          index + 1, state);
    }
    if (stage instanceof Map map) {
      Operand mapped = functions.apply(map.function(), List.of(value), map.call());
      return mapped != null && element(mapped, stages, index + 1, state);
    }
    Filter filter = (Filter) stage;
    Operand test = functions.apply(filter.predicate(), List.of(value), filter.call());
    if (test == null) {
      return false;
    }
    ir.openBlock();
    boolean ok = element(value, stages, index + 1, state);
    Block kept = ir.closeBlock();
    ir.add(new If(ir.nextStatementId(), test, kept, new Block(List.of()), context.line()));
    return ok;
  }

  private boolean accumulate(Operand value, State state) {
    switch (state.terminal) {
      case SUM -> {
        if (state.type == NumericType.DOUBLE) {
          state.addCompensated(value);
        } else {
          state.store(state.accumulator, emit(Operation.ADD, state.read(state.accumulator),
              value));
        }
      }
      case AVERAGE -> {
        if (state.type == NumericType.DOUBLE) {
          state.store(state.count, emit(Operation.ADD, state.read(state.count),
              Operand.Constant.of(1.0)));
          state.addCompensated(value);
        } else {
          state.store(state.count, context.emit(Operation.ADD, List.of(state.read(state.count),
              longOne()), NumericType.LONG, false));
          state.store(state.longSum, context.emit(Operation.ADD, List.of(
              state.read(state.longSum),
              expressions.conversions().convert(value, NumericType.LONG)),
              NumericType.LONG, false));
        }
      }
      case REDUCE -> {
        Operand next = functions.apply(state.operator,
            List.of(state.read(state.accumulator), value), state.end);
        if (next == null) {
          return false;
        }
        state.store(state.accumulator, next);
      }
      case MAX, MIN -> {
        // ReduceOps.makeDouble(Math::max): the first element as it is, then max(state, element)
        ir.openBlock();
        state.store(state.accumulator, value);
        state.store(state.seen, Operand.Constant.of(true));
        Block first = ir.closeBlock();
        ir.openBlock();
        Operand next = expressions.mathFunction(state.terminal == Terminal.MAX ? "max" : "min",
            List.of(state.read(state.accumulator), value), state.end);
        if (next == null) {
          ir.closeBlock();
          return false;
        }
        state.store(state.accumulator, next);
        Block later = ir.closeBlock();
        Operand unseen = context.emit(Operation.NOT, List.of(state.read(state.seen)),
            NumericType.BOOLEAN, false);
        ir.add(new If(ir.nextStatementId(), unseen, first, later, context.line()));
      }
    }
    return true;
  }

  /** The terminal's value, unwrapped from its optional by {@code unwrap} when it has one. */
  private Operand result(State state, MethodInvocationTree unwrap) {
    switch (state.terminal) {
      case SUM -> {
        return state.type == NumericType.DOUBLE ? state.finalSum()
            : state.read(state.accumulator);
      }
      case REDUCE -> {
        return state.read(state.accumulator);
      }
      case AVERAGE -> {
        Operand present;
        Operand average;
        if (state.type == NumericType.DOUBLE) {
          Operand count = state.read(state.count);
          present = context.emit(Operation.infix(">"), List.of(count, Operand.Constant.of(0.0)),
              NumericType.BOOLEAN, false);
          Operand total = state.finalSum();
          average = emit(Operation.DIVIDE, total, state.read(state.count));
        } else {
          // IntPipeline.average: (double) sum / count, both long
          Operand count = state.read(state.count);
          present = context.emit(Operation.infix(">"), List.of(count, longZero()),
              NumericType.BOOLEAN, false);
          Operand total = expressions.conversions()
              .convert(state.read(state.longSum), NumericType.DOUBLE);
          average = context.emit(Operation.DIVIDE, List.of(total, count), NumericType.DOUBLE,
              false);
        }
        return unwrapped(present, average, NumericType.DOUBLE, unwrap);
      }
      case MAX, MIN -> {
        return unwrapped(state.read(state.seen), state.read(state.accumulator), state.type,
            unwrap);
      }
      default -> throw new AssertionError(state.terminal);
    }
  }

  /**
   * {@code getAsDouble()} of an empty optional throws {@code NoSuchElementException("No value
   * present")}; {@code orElse(v)} gives {@code v}, evaluated after the stream, as Java does.
   */
  private Operand unwrapped(Operand present, Operand value, NumericType type,
      MethodInvocationTree unwrap) {
    Operand presentNow = present;
    if (name(unwrap).equals("orElse")) {
      Operand other = expressions.lower(unwrap.getArguments().get(0));
      if (other == null || !expressions.conversions()
          .assignable(other, type, unwrap.getArguments().get(0))) {
        return null;
      }
      Variable result = ir.variable("orElse", type, null);
      ir.add(new Declare(result, expressions.conversions().convert(other, type), context.line()));
      ir.openBlock();
      ir.add(new Store(result, value, context.line()));
      Block then = ir.closeBlock();
      ir.add(new If(ir.nextStatementId(), presentNow, then, new Block(List.of()),
          context.line()));
      return new Operand.Use(context.readVariable(result));
    }
    String exception = context.javaTypes().referenceTo(
        context.elements().getTypeElement("java.util.NoSuchElementException"));
    ir.openBlock();
    ir.add(new Throw(exception, List.of("\"No value present\""), true, context.line()));
    Block empty = ir.closeBlock();
    Operand absent = context.emit(Operation.NOT, List.of(presentNow), NumericType.BOOLEAN,
        false);
    ir.add(new If(ir.nextStatementId(), absent, empty, new Block(List.of()), context.line()));
    return value;
  }

  private void unsupported(com.sun.source.tree.Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
