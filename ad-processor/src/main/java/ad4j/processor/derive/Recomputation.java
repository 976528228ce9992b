package ad4j.processor.derive;

import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which values the reverse sweep of a loop computes again instead of taking them back from the
 * tape (Tapenade's to-be-recorded analysis, for the cheap cases). In
 * {@code for (int j = 0; j < n; j++) z += w[j] * x[i][j];} the forward sweep used to record,
 * per multiply-add, the slot of {@code w[j]} and the value {@code x[i][j]}; both are functions of
 * the loop counters and of arrays nothing writes, so the reverse sweep reads them again and the
 * tape stays empty.
 *
 * <p>A loop's <em>counter</em> is a variable that only its update changes, by a constant step
 * ({@code i++}, {@code i -= 2}), and whose value on entry the reverse sweep can have again: then
 * in forward iteration {@code k} (counted from 1) it is {@code start + (k - 1) * step}, and the
 * reverse loop, which counts the iterations down, knows {@code k}. A value can be computed again
 * when it is a read of such a counter inside the loop's body, or an {@code int} operation, a
 * {@code double} addition, subtraction, multiplication or negation, a cast, a {@code length}, a
 * row start, or an element read of an array that the method never writes nor passes to a call (parameters, their rows, tables), over values that can be computed again or
 * are readable anywhere in the reverse sweep (constants, parameters, values computed outside
 * loops). Java's arithmetic is deterministic, so the values are the same bit for bit.
 */
public final class Recomputation {
  /** A loop counter: the variable, the operand it holds on entry, its constant step. */
  record Counter(Variable variable, Operand start, int step) {}

  private final FlowAnalysis flow;
  private final Map<Value, Instruction> definitions = new HashMap<>();
  /** Per loop id, its counter; loops without one are absent. */
  private final Map<Integer, Counter> counters = new HashMap<>();
  /** Per block inside a loop's body (at any depth), the loops whose bodies contain it. */
  private final Map<Block, List<Loop>> bodiesAround = new IdentityHashMap<>();
  /** Arrays written or passed to calls somewhere in the method: their elements may change. */
  private final Set<Value> changingArrays = new HashSet<>();
  private final Map<Value, Boolean> memo = new HashMap<>();
  /** Per loop id, how many loops enclose the loop (0 for a loop outside loops). */
  private final Map<Integer, Integer> loopDepths = new HashMap<>();
  /** Per value computed again, the innermost loop whose counter it depends on, or -1. */
  private final Map<Value, Integer> innermostCounters = new HashMap<>();
  /**
   * Per nested loop asked about, how the reverse sweep counts its trips again, if it can: the
   * forward and the reverse sweep both ask.
   */
  private final Map<Integer, Optional<Trips>> tripsByLoop = new HashMap<>();
  private final TripBounds tripBounds;

  public Recomputation(Function function, FlowAnalysis flow, TripBounds tripBounds) {
    this.flow = flow;
    this.tripBounds = tripBounds;
    scan(function.body(), List.of());
  }

  private void scan(Block block, List<Loop> around) {
    if (!around.isEmpty()) {
      bodiesAround.put(block, around);
    }
    List<Statement> statements = block.statements();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      if (statement instanceof Instruction instruction) {
        definitions.put(instruction.result(), instruction);
        Operation.Form form = instruction.operation().form();
        if (form == Operation.Form.STORE || form == Operation.Form.USER_CALL
            || form == Operation.Form.PLAIN_CALL || form == Operation.Form.RULED_CALL) {
          for (Operand argument : instruction.arguments()) {
            if (argument instanceof Operand.Use use && use.value().type().isArray()) {
              changingArrays.add(use.value());
            }
          }
        }
      } else if (statement instanceof If branch) {
        scan(branch.thenBlock(), around);
        scan(branch.elseBlock(), around);
      } else if (statement instanceof Loop loop) {
        Counter counter = counterOf(loop, statements.subList(0, i));
        if (counter != null) {
          counters.put(loop.id(), counter);
        }
        scan(loop.condition(), List.of());
        loopDepths.put(loop.id(), around.size());
        List<Loop> inside = new java.util.ArrayList<>(around);
        inside.add(loop);
        scan(loop.body(), List.copyOf(inside));
        scan(loop.update(), List.of());
      }
    }
  }

  /**
   * The counter of {@code loop}, or null: its update is exactly {@code v = v + c} (or
   * {@code - c}), nothing else in the loop stores {@code v}, and the statement before the loop
   * gives {@code v} its start.
   */
  static Counter counterOf(Loop loop, List<Statement> before) {
    List<Statement> update = loop.update().statements();
    if (update.size() != 3 || !(update.get(0) instanceof Instruction read)
        || !(update.get(1) instanceof Instruction step)
        || !(update.get(2) instanceof Store store)
        || read.operation() != Operation.COPY
        || !(read.arguments().get(0) instanceof Operand.Read counter)
        || counter.variable() != store.variable()
        || counter.variable().type() != NumericType.INT
        || !(store.value() instanceof Operand.Use stored) || stored.value() != step.result()
        || !(step.arguments().get(0) instanceof Operand.Use from) || from.value() != read.result()
        || !(step.arguments().get(1) instanceof Operand.Constant by)
        || by.knownValue().isEmpty()) {
      return null;
    }
    int sign;
    if (step.operation().equals(Operation.ADD)) {
      sign = 1;
    } else if (step.operation().equals(Operation.SUBTRACT)) {
      sign = -1;
    } else {
      return null;
    }
    Variable variable = counter.variable();
    if (stores(loop.condition(), variable) || stores(loop.body(), variable)) {
      return null;
    }
    for (int i = before.size() - 1; i >= 0; i--) {
      Statement statement = before.get(i);
      if (statement instanceof Note) {
        continue;
      }
      if (statement instanceof Declare declare && declare.variable() == variable) {
        return new Counter(variable, declare.initial(), sign * (int) by.knownValue().getAsDouble());
      }
      if (statement instanceof Store start && start.variable() == variable) {
        return new Counter(variable, start.value(), sign * (int) by.knownValue().getAsDouble());
      }
      return null;
    }
    return null;
  }

  static boolean stores(Block block, Variable variable) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Store store && store.variable() == variable
          || statement instanceof Declare declare && declare.variable() == variable) {
        return true;
      }
      if (statement instanceof If branch
          && (stores(branch.thenBlock(), variable) || stores(branch.elseBlock(), variable))) {
        return true;
      }
      if (statement instanceof Loop loop && (stores(loop.condition(), variable)
          || stores(loop.body(), variable) || stores(loop.update(), variable))) {
        return true;
      }
    }
    return false;
  }

  /** Whether the reverse sweep computes {@code value} again rather than recording it. */
  public boolean isRecomputed(Value value) {
    Boolean known = memo.get(value);
    if (known != null) {
      return known;
    }
    memo.put(value, false); // no cycles in SSA values, but stay safe
    boolean result = computable(value);
    memo.put(value, result);
    return result;
  }

  private boolean computable(Value value) {
    Instruction definition = definitions.get(value);
    if (definition == null || flow.loopDepth(flow.definingBlock(value)) == 0) {
      return false; // readable as it is: nothing to compute
    }
    Operation operation = definition.operation();
    List<Operand> arguments = definition.arguments();
    switch (operation.form()) {
      case COPY -> {
        return arguments.get(0) instanceof Operand.Read read
            && loopCounted(read.variable(), flow.definingBlock(value)) != null;
      }
      case INFIX -> {
        // int arithmetic, and the cheapest double arithmetic: one operation instead of a
        // push and a pop of eight bytes
        boolean cheap = value.type() == NumericType.INT && isArithmetic(operation)
            || value.type() == NumericType.DOUBLE && (operation.equals(Operation.ADD)
                || operation.equals(Operation.SUBTRACT)
                || operation.equals(Operation.MULTIPLY));
        if (!cheap) {
          return false;
        }
      }
      case PREFIX -> {
        if (!operation.equals(Operation.NEGATE)) {
          return false;
        }
      }
      case CAST -> {
        if (value.type() != NumericType.DOUBLE && value.type() != NumericType.INT) {
          return false;
        }
      }
      case LENGTH -> { }
      case SLOTS_CALL -> {
        if (!operation.name().equals("rowStart")) {
          return false;
        }
      }
      case ELEMENT -> {
        if (!(arguments.get(0) instanceof Operand.Constant)
            && !(arguments.get(0) instanceof Operand.Use array
                && !changingArrays.contains(array.value())
                && (array.value().origin() == Value.Origin.PARAMETER
                    || isRowOfUnchangingData(array.value())))) {
          return false;
        }
        arguments = arguments.subList(0, 2); // a slot argument is for the reverse sweep
      }
      default -> {
        return false;
      }
    }
    for (Operand argument : arguments) {
      if (!isAvailable(argument)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A row {@code m[i]} of a parameter or a table: not of a local matrix, whose rows are written
   * through other reads of them.
   */
  private boolean isRowOfUnchangingData(Value row) {
    Instruction read = flow.rowRead(row);
    return read != null && (read.arguments().get(0) instanceof Operand.Constant
        || read.arguments().get(0) instanceof Operand.Use matrix
            && matrix.value().origin() == Value.Origin.PARAMETER);
  }

  private static boolean isArithmetic(Operation operation) {
    return operation.equals(Operation.ADD) || operation.equals(Operation.SUBTRACT)
        || operation.equals(Operation.MULTIPLY) || operation.equals(Operation.DIVIDE)
        || operation.equals(Operation.REMAINDER);
  }

  /** Whether the reverse sweep can have {@code operand}: readable, or computed again. */
  private boolean isAvailable(Operand operand) {
    if (operand instanceof Operand.Constant) {
      return true;
    }
    if (!(operand instanceof Operand.Use use)) {
      return false;
    }
    Value value = use.value();
    return value.origin() == Value.Origin.PARAMETER
        || flow.definingBlock(value) != null && flow.loopDepth(flow.definingBlock(value)) == 0
        || isRecomputed(value);
  }

  /** The loop around {@code block} whose counter {@code variable} is, or null. */
  private Loop loopCounted(Variable variable, Block block) {
    for (Loop loop : bodiesAround.getOrDefault(block, List.of())) {
      Counter counter = counters.get(loop.id());
      if (counter != null && counter.variable() == variable && isAvailableStart(loop, counter)) {
        return loop;
      }
    }
    return null;
  }

  private boolean isAvailableStart(Loop loop, Counter counter) {
    return isAvailable(counter.start());
  }

  // ---- in the reverse sweep ----------------------------------------------------------------

  /**
   * Where the reverse sweep stands: per loop it is inside, the counter of its reverse loop
   * (which counts forward iterations down to 1) and the start of the loop's own counter.
   */
  public static final class Place {
    private final Map<Integer, Variable> iterations = new HashMap<>();
    private final Map<Integer, Operand> starts = new HashMap<>();
    /** The reverse loops the sweep is inside, the innermost last. */
    private final java.util.ArrayDeque<Integer> open = new java.util.ArrayDeque<>();
    /**
     * Per open reverse loop, what its body computes first, once per iteration: the values
     * computed again that depend on no deeper loop's counter, so that loops inside it do not
     * compute them in each of their iterations.
     */
    private final Map<Integer, List<Statement>> prologues = new HashMap<>();
    private final Map<Integer, Map<Value, Operand>> hoisted = new HashMap<>();

    public void enter(Loop loop, Variable iteration, Operand start) {
      iterations.put(loop.id(), iteration);
      if (start != null) {
        starts.put(loop.id(), start);
      }
      open.addLast(loop.id());
      prologues.put(loop.id(), new java.util.ArrayList<>());
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
   * How the reverse sweep counts a nested loop's trips itself instead of taking the count back
   * from the tape: the loop's counter steps by 1 (or -1) from a start the reverse sweep has
   * again, its test compares the counter with a bound that no iteration changes ({@code
   * <}, {@code <=}, or {@code >}, {@code >=} when it counts down), and nothing leaves the loop
   * before the test fails.
   *
   * @param bound the other side of the test, as the forward sweep has it: a constant, a value
   *     made before the loop, the read of a counter of a loop around it, or the length of an
   *     array made before the loop
   * @param inclusive whether the test holds at the bound ({@code <=}, {@code >=})
   */
  private record Trips(Counter counter, Operand bound, boolean inclusive) {}

  /**
   * Whether the reverse sweep counts {@code loop}'s trips again ({@link Trips}); {@code block}
   * holds the loop. In ADBench GMM's {@code for (int j = 0; j < r; j++)} inside the loop over
   * {@code r} the count is {@code r}: the forward sweep records nothing for it.
   */
  public boolean countsTrips(Loop loop, Block block) {
    return trips(loop, block) != null;
  }

  private Trips trips(Loop loop, Block block) {
    return tripsByLoop.computeIfAbsent(loop.id(),
        id -> Optional.ofNullable(analyzeTrips(loop, block))).orElse(null);
  }

  private Trips analyzeTrips(Loop loop, Block block) {
    Counter counter = counters.get(loop.id());
    if (counter == null || !isAvailableStart(loop, counter) || Math.abs(counter.step()) != 1
        || !loop.testFirst() || !(loop.test() instanceof Operand.Use test)
        || leavesEarly(loop.body(), loop.id(), new HashSet<>())) {
      return null;
    }
    List<Statement> condition = loop.condition().statements();
    Map<Value, Instruction> made = new HashMap<>();
    for (Statement statement : condition) {
      if (!(statement instanceof Instruction instruction)) {
        return null;
      }
      made.put(instruction.result(), instruction);
    }
    Instruction comparison = made.get(test.value());
    if (comparison == null || comparison.operation().form() != Operation.Form.INFIX
        || made.size() > 3) {
      return null;
    }
    String symbol = comparison.operation().name();
    Operand left = comparison.arguments().get(0);
    Operand right = comparison.arguments().get(1);
    Operand bound;
    if (readsCounter(left, made, counter)) {
      bound = right;
    } else if (readsCounter(right, made, counter)) {
      bound = left;
      symbol = switch (symbol) { // the counter on the right: the same test read from its side
        case "<" -> ">";
        case "<=" -> ">=";
        case ">" -> "<";
        case ">=" -> "<=";
        default -> symbol;
      };
    } else {
      return null;
    }
    boolean up = counter.step() == 1;
    boolean fits = up ? symbol.equals("<") || symbol.equals("<=")
        : symbol.equals(">") || symbol.equals(">=");
    if (!fits || !isFixedBound(bound, made, block)) {
      return null;
    }
    return new Trips(counter, bound, symbol.length() == 2);
  }

  /** Whether {@code operand} is the condition's read of the loop's counter. */
  private static boolean readsCounter(Operand operand, Map<Value, Instruction> made,
      Counter counter) {
    Instruction read = operand instanceof Operand.Use use ? made.get(use.value()) : null;
    return read != null && read.operation() == Operation.COPY
        && read.arguments().get(0) instanceof Operand.Read variable
        && variable.variable() == counter.variable();
  }

  /**
   * Whether the reverse sweep has {@code bound} again where the loop's reverse starts, the same
   * in every iteration: see {@link Trips}.
   */
  private boolean isFixedBound(Operand bound, Map<Value, Instruction> made, Block block) {
    if (bound instanceof Operand.Constant) {
      return true;
    }
    if (!(bound instanceof Operand.Use use)) {
      return false;
    }
    Instruction definition = made.get(use.value());
    if (definition == null) {
      return isAvailable(bound); // made before the loop: SSA, so the same in every iteration
    }
    if (definition.operation() == Operation.COPY
        && definition.arguments().get(0) instanceof Operand.Read read) {
      return loopCounted(read.variable(), block) != null;
    }
    return definition.operation().form() == Operation.Form.LENGTH
        && definition.arguments().get(0) instanceof Operand.Use array
        && made.get(array.value()) == null && isAvailable(array);
  }

  /**
   * Whether a statement in {@code block}, the body of loop {@code loopId} or a block in it,
   * leaves that loop other than by its test: a {@code return}, a {@code break} of the loop or of
   * one around it, a {@code continue} of one around it ({@code inside}: the loops within the
   * body, whose own jumps stay in it).
   */
  static boolean leavesEarly(Block block, int loopId, Set<Integer> inside) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Return) {
        return true;
      }
      if (statement instanceof Jump jump && !inside.contains(jump.loopId())
          && !(jump.loopId() == loopId && jump.kind() == Jump.Kind.CONTINUE)) {
        return true;
      }
      if (statement instanceof If branch && (leavesEarly(branch.thenBlock(), loopId, inside)
          || leavesEarly(branch.elseBlock(), loopId, inside))) {
        return true;
      }
      if (statement instanceof Loop inner) {
        Set<Integer> deeper = new HashSet<>(inside);
        deeper.add(inner.id());
        if (leavesEarly(inner.body(), loopId, deeper)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether {@code loop} has a counter that the reverse sweep rebuilds. */
  public boolean hasCounter(Loop loop) {
    Counter counter = counters.get(loop.id());
    return counter != null && isAvailableStart(loop, counter);
  }

  /**
   * The start of {@code loop}'s counter in the reverse sweep, at the reverse loop's head
   * ({@code known}: the values of the enclosing block had again so far, extended here).
   */
  public Operand start(Loop loop, Place place, Map<Value, Operand> known, IrBuilder builder,
      SourceLine line, List<Statement> out) {
    return again(counters.get(loop.id()).start(), place, known, builder, line, out);
  }

  /**
   * The trip count of {@code loop} (held by {@code block}), which {@link #countsTrips} allows,
   * computed in the reverse sweep at the reverse loop's head, as one formula: {@code
   * Math.max(bound - start, 0)}, or {@code start - bound} counting down, one more when the test
   * holds at the bound (0 when the body never ran).
   */
  public Operand tripCount(Loop loop, Block block, Place place, Map<Value, Operand> known,
      IrBuilder builder, SourceLine line, List<Statement> out) {
    Trips trips = trips(loop, block);
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
    Loop around = loopCounted(variable, block);
    int step = counters.get(around.id()).step();
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
      int loop = innermostCounter(value);
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

  /** The innermost loop (by id) whose counter {@code value}, computed again, depends on; -1. */
  private int innermostCounter(Value value) {
    Integer memoized = innermostCounters.get(value);
    if (memoized != null) {
      return memoized;
    }
    Instruction definition = definitions.get(value);
    int innermost = -1;
    if (definition.operation().form() == Operation.Form.COPY) {
      Variable variable = ((Operand.Read) definition.arguments().get(0)).variable();
      innermost = loopCounted(variable, flow.definingBlock(value)).id();
    } else {
      List<Operand> arguments = definition.operation().form() == Operation.Form.ELEMENT
          ? definition.arguments().subList(0, 2) : definition.arguments();
      for (Operand argument : arguments) {
        if (argument instanceof Operand.Use use && isRecomputed(use.value())) {
          int loop = innermostCounter(use.value());
          if (loop >= 0 && (innermost < 0 || loopDepths.get(loop) > loopDepths.get(innermost))) {
            innermost = loop;
          }
        }
      }
    }
    innermostCounters.put(value, innermost);
    return innermost;
  }

  private Operand computeAt(Value value, Place place, Map<Value, Operand> known,
      IrBuilder builder, SourceLine line, List<Statement> out) {
    Instruction definition = definitions.get(value);
    Value result = builder.again(value);
    if (definition.operation().form() == Operation.Form.COPY) {
      Variable variable = ((Operand.Read) definition.arguments().get(0)).variable();
      Loop loop = loopCounted(variable, flow.definingBlock(value));
      Counter counter = counters.get(loop.id());
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
      List<Operand> again = new java.util.ArrayList<>();
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
