package ad4j.processor.derive;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which loops provably run at most {@code Integer.MAX_VALUE} times, so that an {@code int}
 * counts their trips; every other loop counts them in a {@code long}. An {@code int} count of a
 * loop that ran longer (a double test as in {@code while (t < 3e9)}, {@code for (int i = -n; i <
 * n; i++)}, up to 2^32 - 1 trips) wrapped, and the reverse sweep ran the wrong number of
 * iterations: a gradient of 0, or a wrong one.
 *
 * <p>The proof is syntactic and cheap, from ranges of values as longs: a loop with a counter
 * ({@link Recomputation#counterOf}: an {@code int} that only the update {@code v += c} or {@code
 * v -= c} changes, by a constant) whose test is exactly {@code v < b} or {@code v <= b} counting
 * up ({@code v + k < b} too, with a constant {@code k >= 0}: {@code i + 1 < x.length}), {@code v
 * > b} or {@code v >= b} counting down. While the counter does not wrap, a trip happens only at
 * values between its start and the last one the test allows, {@code top}: at most {@code (top -
 * start) / c + 1} trips. The counter cannot wrap when {@code top + c} stays an {@code int}
 * (always so for {@code v < b}, {@code c = 1}); else, for {@code c = 1} and a bound the loop
 * does not change, a counter that wraps finds the test true forever, and a loop that nothing but
 * its test ends (no {@code break} or {@code return}) then never gives a result: the runs that end
 * do not wrap. The ranges known: constants, array lengths ({@code [0, Integer.MAX_VALUE]}), a
 * local declared once and never assigned, a constant added or subtracted when no overflow is
 * possible, and inside a proven loop's body its counter's range ({@code [start, top]}), which
 * bounds the loops inside it ({@code for (int j = i + 1; j < n; j++)}). So the common loops
 * from a non-negative start, {@code for (int i = 0; i < n; i++)}, {@code i <= n}, {@code for
 * (int k = n; k > 0; k--)}, keep {@code int} counts, as before.
 */
public final class TripBounds {
  private static final long INT_MIN = Integer.MIN_VALUE;
  private static final long INT_MAX = Integer.MAX_VALUE;
  /**
   * Far past any {@code int} and far from the ends of {@code long}: the range taken for any
   * {@code long}, so that the sums below cannot overflow.
   */
  private static final long BEYOND_INT = 1L << 62;

  /** The values an operand may hold, {@code lo} to {@code hi}, as {@code long}s. */
  private record Range(long lo, long hi) {
    static Range of(NumericType type) {
      return type == NumericType.INT ? new Range(INT_MIN, INT_MAX)
          : new Range(-BEYOND_INT, BEYOND_INT);
    }

    static Range exactly(long value) {
      return new Range(value, value);
    }
  }

  private final Map<Value, Instruction> definitions = new HashMap<>();
  /** Per local declared with a value, that value; locals stored again are left out. */
  private final Map<Variable, Operand> initials = new HashMap<>();
  private final Set<Variable> stored = new HashSet<>();
  /** While the scan is in a proven loop's body: the range of the loop's counter there. */
  private final Map<Variable, Range> counterRanges = new HashMap<>();
  /** Reads of counters in their loops' bodies: the counters' ranges there. */
  private final Map<Value, Range> readRanges = new HashMap<>();
  private final Set<Integer> provenLoops = new HashSet<>();
  /** Of the proven loops, those whose count {@link #spanFitsInt} computes in ints. */
  private final Set<Integer> intSpans = new HashSet<>();

  public TripBounds(Function function) {
    collect(function.body());
    initials.keySet().removeAll(stored);
    scan(function.body());
  }

  /** Whether {@code loop} runs at most {@code Integer.MAX_VALUE} times, by the proof above. */
  public boolean fitsInt(Loop loop) {
    return provenLoops.contains(loop.id());
  }

  /**
   * Whether {@code bound - start} ({@code start - bound} counting down), one more when the test
   * holds at the bound, computed in {@code int}s, gives a loop that {@link #fitsInt} its count
   * through {@code Math.max(span, 0)} ({@code Recomputation.tripCount}). The {@code int} result
   * is the span modulo 2^32, which is the span itself up to {@code Integer.MAX_VALUE} (no run
   * that ends has more trips); only a span below {@code Integer.MIN_VALUE} would wrap to a
   * positive count where the loop runs no trip ({@code for (int j = 5; j < n; j++)} with
   * {@code n} near {@code Integer.MIN_VALUE}), which the ranges of start and bound rule out.
   */
  boolean spanFitsInt(Loop loop) {
    return provenLoops.contains(loop.id()) && intSpans.contains(loop.id());
  }

  private void collect(Block block) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        definitions.put(instruction.result(), instruction);
      } else if (statement instanceof Declare declare) {
        if (declare.initial() == null
            || initials.put(declare.variable(), declare.initial()) != null) {
          stored.add(declare.variable());
        }
      } else if (statement instanceof Store store) {
        stored.add(store.variable());
      } else if (statement instanceof If branch) {
        collect(branch.thenBlock());
        collect(branch.elseBlock());
      } else if (statement instanceof Loop loop) {
        collect(loop.condition());
        collect(loop.body());
        collect(loop.update());
      }
    }
  }

  private void scan(Block block) {
    List<Statement> statements = block.statements();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      if (statement instanceof Instruction instruction
          && instruction.operation() == Operation.COPY
          && instruction.arguments().get(0) instanceof Operand.Read read
          && counterRanges.containsKey(read.variable())) {
        readRanges.put(instruction.result(), counterRanges.get(read.variable()));
      } else if (statement instanceof If branch) {
        scan(branch.thenBlock());
        scan(branch.elseBlock());
      } else if (statement instanceof Loop loop) {
        scan(loop.condition());
        Recomputation.Counter counter = Recomputation.counterOf(loop, statements.subList(0, i));
        Range inBody = counter == null ? null : counterRange(loop, counter);
        if (inBody != null) {
          provenLoops.add(loop.id());
          counterRanges.put(counter.variable(), inBody);
        }
        scan(loop.body());
        if (inBody != null) {
          counterRanges.remove(counter.variable());
        }
        scan(loop.update());
      }
    }
  }

  /**
   * The range of {@code loop}'s counter in the loop's body when the loop provably runs at most
   * {@code Integer.MAX_VALUE} times, else null.
   */
  private Range counterRange(Loop loop, Recomputation.Counter counter) {
    if (!loop.testFirst() || !(loop.test() instanceof Operand.Use test)) {
      return null;
    }
    Map<Value, Instruction> made = new HashMap<>();
    for (Statement statement : loop.condition().statements()) {
      if (!(statement instanceof Instruction instruction)) {
        return null;
      }
      made.put(instruction.result(), instruction);
    }
    Instruction comparison = made.get(test.value());
    if (comparison == null || comparison.operation().form() != Operation.Form.INFIX) {
      return null;
    }
    String symbol = comparison.operation().name();
    Operand left = comparison.arguments().get(0);
    Operand right = comparison.arguments().get(1);
    Long offset = offset(left, made, counter);
    Operand bound = right;
    if (offset == null) {
      offset = offset(right, made, counter);
      bound = left;
      symbol = switch (symbol) { // the counter on the right: the same test read from its side
        case "<" -> ">";
        case "<=" -> ">=";
        case ">" -> "<";
        case ">=" -> "<=";
        default -> symbol;
      };
    }
    if (offset == null) {
      return null;
    }
    Range start = range(counter.start(), Map.of());
    Range limit = range(bound, made);
    int step = counter.step();
    // wrapping past an end of int makes the test true forever, for a step of 1 and a bound the
    // loop keeps, so that a run that ends, which nothing but the test ends, never wraps
    boolean wrapNeverEnds = Math.abs(step) == 1 && offset == 0 && isKept(bound, made, loop)
        && !Recomputation.leavesEarly(loop.body(), loop.id(), new HashSet<>());
    if (step > 0 && (symbol.equals("<") || symbol.equals("<="))) {
      long top = (symbol.equals("<") ? limit.hi() - 1 : limit.hi()) - offset;
      if (start.hi() + offset > INT_MAX) {
        return null; // v + k wraps before the first test
      }
      if (top + offset + step > INT_MAX) { // v + c, or v + c + k, may wrap
        if (!wrapNeverEnds) {
          return null;
        }
        top = INT_MAX - 1;
      }
      if (offset == 0
          && limit.lo() - start.hi() + (symbol.equals("<=") ? 1 : 0) >= INT_MIN) {
        intSpans.add(loop.id());
      }
      return fits(start.lo(), top, step) ? new Range(start.lo(), top) : null;
    }
    if (step < 0 && offset == 0 && (symbol.equals(">") || symbol.equals(">="))) {
      long bottom = symbol.equals(">") ? limit.lo() + 1 : limit.lo();
      if (bottom + step < INT_MIN) {
        if (!wrapNeverEnds) {
          return null;
        }
        bottom = INT_MIN + 1;
      }
      if (start.lo() - limit.hi() + (symbol.equals(">=") ? 1 : 0) >= INT_MIN) {
        intSpans.add(loop.id());
      }
      return fits(bottom, start.hi(), -step) ? new Range(bottom, start.hi()) : null;
    }
    return null;
  }

  /** Whether stepping by {@code step} from {@code from} to at most {@code to} takes at most
   * {@code Integer.MAX_VALUE} trips. */
  private static boolean fits(long from, long to, long step) {
    return to < from || (to - from) / step + 1 <= INT_MAX;
  }

  /**
   * {@code k} when {@code operand} is the condition's read of the counter ({@code 0}) or that
   * read plus a constant {@code k >= 0}; else null.
   */
  private static Long offset(Operand operand, Map<Value, Instruction> made,
      Recomputation.Counter counter) {
    Instruction definition = operand instanceof Operand.Use use ? made.get(use.value()) : null;
    if (definition == null) {
      return null;
    }
    if (definition.operation() == Operation.COPY) {
      return definition.arguments().get(0) instanceof Operand.Read read
          && read.variable() == counter.variable() ? 0L : null;
    }
    if (definition.operation().equals(Operation.ADD) && definition.result().type()
        == NumericType.INT) {
      for (int i = 0; i < 2; i++) {
        Long read = offset(definition.arguments().get(i), made, counter);
        Long added = knownInt(definition.arguments().get(1 - i));
        if (read != null && read == 0 && added != null && added >= 0) {
          return added;
        }
      }
    }
    return null;
  }

  /** The value of an {@code int} or {@code long} constant, else null. */
  private static Long knownInt(Operand operand) {
    return operand instanceof Operand.Constant constant
        && (constant.type() == NumericType.INT || constant.type() == NumericType.LONG)
        && constant.knownValue().isPresent()
        ? (long) constant.knownValue().getAsDouble() : null;
  }

  /** What {@code operand} may hold; {@code made}: the loop condition's instructions. */
  private Range range(Operand operand, Map<Value, Instruction> made) {
    Long known = knownInt(operand);
    if (known != null) {
      return Range.exactly(known);
    }
    Range any = Range.of(operand.type());
    if (!(operand instanceof Operand.Use use)) {
      return any;
    }
    Range read = readRanges.get(use.value());
    if (read != null) {
      return read;
    }
    Instruction definition = made.get(use.value());
    boolean inCondition = definition != null;
    if (definition == null) {
      definition = definitions.get(use.value());
    }
    if (definition == null) {
      return any;
    }
    Operation operation = definition.operation();
    List<Operand> arguments = definition.arguments();
    if (operation.form() == Operation.Form.LENGTH) {
      return new Range(0, INT_MAX);
    }
    if (operation == Operation.COPY && arguments.get(0) instanceof Operand.Read variable) {
      Range counted = counterRanges.get(variable.variable());
      if (counted != null && inCondition) {
        return counted; // the counter of a loop around, read in this loop's test
      }
      Operand initial = initials.get(variable.variable());
      return initial == null || variable.variable().type() != operand.type() ? any
          : range(initial, Map.of());
    }
    if (operand.type() == NumericType.INT && (operation.equals(Operation.ADD)
        || operation.equals(Operation.SUBTRACT))) {
      Long constant = knownInt(arguments.get(1));
      int other = 0;
      if (constant == null && operation.equals(Operation.ADD)) {
        constant = knownInt(arguments.get(0));
        other = 1;
      }
      if (constant == null) {
        return any;
      }
      long shift = operation.equals(Operation.ADD) ? constant : -constant;
      Range from = range(arguments.get(other), made);
      Range moved = new Range(from.lo() + shift, from.hi() + shift);
      // an int sum that may overflow wraps: then nothing is known of it
      return moved.lo() < INT_MIN || moved.hi() > INT_MAX ? any : moved;
    }
    return any;
  }

  /** Whether {@code bound} has the same value in each test of {@code loop}. */
  private static boolean isKept(Operand bound, Map<Value, Instruction> made, Loop loop) {
    if (bound instanceof Operand.Constant) {
      return true;
    }
    if (!(bound instanceof Operand.Use use)) {
      return false;
    }
    Instruction definition = made.get(use.value());
    if (definition == null) {
      return true; // made before the loop: SSA, the same in every iteration
    }
    if (definition.operation().form() == Operation.Form.LENGTH) {
      return isKept(definition.arguments().get(0), made, loop); // an array's length is fixed
    }
    if (definition.operation() == Operation.COPY
        && definition.arguments().get(0) instanceof Operand.Read read) {
      Variable variable = read.variable();
      return !Recomputation.stores(loop.condition(), variable)
          && !Recomputation.stores(loop.body(), variable)
          && !Recomputation.stores(loop.update(), variable);
    }
    Operation operation = definition.operation();
    if (operation.equals(Operation.ADD) || operation.equals(Operation.SUBTRACT)
        || operation.equals(Operation.MULTIPLY)) { // i <= n + 1
      return definition.arguments().stream().allMatch(argument -> isKept(argument, made, loop));
    }
    return false;
  }
}
