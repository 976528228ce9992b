package ad4j.processor.analysis;

import static ad4j.processor.analysis.LoopCounters.leavesEarly;

import ad4j.processor.analysis.LoopCounters.Counter;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which nested loops' trips the reverse sweep counts again itself instead of taking the count
 * back from the tape ({@link Trips}). Apart from {@link RecomputedValues}, whose values it
 * reads (a loop's start and bound must be had again), because it decides about loops, not
 * values; the reverse sweep's instructions that count are {@code derive/Recomputation}'s.
 */
public final class CountedTrips {
  /**
   * How the reverse sweep counts a nested loop's trips itself instead of taking the count back
   * from the tape: the loop's counter steps by 1 (or -1) from a start the reverse sweep has
   * again, its test compares the counter with an {@code int} or {@code long} bound that no
   * iteration changes ({@code <}, {@code <=}, or {@code >}, {@code >=} when it counts down), and
   * nothing leaves the loop before the test fails.
   *
   * @param bound the other side of the test, as the forward sweep has it: a constant, a value
   *     made before the loop, the read of a counter of a loop around it, or the length of an
   *     array made before the loop
   * @param inclusive whether the test holds at the bound ({@code <=}, {@code >=})
   */
  public record Trips(Counter counter, Operand bound, boolean inclusive) {}

  private final RecomputedValues values;
  /**
   * Per nested loop asked about, how the reverse sweep counts its trips again, if it can: the
   * forward and the reverse sweep both ask.
   */
  private final Map<Integer, Optional<Trips>> tripsByLoop = new HashMap<>();

  /** The trips of the loops of the program whose recomputed values are {@code values}. */
  public CountedTrips(RecomputedValues values) {
    this.values = values;
  }

  /**
   * Whether the reverse sweep counts {@code loop}'s trips again ({@link Trips}); {@code block}
   * holds the loop. In ADBench GMM's {@code for (int j = 0; j < r; j++)} inside the loop over
   * {@code r} the count is {@code r}: the forward sweep records nothing for it.
   */
  public boolean countsTrips(Loop loop, Block block) {
    return trips(loop, block) != null;
  }

  /** How the reverse sweep counts {@code loop}'s trips, which {@link #countsTrips} allows. */
  public Trips trips(Loop loop, Block block) {
    return tripsByLoop.computeIfAbsent(loop.id(),
        id -> Optional.ofNullable(analyzeTrips(loop, block))).orElse(null);
  }

  private Trips analyzeTrips(Loop loop, Block block) {
    Counter counter = values.counter(loop.id());
    if (counter == null || !values.hasCounter(loop) || Math.abs(counter.step()) != 1
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
    // an int or long bound only: against a double or float one ('j < 2.5') the loop runs
    // ceil(bound - start) times, which the count's truncating difference is not
    if (!fits || !bound.type().isIntegral() || !isFixedBound(bound, made, block)) {
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
      // made before the loop: SSA, so the same in every iteration
      return values.isAvailable(bound);
    }
    if (definition.operation() == Operation.COPY
        && definition.arguments().get(0) instanceof Operand.Read read) {
      return values.loopCounted(read.variable(), block) != null;
    }
    return definition.operation().form() == Operation.Form.LENGTH
        && definition.arguments().get(0) instanceof Operand.Use array
        && made.get(array.value()) == null && values.isAvailable(array);
  }
}
