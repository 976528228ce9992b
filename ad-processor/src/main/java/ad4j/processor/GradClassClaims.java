package ad4j.processor;

import ad4j.processor.write.GradClassWriter;
import com.sun.source.util.Trees;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * The generated class names taken so far in this compilation, so that two user classes that
 * map to the same name ({@code A.B} and {@code A_B} both give {@code A_BGrad}), or a user class
 * that already has the name, get an error that names both instead of a FilerException.
 */
final class GradClassClaims {
  private final Elements elements;
  private final Trees trees;
  /** Generated class name to the user class it belongs to, over all rounds. */
  private final Map<String, TypeElement> owners = new HashMap<>();

  GradClassClaims(Elements elements, Trees trees) {
    this.elements = elements;
    this.trees = trees;
  }

  /**
   * Claims {@code gradClass} (a qualified name) for {@code type}; returns the error when another
   * class has it.
   */
  Optional<String> claim(TypeElement type, String gradClass) {
    TypeElement previous = owners.putIfAbsent(gradClass, type);
    String user = type.getQualifiedName().toString();
    if (previous != null && !previous.getQualifiedName().contentEquals(user)) {
      return Optional.of("classes '" + previous.getQualifiedName() + "' and '" + user + "' both"
          + " get the generated class '" + gradClass + "' (the names of nested classes are"
          + " joined with '_'); rename one of them");
    }
    TypeElement existing = elements.getTypeElement(gradClass);
    if (previous == null && existing != null && isUserSource(existing)) {
      owners.remove(gradClass);
      return Optional.of("class '" + gradClass + "' already exists, and ad4j needs that name for"
          + " the derivatives of '" + user + "'; rename '" + existing.getSimpleName() + "'");
    }
    return Optional.empty();
  }

  /**
   * Whether {@code type} is the user's own source, not a class ad4j wrote (its output of an
   * earlier build can be compiled again as a source, or read from the class path).
   */
  private boolean isUserSource(TypeElement type) {
    if (trees.getPath(type) == null) {
      return false;
    }
    for (AnnotationMirror annotation : type.getAnnotationMirrors()) {
      TypeElement annotationType = (TypeElement) annotation.getAnnotationType().asElement();
      if (annotationType.getQualifiedName().contentEquals(DifferentiableProcessor.GENERATED)
          && annotation.getElementValues().values().stream().anyMatch(GradClassClaims::namesAd4j)) {
        return false;
      }
    }
    return true;
  }

  /** Whether a {@code @Generated} value, a string or an array of them, names ad4j. */
  private static boolean namesAd4j(AnnotationValue value) {
    List<?> values = value.getValue() instanceof List<?> list ? list : List.of(value);
    return values.stream().anyMatch(v -> v instanceof AnnotationValue element
        && GradClassWriter.GENERATOR.equals(element.getValue()));
  }
}
