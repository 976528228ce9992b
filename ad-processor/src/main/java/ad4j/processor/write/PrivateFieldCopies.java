package ad4j.processor.write;

import ad4j.processor.front.PrivateFields;
import ad4j.processor.front.StaticMembers;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * The copies of the private static fields the methods read ({@link PrivateFields}):
 * {@code private static final} fields of the generated class, read once in its static
 * initializer through a private lookup of each field's class; for a private instance field or
 * a private static field that is not final, a {@code VarHandle} on it, found there in the
 * same way; for a private method run as written, a {@code MethodHandle}, found there too, and
 * the method that calls it ({@link PrivateMethodCalls}). Apart from the members because the
 * class holds one copy per field, whichever methods read it.
 */
final class PrivateFieldCopies {
  private PrivateFieldCopies() {}

  /** Adds the copies of the fields {@code methods} read to {@code gradClass}. */
  static void addTo(TypeSpec.Builder gradClass, List<GradClassWriter.Method> methods) {
    Map<String, PrivateFields.Copy> copies = new LinkedHashMap<>();
    methods.forEach(method -> method.privateFields().forEach(c -> copies.putIfAbsent(c.copy(), c)));
    if (copies.isEmpty()) {
      return;
    }
    ClassName handles = ClassName.get("java.lang.invoke", "MethodHandles");
    ClassName varHandle = ClassName.get("java.lang.invoke", "VarHandle");
    CodeBlock.Builder reads = CodeBlock.builder()
        .add(copies.values().stream().anyMatch(c -> !(c.member() instanceof VariableElement)
                || c.handle())
            ? "// generated code cannot name these private members: it reads each final\n"
                + "// static field once, and finds a handle on each other field and each method,\n"
                + "// through a private lookup of its class (this class is in the same package\n"
                + "// and module)\n"
            : "// generated code cannot name these private fields: it reads each once, through\n"
                + "// a private lookup of its class (this class is in the same package and module)\n")
        .beginControlFlow("try");
    // one private lookup per class looked into; a private nested class is found through its
    // top-level class's, whose nestmate it is
    Map<TypeElement, String> lookups = new LinkedHashMap<>();
    Map<TypeElement, CodeBlock> owners = new LinkedHashMap<>();
    for (PrivateFields.Copy copy : copies.values()) {
      boolean named = isNamed(copy.owner());
      TypeElement lookedInto = named ? copy.owner() : PrivateFields.topLevel(copy.owner());
      String lookup = lookups.get(lookedInto);
      if (lookup == null) {
        lookup = "lookup" + (lookups.size() + 1);
        lookups.put(lookedInto, lookup);
        reads.addStatement("$T.Lookup $L = $T.privateLookupIn($T.class, $T.lookup())",
            handles, lookup, handles, ClassName.get(lookedInto), handles);
      }
      if (!owners.containsKey(copy.owner())) {
        if (named) {
          owners.put(copy.owner(), CodeBlock.of("$T.class", ClassName.get(copy.owner())));
        } else {
          // generated code cannot name it: found by its binary name
          String owner = "owner" + (owners.size() + 1);
          reads.addStatement("$T<?> $L = $L.findClass($S)", Class.class, owner, lookup,
              binaryName(copy.owner()));
          owners.put(copy.owner(), CodeBlock.of("$L", owner));
        }
      }
      CodeBlock ownerClass = owners.get(copy.owner());
      if (copy.member() instanceof ExecutableElement method) {
        PrivateMethodCalls.add(gradClass, reads, copy, method, lookup);
        continue;
      }
      TypeName type = TypeName.get(copy.member().asType());
      boolean instance = !StaticMembers.isStatic(copy.member());
      // a static field that is not final, or of a class whose initialisation may reach this
      // one first, is read where the method reads it, through a handle
      boolean handle = copy.handle();
      gradClass.addField(FieldSpec.builder(handle ? varHandle : type, copy.copy(),
              Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .addJavadoc(handle ? "Reads {@code $L.$L}, private there.\n" : "{@code $L.$L},"
              + " private there.\n", copy.owner().getSimpleName(), copy.member().getSimpleName())
          .build());
      if (instance) {
        // read at each use, from the object the method reads it of
        reads.addStatement("$L = $L.findVarHandle($L, $S, $T.class)", copy.copy(), lookup,
            ownerClass, copy.member().getSimpleName().toString(), type);
      } else if (handle) {
        // read at each use, when the method reads it
        reads.addStatement("$L = $L.findStaticVarHandle($L, $S, $T.class)", copy.copy(),
            lookup, ownerClass, copy.member().getSimpleName().toString(), type);
      } else {
        reads.addStatement("$L = ($T) $L.findStaticVarHandle($L, $S, $T.class).get()",
            copy.copy(), type, lookup, ownerClass, copy.member().getSimpleName().toString(),
            type); // never generic
      }
    }
    reads.nextControlFlow("catch ($T e)", ReflectiveOperationException.class)
        .addStatement("throw new $T(e)", ExceptionInInitializerError.class)
        .endControlFlow();
    gradClass.addStaticBlock(reads.build());
  }

  /** Whether generated code names {@code type}: neither it nor a class around it is private. */
  private static boolean isNamed(TypeElement type) {
    for (Element t = type; t instanceof TypeElement; t = t.getEnclosingElement()) {
      if (t.getModifiers().contains(Modifier.PRIVATE)) {
        return false;
      }
    }
    return true;
  }

  /** {@code com.example.Outer$Inner}: the name {@code Lookup.findClass} takes. */
  private static String binaryName(TypeElement type) {
    TypeElement top = PrivateFields.topLevel(type);
    StringBuilder name = new StringBuilder();
    for (Element t = type; t != top; t = t.getEnclosingElement()) {
      name.insert(0, "$" + t.getSimpleName());
    }
    return top.getQualifiedName() + name.toString();
  }
}
