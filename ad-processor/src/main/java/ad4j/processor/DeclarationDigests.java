package ad4j.processor;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Names a declaration so that a later compilation finds it again, and digests its source text,
 * so that it can tell whether the declaration changed since. A name is the qualified name of a
 * class; of a method, constructor or field, its class's name, {@code #}, its own name, and a
 * method's parameter types, erased: {@code com.example.Rec#x()}. Other elements (parameters,
 * record components) are named by the class or method that declares them, whose text holds
 * theirs.
 */
final class DeclarationDigests {
  private final Trees trees;
  private final Elements elements;
  private final Types types;

  DeclarationDigests(Trees trees, Elements elements, Types types) {
    this.trees = trees;
    this.elements = elements;
    this.types = types;
  }

  /**
   * The element that {@link #name} names, declared by a class or method: itself or its owner.
   * A local or anonymous class has no name to be found again by: the declaration around it,
   * whose text holds it, is named instead.
   */
  static Element named(Element element) {
    Element e = element;
    for (Element up = element; up != null; up = up.getEnclosingElement()) {
      if (up instanceof TypeElement type && (type.getNestingKind() == NestingKind.LOCAL
          || type.getNestingKind() == NestingKind.ANONYMOUS)) {
        e = type.getEnclosingElement();
      }
    }
    while (e != null && !(e instanceof TypeElement || e instanceof ExecutableElement
        || e.getKind() == ElementKind.FIELD || e.getKind() == ElementKind.ENUM_CONSTANT)) {
      e = e.getEnclosingElement();
    }
    return e;
  }

  /** The name of {@code element}, which {@link #named} gave. */
  String name(Element element) {
    if (element instanceof TypeElement type) {
      return type.getQualifiedName().toString();
    }
    String owner = name(element.getEnclosingElement());
    if (element instanceof ExecutableElement method) {
      return owner + "#" + method.getSimpleName() + "(" + parameterTypes(method) + ")";
    }
    return owner + "#" + element.getSimpleName();
  }

  private String parameterTypes(ExecutableElement method) {
    return method.getParameters().stream()
        .map(parameter -> types.erasure(parameter.asType()).toString())
        .collect(Collectors.joining(","));
  }

  /** The declaration {@code name} names in this compilation, if there is one. */
  Optional<Element> find(String name) {
    int hash = name.indexOf('#');
    TypeElement type = elements.getTypeElement(hash < 0 ? name : name.substring(0, hash));
    if (type == null || hash < 0) {
      return Optional.ofNullable(type);
    }
    String member = name.substring(hash + 1);
    int paren = member.indexOf('(');
    if (paren < 0) {
      return ElementFilter.fieldsIn(type.getEnclosedElements()).stream()
          .filter(field -> field.getSimpleName().contentEquals(member))
          .map(Element.class::cast).findFirst();
    }
    String simpleName = member.substring(0, paren);
    String parameters = member.substring(paren + 1, member.length() - 1);
    List<ExecutableElement> methods = ElementFilter.methodsIn(type.getEnclosedElements());
    List<ExecutableElement> constructors =
        ElementFilter.constructorsIn(type.getEnclosedElements());
    return Stream.concat(methods.stream(), constructors.stream())
        .filter(m -> m.getSimpleName().contentEquals(simpleName)
            && parameterTypes(m).equals(parameters))
        .map(Element.class::cast).findFirst();
  }

  /**
   * A digest of the source text that declares {@code element}; empty where there is none here
   * (a class read from a class file, a member the compiler made, such as a record's implicit
   * accessor, whose class's text holds what it is).
   */
  Optional<String> digest(Element element) {
    TreePath path = trees.getPath(element);
    if (path == null) {
      return Optional.empty();
    }
    return Optional.of(digestOf(text(path.getCompilationUnit(), path.getLeaf())));
  }

  /**
   * The text of {@code tree} in {@code unit}, or javac's printing of it without positions. A
   * class's is its own text: its header, fields and initializers, and its methods' and member
   * classes' declarations without their bodies. Most lookups of a class only ask whether it is
   * compiled from source, or read its fields; a method's body counts where the method itself
   * is looked up. So an edit inside a method that was not read changes no digest.
   */
  private String text(CompilationUnitTree unit, Tree tree) {
    SourcePositions positions = trees.getSourcePositions();
    long start = positions.getStartPosition(unit, tree);
    long end = positions.getEndPosition(unit, tree);
    CharSequence content;
    try {
      content = unit.getSourceFile().getCharContent(true);
    } catch (IOException | RuntimeException unreadable) {
      return tree.toString(); // which changes where the text does, less its comments
    }
    if (start < 0 || end < start || end > content.length()) {
      return tree.toString();
    }
    if (!(tree instanceof ClassTree type)) {
      return content.subSequence((int) start, (int) end).toString();
    }
    StringBuilder own = new StringBuilder();
    long from = start;
    for (Tree member : type.getMembers()) {
      Tree body = member instanceof MethodTree method ? method.getBody()
          : member instanceof ClassTree nested ? nested : null;
      long bodyStart = body == null ? -1 : positions.getStartPosition(unit, body);
      long bodyEnd = body == null ? -1 : positions.getEndPosition(unit, body);
      if (bodyStart >= from && bodyEnd >= bodyStart && bodyEnd <= end) {
        own.append(content, (int) from, (int) bodyStart).append("{}");
        from = bodyEnd;
      }
    }
    return own.append(content, (int) from, (int) end).toString();
  }

  private static String digestOf(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
