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

  /**
   * Whether the driver runs one forward sweep per column, through {@code mTangent}, when
   * there are more rows than slots; otherwise the variant's rows cover every result length.
   */
  default boolean columnsWhenWider() {
    return true;
  }

  /**
   * The variant of {@code plan}; for a method without {@code mTangent} (too many parameters
   * for it), whole pullbacks for every row whatever the result's length.
   */
  static RowSweeps of(JacobianPlan plan, boolean hasTangent, VectorMembers members,
      JacobianChecks checks, MethodContext method) {
    if (!hasTangent) {
      return new RowsWithoutTangent(members, method);
    }
    if (plan instanceof JacobianPlan.ByRows rows) {
      return new RowsAfterOneSweep(rows, members, checks);
    }
    return new RowsByPullbacks(members, method);
  }
}
