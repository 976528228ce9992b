package ad4j.processor.derive;

import ad4j.processor.analysis.CountedTrips;
import ad4j.processor.analysis.CountedTrips.Trips;
import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.analysis.LoopCounters.Counter;
import ad4j.processor.analysis.RecomputedValues;
import ad4j.processor.analysis.TripBounds;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The instructions of the reverse sweep that compute values again instead of taking them back
 * from the tape, and that count a nested loop's trips again: {@code start + (k - 1) * step} for
 * a loop counter in reverse iteration {@code k}, the recomputed value's own operation over its
 * recomputed arguments, {@code Math.max(bound - start, 0)} for a trip count. What is computed
 * again is decided by the analyses {@link RecomputedValues} and {@link CountedTrips} (Tapenade's
 * to-be-recorded analysis, for the cheap cases), with {@link TripBounds} for the type of a
 * count; this class builds IR for the reverse sweep, so it stays in {@code derive/}, and it is
 * the face that sweep asks.
 */
public final class Recomputation {
  private final RecomputedValues values;
  private final CountedTrips trips;
  private final TripBounds tripBounds;

  /** The recomputation of {@code function}'s reverse sweep ({@code flow}: its flow). */
  public Recomputation(Function function, FlowAnalysis flow, TripBounds tripBounds) {
    this.values = new RecomputedValues(function, flow);
    this.trips = new CountedTrips(values);
    this.tripBounds = tripBounds;
  }

  /** Whether the reverse sweep computes {@code value} again rather than recording it. */
  public boolean isRecomputed(Value value) {
    return values.isRecomputed(value);
  }

  /** Whether {@code loop} has a counter that the reverse sweep rebuilds. */
  public boolean hasCounter(Loop loop) {
    return values.hasCounter(loop);
  }

  /**
   * Whether the reverse sweep counts {@code loop}'s trips again ({@link Trips}); {@code block}
   * holds the loop. In ADBench GMM's {@code for (int j = 0; j < r; j++)} inside the loop over
   * {@code r} the count is {@code r}: the forward sweep records nothing for it.
   */
  public boolean countsTrips(Loop loop, Block block) {
    return trips.countsTrips(loop, block);
  }


  /**
   * Where the reverse sweep stands: per loop it is inside, the counter of its reverse loop
   * (which counts forward iterations down to 1) and the start of the loop's own counter.
   */
  public static final class Place {
    private final Map<Integer, Variable> iterations = new HashMap<>();
    private final Map<Integer, Operand> starts = new HashMap<>();
    /** The reverse loops the sweep is inside, the innermost last. */
    private final ArrayDeque<Integer> open = new ArrayDeque<>();
    /**
     * Per open reverse loop, what its body computes first, once per iteration: the values
     * computed again that depend on no deeper loop's counter, so that loops inside it do not
     * compute them in each of their iterations.
     */
    private final Map<Integer, List<Statement>> prologues = new HashMap<>();
    private final Map<Integer, Map<Value, Operand>> hoisted = new HashMap<>();

    /**
     * Enters {@code loop}'s reverse body, whose counter is {@code iteration}; {@code start}:
     * the start of the loop's own counter, null when it has none the sweep rebuilds.
     */
    public void enter(Loop loop, Variable iteration, Operand start) {
      iterations.put(loop.id(), iteration);
      if (start != null) {
        starts.put(loop.id(), start);
      }
      open.addLast(loop.id());
      prologues.put(loop.id(), new ArrayList<>());
      hoisted.put(loop.id(), new HashMap<>());
    }

    /** Leaves {@code loop}'s reverse body; returns what the body must compute first. */
    public List<Statement> leave(Loop loop) {
      open.removeLast();
      hoisted.remove(loop.id());
      return prologues.remove(loop.id());
    }
  }

  /**
   * The start of {@code loop}'s counter in the reverse sweep, at the reverse loop's head
   * ({@code known}: the values of the enclosing block had again so far, extended here).
   */
  public Operand start(Loop loop, Place place, Map<Value, Operand> known, IrBuilder builder,
      SourceLine line, List<Statement> out) {
    return again(values.counter(loop.id()).start(), place, known, builder, line, out);
  }

  /**
   * The trip count of {@code loop} (held by {@code block}), which {@link #countsTrips} allows,
   * computed in the reverse sweep at the reverse loop's head, as one formula: {@code
   * Math.max(bound - start, 0)}, or {@code start - bound} counting down, one more when the test
   * holds at the bound (0 when the body never ran).
   */
  public Operand tripCount(Loop loop, Block block, Place place, Map<Value, Operand> known,
      IrBuilder builder, SourceLine line, List<Statement> out) {
    Trips trips = this.trips.trips(loop, block);
    Operand start = again(trips.counter().start(), place, known, builder, line, out);
    Site site = Site.formulas(builder, line);
    Operand bound = boundAgain(trips.bound(), loop, block, place, known, builder, line, out,
        site);
    boolean up = trips.counter().step() == 1;
    // in ints only where that is the count (TripBounds.spanFitsInt); else in longs: from -n
    // to n the difference of two ints passes an int's range
    boolean fits = tripBounds.fitsInt(loop);
    NumericType type = tripBounds.spanFitsInt(loop) && bound.type() == NumericType.INT
        ? NumericType.INT : NumericType.LONG;
    Operand from = up ? start : bound;
    Operand to = up ? bound : start;
    if (type == NumericType.LONG && to.type() == NumericType.INT) {
      to = site.apply(Operation.cast(NumericType.LONG), NumericType.LONG, to);
    }
    Operand span = up && isZero(start) ? to : site.apply(Operation.SUBTRACT, type, to, from);
    if (trips.inclusive()) {
      span = site.apply(Operation.ADD, type, span, Operand.Constant.of(1));
    }
    Operand count = site.apply(Operation.call(MathOwner.MATH, "max", 2), type, span,
        Operand.Constant.of(0));
    if (type != NumericType.INT && fits) {
      // a loop that runs at most Integer.MAX_VALUE times: an int count
      count = site.apply(Operation.cast(NumericType.INT), NumericType.INT, count);
    }
    out.addAll(site.instructionsFor(List.of(count)));
    return count;
  }

  /** The bound of a loop's test (see {@link Trips}) in the reverse sweep. */
  private Operand boundAgain(Operand bound, Loop loop, Block block, Place place,
      Map<Value, Operand> known, IrBuilder builder, SourceLine line, List<Statement> out,
      Site site) {
    if (!(bound instanceof Operand.Use use)) {
      return bound;
    }
    Instruction definition = null;
    for (Statement statement : loop.condition().statements()) {
      if (statement instanceof Instruction instruction && instruction.result() == use.value()) {
        definition = instruction;
      }
    }
    if (definition == null) {
      return again(bound, place, known, builder, line, out); // made before the loop
    }
    if (definition.operation().form() == Operation.Form.LENGTH) {
      Operand array = again(definition.arguments().get(0), place, known, builder, line, out);
      return site.apply(Operation.LENGTH, NumericType.INT, array);
    }
    // the counter of a loop around this one, in the iteration the reverse sweep is in:
    // start + (iteration - 1) * step
    Variable variable = ((Operand.Read) definition.arguments().get(0)).variable();
    Loop around = values.loopCounted(variable, block);
    int step = values.counter(around.id()).step();
    Operand start = place.starts.get(around.id());
    Operand iteration = new Operand.Read(place.iterations.get(around.id()));
    if (iteration.type() != NumericType.INT) { // its low 32 bits, as in lowBits
      iteration = site.apply(Operation.cast(NumericType.INT), NumericType.INT, iteration);
    }
    Operand passed = site.apply(Operation.SUBTRACT, NumericType.INT, iteration,
        Operand.Constant.of(1));
    Operand moved = step == 1 ? passed
        : site.apply(Operation.MULTIPLY, NumericType.INT, passed, Operand.Constant.of(step));
    return isZero(start) ? moved : site.apply(Operation.ADD, NumericType.INT, start, moved);
  }

  /**
   * {@code value} computed again in the reverse sweep, with what it reads; {@code known} caches
   * the values had again in the current block.
   */
  public Operand compute(Value value, Place place, Map<Value, Operand> known, IrBuilder builder,
      SourceLine line, List<Statement> out) {
    Operand cached = known.get(value);
    if (cached != null) {
      return cached;
    }
    if (!place.open.isEmpty()) {
      // at the head of the innermost reverse loop whose counter it reads (of the outermost,
      // when it reads none): once per iteration of that loop, not of the loops inside it
      int loop = values.innermostCounter(value);
      int home = loop >= 0 ? loop : place.open.getFirst();
      if (home != place.open.getLast() && place.open.contains(home)) {
        Map<Value, Operand> there = place.hoisted.get(home);
        Operand hoisted = there.get(value);
        if (hoisted == null) {
          hoisted = computeAt(value, place, there, builder, null, place.prologues.get(home));
        }
        known.put(value, hoisted); // the callers read what they need from known
        return hoisted;
      }
    }
    return computeAt(value, place, known, builder, line, out);
  }

  private Operand computeAt(Value value, Place place, Map<Value, Operand> known,
      IrBuilder builder, SourceLine line, List<Statement> out) {
    Instruction definition = values.definition(value);
    Value result = builder.again(value);
    if (definition.operation().form() == Operation.Form.COPY) {
      Loop loop = values.loopCounting(value);
      Counter counter = values.counter(loop.id());
      // start + (iteration - 1) * step, iteration counting the forward iterations down
      Operand iteration = lowBits(new Operand.Read(place.iterations.get(loop.id())), builder,
          line, out);
      Operand start = place.starts.get(loop.id());
      if (counter.step() == 1 && isZero(start)) {
        out.add(new Instruction(result, Operation.SUBTRACT,
            List.of(iteration, Operand.Constant.of(1)), line));
      } else {
        Operand passed = define(builder.generated("passed", NumericType.INT, false),
            Operation.SUBTRACT, List.of(iteration, Operand.Constant.of(1)), line, out);
        Operand moved = counter.step() == 1 ? passed
            : define(builder.generated("moved", NumericType.INT, false), Operation.MULTIPLY,
                List.of(passed, Operand.Constant.of(counter.step())), line, out);
        out.add(new Instruction(result, Operation.ADD, List.of(start, moved), line));
      }
    } else {
      List<Operand> arguments = definition.arguments();
      Operation operation = definition.operation();
      if (operation.form() == Operation.Form.ELEMENT) {
        arguments = arguments.subList(0, 2);
        operation = Operation.ELEMENT;
      }
      List<Operand> again = new ArrayList<>();
      for (Operand argument : arguments) {
        again.add(again(argument, place, known, builder, line, out));
      }
      out.add(new Instruction(result, operation, again, line));
    }
    Operand computed = new Operand.Use(result);
    known.put(value, computed);
    return computed;
  }

  /**
   * {@code iteration} as an {@code int}: a loop counted in a {@code long} ({@link TripBounds})
   * whose {@code int} counter is computed again. The forward sweep's {@code start + (k - 1) *
   * step} wraps modulo 2^32 as {@code int} arithmetic does, so the low 32 bits of {@code k}
   * give the counter exactly.
   */
  private static Operand lowBits(Operand iteration, IrBuilder builder, SourceLine line,
      List<Statement> out) {
    if (iteration.type() == NumericType.INT) {
      return iteration;
    }
    return define(builder.generated("k", NumericType.INT, false),
        Operation.cast(NumericType.INT), List.of(iteration), line, out);
  }

  private Operand again(Operand operand, Place place, Map<Value, Operand> known,
      IrBuilder builder, SourceLine line, List<Statement> out) {
    if (operand instanceof Operand.Use use && isRecomputed(use.value())) {
      return compute(use.value(), place, known, builder, line, out);
    }
    return operand;
  }

  private static boolean isZero(Operand operand) {
    return operand instanceof Operand.Constant constant && constant.knownValue().isPresent()
        && constant.knownValue().getAsDouble() == 0;
  }

  private static Operand define(Value value, Operation operation, List<Operand> arguments,
      SourceLine line, List<Statement> out) {
    out.add(new Instruction(value, operation, arguments, line));
    return new Operand.Use(value);
  }
}
