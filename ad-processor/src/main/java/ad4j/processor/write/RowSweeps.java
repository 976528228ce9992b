package ad4j.processor.write;

import ad4j.processor.plan.JacobianPlan;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.List;

/**
 * How a vector function's Jacobian members run the reverse sweeps of its rows, as its plan
 * chose ({@link JacobianPlan}): each row a whole pullback ({@link RowsByPullbacks}), or all
 * rows after one shared forward sweep ({@link RowsAfterOneSweep}). Chosen once per method, so
 * that no member asks again; each variant picks the members' text from {@link VectorMembers}
 * and adds its part to the driver loop ({@link JacobianDriver}).
 */
interface RowSweeps {
  /** {@code mJacobian}. */
  MethodSpec jacobian();

  /** {@code mValueAndJacobian}. */
  MethodSpec valueAndJacobian();

  /** What {@code fJacobianInto} runs before it checks the lengths of the rows. */
  void beforeRowChecks(JacobianDriver.Names names, CodeBlock.Builder code);

  /** What {@code fJacobianInto} runs after it checks the lengths of the rows. */
  void afterRowChecks(JacobianDriver.Names names, CodeBlock.Builder code);

  /** The private methods the variant adds, after the driver. */
  List<Written> helpers();

  /** The variant of {@code plan}. */
  static RowSweeps of(JacobianPlan plan, VectorMembers members, JacobianChecks checks,
      MethodContext method) {
    if (plan instanceof JacobianPlan.ByRows rows) {
      return new RowsAfterOneSweep(rows, members, checks);
    }
    return new RowsByPullbacks(members, method);
  }
}
