package ad4j.processor.testing;

import static com.google.common.truth.Truth.assertWithMessage;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/** Checks of a generated {@code FooGrad} class: of its source text, and reflective ones. */
public final class GeneratedClassChecks {
  private GeneratedClassChecks() {}

  /**
   * The text of the generated method whose declaration starts with {@code head} ({@code
   * "private static double[] fJacobianRows("}), up to its closing brace; fails when there is
   * no such method.
   */
  public static String methodText(String generated, String head) {
    int start = generated.indexOf(head);
    assertWithMessage(head).that(start).isAtLeast(0);
    return generated.substring(start, generated.indexOf("\n  }\n", start));
  }

  /**
   * The generated source without its comment lines (lines starting with {@code //}, {@code /*}
   * or {@code *}): the code alone, since comments quote the user's lines.
   */
  public static String codeWithoutComments(String generated) {
    return generated.lines().filter(line -> !line.trim().startsWith("//")
        && !line.trim().startsWith("*") && !line.trim().startsWith("/*"))
        .collect(java.util.stream.Collectors.joining("\n"));
  }

  /**
   * The class holds no shared mutable state: every field (static or not, synthetic ones
   * included) is {@code final} and of a primitive type or {@code String}, so that the generated
   * members can be called from any number of threads at once. Nested classes are checked too.
   */
  public static void assertNoMutableStaticState(Class<?> generated) {
    for (Field field : generated.getDeclaredFields()) {
      assertWithMessage("%s.%s is a mutable field", generated.getName(), field.getName())
          .that(Modifier.isFinal(field.getModifiers())).isTrue();
      assertWithMessage("%s.%s has type %s: not an immutable constant", generated.getName(),
          field.getName(), field.getType())
          .that(field.getType().isPrimitive() || field.getType() == String.class).isTrue();
    }
    for (Class<?> nested : generated.getDeclaredClasses()) {
      assertNoMutableStaticState(nested);
    }
  }
}
