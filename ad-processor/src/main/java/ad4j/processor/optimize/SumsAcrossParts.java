package ad4j.processor.optimize;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.List;
import java.util.Map;

/**
 * The long sums of a derivative program, spread across the parts that {@code
 * methodsize/LongBlocks} cuts a long run into ({@link SumSpreading}), and kept whole: a sum's
 * formula, and the tangent of a formula that a second-order sweep writes beside it, is not cut
 * off from where it is read. Apart from the cutting, which knows nothing of derivatives,
 * because this is what a run's adjoint and tangent sums need of it; {@code LongBlocks} hands
 * these two methods to the cutting as its {@code PartRegrouping}.
 */
public final class SumsAcrossParts {
  private SumsAcrossParts() {}

  /**
   * Whether the instruction makes a piece of a formula, read once where it is used: a formula
   * value, or the tangent of one that is read once (a second-order sweep's {@code aBarDot =
   * aBarDot + (t1BarDot * x1 + x1Dot * t1Bar + ...)}, whose pieces {@code derive/Tangent} names
   * after the formulas they are the tangents of). Its sum is spread and kept whole as the
   * formula's. {@code uses} counts the reads of each value in the whole program.
   */
  public static boolean isFormula(Instruction instruction, Map<Object, Integer> uses) {
    Value result = instruction.result();
    return result.origin() == Value.Origin.FORMULA
        || result.origin() == Value.Origin.DERIVED && result.base() != null
            && result.base().origin() == Value.Origin.FORMULA
            && uses.getOrDefault(result, 0) == 1;
  }

  /**
   * Moves the terms of the long sums of {@code parts}, the consecutive pieces of one run, into
   * the parts that make what they read ({@link SumSpreading#spreadSums}); new values come from
   * {@code builder}, and {@code uses} is as for {@link #isFormula}.
   */
  public static void spread(List<List<Statement>> parts, Map<Object, Integer> uses,
      IrBuilder builder) {
    new SumSpreading(builder, uses).spreadSums(parts);
  }
}
