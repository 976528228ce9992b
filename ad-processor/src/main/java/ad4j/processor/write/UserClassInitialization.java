package ad4j.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeSpec;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Initialises the user's class before the members of its static methods run, as calling such a
 * method initialises it first (JLS 12.4.1), where that initialisation may do what the method
 * reads or a caller sees ({@code static { Config.scale = 3; }} beside a method reading
 * {@code Config.scale}): a generated member reads nothing of the class that would initialise
 * it, so it would compute with the field's value before that initializer. Each non-private
 * member of such a method (the contract's members and those the companion's members call)
 * first calls a private method that initialises the class once, through
 * {@code Class.forName}. A member rather than the generated class's own initializer does it:
 * a user's initializer that calls the generated class, in one thread, while another thread's
 * first call initialises the generated class, would otherwise wait for the other forever.
 */
final class UserClassInitialization {
  /** The method that initialises the user's class, and the flag it keeps. */
  static final String METHOD = "ad4jInitializeUserClass";
  private static final String FLAG = "ad4jUserClassInitialized";

  private final ClassName userClass;

  UserClassInitialization(ClassName userClass) {
    this.userClass = userClass;
  }

  /** Adds the flag and the method to {@code gradClass}. */
  void addTo(TypeSpec.Builder gradClass) {
    gradClass.addField(FieldSpec.builder(boolean.class, FLAG, Modifier.PRIVATE, Modifier.STATIC)
        .addJavadoc("Whether {@code $L}'s initialisation has run (racy reads only run it"
            + " again, which does nothing).\n", userClass.simpleName())
        .build());
    gradClass.addMethod(MethodSpec.methodBuilder(METHOD)
        .addJavadoc("Initialises {@code $L} as a call of its static method does first: its"
            + " initialisation may\ndo what the method reads.\n", userClass.simpleName())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .beginControlFlow("if (!$L)", FLAG)
        .beginControlFlow("try")
        .addStatement("$T.forName($T.class.getName(), true, $T.class.getClassLoader())",
            Class.class, userClass, userClass)
        .nextControlFlow("catch ($T e)", ClassNotFoundException.class)
        .addStatement("throw new $T(e.getMessage())", NoClassDefFoundError.class)
        .endControlFlow()
        .addStatement("$L = true", FLAG)
        .endControlFlow()
        .build());
  }

  /** {@code members} of a static method, each that is not private first calling the method. */
  List<MethodSpec> guard(List<MethodSpec> members) {
    return members.stream().map(this::guarded).toList();
  }

  private MethodSpec guarded(MethodSpec member) {
    if (member.modifiers().contains(Modifier.PRIVATE) || member.isConstructor()) {
      return member;
    }
    return OverridingReceivers.withFirst(member, CodeBlock.of("$L();\n", METHOD));
  }
}
