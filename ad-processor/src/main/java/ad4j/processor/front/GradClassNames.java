package ad4j.processor.front;

import ad4j.processor.ir.Callee;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * The names of the classes ad4j generates: {@code FooGrad} for {@code Foo}, {@code Outer_InnerGrad}
 * for a nested class, in the package of the class, and how generated code refers to one.
 *
 * <p>Apart from {@link CalleeResolver} because a callee's checks, the copies of private fields
 * ({@link PrivateFields}) and the constants of classes compiled earlier
 * ({@link CalleePlainCalls}) all name generated classes, and the naming is one rule.
 */
final class GradClassNames {
  private GradClassNames() {}

  /** The qualified name of the class ad4j generates for {@code owner}. */
  static String gradClassName(Elements elements, TypeElement owner) {
    String pkg = elements.getPackageOf(owner).getQualifiedName().toString();
    String simple = gradSimpleName(elements, owner);
    return pkg.isEmpty() ? simple : pkg + "." + simple;
  }

  /** The simple name of the class ad4j generates for {@code owner}. */
  static String gradSimpleName(Elements elements, TypeElement owner) {
    String qualified = owner.getQualifiedName().toString();
    String pkg = elements.getPackageOf(owner).getQualifiedName().toString();
    String nested = pkg.isEmpty() ? qualified : qualified.substring(pkg.length() + 1);
    return nested.replace('.', '_') + "Grad";
  }

  /**
   * How generated code of the method being lowered names the class generated for
   * {@code owner}: by its simple name in the method's own package, else qualified; the name
   * is remembered as used, so that no generated name hides it.
   */
  static String gradClassReference(LoweringContext context, TypeElement owner) {
    String pkg = context.elements().getPackageOf(owner).getQualifiedName().toString();
    String simple = gradSimpleName(context.elements(), owner);
    // the generated class's package: the method's own, wherever the code lowered came from
    boolean samePackage = pkg.equals(context.resolution().ownSymbols().packageName());
    context.referencedTypeNames().add(samePackage ? simple : pkg.split("\\.")[0]);
    if (samePackage) {
      context.referencedTypeNames().add(simple + Callee.SWEEPS);
    }
    return samePackage || pkg.isEmpty() ? simple : pkg + "." + simple;
  }
}
