package ad4j.processor.analysis;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The loops whose reverse can run right after each of their iterations instead of after the
 * whole forward sweep: a loss summed over data points, {@code for (i ...) sum += f(i)}, whose sum
 * reaches the result only through additions and factors known before the loop ({@code return
 * sum / n}). The adjoint of such a sum is known before the loop runs (the seed times those
 * factors), and the reverse of an iteration leaves it as it found it, since the iteration only
 * adds into the sum. So each iteration's reverse can follow it at once, as a hand-written
 * gradient of a loss does: what the iteration records on the tape is taken back before the next
 * iteration records, and the tape holds one iteration's values instead of all of them (ADBench's
 * GMM at d = 64, K = 200 recorded 205 MB).
 *
 * <p>This class finds the loops where fusing is correct;
 * {@code derive/reverse/FusedLoops.worthFusing} keeps those where it is also faster. A loop
 * outside loops qualifies when
 *
 * <ul>
 *   <li>the method returns a {@code double} from its last statement only, and keeps no
 *       snapshots ({@code @Checkpointed});
 *   <li>the loop has a test, and nothing in it returns, leaves the loop by {@code break} or
 *       {@code continue}, writes an array, makes one, or calls a method that carries no
 *       derivative (which may write one): an iteration's reverse puts nothing back that a later
 *       iteration reads;
 *   <li>each variable declared before it that it assigns and that carries a derivative is only
 *       added into ({@code s = s + e}, {@code s = e + s}, {@code s = s - e}, in branches too),
 *       and read nowhere else in the loop;
 *   <li>after the loop, each such sum is read once and never assigned, and that read reaches the
 *       returned value through {@code +}, {@code -}, unary {@code -}, and {@code *} or {@code /}
 *       by a constant or a value made before the loop, each result read once;
 *   <li>the variables declared before it that it reads are assigned nowhere after it, and no
 *       array is written after it (their adjoints receive the loop's contributions first);
 *   <li>the arrays it reads from before it are parameters or made outside loops, not held in
 *       variables (their adjoints exist before the loop), and the values from before it that
 *       carry a derivative are {@code double}s.
 * </ul>
 *
 * <p>The path of each sum after the loop to the returned value is found by {@link
 * PathsToResult}.
 */
public final class AccumulatingLoops {
  /**
   * A variable the loop only adds into.
   *
   * @param variable the sum
   * @param read its one read after the loop, a copy of its value
   * @param path the instructions after the loop that this copy passes through to the result,
   *     in order, each with the position of the argument it enters at
   */
  public record Accumulator(Variable variable, Instruction read, List<Step> path) {}

  /**
   * An instruction on an accumulator's path and the position at which the path enters it.
   *
   * @param again the instructions after the loop that make its other argument, to be computed
   *     before the loop too, in order ({@code x.length} in {@code sum / x.length}); often none
   */
  public record Step(Instruction instruction, int position, List<Instruction> again) {}

  /**
   * A loop whose reverse follows each iteration.
   *
   * @param loop the loop
   * @param accumulators its sums, whose adjoints are known before it runs
   * @param valuesFromBefore the values that carry a derivative, made before the loop, that the
   *     loop reads: their adjoints receive the loop's contributions before the reverse sweep
   * @param variablesFromBefore the same for variables declared before the loop
   */
  public record Fusible(Loop loop, List<Accumulator> accumulators, List<Value> valuesFromBefore,
      List<Variable> variablesFromBefore) {}


  private final Function primal;
  /** How many operands read each value, anywhere in the method. */
  private final Map<Value, Integer> uses = new HashMap<>();
  /** The instruction that makes each value. */
  private final Map<Value, Instruction> makers = new HashMap<>();
  /** The instructions of the method's own block, outside its branches and loops. */
  private final Set<Instruction> topLevel =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  private final PathsToResult paths;

  private AccumulatingLoops(Function primal) {
    this.primal = primal;
    this.paths = new PathsToResult(uses, makers, topLevel);
    primal.body().walk(statement -> {
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Use use) {
          uses.merge(use.value(), 1, Integer::sum);
        }
      }
      if (statement instanceof Instruction instruction) {
        makers.put(instruction.result(), instruction);
      }
    });
    for (Statement statement : primal.body().statements()) {
      if (statement instanceof Instruction instruction) {
        topLevel.add(instruction);
      }
    }
  }

  /** The loops of {@code primal} whose reverse can follow each iteration, by loop id. */
  public static Map<Integer, Fusible> of(Function primal) {
    List<Statement> statements = primal.body().statements();
    if (primal.isCheckpointed() || primal.returnsArray() || statements.isEmpty()
        || !(statements.get(statements.size() - 1) instanceof Return last)
        || !(last.value() instanceof Operand.Use returned) || !returned.isActive()
        || returned.type() != NumericType.DOUBLE || returns(primal.body()) != 1) {
      return Map.of();
    }
    AccumulatingLoops analysis = new AccumulatingLoops(primal);
    Map<Integer, Fusible> fusible = new HashMap<>();
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i) instanceof Loop loop) {
        analysis.fusible(loop, i).ifPresent(found -> fusible.put(loop.id(), found));
      }
    }
    return fusible;
  }

  private Optional<Fusible> fusible(Loop loop, int index) {
    if (loop.test() == null || !onlyComputes(loop)) {
      return Optional.empty();
    }
    List<Statement> inLoop = new ArrayList<>();
    for (Block block : loop.nestedBlocks()) {
      block.walk(inLoop::add);
    }
    List<Statement> after = new ArrayList<>();
    List<Statement> top = primal.body().statements();
    new Block(top.subList(index + 1, top.size())).walk(after::add);
    Set<Value> madeInLoop = new HashSet<>();
    Set<Variable> declaredInLoop = new HashSet<>();
    for (Statement statement : inLoop) {
      if (statement instanceof Instruction instruction) {
        madeInLoop.add(instruction.result());
      } else if (statement instanceof Declare declare) {
        declaredInLoop.add(declare.variable());
      }
    }
    Set<Value> madeBefore = new HashSet<>(primal.parameters());
    for (Statement statement : top.subList(0, index)) {
      if (statement instanceof Instruction instruction) {
        madeBefore.add(instruction.result());
      }
    }
    List<Accumulator> accumulators = new ArrayList<>();
    for (Variable variable : loop.carriedVariables()) {
      if (!variable.isActive()) {
        continue; // a counter, or a value that carries no derivative: no adjoint to hand on
      }
      if (variable.type() != NumericType.DOUBLE || !onlyAddedInto(variable, loop, inLoop)) {
        return Optional.empty();
      }
      Optional<Accumulator> accumulator = paths.of(variable, loop, after, madeBefore);
      if (accumulator.isEmpty()) {
        return Optional.empty();
      }
      accumulators.add(accumulator.get());
    }
    if (accumulators.isEmpty()) {
      return Optional.empty(); // nothing is summed: the loop's reverse needs the later values
    }
    Set<Variable> sums = new HashSet<>();
    accumulators.forEach(accumulator -> sums.add(accumulator.variable()));
    Set<Value> values = new LinkedHashSet<>();
    Set<Variable> variables = new LinkedHashSet<>();
    for (Statement statement : inLoop) {
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Use use && !madeInLoop.contains(use.value())) {
          if (use.type().isArray() && !isArrayMadeOnce(use.value())
              || use.isActive() && use.type() != NumericType.DOUBLE) {
            return Optional.empty();
          }
          if (use.isActive()) {
            values.add(use.value());
          }
        } else if (operand instanceof Operand.Read read) {
          if (read.type().isArray()) {
            return Optional.empty(); // an array variable: its adjoints may be made later
          }
          if (read.isActive() && !declaredInLoop.contains(read.variable())
              && !sums.contains(read.variable())) {
            variables.add(read.variable());
          }
        }
      }
    }
    for (Statement statement : after) {
      // a write into an array after the loop would take the adjoint of the element it writes
      // over, to which the loop's reverse has added already
      if (statement instanceof Store store && variables.contains(store.variable())
          || statement instanceof Instruction instruction
              && instruction.operation().form() == Operation.Form.STORE) {
        return Optional.empty();
      }
    }
    return Optional.of(new Fusible(loop, accumulators, List.copyOf(values),
        List.copyOf(variables)));
  }

  /**
   * Whether {@code array}, read in the loop and made before it, is a parameter or made by an
   * instruction outside loops other than a copy of a variable: its adjoints, if it has any, are
   * then in the output array or in an adjoint array made beside it, before the loop.
   */
  private boolean isArrayMadeOnce(Value array) {
    if (primal.parameters().contains(array)) {
      return true;
    }
    Instruction maker = makers.get(array);
    return maker != null && topLevel.contains(maker)
        && maker.operation().form() != Operation.Form.COPY;
  }

  /**
   * Whether the loop only computes: no array written or made, no call that may write one, no
   * return, and no jump out of it ({@code break} or {@code continue} of its own would skip the
   * reverse that follows its body).
   */
  private static boolean onlyComputes(Loop loop) {
    boolean[] computes = {true};
    for (Block block : loop.nestedBlocks()) {
      block.walk(statement -> {
        if (statement instanceof Instruction instruction) {
          Operation.Form form = instruction.operation().form();
          NumericType type = instruction.result().type();
          boolean array = type.isArray();
          if (writesOrMakesArrays(form) || array && form.callsDifferentiated()) {
            computes[0] = false;
          }
        } else if (statement instanceof Return || statement instanceof ElementStore
            || statement instanceof Push
            || statement instanceof Jump jump && jump.loopId() == loop.id()) {
          computes[0] = false;
        }
      });
    }
    return computes[0];
  }

  /**
   * Whether the loop's only use of {@code variable} is adding into it: every assignment is
   * {@code variable = c + e}, {@code e + c} or {@code c - e} with {@code c} its read, each read
   * feeding one such assignment and nothing else.
   */
  private boolean onlyAddedInto(Variable variable, Loop loop, List<Statement> inLoop) {
    Set<Value> reads = new HashSet<>();
    for (Statement statement : inLoop) {
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Read read && read.variable() == variable) {
          if (!(statement instanceof Instruction copy)
              || copy.operation().form() != Operation.Form.COPY) {
            return false;
          }
          reads.add(copy.result());
        }
      }
    }
    Set<Value> added = new HashSet<>();
    if (assigns(loop.condition(), variable) || assigns(loop.update(), variable)) {
      return false;
    }
    for (Statement statement : inLoop) {
      if (!(statement instanceof Store store) || store.variable() != variable) {
        continue;
      }
      if (!(store.value() instanceof Operand.Use sum) || uses.get(sum.value()) != 1) {
        return false;
      }
      Instruction addition = makers.get(sum.value());
      Value read = addition == null ? null : addedRead(addition, reads);
      if (read == null || uses.get(read) != 1 || !added.add(read)) {
        return false;
      }
    }
    return added.equals(reads);
  }

  /** The read of the sum that {@code addition} adds to, or null if it is no such addition. */
  private static Value addedRead(Instruction addition, Set<Value> reads) {
    Operation operation = addition.operation();
    List<Operand> arguments = addition.arguments();
    if (arguments.size() != 2 || !operation.equals(Operation.ADD)
        && !operation.equals(Operation.SUBTRACT)) {
      return null;
    }
    for (int position = 0; position < 2; position++) {
      if (arguments.get(position) instanceof Operand.Use use && reads.contains(use.value())
          && (position == 0 || operation.equals(Operation.ADD))) {
        return use.value();
      }
    }
    return null;
  }

  /** Whether {@code block} assigns {@code variable}, at any depth. */
  public static boolean assigns(Block block, Variable variable) {
    boolean[] assigns = {false};
    block.walk(s -> assigns[0] |= s instanceof Store store && store.variable() == variable);
    return assigns[0];
  }

  /** How many {@code return} statements {@code block} holds, at any depth. */
  private static int returns(Block block) {
    int[] count = {0};
    block.walk(statement -> count[0] += statement instanceof Return ? 1 : 0);
    return count[0];
  }

  /**
   * Whether an instruction of {@code form} writes or makes an array, or does what a loop's
   * accumulation cannot be moved across: a call run as written, the tape.
   */
  private static boolean writesOrMakesArrays(Operation.Form form) {
    return form == Operation.Form.STORE || form.makesArray()
        || form == Operation.Form.PLAIN_CALL || form.usesTape();
  }
}
