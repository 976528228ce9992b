package ad4j.processor.derive.forward;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import java.util.HashSet;
import java.util.Set;

/**
 * Tangents known to be zero, which the rules leave out as a careful hand would. A forward-over-
 * reverse sweep starts its reverse sweep with a constant seed, {@code double sumBar = 1.0},
 * and reads it in every iteration; its tangent is zero all along, so the product rule's term
 * {@code sumBarDot * a} is no statement at all, and neither is a tangent that only such terms
 * make (zero too). In {@code mHessian}'s lanes of the extended Rosenbrock function that is,
 * per iteration, two multiplications and two additions per lane (of about thirty per lane).
 *
 * <p>A tangent is known to be zero when it is the constant zero (the tangent of a value that
 * carries no derivative, or of one made only from such values), or when it is the tangent of a
 * variable declared with such a value that no statement assigns again. A variable that the
 * program records on the tape keeps its tangent: the tape holds a tangent wherever its value
 * carries a derivative, and taking it back must find one there.
 *
 * <p>Leaving out {@code 0 · x} follows the derivative, which is zero, rather than IEEE
 * arithmetic, which gives NaN where the partial {@code x} is infinite or NaN (the seed's
 * tangent is zero whatever the point). Signs of zero may differ ({@code −0.0 + 0.0} is {@code 0.0}).
 */
final class ZeroTangents {
  /** The variables some statement assigns after their declaration or records on the tape. */
  private final Set<Variable> assignedOrRecorded = new HashSet<>();

  ZeroTangents(Block body) {
    visit(body);
  }

  private void visit(Block block) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Store store) {
        assignedOrRecorded.add(store.variable());
      } else if (statement instanceof Push push && push.value() instanceof Operand.Read read) {
        assignedOrRecorded.add(read.variable());
      }
      for (Block nested : statement.nestedBlocks()) {
        visit(nested);
      }
    }
  }

  /** Whether {@code tangent} is the constant zero. */
  static boolean isZero(Operand tangent) {
    return tangent instanceof Operand.Constant constant && constant.knownValue().isPresent()
        && constant.knownValue().getAsDouble() == 0.0;
  }

  /**
   * Whether the variable {@code declare} declares keeps the tangent of its initial value, zero,
   * all along: nothing assigns it again and nothing records it.
   */
  boolean staysZero(Declare declare, Operand initialTangent) {
    return isZero(initialTangent) && !assignedOrRecorded.contains(declare.variable());
  }
}
