package ad4j.processor.write;

import ad4j.processor.front.OverridableMethods;
import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;

/**
 * The receivers of an instance {@code @Differentiable} method that a subclass may override
 * (neither the method nor its class {@code final}, the method not private; a subclass may be
 * an enum constant's body). Its generated
 * members differentiate the body ad4j saw; called on an object of a subclass that overrides the
 * method, the call would run another body, whose derivative they do not give. So each member
 * that takes the receiver first asks, for a receiver of another class than the declaring one,
 * whether that class overrides the method ({@code ad4j.runtime.internal.Overrides}, answered
 * once per class), and throws if it does. A receiver of the declaring class costs one
 * comparison of classes.
 */
final class OverridingReceivers {
  private static final ClassName OVERRIDES = ClassName.get("ad4j.runtime.internal", "Overrides");

  private OverridingReceivers() {}

  /**
   * {@code members} with the receiver check first in each that takes the receiver (first, or
   * after the tape), and {@code field}, the classes that override the method, added to
   * {@code gradClass}; {@code members} as they are when no subclass may override it.
   */
  static List<MethodSpec> guard(ExecutableElement method, String field, String gradType,
      TypeSpec.Builder gradClass, List<MethodSpec> members) {
    if (!OverridableMethods.mayBeOverridden(method)) {
      return members;
    }
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    ClassName ownerName = ClassName.get(owner);
    CodeBlock.Builder types = CodeBlock.builder().add("$T.class, $S", ownerName,
        method.getSimpleName().toString());
    for (VariableElement parameter : method.getParameters()) {
      types.add(", $T.class", erased(parameter.asType()));
    }
    gradClass.addField(FieldSpec.builder(ParameterizedTypeName.get(ClassName.get(ClassValue.class),
            ClassName.get(Boolean.class)), field, Modifier.PRIVATE, Modifier.STATIC,
            Modifier.FINAL)
        .addJavadoc("The classes that override {@code $L.$L}: its members refuse their objects.\n",
            owner.getSimpleName(), method.getSimpleName())
        .initializer("$T.of($L)", OVERRIDES, types.build())
        .build());
    String shown = owner.getSimpleName() + "." + method.getSimpleName();
    List<MethodSpec> guarded = new ArrayList<>();
    for (MethodSpec member : members) {
      int receiver = receiverIndex(member, ownerName);
      if (member.modifiers().contains(Modifier.PRIVATE) || receiver < 0) {
        guarded.add(member);
        continue;
      }
      String self = member.parameters().get(receiver).name();
      CodeBlock check = CodeBlock.builder()
          .beginControlFlow("if ($L.getClass() != $T.class)", self, ownerName)
          .addStatement("$T.check($L, $L, $S, $S)", OVERRIDES, field, self, shown,
              gradType + "." + member.name())
          .endControlFlow()
          .build();
      guarded.add(withFirst(member, check));
    }
    return guarded;
  }

  /** The position of the receiver among {@code member}'s parameters: 0, 1 after a tape, or -1. */
  private static int receiverIndex(MethodSpec member, ClassName owner) {
    List<ParameterSpec> parameters = member.parameters();
    int at = !parameters.isEmpty() && parameters.get(0).type().equals(MethodContext.TAPE) ? 1 : 0;
    return parameters.size() > at && parameters.get(at).type().withoutAnnotations().equals(owner)
        ? at : -1;
  }

  /** {@code member} with {@code first} before its code (also {@link UserClassInitialization}'s). */
  static MethodSpec withFirst(MethodSpec member, CodeBlock first) {
    MethodSpec.Builder copy = MethodSpec.methodBuilder(member.name())
        .addJavadoc(member.javadoc())
        .addAnnotations(member.annotations())
        .addModifiers(member.modifiers())
        .addTypeVariables(member.typeVariables())
        .returns(member.returnType())
        .addParameters(member.parameters())
        .varargs(member.varargs())
        .addExceptions(member.exceptions());
    return copy.addCode(first).addCode(member.code()).build();
  }

  /** The class literal's type of a parameter's declared type, without type arguments. */
  private static TypeName erased(TypeMirror type) {
    if (type instanceof ArrayType array) {
      return ArrayTypeName.of(erased(array.getComponentType()));
    }
    if (type instanceof DeclaredType declared) {
      return ClassName.get((TypeElement) declared.asElement());
    }
    if (type instanceof TypeVariable variable) {
      return erased(variable.getUpperBound());
    }
    return TypeName.get(type); // a primitive
  }
}
