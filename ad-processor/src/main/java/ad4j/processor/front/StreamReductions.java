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
import com.sun.source.tree.MethodInvocationTree;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The terminal operations of the stream pipelines {@link StreamLowering} lowers: {@code sum()},
 * {@code reduce(identity, op)}, {@code average()}, {@code max()}, {@code min()},
 * {@code count()} (a {@code long}, after a {@code filter}), and {@code anyMatch(p)},
 * {@code allMatch(p)} and {@code noneMatch(p)}, which stop at the element that decides them
 * ({@link #guard}), each the
 * variables it keeps while the elements go by, the step each element adds, and its value after
 * the loop, read from its optional by {@code getAsDouble()}, {@code getAsInt()} or
 * {@code orElse(v)} as the JDK does.
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
 *
 * <p>Apart from {@link StreamLowering} because what a terminal operation computes, bit for bit as
 * the JDK's, does not depend on where the elements come from or what the stages did to them.
 */
final class StreamReductions {
  /** What a terminal operation keeps while the elements go by. */
  enum Terminal {
    SUM("sum"), AVERAGE("average"), REDUCE("reduce"), MAX("max"), MIN("min"), COUNT("count"),
    ANY_MATCH("anyMatch"), ALL_MATCH("allMatch"), NONE_MATCH("noneMatch");

    /** The stream method's name. */
    final String method;

    Terminal(String method) {
      this.method = method;
    }

    /** The terminal operation the stream method {@code name} is. */
    static Terminal named(String name) {
      for (Terminal terminal : values()) {
        if (terminal.method.equals(name)) {
          return terminal;
        }
      }
      throw new IllegalArgumentException(name);
    }

    /**
     * Whether it stops taking elements once it knows its answer: an element that decides it is
     * the last one the stream pulls, as the JDK's short-circuiting {@code anyMatch} does.
     */
    boolean shortCircuits() {
      return this == ANY_MATCH || this == ALL_MATCH || this == NONE_MATCH;
    }

    /** Whether a stream of objects may end with it: what it gives is not one of the elements. */
    boolean takesObjects() {
      return this == COUNT || shortCircuits();
    }
  }

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final FunctionValues functions;
  private final IrBuilder ir;

  StreamReductions(LoweringContext context, ExpressionLowering expressions,
      FunctionValues functions) {
    this.context = context;
    this.expressions = expressions;
    this.functions = functions;
    this.ir = context.ir();
  }

  /** What the terminal operation keeps: its variables. */
  final class State {
    final Terminal terminal;
    final NumericType type;
    Variable sum;
    Variable compensation;
    Variable simple;
    Variable count;
    Variable longSum;
    Variable accumulator;
    Variable seen;
    Variable decided;
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

  /**
   * Declares the variables the terminal operation {@code end} keeps while the elements go by,
   * its identity and operator lowered for {@code reduce}; null after an error.
   */
  State start(Terminal terminal, NumericType type, MethodInvocationTree end) {
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
        state.operator = functions.definitions().argument(end.getArguments().get(1),
            new FunctionValues.Signature(type == NumericType.DOUBLE ? "applyAsDouble"
                : "applyAsInt", List.of(type, type), type));
        if (state.operator == null) {
          return null;
        }
        state.accumulator = state.declare("reduced", type,
            expressions.conversions().convert(identity, type));
      }
      case COUNT -> state.count = state.declare("count", NumericType.LONG, longZero());
      case ANY_MATCH, ALL_MATCH, NONE_MATCH -> {
        state.operator = functions.definitions().argument(end.getArguments().get(0),
            new FunctionValues.Signature("test", List.of(type), NumericType.BOOLEAN));
        if (state.operator == null) {
          return null;
        }
        state.decided = state.declare("decided", NumericType.BOOLEAN,
            Operand.Constant.of(false));
      }
      case MAX, MIN -> {
        state.seen = state.declare("seen", NumericType.BOOLEAN, Operand.Constant.of(false));
        state.accumulator = state.declare(terminal == Terminal.MAX ? "max" : "min", type,
            Operand.Constant.zero(type));
      }
    }
    return state;
  }

  /** {@code 0L}. */
  static Operand longZero() {
    return new Operand.Constant(Expr.atom("0L"), NumericType.LONG, OptionalDouble.of(0));
  }

  /** {@code 1L}. */
  static Operand longOne() {
    return new Operand.Constant(Expr.atom("1L"), NumericType.LONG, OptionalDouble.of(1));
  }

  private void declareCompensated(State state) {
    state.sum = state.declare("sum", NumericType.DOUBLE, Operand.Constant.of(0.0));
    state.compensation = state.declare("compensation", NumericType.DOUBLE,
        Operand.Constant.of(0.0));
    state.simple = state.declare("simpleSum", NumericType.DOUBLE, Operand.Constant.of(0.0));
  }

  /** {@code value}, an element that has gone through the stages, into the terminal's state. */
  boolean accumulate(Operand value, State state) {
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
      case COUNT -> state.store(state.count, context.emit(Operation.ADD,
          List.of(state.read(state.count), longOne()), NumericType.LONG, false));
      case ANY_MATCH, ALL_MATCH, NONE_MATCH -> {
        // reached only while undecided (guard): the element decides it or leaves it open
        Operand test = functions.apply(state.operator, List.of(value), state.end);
        if (test == null) {
          return false;
        }
        state.store(state.decided, state.terminal == Terminal.ALL_MATCH
            ? context.emit(Operation.NOT, List.of(test), NumericType.BOOLEAN, false) : test);
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

  /**
   * For a terminal that {@linkplain Terminal#shortCircuits() short-circuits}, what is true
   * while it is undecided, so that the stream's loop takes no element after the one that
   * decided it; null for the others, which take every element.
   */
  java.util.function.Supplier<Operand> guard(State state) {
    return !state.terminal.shortCircuits() ? null : () -> context.emit(Operation.NOT,
        List.of(state.read(state.decided)), NumericType.BOOLEAN, false);
  }

  /** The terminal's value, unwrapped from its optional by {@code unwrap} when it has one. */
  Operand result(State state, MethodInvocationTree unwrap) {
    switch (state.terminal) {
      case SUM -> {
        return state.type == NumericType.DOUBLE ? state.finalSum()
            : state.read(state.accumulator);
      }
      case REDUCE -> {
        return state.read(state.accumulator);
      }
      case COUNT -> {
        return state.read(state.count);
      }
      case ANY_MATCH -> {
        return state.read(state.decided);
      }
      case ALL_MATCH, NONE_MATCH -> {
        return context.emit(Operation.NOT, List.of(state.read(state.decided)),
            NumericType.BOOLEAN, false);
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
    if (StreamLowering.name(unwrap).equals("orElse")) {
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
}
