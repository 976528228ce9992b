package ad4j.processor.front;

import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * Which methods an object may run with another body than the one declared: the one question
 * behind the receiver checks of generated members ({@code write/OverridingReceivers}), the
 * receiver checks of {@code @DerivativeOf} rules for instance methods ({@link
 * RuledCallLowering}) and the judgement that a method run as written only reads
 * ({@link ReadOnlyMethods}), each of which must not trust a body that a subclass may replace.
 */
public final class OverridableMethods {
  private OverridableMethods() {}

  /**
   * Whether a subclass or an implementing class may override {@code method}: an instance
   * method, neither private nor final, of a type that is not final and not a record — a class,
   * an enum whose constants have bodies (javac leaves {@code final} off such an enum), or an
   * interface (its default methods).
   */
  public static boolean mayBeOverridden(ExecutableElement method) {
    return method.getKind() == ElementKind.METHOD && !StaticMembers.isStatic(method)
        && !method.getModifiers().contains(Modifier.PRIVATE)
        && !method.getModifiers().contains(Modifier.FINAL)
        && method.getEnclosingElement() instanceof TypeElement owner
        && !owner.getModifiers().contains(Modifier.FINAL)
        && owner.getKind() != ElementKind.RECORD;
  }
}
