package ad4j.processor.write;

import ad4j.processor.ir.Function;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Value;
import com.palantir.javapoet.CodeBlock;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks that {@code mTangent}'s tangent arrays are as long as the arrays they go with
 * ({@code aDot} as {@code a}; {@code mDot} as many rows as {@code m}, each as long as its row of
 * {@code m}), and what its javadoc says of them. The sweep reads {@code aDot[i]} where the method
 * reads {@code a[i]}: without the check a short tangent throws an index exception, or nothing
 * where the method reads only some elements. Apart because every tangent member, of a scalar or
 * a vector function, static or instance, over records' leaves or not, is written by one writer
 * that takes its parameters from the program it prints.
 */
final class TangentChecks {
  private final MethodContext method;
  private final Function function;

  TangentChecks(MethodContext method) {
    this.method = method;
    this.function = method.function();
  }

  /** The pairs of a primal array parameter and its tangent, in parameter order. */
  private record Pair(String primal, String tangent, boolean matrix) {}

  /**
   * The tangent arrays of {@code primalNames} (the member's names of the function's
   * parameters) among {@code tangentNames}, one per parameter that carries derivatives, in
   * order.
   */
  private List<Pair> arrays(List<String> primalNames, List<String> tangentNames) {
    List<Pair> pairs = new ArrayList<>();
    List<Value> all = function.parameters();
    int tangent = 0;
    for (int k = 0; k < all.size(); k++) {
      Value parameter = all.get(k);
      if (parameter.isActiveArray()) {
        pairs.add(new Pair(primalNames.get(k), tangentNames.get(tangent),
            parameter.type() == NumericType.DOUBLE_MATRIX));
      }
      if (parameter.isActive() || parameter.isActiveArray()) {
        tangent++;
      }
    }
    if (tangent != tangentNames.size()) {
      throw new IllegalStateException("one tangent per parameter that carries derivatives: "
          + tangentNames + " of " + function.name());
    }
    return pairs;
  }

  /**
   * Throws, naming {@code methodName}, when a tangent array is shorter than its array (a
   * tangent matrix has fewer rows, or a row shorter than the matrix's row): one call of {@code
   * ad4j.runtime.internal.TangentLengths.check} per array, which leaves null arrays and rows to
   * the sweep (a null array the method never reads is no error); nothing when the method takes
   * no array that carries derivatives.
   */
  CodeBlock checks(String methodName, List<String> primalNames, List<String> tangentNames) {
    CodeBlock.Builder code = CodeBlock.builder();
    String member = method.gradType() + "." + methodName;
    for (Pair pair : arrays(primalNames, tangentNames)) {
      code.addStatement("ad4j.runtime.internal.TangentLengths.check($L, $L, $S, $S, $S)",
          pair.tangent(), pair.primal(), member, pair.tangent(), pair.primal());
    }
    return code.build();
  }

  /** The {@code @throws} paragraph of the checks, empty without tangent arrays. */
  String throwsJavadoc(List<String> primalNames, List<String> tangentNames) {
    List<String> shorter = new ArrayList<>();
    for (Pair pair : arrays(primalNames, tangentNames)) {
      shorter.add(pair.matrix()
          ? "{@code " + pair.tangent() + "} has fewer rows than {@code " + pair.primal()
              + "} or a row\nshorter than that row of {@code " + pair.primal() + "}"
          : "{@code " + pair.tangent() + "} is shorter than {@code " + pair.primal() + "}");
    }
    return shorter.isEmpty() ? ""
        : "\n@throws IllegalArgumentException if " + String.join(",\nor ", shorter) + "\n";
  }
}
