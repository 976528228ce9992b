package ad4j.processor.front;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * Whether a member is static in the class as it will be compiled. That is what its modifiers
 * say, except in a class annotated with Lombok's {@code @UtilityClass}: Lombok makes every
 * method, field and member class of it static by rewriting the syntax trees, and ad4j may look
 * at the elements before that (processors of one round run in turn) or at elements whose flags
 * the rewrite does not reach. Asking here keeps the receiver of a utility class's method, its
 * fields and its calls what the compiled code has: none, static fields, static calls.
 */
public final class StaticMembers {
  private static final String UTILITY_CLASS = "lombok.experimental.UtilityClass";

  private StaticMembers() {}

  /** Whether {@code member} (a method, field or member type) is static. */
  public static boolean isStatic(Element member) {
    if (member.getModifiers().contains(Modifier.STATIC)) {
      return true;
    }
    ElementKind kind = member.getKind();
    boolean madeStatic = kind == ElementKind.METHOD || kind == ElementKind.FIELD
        || kind.isClass() || kind.isInterface();
    return madeStatic && member.getEnclosingElement() instanceof TypeElement owner
        && owner.getKind() == ElementKind.CLASS && isUtilityClass(owner);
  }

  /** Whether {@code type} is annotated {@code @lombok.experimental.UtilityClass}. */
  private static boolean isUtilityClass(TypeElement type) {
    for (AnnotationMirror annotation : type.getAnnotationMirrors()) {
      Element declaration = annotation.getAnnotationType().asElement();
      if (declaration instanceof TypeElement annotationType
          && annotationType.getQualifiedName().contentEquals(UTILITY_CLASS)) {
        return true;
      }
    }
    return false;
  }
}
