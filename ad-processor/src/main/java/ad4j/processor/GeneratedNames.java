package ad4j.processor;

import ad4j.processor.emit.GradClassWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds generated members that would collide: {@code fooValueAndGradient(double, double[])} is
 * generated both for {@code foo(double)} (as its value-and-gradient) and could be for a method
 * {@code fooValueAnd(double)} (as its gradient's sibling), and javac would report a duplicate.
 */
final class GeneratedNames {
  private GeneratedNames() {}

  static Optional<String> findClash(List<GradClassWriter.Method> methods) {
    Map<String, String> owners = new HashMap<>();
    for (GradClassWriter.Method method : methods) {
      String name = method.function().name();
      int n = method.function().parameters().size();
      int slots = method.function().differentiableParameters().size();
      String[] signatures = {
          name + "Gradient(" + n + "d)",
          name + "ValueAndGradient(" + n + "d,[])",
          name + "Tangent(" + (n + slots) + "d)",
          name + "Pullback(" + (n + 1) + "d,[])",
      };
      for (String signature : signatures) {
        String previous = owners.putIfAbsent(signature, name);
        if (previous != null) {
          return Optional.of("the generated method '" + signature.substring(0,
              signature.indexOf('(')) + "' for '" + name + "' has the same signature as one"
              + " generated for '" + previous + "'; rename one of the two methods");
        }
      }
    }
    return Optional.empty();
  }
}
