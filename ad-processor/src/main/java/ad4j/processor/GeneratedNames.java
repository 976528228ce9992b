package ad4j.processor;

import ad4j.processor.front.DerivativeOrder;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Value;
import ad4j.processor.write.GradClassWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds generated members that would collide, by their real signatures: overloads such as
 * {@code f(double, int)} and {@code f(double, double)} give overloads of each member, which is
 * fine; two members with the same name and parameter types would be a duplicate for javac.
 */
final class GeneratedNames {
  private GeneratedNames() {}

  static Optional<String> findClash(List<GradClassWriter.Method> methods) {
    Map<String, String> owners = new HashMap<>();
    for (GradClassWriter.Method method : methods) {
      Function function = method.function();
      String owner = function.name() + "(" + String.join(", ", parameterTypes(function)) + ")";
      for (String signature : memberSignatures(function,
          DerivativeOrder.of(method.element()))) {
        String previous = owners.putIfAbsent(signature, owner);
        if (previous != null) {
          return Optional.of("the generated method '" + signature + "' for '" + owner
              + "' has the same signature as the one generated for '" + previous
              + "'; rename one of the two methods");
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The members of {@code FooGrad}, as {@code name(type, ...)}: the design contract's four, the
   * two halves of the pullback that callers call (package-private, and repeated in the
   * companion {@code FooGradSweeps}), and at order 2 the pullback's tangent that callers call
   * and, for a {@code double} result, three more for Hessians.
   */
  private static List<String> memberSignatures(Function function, int order) {
    List<String> parameters = parameterTypes(function);
    List<String> tangents = new ArrayList<>(parameters);
    function.differentiableParameters().forEach(p -> tangents.add(tangentType(p)));
    List<String> pullback = new ArrayList<>(parameters);
    pullback.addAll(List.of("double", "double[]"));
    List<String> valueAndGradient = new ArrayList<>(parameters);
    valueAndGradient.add("double[]");
    String name = function.name();
    List<String> members = new ArrayList<>(List.of(
        signature(name + "Gradient", parameters),
        signature(name + "ValueAndGradient", valueAndGradient),
        signature(name + "Tangent", tangents),
        signature(name + "Pullback", pullback)));
    // the halves of the pullback that callers call: Tape, params, per array: its start; and
    // Tape, params, per array: its adjoints and their start, seed
    List<Value> activeArrays = function.differentiableParameters().stream()
        .filter(Value::isActiveArray).toList();
    List<String> record = new ArrayList<>(List.of("Tape"));
    record.addAll(parameters);
    activeArrays.forEach(p -> record.add("int"));
    List<String> replay = new ArrayList<>(List.of("Tape"));
    replay.addAll(parameters);
    activeArrays.forEach(p -> replay.addAll(List.of("double[]", "int")));
    replay.add(function.returnsArray() ? "double[]" : "double");
    members.add(signature(name + Operation.RECORD, record));
    members.add(signature(name + Operation.REPLAY, replay));
    if (order == 2 && !function.returnsArray()) {
      List<String> hessianVector = new ArrayList<>(parameters);
      hessianVector.add("double[]");
      List<String> valueGradientAndHessian = new ArrayList<>(valueAndGradient);
      valueGradientAndHessian.add("double[][]");
      members.add(signature(name + "Hessian", parameters));
      members.add(signature(name + "HessianVector", hessianVector));
      members.add(signature(name + "ValueGradientAndHessian", valueGradientAndHessian));
    }
    if (order == 2) {
      // Tape, params, per array: its adjoints and their start, seed, tangents, seed's tangent,
      // per array: its adjoints' tangents
      List<String> pullbackTangent = new ArrayList<>(List.of("Tape"));
      pullbackTangent.addAll(parameters);
      List<Value> arrays = function.differentiableParameters().stream()
          .filter(Value::isActiveArray).toList();
      arrays.forEach(p -> pullbackTangent.addAll(List.of("double[]", "int")));
      // a vector function's seed, and its tangent, have an element per element of its result
      String seed = function.returnsArray() ? "double[]" : "double";
      pullbackTangent.add(seed);
      function.differentiableParameters().forEach(p -> pullbackTangent.add(tangentType(p)));
      pullbackTangent.add(seed);
      arrays.forEach(p -> pullbackTangent.add("double[]"));
      members.add(signature(name + "PullbackTangent", pullbackTangent));
    }
    return members;
  }

  /**
   * The type of an active parameter's tangent: a {@code float}'s is a {@code double}, a
   * {@code float[]}'s a {@code double[]}.
   */
  private static String tangentType(Value parameter) {
    return parameter.type().derivativeType().keyword();
  }

  private static List<String> parameterTypes(Function function) {
    // an object by its class, without type arguments: Java tells signatures apart by erasure
    return function.parameters().stream()
        .map(p -> p.type() == NumericType.OBJECT ? p.javaType().replaceAll("<.*>", "")
            : p.type().keyword())
        .toList();
  }

  private static String signature(String name, List<String> types) {
    return name + "(" + String.join(", ", types) + ")";
  }
}
