package ad4j.processor.write;

import ad4j.processor.front.PrivateStaticFields;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * The copies of the private static fields the methods read ({@link PrivateStaticFields}):
 * {@code private static final} fields of the generated class, read once in its static
 * initializer through a private lookup of each field's class. Apart from the members because
 * the class holds one copy per field, whichever methods read it.
 */
final class PrivateFieldCopies {
  private PrivateFieldCopies() {}

  /** Adds the copies of the fields {@code methods} read to {@code gradClass}. */
  static void addTo(TypeSpec.Builder gradClass, List<GradClassWriter.Method> methods) {
    Map<String, PrivateStaticFields.Copy> copies = new LinkedHashMap<>();
    methods.forEach(method -> method.privateFields().forEach(c -> copies.putIfAbsent(c.copy(), c)));
    if (copies.isEmpty()) {
      return;
    }
    ClassName handles = ClassName.get("java.lang.invoke", "MethodHandles");
    CodeBlock.Builder reads = CodeBlock.builder()
        .add("// generated code cannot name these private fields: it reads each once, through\n")
        .add("// a private lookup of its class (this class is in the same package and module)\n")
        .beginControlFlow("try");
    Map<TypeElement, String> lookups = new LinkedHashMap<>();
    for (PrivateStaticFields.Copy copy : copies.values()) {
      TypeName type = TypeName.get(copy.field().asType());
      gradClass.addField(FieldSpec.builder(type, copy.copy(), Modifier.PRIVATE, Modifier.STATIC,
              Modifier.FINAL)
          .addJavadoc("{@code $L.$L}, private there.\n", copy.owner().getSimpleName(),
              copy.field().getSimpleName())
          .build());
      String lookup = lookups.get(copy.owner());
      if (lookup == null) {
        lookup = "lookup" + (lookups.size() + 1);
        lookups.put(copy.owner(), lookup);
        reads.addStatement("$T.Lookup $L = $T.privateLookupIn($T.class, $T.lookup())", handles,
            lookup, handles, ClassName.get(copy.owner()), handles);
      }
      reads.addStatement("$L = ($T) $L.findStaticVarHandle($T.class, $S, $T.class).get()",
          copy.copy(), type, lookup, ClassName.get(copy.owner()),
          copy.field().getSimpleName().toString(), type); // never generic
    }
    reads.nextControlFlow("catch ($T e)", ReflectiveOperationException.class)
        .addStatement("throw new $T(e)", ExceptionInInitializerError.class)
        .endControlFlow();
    gradClass.addStaticBlock(reads.build());
  }
}
