package ad4j.processor.methodsize;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Statement;
import java.util.List;
import java.util.Map;

/**
 * What may rewrite a long run of statements once it is cut into parts, before each part becomes
 * a method: which instructions make a piece of a formula that no part may be cut off from where
 * it is read, and which statements move from one part to another. The cutting of long blocks
 * ({@link LongRuns}) knows only that such a rewrite keeps what the run computes; what the
 * statements mean (a long adjoint sum, whose terms read values of every part) is the
 * implementation's: {@link LongBlocks} hands in {@code optimize/SumsAcrossParts}.
 */
interface PartRegrouping {
  /**
   * Whether {@code instruction} makes a piece of a formula, written where it is read: a part
   * does not end before it is read. {@code uses} counts the reads of each value in the whole
   * program as cut so far.
   */
  boolean keepsWithReader(Instruction instruction, Map<Object, Integer> uses);

  /**
   * Rewrites {@code parts}, the consecutive pieces of one run in order, in place, keeping what
   * the run computes; new values come from {@code builder}. {@code uses} is as for {@link
   * #keepsWithReader}: the caller counts the run again afterwards.
   */
  void regroup(List<List<Statement>> parts, Map<Object, Integer> uses, IrBuilder builder);
}
