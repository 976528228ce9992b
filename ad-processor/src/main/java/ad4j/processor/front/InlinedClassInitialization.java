package ad4j.processor.front;

import com.sun.source.tree.Tree;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * The error where generated code would inline code of a class whose initialisation may matter
 * ({@link StaticInitialization#inlinedInitializationMayMatter}): a value record made or whose
 * static method is called, a function's class made, a template's class. Java initialises that
 * class there (JLS 12.4.1), before the code runs; the inlined code in the generated class
 * touches nothing of it that would, so on the first call the class's static initializer would
 * not have run ({@code static { Config.scale = 3; }} in a record whose method reads
 * {@code Config.scale} gave 2.25 where the method returns 6.75). The method's own class is
 * initialised by its generated members themselves.
 */
final class InlinedClassInitialization {
  private InlinedClassInitialization() {}

  /**
   * Reports the error at {@code at} ({@code shown}: the construct, as the message names it)
   * when inlining code of {@code inlined} there would skip an initialisation that may matter;
   * whether it did.
   */
  static boolean reportIfSkipped(LoweringContext context, TypeElement inlined, Tree at,
      String shown) {
    if (inlined.equals(ownClass(context))
        || !StaticInitialization.inlinedInitializationMayMatter(inlined, context.trees(),
            context.elements())) {
      return false;
    }
    context.diagnostics().error(at, "'" + shown + "' initialises class '"
        + inlined.getSimpleName() + "' first, and its static initializer or static fields"
        + " run code that may set what the code reads or what a caller sees; ad4j inlines '"
        + inlined.getSimpleName() + "''s code into generated code, which would not initialise"
        + " it there; keep '" + inlined.getSimpleName() + "''s static initialisation to"
        + " constants and computations of the JDK (set such state elsewhere, in the class of"
        + " the @Differentiable method for example)");
    return true;
  }

  private static TypeElement ownClass(LoweringContext context) {
    Element outer = context.element().getEnclosingElement();
    return outer instanceof TypeElement type ? type : null;
  }
}
