package ad4j.processor.write;

import ad4j.processor.front.PrivateFields;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * A private method of the user's class that a method runs as written
 * ({@link PrivateFields#call}): generated code cannot call it, so the generated class holds a
 * {@code MethodHandle} on it, found once in its static initializer through the private lookup
 * of its class, and a private static method with its parameters (an instance method's receiver
 * first) that invokes the handle exactly, so that each call runs the user's method as written,
 * with Java's conversions of the arguments done at the call as the user's code does them.
 * The method throws what the user's method throws: unchecked exceptions and errors as they
 * come, the checked ones it declares as it declares them.
 */
final class PrivateMethodCalls {
  private PrivateMethodCalls() {}

  /**
   * Adds the handle and the calling method for {@code method}, whose copy is {@code copy}, to
   * {@code gradClass}; the handle is found in {@code reads} with the lookup {@code lookup}.
   */
  static void add(TypeSpec.Builder gradClass, CodeBlock.Builder reads, PrivateFields.Copy copy,
      ExecutableElement method, String lookup) {
    ClassName methodHandle = ClassName.get("java.lang.invoke", "MethodHandle");
    ClassName methodType = ClassName.get("java.lang.invoke", "MethodType");
    ClassName owner = ClassName.get(copy.owner());
    boolean instance = !method.getModifiers().contains(Modifier.STATIC);
    String handle = copy.copy() + "Method";
    gradClass.addField(FieldSpec.builder(methodHandle, handle, Modifier.PRIVATE,
            Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("Calls {@code $L.$L}, private there.\n", copy.owner().getSimpleName(),
            method.getSimpleName())
        .build());
    CodeBlock.Builder type = CodeBlock.builder().add("$T.methodType($T.class", methodType,
        TypeName.get(method.getReturnType()));
    for (VariableElement parameter : method.getParameters()) {
      type.add(", $T.class", TypeName.get(parameter.asType()));
    }
    type.add(")");
    reads.addStatement("$L = $L.$L($T.class, $S, $L)", handle, lookup,
        instance ? "findVirtual" : "findStatic", owner, method.getSimpleName().toString(),
        type.build());

    Set<String> names = new HashSet<>();
    method.getParameters().forEach(p -> names.add(p.getSimpleName().toString()));
    List<String> arguments = new ArrayList<>();
    MethodSpec.Builder call = MethodSpec.methodBuilder(copy.copy())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .addJavadoc("Runs {@code $L.$L}, private there, as written.\n",
            copy.owner().getSimpleName(), method.getSimpleName())
        .returns(TypeName.get(method.getReturnType()))
        .varargs(method.isVarArgs());
    if (instance) {
      String receiver = "receiver";
      while (names.contains(receiver)) {
        receiver = "_" + receiver;
      }
      call.addParameter(ParameterSpec.builder(owner, receiver).build());
      arguments.add(receiver);
    }
    for (VariableElement parameter : method.getParameters()) {
      call.addParameter(TypeName.get(parameter.asType()), parameter.getSimpleName().toString());
      arguments.add(parameter.getSimpleName().toString());
    }
    for (TypeMirror thrown : method.getThrownTypes()) {
      call.addException(TypeName.get(thrown));
    }
    // invokeExact: the static types of the arguments and the cast of the result are the
    // handle's type, so no conversion happens here that the user's call would not make
    String invocation = handle + ".invokeExact(" + String.join(", ", arguments) + ")";
    call.beginControlFlow("try");
    if (method.getReturnType().getKind() == TypeKind.VOID) {
      call.addStatement(invocation);
    } else {
      call.addStatement("return ($T) $L", TypeName.get(method.getReturnType()), invocation);
    }
    call.nextControlFlow("catch ($T e)", Throwable.class);
    List<TypeName> rethrown = new ArrayList<>(List.of(TypeName.get(RuntimeException.class),
        TypeName.get(Error.class)));
    method.getThrownTypes().forEach(t -> rethrown.add(TypeName.get(t)));
    for (TypeName thrown : rethrown) {
      call.beginControlFlow("if (e instanceof $T)", thrown)
          .addStatement("throw ($T) e", thrown)
          .endControlFlow();
    }
    // the user's method declares no other checked exception, so none comes here
    call.addStatement("throw new $T(e)", UndeclaredThrowableException.class);
    call.endControlFlow();
    gradClass.addMethod(call.build());
  }
}
