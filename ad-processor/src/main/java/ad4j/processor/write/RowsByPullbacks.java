package ad4j.processor.write;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.Arrays;
import java.util.List;

/**
 * The Jacobian's rows by whole pullbacks, one per row seeded with a unit vector, where
 * {@link ad4j.processor.derive.JacobianRows} cannot share one forward sweep among them or its
 * program would pass HotSpot's limit; the members take the value first.
 */
final class RowsByPullbacks implements RowSweeps {
  private final VectorMembers members;
  private final MethodContext method;

  RowsByPullbacks(VectorMembers members, MethodContext method) {
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
    code.beginControlFlow("if ($L <= $L)", names.rows(), names.count());
    rows(method, names, code);
    code.addStatement("return")
        .endControlFlow();
  }

  /** One reverse sweep per row, each a whole pullback of a unit seed. */
  static void rows(MethodContext method, JacobianDriver.Names names, CodeBlock.Builder code) {
    String rows = names.rows();
    String jacobian = names.jacobian();
    String seed = names.seed();
    String i = names.i();
    code.add("// one reverse sweep per row: row i is the pullback of the unit seed e_i\n")
        .addStatement("double[] $L = new double[$L]", seed, rows)
        .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, rows, i)
        .addStatement("$T.fill($L[$L], 0, $L, 0.0)", Arrays.class, jacobian, i, names.count())
        .addStatement("$L[$L] = 1", seed, i)
        // a value record result: the pullback that takes the seed's leaves (RecordAdapters)
        .addStatement("$LPullback$L($L)", method.function().name(), method.flatSuffix(),
            String.join(", ",
            MethodContext.append(MethodContext.append(names.parameters(), seed),
                jacobian + "[" + i + "]")))
        .addStatement("$L[$L] = 0", seed, i)
        .endControlFlow();
  }

  @Override
  public List<Written> helpers() {
    return List.of();
  }
}
