package ad4j.processor.write;

import ad4j.processor.plan.JacobianPlan;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.List;

/**
 * The Jacobian's rows after one forward sweep shared by their reverse sweeps
 * ({@code fJacobianRows}, with {@code fPrepareRows} for its checks); {@code mJacobian} makes
 * the matrix first where the method fixes its result's length, and holds the sweeps itself
 * where the plan has a program for that.
 */
final class RowsAfterOneSweep implements RowSweeps {
  private final JacobianPlan.ByRows plan;
  private final VectorMembers members;
  private final JacobianChecks checks;

  RowsAfterOneSweep(JacobianPlan.ByRows plan, VectorMembers members, JacobianChecks checks) {
    this.plan = plan;
    this.members = members;
    this.checks = checks;
  }

  @Override
  public MethodSpec jacobian() {
    if (plan.withoutValue().isPresent()) {
      return members.jacobianWithTheSweeps(plan.withoutValue().get(),
          plan.resultLength().getAsInt());
    }
    return plan.resultLength().isPresent()
        ? members.jacobianAfterRows(plan.resultLength().getAsInt())
        : members.jacobianAfterValue();
  }

  @Override
  public MethodSpec valueAndJacobian() {
    return members.valueAndJacobianAfterRows();
  }

  @Override
  public void beforeRowChecks(JacobianDriver.Names names, CodeBlock.Builder code) {
    code.beginControlFlow("if ($L <= $L)", names.rows(), names.count())
        .add("// one forward sweep, then one reverse sweep per row\n")
        .addStatement("$L", checks.rowsCall(names.parameters(), names.jacobian(),
            names.count(), false))
        .addStatement("return")
        .endControlFlow();
  }

  @Override
  public void afterRowChecks(JacobianDriver.Names names, CodeBlock.Builder code) {}

  @Override
  public List<Written> helpers() {
    return List.of(members.jacobianRows(plan.rows()), Written.alone(members.prepareRows()));
  }
}
