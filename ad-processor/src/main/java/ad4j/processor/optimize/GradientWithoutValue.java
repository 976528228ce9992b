package ad4j.processor.optimize;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The program of {@code mGradient}, which returns the gradient and never the value, where
 * leaving the value out saves work in loops: {@code mValueAndGradient}'s program returning
 * nothing, without what only the value needed ({@link DeadCode#withoutDead}). The gradient
 * is the same, bit for bit: the reverse sweep reads none of what is left out.
 *
 * <p>The case it is for is a stream's sum: {@code DoubleStream.sum()} and {@code average()}
 * sum with compensation, and the value must be the stream's bit for bit, so
 * {@code mValueAndGradient} repeats the compensated sum's chain of four dependent additions
 * per element. That chain bounds the loop: the stream loss's gradient cost 5.3 times its loop
 * twin's (BENCHMARKS.md, {@code ValuesBench}). Its derivative needs none of it. A plain sum
 * ({@code sum += r * r}) leaves two instructions per iteration, whose addition overlaps the
 * rest of the iteration's work: a second body there would add code and save little, so a
 * program is made only where at least {@link #FEWEST_LEFT_OUT_IN_LOOPS} instructions in loops
 * go.
 */
public final class GradientWithoutValue {
  /** The fewest instructions in loops left out for a program of its own to be worth it. */
  static final int FEWEST_LEFT_OUT_IN_LOOPS = 4;

  private GradientWithoutValue() {}

  /**
   * Whether {@link #of} may find a program for a method whose lowered program is {@code
   * function}: what it leaves out is the method's own instructions in loops, so a method
   * without a loop (the loops of streams and array copies are written out in its program) has
   * none to leave out; the loops its derivative programs add, which zero, copy or sum arrays of
   * adjoints, serve the gradient. The planner asks first, so that it does not derive and
   * optimize {@code mValueAndGradient}'s program only to ask {@link #of} (a long method of
   * branches, whose members share the sweep on the tape, needs that program for nothing else).
   */
  public static boolean mayLeaveOut(Function function) {
    boolean[] loop = {false};
    function.body().walk(statement -> loop[0] |= statement instanceof Loop);
    return loop[0];
  }

  /**
   * {@code valueAndGradient} returning nothing, without what only its value needed, when that
   * leaves out enough in loops (above); empty otherwise, and when the program returns anywhere
   * but at its end.
   *
   * @param valueAndGradient the program of {@code mValueAndGradient}, before it is cut into
   *     parts, which ends by returning the method's value
   */
  public static Optional<Function> of(Function valueAndGradient) {
    List<Statement> body = valueAndGradient.body().statements();
    if (body.isEmpty() || !(body.get(body.size() - 1) instanceof Return exit)
        || exit.value() == null) {
      return Optional.empty();
    }
    int[] returns = {0};
    valueAndGradient.body().walk(statement -> {
      if (statement instanceof Return) {
        returns[0]++;
      }
    });
    if (returns[0] != 1) {
      return Optional.empty(); // a return before the end would leave mGradient there
    }
    List<Statement> withoutValue = new ArrayList<>(body);
    withoutValue.set(body.size() - 1, new Return(null, exit.line()));
    Block kept = DeadCode.withoutDead(new Block(withoutValue));
    if (instructionsInLoops(valueAndGradient.body(), false) - instructionsInLoops(kept, false)
        < FEWEST_LEFT_OUT_IN_LOOPS) {
      return Optional.empty();
    }
    return Optional.of(valueAndGradient.with(valueAndGradient.parameters(), kept));
  }

  private static int instructionsInLoops(Block block, boolean inLoop) {
    int count = 0;
    for (Statement statement : block.statements()) {
      if (inLoop && statement instanceof Instruction) {
        count++;
      }
      for (Block nested : statement.nestedBlocks()) {
        count += instructionsInLoops(nested, inLoop || statement instanceof Loop);
      }
    }
    return count;
  }
}
