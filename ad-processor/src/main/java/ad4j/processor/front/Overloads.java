package ad4j.processor.front;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.PrimitiveType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.Types;

/**
 * Chooses among the member methods of one name the one a call means, as JLS 15.12.2 does: the
 * methods applicable by strict invocation (widening, subtyping), else by loose invocation
 * (boxing and unboxing too), else by variable arity invocation, and of those the most specific
 * (15.12.2.5). A generic method is applicable when its arguments fit the erasures of its
 * parameters; its result type is inferred from the arguments the type variables stand for
 * ({@link #resultType}).
 */
final class Overloads {
  private final Types types;
  /** The type of the object whose methods are chosen among; null for static calls. */
  private DeclaredType site;

  Overloads(Types types) {
    this.types = types;
  }

  /** A chosen method, and whether the call passes its variable arity parameter element by element. */
  record Choice(ExecutableElement method, boolean variableArity) {}

  /**
   * The method of {@code candidates} a call with arguments of these Java types means; empty
   * when none applies, or when no one is most specific (javac rejects such a call).
   */
  Optional<Choice> choose(List<ExecutableElement> candidates, List<TypeMirror> arguments) {
    return choose(candidates, arguments, null);
  }

  /**
   * As {@link #choose(List, List)}, for instance methods and constructors of an object of type
   * {@code site} ({@code List<Double>}), whose parameters are seen as its members'
   * ({@code add(Double)}).
   */
  Optional<Choice> choose(List<ExecutableElement> candidates, List<TypeMirror> arguments,
      DeclaredType site) {
    this.site = site;
    for (Phase phase : Phase.values()) {
      List<ExecutableElement> applicable = new ArrayList<>();
      for (ExecutableElement candidate : candidates) {
        if (isApplicable(candidate, arguments, phase)) {
          applicable.add(candidate);
        }
      }
      if (!applicable.isEmpty()) {
        return mostSpecific(applicable, arguments.size(), phase == Phase.VARIABLE_ARITY)
            .map(m -> new Choice(m, phase == Phase.VARIABLE_ARITY));
      }
    }
    return Optional.empty();
  }

  /** The three phases of JLS 15.12.2, in order. */
  private enum Phase { STRICT, LOOSE, VARIABLE_ARITY }

  private boolean isApplicable(ExecutableElement method, List<TypeMirror> arguments,
      Phase phase) {
    List<TypeMirror> parameters = parameterTypes(method);
    int n = arguments.size();
    if (phase != Phase.VARIABLE_ARITY) {
      if (parameters.size() != n) {
        return false;
      }
      for (int i = 0; i < n; i++) {
        if (!converts(arguments.get(i), parameters.get(i), phase == Phase.LOOSE)) {
          return false;
        }
      }
      return true;
    }
    int k = parameters.size();
    if (!method.isVarArgs() || n < k - 1) {
      return false;
    }
    TypeMirror component = ((ArrayType) parameters.get(k - 1)).getComponentType();
    for (int i = 0; i < n; i++) {
      if (!converts(arguments.get(i), i < k - 1 ? parameters.get(i) : component, true)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether an argument of type {@code argument} may be passed for a parameter of type
   * {@code parameter}: in a strict invocation context by widening or subtyping, in a loose one
   * with boxing and unboxing too (JLS 5.3).
   */
  private boolean converts(TypeMirror argument, TypeMirror parameter, boolean loose) {
    boolean primitiveArgument = argument.getKind().isPrimitive();
    boolean primitiveParameter = parameter.getKind().isPrimitive();
    if (primitiveArgument && primitiveParameter) {
      return types.isSubtype(argument, parameter);
    }
    if (!primitiveArgument && !primitiveParameter) {
      return types.isAssignable(argument, parameter);
    }
    if (!loose) {
      return false;
    }
    if (primitiveArgument) {
      TypeMirror boxed = types.boxedClass((PrimitiveType) argument).asType();
      return types.isAssignable(boxed, parameter);
    }
    try {
      return types.isSubtype(types.unboxedType(argument), parameter);
    } catch (IllegalArgumentException notABox) {
      return false;
    }
  }

  /**
   * The one method more specific than all others applicable (JLS 15.12.2.5), comparing the
   * parameter types the {@code n} arguments meet (a variable arity parameter's elements for
   * {@code variableArity} calls). Among methods of equal signatures, a concrete one is chosen.
   */
  private Optional<ExecutableElement> mostSpecific(List<ExecutableElement> applicable, int n,
      boolean variableArity) {
    List<ExecutableElement> maximal = new ArrayList<>();
    for (ExecutableElement candidate : applicable) {
      boolean best = true;
      for (ExecutableElement other : applicable) {
        best &= other == candidate || moreSpecific(candidate, other, n, variableArity);
      }
      if (best) {
        maximal.add(candidate);
      }
    }
    if (maximal.size() == 1) {
      return Optional.of(maximal.get(0));
    }
    if (maximal.size() < 2 || !allSameSignature(maximal)) {
      return Optional.empty(); // ambiguous: javac rejects the call
    }
    // methods of one signature (inherited from several interfaces): the one concrete method,
    // or any when all are abstract; two concrete ones are ambiguous
    List<ExecutableElement> concrete = maximal.stream()
        .filter(m -> !m.getModifiers().contains(Modifier.ABSTRACT)).toList();
    return concrete.size() == 1 ? Optional.of(concrete.get(0))
        : concrete.isEmpty() ? Optional.of(maximal.get(0)) : Optional.empty();
  }

  private boolean allSameSignature(List<ExecutableElement> methods) {
    List<TypeMirror> first = parameterTypes(methods.get(0));
    for (ExecutableElement method : methods) {
      List<TypeMirror> parameters = parameterTypes(method);
      if (parameters.size() != first.size()) {
        return false;
      }
      for (int i = 0; i < first.size(); i++) {
        if (!types.isSameType(parameters.get(i), first.get(i))) {
          return false;
        }
      }
    }
    return true;
  }

  private boolean moreSpecific(ExecutableElement m1, ExecutableElement m2, int n,
      boolean variableArity) {
    List<TypeMirror> p1 = parameterTypes(m1);
    List<TypeMirror> p2 = parameterTypes(m2);
    int count = variableArity ? Math.max(n, Math.max(p1.size(), p2.size())) : n;
    for (int i = 0; i < count; i++) {
      TypeMirror s = variableArity ? expanded(p1, i) : p1.get(i);
      TypeMirror t = variableArity ? expanded(p2, i) : p2.get(i);
      if (!types.isSubtype(s, t)) {
        return false;
      }
    }
    return true;
  }

  /** The type the i-th argument meets in a variable arity call of a method with these parameters. */
  private static TypeMirror expanded(List<TypeMirror> parameters, int i) {
    int k = parameters.size();
    return i < k - 1 ? parameters.get(i)
        : ((ArrayType) parameters.get(k - 1)).getComponentType();
  }

  /** Parameter types, erased for a generic method (whose type variables inference fixes). */
  private List<TypeMirror> parameterTypes(ExecutableElement method) {
    boolean generic = !method.getTypeParameters().isEmpty();
    List<? extends TypeMirror> declared;
    // a constructor's too: new HashSet<Double>(xs) takes a Collection<? extends Double>
    if (site != null && !StaticMembers.isStatic(method)
        && (method.getKind() == javax.lang.model.element.ElementKind.METHOD
            || method.getKind() == javax.lang.model.element.ElementKind.CONSTRUCTOR)) {
      declared = ((ExecutableType) types.asMemberOf(site, method)).getParameterTypes();
    } else {
      declared = method.getParameters().stream().map(p -> p.asType()).toList();
    }
    List<TypeMirror> parameters = new ArrayList<>();
    declared.forEach(p -> parameters.add(generic ? types.erasure(p) : p));
    return parameters;
  }

  /**
   * The result type of a call of {@code method} with arguments of these types: for a generic
   * method, its type variables replaced by what the arguments give them (the argument's type,
   * boxed, where a parameter or a variable arity element is the type variable itself, or a type
   * argument of a parameterized parameter is; equal types from all such arguments), else by
   * their erasure. {@code seen} is the method's type as a member of the receiver's type.
   */
  TypeMirror resultType(ExecutableElement method, ExecutableType seen,
      List<TypeMirror> arguments) {
    TypeMirror result = seen.getReturnType();
    if (method.getTypeParameters().isEmpty()) {
      return result;
    }
    List<? extends TypeMirror> parameters = seen.getParameterTypes();
    int k = parameters.size();
    boolean variableArity = method.isVarArgs() && !(arguments.size() == k
        && converts(arguments.get(k - 1), types.erasure(parameters.get(k - 1)), true));
    Map<TypeParameterElement, TypeMirror> bound = new HashMap<>();
    Map<TypeParameterElement, Boolean> conflicting = new HashMap<>();
    for (int i = 0; i < arguments.size(); i++) {
      TypeMirror parameter = parameters.get(Math.min(i, k - 1));
      if (variableArity && i >= k - 1) {
        parameter = ((ArrayType) parameter).getComponentType();
      }
      bind(parameter, boxed(arguments.get(i)), method, bound, conflicting);
    }
    return substitute(result, method, bound, conflicting).orElse(types.erasure(result));
  }

  private void bind(TypeMirror parameter, TypeMirror argument, ExecutableElement method,
      Map<TypeParameterElement, TypeMirror> bound,
      Map<TypeParameterElement, Boolean> conflicting) {
    if (argument.getKind() == TypeKind.NULL) {
      return;
    }
    if (parameter instanceof TypeVariable variable
        && method.getTypeParameters().contains((TypeParameterElement) variable.asElement())) {
      TypeParameterElement element = (TypeParameterElement) variable.asElement();
      TypeMirror earlier = bound.putIfAbsent(element, argument);
      if (earlier != null && !types.isSameType(earlier, argument)) {
        conflicting.put(element, true);
      }
      return;
    }
    if (parameter instanceof ArrayType array && argument instanceof ArrayType given) {
      bind(array.getComponentType(), given.getComponentType(), method, bound, conflicting);
      return;
    }
    if (parameter instanceof DeclaredType declared && argument instanceof DeclaredType given
        && !declared.getTypeArguments().isEmpty()) {
      TypeMirror asSuper = supertypeOf(given, declared);
      if (asSuper instanceof DeclaredType view
          && view.getTypeArguments().size() == declared.getTypeArguments().size()) {
        for (int j = 0; j < view.getTypeArguments().size(); j++) {
          TypeMirror formal = declared.getTypeArguments().get(j);
          if (formal instanceof WildcardType wildcard) {
            formal = wildcard.getExtendsBound() != null ? wildcard.getExtendsBound()
                : wildcard.getSuperBound();
          }
          TypeMirror actual = view.getTypeArguments().get(j);
          if (formal != null && actual.getKind() == TypeKind.DECLARED) {
            bind(formal, actual, method, bound, conflicting);
          }
        }
      }
    }
  }

  /** {@code given} seen as the class of {@code target} (List<Double> for an ArrayList<Double>). */
  private TypeMirror supertypeOf(DeclaredType given, DeclaredType target) {
    if (types.isSameType(types.erasure(given), types.erasure(target))) {
      return given;
    }
    for (TypeMirror direct : types.directSupertypes(given)) {
      if (direct instanceof DeclaredType declared) {
        TypeMirror found = supertypeOf(declared, target);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private Optional<TypeMirror> substitute(TypeMirror type, ExecutableElement method,
      Map<TypeParameterElement, TypeMirror> bound,
      Map<TypeParameterElement, Boolean> conflicting) {
    if (type instanceof TypeVariable variable
        && method.getTypeParameters().contains((TypeParameterElement) variable.asElement())) {
      TypeParameterElement element = (TypeParameterElement) variable.asElement();
      TypeMirror value = bound.get(element);
      return Optional.of(value != null && !conflicting.containsKey(element)
          ? value : types.erasure(type));
    }
    if (type instanceof ArrayType array) {
      return substitute(array.getComponentType(), method, bound, conflicting)
          .map(types::getArrayType);
    }
    if (type instanceof DeclaredType declared && !declared.getTypeArguments().isEmpty()) {
      List<TypeMirror> arguments = new ArrayList<>();
      for (TypeMirror argument : declared.getTypeArguments()) {
        Optional<TypeMirror> replaced = argument instanceof TypeVariable
            ? substitute(argument, method, bound, conflicting)
            : mentionsVariableOf(argument, method) ? Optional.empty() : Optional.of(argument);
        if (replaced.isEmpty() || replaced.get().getKind().isPrimitive()) {
          return Optional.of(types.erasure(type));
        }
        arguments.add(replaced.get());
      }
      return Optional.of(types.getDeclaredType(
          (javax.lang.model.element.TypeElement) declared.asElement(),
          arguments.toArray(TypeMirror[]::new)));
    }
    return Optional.of(type);
  }

  private static boolean mentionsVariableOf(TypeMirror type, ExecutableElement method) {
    if (type instanceof TypeVariable variable) {
      return method.getTypeParameters().contains((TypeParameterElement) variable.asElement());
    }
    if (type instanceof WildcardType wildcard) {
      return wildcard.getExtendsBound() != null && mentionsVariableOf(wildcard.getExtendsBound(),
          method) || wildcard.getSuperBound() != null && mentionsVariableOf(
              wildcard.getSuperBound(), method);
    }
    if (type instanceof ArrayType array) {
      return mentionsVariableOf(array.getComponentType(), method);
    }
    if (type instanceof DeclaredType declared) {
      return declared.getTypeArguments().stream().anyMatch(a -> mentionsVariableOf(a, method));
    }
    return false;
  }

  private TypeMirror boxed(TypeMirror type) {
    return type.getKind().isPrimitive() ? types.boxedClass((PrimitiveType) type).asType() : type;
  }
}
