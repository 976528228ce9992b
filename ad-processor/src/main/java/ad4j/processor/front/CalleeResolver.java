package ad4j.processor.front;

import ad4j.processor.ir.Callee;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.ElementFilter;

/**
 * Resolves a call of a user method: it must be another {@code @Differentiable} method, whose
 * generated tangent and pullback the caller's derivatives call. Overloads are chosen as Java
 * chooses them among primitive parameters: applicable by widening, most specific.
 */
final class CalleeResolver {
  private static final String ANNOTATION = "ad4j.Differentiable";

  private final LoweringContext context;

  CalleeResolver(LoweringContext context) {
    this.context = context;
  }

  Optional<Callee> resolve(TypeElement owner, String name, List<Operand> arguments, Tree call,
      String shown) {
    List<ExecutableElement> candidates = candidates(context, owner, name);
    ExecutableElement method = choose(context, owner, name, arguments);
    if (method == null && arguments.stream().map(Operand::type).anyMatch(NumericType::isArray)) {
      diagnostics().error(call, "call to '" + shown + "' passes an array: calls that pass"
          + " arrays between @Differentiable methods are not supported yet; pass the elements"
          + " the callee needs as 'double's");
      return Optional.empty();
    }
    if (method == null) {
      String what = candidates.isEmpty() ? "" : " with these argument types";
      diagnostics().error(call, "call to '" + shown + "' is not differentiable: ad4j"
          + " differentiates calls to java.lang.Math and StrictMath functions and to other"
          + " @Differentiable methods, and finds no method '" + name + "'" + what + " in "
          + owner.getSimpleName());
      return Optional.empty();
    }
    String qualified = owner.getSimpleName() + "." + name;
    if (!isDifferentiable(method)) {
      Optional<String> obstacle = context.isCompiledFromSource(method)
          ? whyAnnotatingWouldNotHelp(method) : Optional.empty();
      if (obstacle.isPresent()) {
        diagnostics().error(call, "call to '" + shown + "' is not differentiable: '" + qualified
            + "' is not a @Differentiable method, and annotating it would not help: "
            + obstacle.get() + ruleAdvice(method, "; give its partial derivatives with"
            + " @DerivativeOf instead"));
      } else if (context.isCompiledFromSource(method)) {
        diagnostics().error(call, "call to '" + shown + "' is not differentiable: annotate '"
            + qualified + "' with @Differentiable, so that ad4j generates the derivatives this"
            + " call needs" + ruleAdvice(method, ", or give its partial derivatives with"
            + " @DerivativeOf"));
      } else {
        diagnostics().error(call, "call to '" + shown + "' is not differentiable: '" + qualified
            + "' is not a @Differentiable method; ad4j differentiates calls to java.lang.Math"
            + " and StrictMath functions and to @Differentiable methods"
            + ruleAdvice(method, "; give its partial derivatives with @DerivativeOf"));
      }
      return Optional.empty();
    }
    if (method.getModifiers().contains(Modifier.PRIVATE)) {
      diagnostics().error(call, "call to private @Differentiable method '" + name + "':"
          + " generated code lives in another class and cannot call it; make it"
          + " package-private");
      return Optional.empty();
    }
    if (!method.getModifiers().contains(Modifier.STATIC)) {
      diagnostics().error(call, "call to '" + shown + "' is not differentiable: @Differentiable"
          + " method '" + qualified + "' is not static, and ad4j differentiates static methods"
          + " only");
      return Optional.empty();
    }
    if (method.getReturnType().getKind() != TypeKind.DOUBLE) {
      diagnostics().error(call, "call to '" + shown + "' is not differentiable: @Differentiable"
          + " method '" + qualified + "' returns '" + method.getReturnType() + "', and ad4j"
          + " differentiates methods returning 'double' only");
      return Optional.empty();
    }
    // An inherited static method (g of A, called as g or B.g in B extends A): its derivatives
    // are generated in the class that declares it.
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    Optional<String> unreachable = context.reachability().ofMember(method);
    if (unreachable.isPresent()) {
      diagnostics().error(call, "call to '" + shown + "': generated code cannot call it: "
          + unreachable.get());
      return Optional.empty();
    }
    if (!context.hasGradClass(declaring)) {
      diagnostics().error(call, "call to '" + shown + "': class '" + declaring.getQualifiedName()
          + "' is not among the source files of this compilation (javac found it on the source"
          + " path or class path), so ad4j does not write its derivatives here and '"
          + gradClassName(declaring) + "' does not exist; pass its source file to javac with"
          + " this one, or compile it with ad4j first");
      return Optional.empty();
    }
    String userClass = context.referenceTo(declaring);
    return Optional.of(new Callee(userClass, gradClassReference(declaring), name,
        parameterTypes(method).orElseThrow()));
  }

  private static List<ExecutableElement> candidates(LoweringContext context, TypeElement owner,
      String name) {
    return ElementFilter.methodsIn(context.elements().getAllMembers(owner)).stream()
        .filter(m -> m.getSimpleName().contentEquals(name))
        .toList();
  }

  /**
   * The method {@code owner.name(arguments)} calls, chosen as Java chooses among overloads with
   * primitive parameters; null when none applies.
   */
  static ExecutableElement choose(LoweringContext context, TypeElement owner, String name,
      List<Operand> arguments) {
    List<NumericType> argumentTypes = arguments.stream().map(Operand::type).toList();
    List<ExecutableElement> applicable = new ArrayList<>();
    for (ExecutableElement candidate : candidates(context, owner, name)) {
      Optional<List<NumericType>> parameters = parameterTypes(candidate);
      if (parameters.isPresent() && widens(argumentTypes, parameters.get())) {
        applicable.add(candidate);
      }
    }
    return mostSpecific(applicable);
  }

  /**
   * Why a method of the user's sources could not become a callee by adding
   * {@code @Differentiable}, if it could not: ad4j would reject it, or generated code could not
   * call it.
   */
  private Optional<String> whyAnnotatingWouldNotHelp(ExecutableElement method) {
    if (!method.getModifiers().contains(Modifier.STATIC)) {
      return Optional.of("it is not static, and ad4j differentiates static methods only");
    }
    if (method.getReturnType().getKind() != TypeKind.DOUBLE) {
      return Optional.of("it returns '" + method.getReturnType() + "', and ad4j differentiates"
          + " methods returning 'double' only");
    }
    if (method.getParameters().stream()
        .noneMatch(p -> p.asType().getKind() == TypeKind.DOUBLE)) {
      return Optional.of("it has no 'double' parameter");
    }
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    if (!context.hasGradClass(declaring)) {
      return Optional.of("its class '" + declaring.getQualifiedName() + "' is not among the"
          + " source files of this compilation, so ad4j would not write its derivatives here");
    }
    return Optional.empty();
  }

  /**
   * {@code advice} when {@code @DerivativeOf} rules could make calls of {@code method}
   * differentiable (it is static, returns {@code double} and has a {@code double} parameter);
   * else nothing.
   */
  private static String ruleAdvice(ExecutableElement method, String advice) {
    boolean fits = method.getModifiers().contains(Modifier.STATIC)
        && method.getReturnType().getKind() == TypeKind.DOUBLE
        && method.getParameters().stream()
            .anyMatch(p -> p.asType().getKind() == TypeKind.DOUBLE);
    return fits ? advice : "";
  }

  /** The qualified name of the class ad4j generates for {@code owner}. */
  private String gradClassName(TypeElement owner) {
    String pkg = context.elements().getPackageOf(owner).getQualifiedName().toString();
    return pkg.isEmpty() ? gradSimpleName(owner) : pkg + "." + gradSimpleName(owner);
  }

  private String gradSimpleName(TypeElement owner) {
    String qualified = owner.getQualifiedName().toString();
    String pkg = context.elements().getPackageOf(owner).getQualifiedName().toString();
    String nested = pkg.isEmpty() ? qualified : qualified.substring(pkg.length() + 1);
    return nested.replace('.', '_') + "Grad";
  }

  private String gradClassReference(TypeElement owner) {
    String pkg = context.elements().getPackageOf(owner).getQualifiedName().toString();
    String simple = gradSimpleName(owner);
    boolean samePackage = pkg.equals(context.symbols().packageName());
    context.referencedTypeNames().add(samePackage ? simple : pkg.split("\\.")[0]);
    return samePackage || pkg.isEmpty() ? simple : pkg + "." + simple;
  }

  private static boolean isDifferentiable(ExecutableElement method) {
    for (AnnotationMirror annotation : method.getAnnotationMirrors()) {
      TypeElement type = (TypeElement) annotation.getAnnotationType().asElement();
      if (type.getQualifiedName().contentEquals(ANNOTATION)) {
        return true;
      }
    }
    return false;
  }

  private static Optional<List<NumericType>> parameterTypes(ExecutableElement method) {
    List<NumericType> types = new ArrayList<>();
    for (VariableElement parameter : method.getParameters()) {
      Optional<NumericType> type = LoweringContext.variableType(parameter.asType().getKind());
      if (type.isEmpty()) {
        return Optional.empty();
      }
      types.add(type.get());
    }
    return Optional.of(types);
  }

  private static ExecutableElement mostSpecific(List<ExecutableElement> applicable) {
    for (ExecutableElement candidate : applicable) {
      List<NumericType> mine = parameterTypes(candidate).orElseThrow();
      boolean best = true;
      for (ExecutableElement other : applicable) {
        best &= widens(mine, parameterTypes(other).orElseThrow());
      }
      if (best) {
        return candidate;
      }
    }
    return null;
  }

  private static boolean widens(List<NumericType> from, List<NumericType> to) {
    if (from.size() != to.size()) {
      return false;
    }
    for (int i = 0; i < from.size(); i++) {
      if (!from.get(i).widensTo(to.get(i))) {
        return false;
      }
    }
    return true;
  }

  private Diagnostics diagnostics() {
    return context.diagnostics();
  }
}
