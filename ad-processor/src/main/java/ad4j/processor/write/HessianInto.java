package ad4j.processor.write;

import ad4j.processor.emit.JavaTypes;
import ad4j.processor.ir.Function;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.Arrays;
import java.util.List;

/**
 * What the two drivers of an order-2 method's Hessian share, one sweep per slot
 * ({@link HessianSweeps}) or per block of lanes ({@link HessianLaneSweeps}): the private
 * {@code mHessianInto}'s signature and the symmetrisation after the last sweep; and, for
 * {@code mValueGradientAndHessian}, which gives it the caller's matrix, the check of the rows'
 * lengths and their clearing before it runs. The sweeps add into the rows: {@code mHessian}
 * gives new rows, zeros already, which are not cleared again.
 */
final class HessianInto {
  private final MethodContext method;
  private final SlotText slots;
  private final Function function;

  HessianInto(MethodContext method, SlotText slots) {
    this.method = method;
    this.slots = slots;
    this.function = method.function();
  }

  /** {@code private static void mHessianInto(params, double[][] hessian, int slots)}. */
  MethodSpec.Builder start(List<String> parameters, String hessian, String count) {
    MethodSpec.Builder into = method.privateMethod(method.memberNames().hessianInto())
        .addJavadoc("Adds into the first {@code $L} elements of the first {@code $L} rows of"
            + " {@code $L},\nwhich are zeros, the Hessian of $L.\n", count, count, hessian,
            method.link());
    for (int p = 0; p < parameters.size(); p++) {
      into.addParameter(JavaTypes.parameterType(function.parameters().get(p)),
          parameters.get(p));
    }
    return into.addParameter(double[][].class, hessian).addParameter(int.class, count);
  }

  /**
   * Throws, as {@code mValueGradientAndHessian} documents, when a row of the caller's matrix is
   * shorter than the slots, checked before anything writes into it, or when two rows are one
   * array ({@code distinctRows}, which writes their first elements); then clears the rows'
   * first {@code count} elements, into which the sweeps add.
   */
  CodeBlock rowsCheckedAndCleared(String hessian, String count, String i,
      CodeBlock distinctRows) {
    return CodeBlock.builder()
        .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, count, i)
        .beginControlFlow("if ($L[$L].length < $L)", hessian, i, count)
        .addStatement("throw new $T($S + $L + $S + $L[$L].length + $S + $L + $S)",
            IllegalArgumentException.class, method.gradType() + "." + function.name()
                + "ValueGradientAndHessian: row ", i, " of '" + hessian + "' has length ",
            hessian, i, ", needs ", count, " (" + slots.inWords() + ")")
        .endControlFlow()
        .endControlFlow()
        .add(distinctRows)
        .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, count, i)
        .addStatement("$T.fill($L[$L], 0, $L, 0.0)", Arrays.class, hessian, i, count)
        .endControlFlow()
        .build();
  }

  /**
   * The lower triangle made a copy of the upper: exactly symmetric. The two triangles are
   * computed along different directions (row {@code j} is {@code H e_j}) and may differ in
   * their last bits; one copy is half the memory traffic of averaging each pair.
   */
  static CodeBlock symmetrised(String hessian, String count, String i, String j) {
    return CodeBlock.builder()
        .add("// exactly symmetric: the lower triangle is the upper one's copy\n")
        .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, count, i)
        .beginControlFlow("for (int $L = 0; $L < $L; $L++)", j, j, i, j)
        .addStatement("$L[$L][$L] = $L[$L][$L]", hessian, i, j, hessian, j, i)
        .endControlFlow()
        .endControlFlow()
        .build();
  }
}
