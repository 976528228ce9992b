package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;

/**
 * Overload resolution for {@code Math} and {@code StrictMath} calls, whose overloads differ only
 * in primitive parameter types ({@code abs(int)}, {@code abs(double)}, ...): the applicable method
 * by widening with the most specific parameter types, as JLS 15.12.2 chooses it.
 */
final class MathSignatures {
  private MathSignatures() {}

  /** The result type of the overload chosen for these argument types, if one applies. */
  static Optional<NumericType> resultType(List<ExecutableElement> overloads,
      List<NumericType> argumentTypes) {
    List<List<NumericType>> applicable = new ArrayList<>();
    List<NumericType> results = new ArrayList<>();
    for (ExecutableElement method : overloads) {
      Optional<List<NumericType>> parameters = parameterTypes(method);
      Optional<NumericType> result = ConstantText.numericType(method.getReturnType().getKind());
      if (parameters.isEmpty() || result.isEmpty() || method.isVarArgs()
          || parameters.get().size() != argumentTypes.size()) {
        continue;
      }
      if (widens(argumentTypes, parameters.get())) {
        applicable.add(parameters.get());
        results.add(result.get());
      }
    }
    for (int i = 0; i < applicable.size(); i++) {
      boolean mostSpecific = true;
      for (List<NumericType> other : applicable) {
        mostSpecific &= widens(applicable.get(i), other);
      }
      if (mostSpecific) {
        return Optional.of(results.get(i));
      }
    }
    return Optional.empty();
  }

  private static Optional<List<NumericType>> parameterTypes(ExecutableElement method) {
    List<NumericType> types = new ArrayList<>();
    for (VariableElement parameter : method.getParameters()) {
      Optional<NumericType> type = ConstantText.numericType(parameter.asType().getKind());
      if (type.isEmpty()) {
        return Optional.empty();
      }
      types.add(type.get());
    }
    return Optional.of(types);
  }

  private static boolean widens(List<NumericType> from, List<NumericType> to) {
    for (int i = 0; i < from.size(); i++) {
      if (!from.get(i).widensTo(to.get(i))) {
        return false;
      }
    }
    return true;
  }
}
