package ad4j.processor.write;

import ad4j.processor.plan.Unsupported;
import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeVariableName;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;

/**
 * Finds members of {@code FooGrad} that would collide, by the signatures they are written
 * with: overloads such as {@code f(double, int)} and {@code f(double, double)} give overloads of
 * each member, which is fine; two members of one name and the same parameter types (after
 * erasure) would be a duplicate for javac, reported at a line of code the user did not write.
 * It reads the members as written, so a new member needs nothing here. Private members are
 * numbered per overload ({@code MethodPlan.Names}) and never collide.
 */
final class SignatureClashes {
  private final Map<String, String> owners = new HashMap<>();

  /**
   * Notes the members written for {@code method}; an error at it when one has the signature of a
   * member written for an earlier method.
   */
  void add(ExecutableElement method, List<MethodSpec> members) {
    String owner = method.getSimpleName() + "(" + method.getParameters().stream()
        .map(p -> erased(TypeName.get(p.asType()))).collect(Collectors.joining(", ")) + ")";
    for (MethodSpec member : members) {
      if (member.modifiers().contains(Modifier.PRIVATE)) {
        continue;
      }
      String signature = member.name() + "(" + member.parameters().stream()
          .map(p -> erased(p.type())).collect(Collectors.joining(", ")) + ")";
      String previous = owners.putIfAbsent(signature, owner);
      if (previous != null) {
        throw new Unsupported(method, "the generated method '" + signature + "' for '" + owner
            + "' has the same signature as the one generated for '" + previous
            + "'; rename one of the two methods");
      }
    }
  }

  /** A type as Java tells signatures apart, by erasure, with simple names. */
  private static String erased(TypeName type) {
    if (type instanceof ArrayTypeName array) {
      return erased(array.componentType()) + "[]";
    }
    if (type instanceof ParameterizedTypeName parameterized) {
      return erased(parameterized.rawType());
    }
    if (type instanceof TypeVariableName variable) {
      return variable.bounds().isEmpty() ? "Object" : erased(variable.bounds().get(0));
    }
    if (type instanceof ClassName name) {
      return String.join(".", name.simpleNames());
    }
    return type.toString();
  }
}
