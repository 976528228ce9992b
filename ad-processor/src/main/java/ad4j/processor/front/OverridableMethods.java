package ad4j.processor.front;

import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

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

  /**
   * Whether every object declared of class {@code receiverType} runs {@code method}'s own body,
   * the method a call chose as a member of that class: the class is final (a record, an enum
   * whose constants have no bodies, or a class declared so), so its objects are of that very
   * class, and {@code method} is its own or a superclass's that no class between overrides.
   * False for a null {@code receiverType} and for an interface's default method, whose body
   * the JVM picks among the interfaces.
   */
  public static boolean runsDeclaredBody(ExecutableElement method, TypeElement receiverType,
      Elements elements) {
    if (receiverType == null || !receiverType.getModifiers().contains(Modifier.FINAL)
        && receiverType.getKind() != ElementKind.RECORD) {
      return false;
    }
    for (TypeElement type = receiverType; type != null; type = superclass(type)) {
      if (type.equals(method.getEnclosingElement())) {
        return true;
      }
      for (ExecutableElement own : ElementFilter.methodsIn(type.getEnclosedElements())) {
        if (elements.overrides(own, method, receiverType)) {
          return false; // chosen as the superclass's, but this class's body runs
        }
      }
    }
    return false;
  }

  private static TypeElement superclass(TypeElement type) {
    return type.getSuperclass() instanceof DeclaredType declared
        ? (TypeElement) declared.asElement() : null;
  }
}
