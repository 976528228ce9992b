package ad4j.processor;

import ad4j.processor.front.Diagnostics;
import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.util.Elements;

/**
 * Reports {@code @Differentiable} and {@code @DerivativeOf} on methods of local and anonymous
 * classes (local records, enums and interfaces too). javac enters such classes only after
 * annotation processing, so {@code getElementsAnnotatedWith} never lists them and they would be
 * silently ignored (a rule for {@code Math.floor} there would leave the built-in derivative in
 * use); they are found in the syntax trees instead.
 */
final class LocalClassMethods {
  private static final String PACKAGE = "ad4j";
  private static final String SIMPLE_NAME = "Differentiable";
  private static final String RULE_NAME = "DerivativeOf";

  private LocalClassMethods() {}

  /** Records an error at each such method in the compilation units of {@code roots}. */
  static void report(Trees trees, Elements elements, Set<? extends Element> roots) {
    Set<CompilationUnitTree> units = new LinkedHashSet<>();
    for (Element root : roots) {
      TreePath path = trees.getPath(root);
      if (path != null) {
        units.add(path.getCompilationUnit());
      }
    }
    for (CompilationUnitTree unit : units) {
      Diagnostics diagnostics = new Diagnostics(trees, unit);
      new Scanner(unit, elements, diagnostics).scan(unit, null);
      diagnostics.report();
    }
  }

  private static final class Scanner extends TreePathScanner<Void, Void> {
    private final CompilationUnitTree unit;
    private final Elements elements;
    private final Diagnostics diagnostics;
    /** How the innermost enclosing local or anonymous class is described; null outside one. */
    private String localKind;

    Scanner(CompilationUnitTree unit, Elements elements, Diagnostics diagnostics) {
      this.unit = unit;
      this.elements = elements;
      this.diagnostics = diagnostics;
    }

    @Override
    public Void visitClass(ClassTree tree, Void unused) {
      Tree parent = getCurrentPath().getParentPath().getLeaf();
      String outer = localKind;
      if (parent instanceof NewClassTree) {
        localKind = "an anonymous class";
      } else if (!(parent instanceof CompilationUnitTree) && !(parent instanceof ClassTree)) {
        localKind = "a local " + tree.getKind().name().toLowerCase(Locale.ROOT);
      }
      try {
        return super.visitClass(tree, unused);
      } finally {
        localKind = outer;
      }
    }

    @Override
    public Void visitMethod(MethodTree tree, Void unused) {
      if (localKind != null && isAnnotated(tree, SIMPLE_NAME)) {
        diagnostics.error(tree, "@Differentiable method '" + tree.getName() + "' is in "
            + localKind + ": ad4j differentiates methods of top-level and nested (member)"
            + " classes only; move it into one");
      } else if (localKind != null && isAnnotated(tree, RULE_NAME)) {
        diagnostics.error(tree, "@DerivativeOf rule '" + tree.getName() + "' is in "
            + localKind + ": ad4j finds rules in top-level and nested (member) classes only,"
            + " and would use no rule of it; move it into one");
      }
      return super.visitMethod(tree, unused);
    }

    /** Whether {@code method} has the annotation {@code ad4j.simpleName}. */
    private boolean isAnnotated(MethodTree method, String simpleName) {
      for (AnnotationTree annotation : method.getModifiers().getAnnotations()) {
        Tree type = annotation.getAnnotationType();
        if (type instanceof MemberSelectTree select
            && select.getIdentifier().contentEquals(simpleName)
            && select.getExpression().toString().equals(PACKAGE)) {
          return true;
        }
        if (type instanceof IdentifierTree identifier
            && identifier.getName().contentEquals(simpleName)
            && importsTheAnnotation(simpleName)) {
          return true;
        }
      }
      return false;
    }

    /** Whether the simple name {@code simpleName} means {@code ad4j.simpleName} here. */
    private boolean importsTheAnnotation(String simpleName) {
      String packageName = unit.getPackageName() == null ? "" : unit.getPackageName().toString();
      if (packageName.equals(PACKAGE)) {
        return true;
      }
      boolean onDemand = false;
      for (ImportTree importTree : unit.getImports()) {
        Tree imported = importTree.getQualifiedIdentifier();
        if (importTree.isStatic() || !(imported instanceof MemberSelectTree select)
            || !select.getExpression().toString().equals(PACKAGE)) {
          continue;
        }
        if (select.getIdentifier().contentEquals(simpleName)) {
          return true;
        }
        onDemand |= select.getIdentifier().contentEquals("*");
      }
      String inPackage = packageName.isEmpty() ? simpleName : packageName + "." + simpleName;
      return onDemand && elements.getTypeElement(inPackage) == null;
    }
  }
}
