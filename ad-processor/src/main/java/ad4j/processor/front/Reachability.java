package ad4j.processor.front;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * What generated code can refer to. It lives in another top-level class of the user's package
 * ({@code FooGrad}), so it reaches a type or member only when that is public, or not private and
 * in the same package; {@code protected} does not help, as {@code FooGrad} extends nothing. Each
 * check returns why not, with what to change, or empty when the reference is fine.
 */
final class Reachability {
  private final Elements elements;
  private final Types types;
  private final Trees trees;
  private final String packageName;

  Reachability(Elements elements, Types types, Trees trees, String packageName) {
    this.elements = elements;
    this.types = types;
    this.trees = trees;
    this.packageName = packageName;
  }

  /** Why generated code cannot name {@code type} (or one of the classes it is nested in). */
  Optional<String> ofType(TypeElement type) {
    for (TypeElement t = type; t != null;
        t = t.getEnclosingElement() instanceof TypeElement outer ? outer : null) {
      if (isImplicitlyDeclared(t)) {
        return Optional.of("class '" + t.getSimpleName() + "' is implicitly declared (a compact"
            + " source file), and other classes cannot name it; declare it explicitly, as"
            + " 'final class " + t.getSimpleName() + " { ... }'");
      }
      Optional<String> problem = problem(t, "class '" + name(t) + "'");
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  /** Why generated code cannot use {@code member} (a field, method or constructor). */
  Optional<String> ofMember(Element member) {
    TypeElement owner = (TypeElement) member.getEnclosingElement();
    Optional<String> ownerProblem = ofType(owner);
    if (ownerProblem.isPresent()) {
      return ownerProblem;
    }
    return problem(member, describe(member, owner));
  }

  /**
   * Why generated code cannot write {@code new type()} ({@code withMessage} false) or
   * {@code new type(message)} with a {@code String} message: the class, or every constructor
   * that takes such arguments, is out of reach.
   */
  Optional<String> ofConstruction(TypeElement type, boolean withMessage) {
    Optional<String> typeProblem = ofType(type);
    if (typeProblem.isPresent()) {
      return typeProblem;
    }
    TypeMirror string = elements.getTypeElement("java.lang.String").asType();
    Optional<String> problem = Optional.empty();
    for (ExecutableElement constructor
        : ElementFilter.constructorsIn(type.getEnclosedElements())) {
      List<? extends VariableElement> parameters = constructor.getParameters();
      boolean applicable = withMessage
          ? parameters.size() == 1 && types.isAssignable(string, parameters.get(0).asType())
          : parameters.isEmpty();
      if (applicable) {
        problem = ofMember(constructor);
        if (problem.isEmpty()) {
          return problem;
        }
      }
    }
    return problem;
  }

  /**
   * Whether {@code type} is the implicitly declared class of a compact source file (Java 25),
   * which no other class can name. The model has no query for it; its syntax tree tells: javac
   * starts it where its first member starts, while a declared class starts at its modifiers or
   * keyword, before its body. (A default constructor javac added has no end position.)
   */
  private boolean isImplicitlyDeclared(TypeElement type) {
    TreePath path = type.getNestingKind() == NestingKind.TOP_LEVEL ? trees.getPath(type) : null;
    if (path == null || !(path.getLeaf() instanceof ClassTree tree)) {
      return false;
    }
    CompilationUnitTree unit = path.getCompilationUnit();
    SourcePositions positions = trees.getSourcePositions();
    for (Tree member : tree.getMembers()) {
      long start = positions.getStartPosition(unit, member);
      if (start >= 0 && positions.getEndPosition(unit, member) > start) {
        return positions.getStartPosition(unit, tree) == start;
      }
    }
    return false;
  }

  private Optional<String> problem(Element element, String shown) {
    if (element.getModifiers().contains(Modifier.PRIVATE)) {
      return Optional.of(shown + " is private; make it package-private");
    }
    boolean samePackage = elements.getPackageOf(element).getQualifiedName()
        .contentEquals(packageName);
    if (!samePackage && !element.getModifiers().contains(Modifier.PUBLIC)) {
      String access = element.getModifiers().contains(Modifier.PROTECTED)
          ? "protected" : "package-private";
      return Optional.of(shown + " is " + access + " in package '"
          + elements.getPackageOf(element).getQualifiedName() + "', and generated code lives in"
          + " package '" + packageName + "'; make it public");
    }
    return Optional.empty();
  }

  private static String describe(Element member, TypeElement owner) {
    if (member.getKind() == ElementKind.CONSTRUCTOR) {
      String parameters = String.join(", ", ((ExecutableElement) member).getParameters().stream()
          .map(p -> p.asType().toString()).toList());
      return "the constructor " + owner.getSimpleName() + "(" + parameters + ")";
    }
    String kind = member.getKind() == ElementKind.METHOD ? "method" : "field";
    return kind + " '" + name(owner) + "." + member.getSimpleName() + "'";
  }

  /** The name of a type as its package sees it: {@code Outer.Inner}. */
  private static String name(TypeElement type) {
    return type.getEnclosingElement() instanceof TypeElement outer
        ? name(outer) + "." + type.getSimpleName() : type.getSimpleName().toString();
  }
}
