package ad4j.processor.write;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.List;

/**
 * The Jacobian's rows by whole pullbacks at every result length, for a vector function with
 * too many parameters for {@code mTangent} ({@link ad4j.processor.front.ParameterSlots}): its
 * driver has no forward sweeps per column to turn to when the result has more elements than
 * the method has slots, so it runs one reverse sweep per row there too. The members are
 * {@link RowsByPullbacks}'s; only the driver's rows are unconditional.
 */
final class RowsWithoutTangent implements RowSweeps {
  private final RowsByPullbacks byPullbacks;
  private final MethodContext method;

  RowsWithoutTangent(VectorMembers members, MethodContext method) {
    this.byPullbacks = new RowsByPullbacks(members, method);
    this.method = method;
  }

  @Override
  public MethodSpec jacobian() {
    return byPullbacks.jacobian();
  }

  @Override
  public MethodSpec valueAndJacobian() {
    return byPullbacks.valueAndJacobian();
  }

  @Override
  public void beforeRowChecks(JacobianDriver.Names names, CodeBlock.Builder code) {}

  @Override
  public void afterRowChecks(JacobianDriver.Names names, CodeBlock.Builder code) {
    RowsByPullbacks.rows(method, names, code);
  }

  @Override
  public List<Written> helpers() {
    return byPullbacks.helpers();
  }

  @Override
  public boolean columnsWhenWider() {
    return false;
  }
}
