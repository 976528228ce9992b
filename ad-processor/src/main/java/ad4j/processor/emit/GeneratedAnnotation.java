package ad4j.processor.emit;

import java.util.HashSet;
import java.util.Set;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Decides whether a generated class may carry {@code @javax.annotation.processing.Generated}.
 * The annotation lives in module {@code java.compiler}: code compiled for Java 8 cannot see it,
 * and neither can a named module that does not read {@code java.compiler}. As AutoValue and
 * Dagger do, the annotation is written only where the user's own code could name it, so that
 * generated code compiles wherever the user's code does.
 */
public final class GeneratedAnnotation {
  /** The annotation's package. */
  public static final String PACKAGE = "javax.annotation.processing";
  /** The annotation's simple name. */
  public static final String SIMPLE_NAME = "Generated";

  private GeneratedAnnotation() {}

  /** Whether code in {@code userType}'s module and release can name the annotation. */
  public static boolean isVisibleTo(Elements elements, TypeElement userType) {
    TypeElement generated = elements.getTypeElement(PACKAGE + "." + SIMPLE_NAME);
    if (generated == null) {
      return false; // an older release, or no java.compiler in the module graph
    }
    ModuleElement module = elements.getModuleOf(userType);
    if (module == null || module.isUnnamed()) {
      return true; // the class path: the unnamed module reads every module
    }
    ModuleElement owner = elements.getModuleOf(generated);
    return owner == null || reads(module, owner);
  }

  /**
   * Whether {@code module} reads {@code target}: requires it (static is enough, as generated
   * code is only compiled against it), or requires a module that requires it transitively.
   */
  private static boolean reads(ModuleElement module, ModuleElement target) {
    if (module.equals(target)) {
      return true;
    }
    for (ModuleElement.RequiresDirective requires :
        ElementFilter.requiresIn(module.getDirectives())) {
      if (isOrExports(requires.getDependency(), target, new HashSet<>())) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code module} is {@code target} or passes it on through requires transitive. */
  private static boolean isOrExports(ModuleElement module, ModuleElement target,
      Set<ModuleElement> seen) {
    if (module.equals(target)) {
      return true;
    }
    if (!seen.add(module)) {
      return false;
    }
    for (ModuleElement.RequiresDirective requires :
        ElementFilter.requiresIn(module.getDirectives())) {
      if (requires.isTransitive() && isOrExports(requires.getDependency(), target, seen)) {
        return true;
      }
    }
    return false;
  }
}
