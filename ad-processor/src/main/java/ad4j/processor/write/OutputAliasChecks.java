package ad4j.processor.write;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Value;
import com.palantir.javapoet.CodeBlock;
import java.util.List;

/**
 * The checks that an output array of a member is none of the arrays it reads: a gradient, an
 * adjoints array, a Jacobian or a Hessian that is a {@code double[]} argument, or shares a row
 * with a {@code double[][]} one (or with another output). The member clears or fills its
 * output before or while its sweeps read the arguments, so {@code fValueAndGradient(x, x)}
 * would return numbers that are not the derivative; it throws instead, before it writes
 * anything. Apart from {@link SlotText}'s length checks because these compare arrays, not
 * lengths, and the matrix outputs have them too. The comparisons are of references: a few per
 * array argument, a row's worth for a matrix.
 */
final class OutputAliasChecks {
  private static final String OUTPUTS = "ad4j.runtime.internal.Outputs";

  private final MethodContext method;

  OutputAliasChecks(MethodContext method) {
    this.method = method;
  }

  /**
   * Throws when {@code output}, a {@code double[]} that {@code methodName} writes, is one of
   * the array {@code parameters} (named as the function's parameters are ordered) or a row of
   * one of the matrix ones.
   */
  CodeBlock array(String methodName, String output, List<String> parameters) {
    CodeBlock.Builder code = CodeBlock.builder();
    List<Value> all = method.function().parameters();
    for (int i = 0; i < all.size(); i++) {
      String parameter = parameters.get(i);
      if (all.get(i).type() == NumericType.DOUBLE_ARRAY) {
        reject(code, "$L == $L", new Object[] {output, parameter}, methodName,
            "'" + output + "' is the array passed as '" + parameter + "'");
      } else if (all.get(i).type() == NumericType.DOUBLE_MATRIX) {
        reject(code, "$L.isRowOf($L, $L)", new Object[] {OUTPUTS, output, parameter},
            methodName, "'" + output + "' is a row of '" + parameter + "'");
      }
    }
    return code.build();
  }

  /**
   * Throws when {@code output}, a {@code double[][]} that {@code methodName} writes, has one of
   * the array {@code parameters} or {@code otherOutput} (a {@code double[]} the member writes
   * too; null for none) as a row, or shares a row with one of the matrix parameters.
   */
  CodeBlock matrix(String methodName, String output, List<String> parameters,
      String otherOutput) {
    CodeBlock.Builder code = CodeBlock.builder();
    List<Value> all = method.function().parameters();
    for (int i = 0; i < all.size(); i++) {
      String parameter = parameters.get(i);
      if (all.get(i).type() == NumericType.DOUBLE_ARRAY) {
        reject(code, "$L.isRowOf($L, $L)", new Object[] {OUTPUTS, parameter, output},
            methodName, "a row of '" + output + "' is the array passed as '" + parameter + "'");
      } else if (all.get(i).type() == NumericType.DOUBLE_MATRIX) {
        reject(code, "$L.sharesRow($L, $L)", new Object[] {OUTPUTS, output, parameter},
            methodName, "'" + output + "' shares a row with '" + parameter + "'");
      }
    }
    if (otherOutput != null) {
      reject(code, "$L.isRowOf($L, $L)", new Object[] {OUTPUTS, otherOutput, output},
          methodName, "'" + otherOutput + "' is a row of '" + output + "'");
    }
    return code.build();
  }

  /**
   * Throws when two of the first {@code rows} rows of {@code output}, a matrix that {@code
   * methodName} writes {@code columns} elements of in each row, are one array: each row would
   * end with the other's derivatives. After the rows' lengths are checked and before they are
   * cleared: the check writes each row's first element ({@code Outputs.checkDistinctRows}).
   */
  CodeBlock distinctRows(String methodName, String output, String rows, String columns) {
    return CodeBlock.builder()
        .addStatement("$L.checkDistinctRows($L, $L, $L, $S, $S)", OUTPUTS, output, rows, columns,
            method.gradType() + "." + methodName, output)
        .build();
  }

  /**
   * The javadoc's words for these checks, after an {@code @throws IllegalArgumentException}
   * clause on {@code output}: empty where the method takes no {@code double[]} or
   * {@code double[][]}, and so no output is checked.
   */
  String javadoc(String output) {
    boolean arrays = method.function().parameters().stream().anyMatch(parameter ->
        parameter.type() == NumericType.DOUBLE_ARRAY
            || parameter.type() == NumericType.DOUBLE_MATRIX);
    return arrays ? ",\nor if {@code " + output + "} is an array argument or shares a row with one"
        : "";
  }

  private void reject(CodeBlock.Builder code, String condition, Object[] arguments,
      String methodName, String what) {
    code.beginControlFlow("if (" + condition + ")", arguments)
        .addStatement("throw new $T($S)", IllegalArgumentException.class,
            method.gradType() + "." + methodName + ": " + what + ", which it reads; pass an"
                + " array of its own")
        .endControlFlow();
  }
}
