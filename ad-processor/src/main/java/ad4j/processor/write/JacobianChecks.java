package ad4j.processor.write;

import com.palantir.javapoet.CodeBlock;

/**
 * The argument checks of a vector function's Jacobian members on the matrix they fill, and
 * the calls of its private Jacobian methods. Apart because the public members and the driver
 * ({@link JacobianDriver}) both check and call so.
 */
final class JacobianChecks {
  private final MethodContext method;
  private final SlotText slots;

  JacobianChecks(MethodContext method, SlotText slots) {
    this.method = method;
    this.slots = slots;
  }

  /** Throws when {@code jacobian} has fewer than {@code rows} rows. */
  CodeBlock rowCount(String jacobian, String rows) {
    String name = method.function().name();
    return CodeBlock.builder()
        .beginControlFlow("if ($L.length < $L)", jacobian, rows)
        .addStatement("throw new $T($S + $L.length + $S + $L + $S)",
            IllegalArgumentException.class, method.gradType() + "." + name
                + "ValueAndJacobian: '" + jacobian + "' has ", jacobian, " rows, needs ", rows,
            " (one per element of the result of " + name + ")")
        .endControlFlow()
        .build();
  }

  /** Throws when row {@code i} of {@code jacobian} is shorter than {@code count}. */
  CodeBlock rowLength(String jacobian, String i, String count) {
    return CodeBlock.builder()
        .beginControlFlow("if ($L[$L].length < $L)", jacobian, i, count)
        .addStatement("throw new $T($S + $L + $S + $L[$L].length + $S + $L + $S)",
            IllegalArgumentException.class, method.gradType() + "."
                + method.function().name() + "ValueAndJacobian: row ", i,
            " of '" + jacobian + "' has length ", jacobian, i, ", needs ", count,
            " (" + slots.inWords() + ")")
        .endControlFlow()
        .build();
  }

  /**
   * {@code fJacobianRows(params, jacobian, slots, cleared)}; {@code cleared} when the caller
   * has just made the rows, all zeros, of the right lengths.
   */
  String rowsCall(java.util.List<String> parameters, String jacobian, String count,
      boolean cleared) {
    return method.memberNames().jacobianRows() + "(" + String.join(", ",
        MethodContext.append(MethodContext.append(MethodContext.append(parameters, jacobian),
            count), Boolean.toString(cleared))) + ")";
  }

  /** {@code fJacobianInto(params, rows, jacobian, slots)}. */
  String intoCall(java.util.List<String> parameters, String rows, String jacobian,
      String count) {
    return method.memberNames().jacobianInto() + "(" + String.join(", ",
        MethodContext.append(MethodContext.append(MethodContext.append(parameters, rows),
            jacobian), count)) + ")";
  }
}
