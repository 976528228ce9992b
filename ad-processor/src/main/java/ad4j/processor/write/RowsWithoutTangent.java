package ad4j.processor.write;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.List;

/**
 * The Jacobian's rows by whole pullbacks at every result length, for a vector function with
 * too many parameters for {@code mTangent} ({@link ad4j.processor.front.ParameterSlots}): its
 * driver has no forward sweeps per column to turn to when the result has more elements than
 * the method has slots, so it runs one reverse sweep per row there too.
 */
final class RowsWithoutTangent implements RowSweeps {
  private final VectorMembers members;
  private final MethodContext method;

  RowsWithoutTangent(VectorMembers members, MethodContext method) {
    this.members = members;
    this.method = method;
  }

  @Override
  public MethodSpec jacobian() {
    return members.jacobianAfterValue();
  }

  @Override
  public MethodSpec valueAndJacobian() {
    return members.valueAndJacobianAfterValue();
  }

  @Override
  public void beforeRowChecks(JacobianDriver.Names names, CodeBlock.Builder code) {}

  @Override
  public void afterRowChecks(JacobianDriver.Names names, CodeBlock.Builder code) {
    RowsByPullbacks.rows(method, names, code);
  }

  @Override
  public List<Written> helpers() {
    return List.of();
  }

  @Override
  public boolean columnsWhenWider() {
    return false;
  }
}
