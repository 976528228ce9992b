package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/**
 * Which types are functions ad4j specialises, and what their method takes and returns: a
 * functional interface's single abstract method over numbers, {@code double[]} or
 * {@code float[]} arrays and value records ({@link FunctionValues.Signature}), and whether a
 * method takes a function (a template). Apart from {@link FunctionValues}, which lowers the
 * values and calls, because this reads types only.
 */
final class FunctionTypes {
  private final LoweringContext context;

  FunctionTypes(LoweringContext context) {
    this.context = context;
  }

  /**
   * The method of {@code type} when it is a functional interface whose method takes
   * {@code double}, {@code float}, {@code int}, {@code long} or {@code boolean} values (their
   * boxes for the generic interfaces of {@code java.util.function}), {@code double[]} or
   * {@code float[]} arrays or value records, and returns such a value or a value record; empty
   * for every other type.
   */
  Optional<FunctionValues.Signature> signature(TypeMirror type) {
    if (!(type instanceof DeclaredType declared)
        || declared.asElement().getKind() != ElementKind.INTERFACE) {
      return Optional.empty();
    }
    TypeElement element = (TypeElement) declared.asElement();
    List<ExecutableElement> abstractMethods = new ArrayList<>();
    for (ExecutableElement method
        : ElementFilter.methodsIn(context.elements().getAllMembers(element))) {
      if (method.getModifiers().contains(Modifier.ABSTRACT) && !isObjectMethod(method)) {
        abstractMethods.add(method);
      }
    }
    if (abstractMethods.size() != 1) {
      return Optional.empty();
    }
    ExecutableElement method = abstractMethods.get(0);
    ExecutableType resolved = memberOf(declared, method);
    List<Boolean> boxedParameters = new ArrayList<>();
    List<NumericType> parameters = new ArrayList<>();
    List<TypeElement> records = new ArrayList<>();
    for (TypeMirror parameter : resolved.getParameterTypes()) {
      Optional<TypeElement> record = ValueRecords.valueRecord(parameter);
      if (record.isPresent()) {
        parameters.add(NumericType.OBJECT);
        records.add(record.get());
        boxedParameters.add(false);
        continue;
      }
      Optional<NumericType> kind = parameterType(parameter);
      if (kind.isEmpty()) {
        return Optional.empty();
      }
      boxedParameters.add(parameter.getKind() == TypeKind.DECLARED);
      parameters.add(kind.get());
      records.add(null);
    }
    Optional<TypeElement> resultRecord = ValueRecords.valueRecord(resolved.getReturnType());
    Optional<NumericType> result = resultRecord.isPresent() ? Optional.of(NumericType.OBJECT)
        : valueType(resolved.getReturnType());
    if (result.isEmpty()) {
      return Optional.empty();
    }
    boolean boxedResult =
        !resolved.getReturnType().getKind().isPrimitive() && resultRecord.isEmpty();
    if ((boxedResult || boxedParameters.contains(true))
        && !element.getQualifiedName().toString().startsWith("java.util.function.")) {
      return Optional.empty();
    }
    return Optional.of(new FunctionValues.Signature(method.getSimpleName().toString(),
        parameters, records, result.get(), resultRecord.orElse(null), boxedParameters,
        boxedResult));
  }

  /**
   * The abstract method of the functional interface {@code type} as its members see it
   * ({@code double[] ap(double)}), for a message that says why ad4j does not specialise it.
   */
  String methodOf(TypeMirror type) {
    DeclaredType declared = (DeclaredType) type;
    for (ExecutableElement method : ElementFilter.methodsIn(
        context.elements().getAllMembers((TypeElement) declared.asElement()))) {
      if (method.getModifiers().contains(Modifier.ABSTRACT) && !isObjectMethod(method)) {
        ExecutableType resolved = memberOf(declared, method);
        StringBuilder text = new StringBuilder(resolved.getReturnType().toString()).append(' ')
            .append(method.getSimpleName()).append('(');
        for (int i = 0; i < resolved.getParameterTypes().size(); i++) {
          text.append(i == 0 ? "" : ", ").append(resolved.getParameterTypes().get(i));
        }
        return text.append(')').toString();
      }
    }
    return type.toString();
  }

  /**
   * {@code method} as a member of {@code type}, its type variables replaced by {@code type}'s
   * arguments ({@code Double apply(Double)} of a {@code UnaryOperator<Double>}). Asked of the
   * supertype that declares the method: ECJ's {@code asMemberOf} looks for it in the type and
   * its superclasses only, and throws for a method an interface inherits from another
   * ({@code UnaryOperator}'s and {@code BinaryOperator}'s {@code apply}, {@code Function}'s and
   * {@code BiFunction}'s); javac gives the same type either way.
   */
  private ExecutableType memberOf(DeclaredType type, ExecutableElement method) {
    DeclaredType declaring = declaringSupertype(type, method.getEnclosingElement());
    if (declaring == null) {
      return (ExecutableType) context.types().asMemberOf(type, method);
    }
    // ECJ's members of a subinterface hold the method with its type variables ('T apply(T)'
    // of UnaryOperator<T>), which the declaring interface's type does not know: take its own
    ExecutableElement declared = ElementFilter.methodsIn(declaring.asElement()
        .getEnclosedElements()).stream()
        .filter(m -> m.getSimpleName().equals(method.getSimpleName())
            && m.getParameters().size() == method.getParameters().size()
            && m.getModifiers().contains(Modifier.ABSTRACT))
        .findFirst().orElse(method);
    return (ExecutableType) context.types().asMemberOf(declaring, declared);
  }

  /** {@code type} or its supertype whose class or interface is {@code owner}, or null. */
  private DeclaredType declaringSupertype(TypeMirror type,
      javax.lang.model.element.Element owner) {
    if (type instanceof DeclaredType declared && declared.asElement().equals(owner)) {
      return declared;
    }
    for (TypeMirror supertype : context.types().directSupertypes(type)) {
      DeclaredType found = declaringSupertype(supertype, owner);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /** Whether {@code type} is an interface with one abstract method (a function value). */
  static boolean isFunctionalInterface(TypeMirror type, javax.lang.model.util.Elements elements) {
    if (!(type instanceof DeclaredType declared)
        || declared.asElement().getKind() != ElementKind.INTERFACE) {
      return false;
    }
    return ElementFilter.methodsIn(elements.getAllMembers(
            (TypeElement) declared.asElement())).stream()
        .filter(m -> m.getModifiers().contains(Modifier.ABSTRACT) && !isObjectMethod(m))
        .count() == 1;
  }

  /**
   * Whether {@code method} takes a function: a parameter whose type is an interface of
   * {@code java.util.function} or one marked {@code @FunctionalInterface}. Such a
   * {@code @Differentiable} method is a template, differentiated at each call for the function
   * passed there, with no generated members of its own. Other interfaces with one abstract
   * method (a {@code Distribution} that classes implement) stay objects whose methods run as
   * written.
   */
  public static boolean takesFunction(ExecutableElement method,
      javax.lang.model.util.Elements elements) {
    return method.getParameters().stream()
        .anyMatch(parameter -> isFunctionType(parameter.asType(), elements));
  }

  /**
   * Whether {@code type} is a function type: an interface of {@code java.util.function} or one
   * marked {@code @FunctionalInterface}, whose values ad4j must know the code of.
   */
  static boolean isFunctionType(TypeMirror type, javax.lang.model.util.Elements elements) {
    if (!isFunctionalInterface(type, elements)) {
      return false;
    }
    TypeElement element = (TypeElement) ((DeclaredType) type).asElement();
    return element.getQualifiedName().toString().startsWith("java.util.function.")
        || element.getAnnotation(FunctionalInterface.class) != null;
  }

  /**
   * A function's parameter type: a value ({@link #valueType}) or an array of {@code double}s or
   * {@code float}s, which the function reads as the caller's array.
   */
  private Optional<NumericType> parameterType(TypeMirror type) {
    if (type.getKind() == TypeKind.ARRAY) {
      return context.javaTypes().irType(type).filter(array -> array == NumericType.DOUBLE_ARRAY
          || array == NumericType.FLOAT_ARRAY);
    }
    return valueType(type);
  }

  /**
   * A template's result type other than a value record: a value ({@link #valueType}) or a
   * {@code double[]} or {@code float[]} array, which the template returns to its caller.
   */
  Optional<NumericType> resultType(TypeMirror type) {
    return parameterType(type);
  }

  /** A function's or a template's result type: a number or a {@code boolean}, or its box. */
  private Optional<NumericType> valueType(TypeMirror type) {
    TypeMirror primitive = type;
    if (!type.getKind().isPrimitive()) {
      try {
        primitive = context.types().unboxedType(type);
      } catch (IllegalArgumentException notABox) {
        return Optional.empty();
      }
    }
    return switch (primitive.getKind()) {
      case DOUBLE -> Optional.of(NumericType.DOUBLE);
      case FLOAT -> Optional.of(NumericType.FLOAT);
      case INT -> Optional.of(NumericType.INT);
      case LONG -> Optional.of(NumericType.LONG);
      case BOOLEAN -> Optional.of(NumericType.BOOLEAN);
      default -> Optional.empty();
    };
  }

  /** {@code equals}, {@code hashCode}, {@code toString}: an interface's restatement of them. */
  private static boolean isObjectMethod(ExecutableElement method) {
    String name = method.getSimpleName().toString();
    int arity = method.getParameters().size();
    return name.equals("equals") && arity == 1 || name.equals("hashCode") && arity == 0
        || name.equals("toString") && arity == 0;
  }
}
