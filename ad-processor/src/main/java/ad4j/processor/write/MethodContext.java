package ad4j.processor.write;

import ad4j.processor.emit.JavaTypes;
import ad4j.processor.emit.NameAllocator;
import ad4j.processor.emit.NameScope;
import ad4j.processor.plan.MethodPlan;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Value;
import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;

/**
 * What every writer of one user's method's members shares: the method, its names, and how a
 * member's signature starts (visibility, suppressed warnings, the user's parameters). Apart so
 * that the member families print the same signatures without knowing one another.
 */
final class MethodContext {
  /** The runtime's tape. */
  static final ClassName TAPE = ClassName.get("ad4j.runtime.internal", "Tape");

  private final ExecutableElement element;
  private final Function function;
  private final String userType;
  private final String gradType;
  private final String link;
  private final MethodPlan.Names names;
  private final NameScope scope;

  MethodContext(ExecutableElement element, Function function, String userType, String gradType,
      MethodPlan.Names names, NameScope scope) {
    this.element = element;
    this.function = function;
    this.userType = userType;
    this.gradType = gradType;
    this.names = names;
    this.scope = scope;
    String parameterTypes = element.getParameters().stream()
        .map(p -> p.asType().toString())
        .collect(Collectors.joining(", "));
    this.link = "{@link " + userType + "#" + function.name() + "(" + parameterTypes + ")}";
  }

  ExecutableElement element() {
    return element;
  }

  Function function() {
    return function;
  }

  /**
   * The type of the method's value, which the members that return it return: {@code double},
   * {@code float} or {@code double[]} (the leaves of a value record the method returns, of
   * which {@link RecordAdapters} makes the record).
   */
  TypeName valueType() {
    if (ad4j.processor.front.ValueRecords.valueRecord(element.getReturnType()).isPresent()) {
      return TypeName.get(double[].class);
    }
    return TypeName.get(element.getReturnType());
  }

  /**
   * What ends the names of the contract's members that take and give leaves, which the other
   * members call: {@link ad4j.processor.ir.Callee#FLAT} for a method returning a value record,
   * whose public members with the record's signatures are others ({@link RecordAdapters}).
   */
  String flatSuffix() {
    return ad4j.processor.front.ValueRecords.valueRecord(element.getReturnType()).isPresent()
        ? ad4j.processor.ir.Callee.FLAT : "";
  }

  /**
   * The type of the method's derivatives with respect to its result, of a tangent result and of
   * a seed: {@code double[]} for a vector function, else {@code double} ({@code float}'s
   * derivatives are computed in {@code double}).
   */
  TypeName derivativeType() {
    return function.returnsArray() ? ArrayTypeName.of(TypeName.DOUBLE) : TypeName.DOUBLE;
  }

  /** The user's class, as generated code names it. */
  String userType() {
    return userType;
  }

  /** The generated class's simple name, for messages. */
  String gradType() {
    return gradType;
  }

  /** {@code {@link Foo#f(double)}}, for javadoc. */
  String link() {
    return link;
  }

  MethodPlan.Names memberNames() {
    return names;
  }

  /** The names of one member: each member chooses its own. */
  NameAllocator names() {
    return scope.allocator();
  }

  /** The user's parameter names, claimed first so that they stay unchanged. */
  List<String> userParameterNames(NameAllocator names) {
    List<String> parameters = new ArrayList<>();
    for (Value parameter : function.parameters()) {
      parameters.add(names.user(parameter.nameHint()));
    }
    return parameters;
  }

  /** A member with the user's visibility and the user's parameters under these names. */
  MethodSpec.Builder start(String name, List<String> parameterNames) {
    MethodSpec.Builder method = withVisibility(name);
    for (int i = 0; i < parameterNames.size(); i++) {
      method.addParameter(JavaTypes.parameterType(function.parameters().get(i)),
          parameterNames.get(i));
    }
    return method;
  }

  /** A {@code private static} method with the user's warning suppressions. */
  MethodSpec.Builder privateMethod(String name) {
    return suppressingWarnings(MethodSpec.methodBuilder(name))
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC);
  }

  /**
   * A static member with the visibility of the user's method ({@code private} becomes
   * package-private) and the user's warning suppressions.
   */
  MethodSpec.Builder withVisibility(String name) {
    MethodSpec.Builder method = MethodSpec.methodBuilder(name);
    for (Modifier modifier : element.getModifiers()) {
      if (modifier == Modifier.PUBLIC || modifier == Modifier.PROTECTED) {
        method.addModifiers(modifier);
      }
    }
    return suppressingWarnings(method.addModifiers(Modifier.STATIC));
  }

  /**
   * A member for the generated code of callers, taking the tape first: static and
   * package-private whatever the user's method's visibility, so that it is no member of the
   * generated class's API; its companion ({@link SweepsClass}) calls it from callers' code.
   */
  MethodSpec.Builder forCallers(String name) {
    return suppressingWarnings(MethodSpec.methodBuilder(name).addModifiers(Modifier.STATIC));
  }

  /**
   * Whether {@code member} is one {@link #forCallers} starts: not private, and taking the tape
   * first.
   */
  static boolean isForCallers(MethodSpec member) {
    return !member.modifiers().contains(Modifier.PRIVATE) && !member.parameters().isEmpty()
        && member.parameters().get(0).type().equals(TAPE);
  }

  /**
   * {@code method} with the warnings suppressed that the user's method suppresses, on itself
   * or on its enclosing classes: generated code repeats what the method refers to (a
   * deprecated constant or callee, say), and must compile as quietly as the method does, also
   * under {@code -Xlint:all -Werror}.
   */
  MethodSpec.Builder suppressingWarnings(MethodSpec.Builder method) {
    Set<String> suppressed = new TreeSet<>();
    for (Element e = element; e != null; e = e.getEnclosingElement()) {
      SuppressWarnings annotation = e.getAnnotation(SuppressWarnings.class);
      if (annotation != null) {
        suppressed.addAll(List.of(annotation.value()));
      }
    }
    if (!suppressed.isEmpty()) {
      CodeBlock values = suppressed.stream().map(warning -> CodeBlock.of("$S", warning))
          .collect(CodeBlock.joining(", "));
      method.addAnnotation(AnnotationSpec.builder(SuppressWarnings.class)
          .addMember("value", suppressed.size() == 1 ? "$L" : "{$L}", values)
          .build());
    }
    return method;
  }

  /** {@code list} and then {@code last}. */
  static List<String> append(List<String> list, String last) {
    List<String> result = new ArrayList<>(list);
    result.add(last);
    return result;
  }

  /** {@code list} and then {@code more}. */
  static List<String> appendAll(List<String> list, List<String> more) {
    List<String> result = new ArrayList<>(list);
    result.addAll(more);
    return result;
  }
}
