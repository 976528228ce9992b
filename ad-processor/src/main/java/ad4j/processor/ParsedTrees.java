package ad4j.processor;

import ad4j.processor.SourceFileReader.SourceFile;
import ad4j.processor.front.Diagnostics;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Scope;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ErrorType;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;

/**
 * Syntax trees for compilers that give none to processors (ECJ, the compiler of Eclipse and
 * VS Code): each source file is parsed, without attribution, by the JDK's own javac parser,
 * which is all ad4j's front end needs. Messages are handed to the compiler's {@link Messager}
 * at the declaration they concern, with the position inside it as {@code File.java:line:column}
 * in the text, since that compiler knows nothing of these trees.
 *
 * <p>Only what the front end uses is implemented: paths of declarations, source positions and
 * messages. The trees are not attributed, so element and type queries answer {@code null}.
 */
final class ParsedTrees extends Trees {
  private final JavaCompiler parser;
  private final SourceFileReader reader;
  private final Messager messager;
  /** Parsed files by name; an IDE may reuse the processor while files change, so keep text. */
  private final Map<String, Parsed> byName = new HashMap<>();
  private final Map<CompilationUnitTree, Parsed> byUnit = new IdentityHashMap<>();
  /** The declarations found so far, to report a message at the one that holds its tree. */
  private final Map<Tree, Element> declarations = new IdentityHashMap<>();
  private Trees parserTrees;

  /**
   * A parsed file, with the parser's own {@link Trees}: its messages land in {@code messages},
   * placed at the tree's preferred position as javac places its own diagnostics.
   */
  private record Parsed(SourceFile file, CompilationUnitTree unit, Trees trees,
      List<Diagnostic<? extends JavaFileObject>> messages) {}

  ParsedTrees(JavaCompiler parser, SourceFileReader reader, Messager messager) {
    this.parser = parser;
    this.reader = reader;
    this.messager = messager;
  }

  /**
   * Trees parsed by {@code parser} for the sources of {@code environment}'s compilation, read
   * through its filer and reported to its messager; null without a parser (a Java runtime
   * without javac).
   */
  static ParsedTrees of(JavaCompiler parser, ProcessingEnvironment environment) {
    return parser == null ? null : new ParsedTrees(parser,
        new SourceFileReader(environment.getFiler(), environment.getElementUtils()),
        environment.getMessager());
  }

  @Override
  public TreePath getPath(Element element) {
    Optional<SourceFile> file = reader.read(element);
    if (file.isEmpty()) {
      return null;
    }
    CompilationUnitTree unit = parse(file.get());
    Tree declaration = find(unit, element);
    if (declaration == null) {
      return null;
    }
    declarations.put(declaration, element);
    return TreePath.getPath(unit, declaration);
  }

  private CompilationUnitTree parse(SourceFile file) {
    Parsed parsed = byName.get(file.name());
    if (parsed != null && parsed.file().text().equals(file.text())) {
      return parsed.unit();
    }
    JavaFileObject source = new SimpleJavaFileObject(URI.create("string:///"
        + file.name().replace('\\', '/').replaceFirst("^/+", "")), JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return file.text();
      }
    };
    List<Diagnostic<? extends JavaFileObject>> messages = new ArrayList<>();
    JavacTask task = (JavacTask) parser.getTask(null, null, messages::add,
        List.of("-proc:none"), null, List.of(source));
    CompilationUnitTree unit;
    try {
      unit = task.parse().iterator().next();
    } catch (IOException e) {
      throw new IllegalStateException("cannot parse " + file.name(), e);
    }
    // The user's compiler has reported any syntax error already: the parser's own are dropped.
    messages.clear();
    Trees trees = Trees.instance(task);
    if (parserTrees == null) {
      parserTrees = trees; // its source positions serve every parsed file
    }
    parsed = new Parsed(file, unit, trees, messages);
    byName.put(file.name(), parsed);
    byUnit.put(unit, parsed);
    return unit;
  }

  /** The tree declaring {@code element} in {@code unit}: a class, a method or a field. */
  private static Tree find(CompilationUnitTree unit, Element element) {
    Deque<TypeElement> types = new ArrayDeque<>();
    for (Element e = element instanceof TypeElement ? element : element.getEnclosingElement();
        e instanceof TypeElement type; e = e.getEnclosingElement()) {
      types.push(type);
    }
    if (types.isEmpty() || !(types.peekFirst().getEnclosingElement() instanceof PackageElement)) {
      return null;
    }
    List<? extends Tree> members = unit.getTypeDecls();
    ClassTree found = null;
    for (TypeElement type : types) {
      found = classNamed(members, type.getSimpleName().toString());
      if (found == null) {
        return null;
      }
      members = found.getMembers();
    }
    if (element instanceof TypeElement) {
      return found;
    }
    if (element instanceof ExecutableElement method) {
      for (Tree member : members) {
        if (member instanceof MethodTree tree && matches(tree, method)) {
          return tree;
        }
      }
    }
    if (element.getKind() == ElementKind.FIELD) {
      // its initializer: a 'static final' function or constant ('static final double C =
      // Math.log(2)'); the parser gives each field of 'double a, b;' a tree of its own
      for (Tree member : members) {
        if (member instanceof VariableTree tree
            && tree.getName().contentEquals(element.getSimpleName())) {
          return tree;
        }
      }
    }
    return null;
  }

  private static ClassTree classNamed(List<? extends Tree> members, String name) {
    for (Tree member : members) {
      if (member instanceof ClassTree type && type.getSimpleName().contentEquals(name)) {
        return type;
      }
    }
    return null;
  }

  /**
   * Same name and parameter types, as written: {@code double}, or a type's simple name. Type
   * arguments are left out ({@code List<Double>} is written so and declared
   * {@code java.util.List<java.lang.Double>}): two methods of a class cannot differ in them
   * alone.
   */
  private static boolean matches(MethodTree tree, ExecutableElement method) {
    List<? extends VariableTree> parameters = tree.getParameters();
    List<? extends VariableElement> declared = method.getParameters();
    if (!tree.getName().contentEquals(method.getSimpleName())
        || parameters.size() != declared.size()) {
      return false;
    }
    for (int i = 0; i < parameters.size(); i++) {
      String written = withoutTypeArguments(parameters.get(i).getType().toString());
      String type = withoutTypeArguments(declared.get(i).asType().toString());
      if (!type.equals(written) && !type.endsWith("." + written)) {
        return false;
      }
    }
    return true;
  }

  /** {@code text} without what is between its outermost {@code <} and {@code >}. */
  private static String withoutTypeArguments(String text) {
    StringBuilder kept = new StringBuilder();
    int depth = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '<') {
        depth++;
      } else if (c == '>') {
        depth--;
      } else if (depth == 0) {
        kept.append(c);
      }
    }
    return kept.toString();
  }

  @Override
  public SourcePositions getSourcePositions() {
    return parserTrees.getSourcePositions();
  }

  /**
   * Reports at the innermost declaration found by {@link #getPath(Element)} that holds
   * {@code tree}, with the line and column where javac would report it in the message (the
   * parser's own {@code printMessage} places it).
   */
  @Override
  public void printMessage(Diagnostic.Kind kind, CharSequence message, Tree tree,
      CompilationUnitTree unit) {
    SourcePositions positions = getSourcePositions();
    long start = positions.getStartPosition(unit, tree);
    Element at = null;
    long atStart = Long.MIN_VALUE;
    for (Map.Entry<Tree, Element> declaration : declarations.entrySet()) {
      long from = positions.getStartPosition(unit, declaration.getKey());
      long to = positions.getEndPosition(unit, declaration.getKey());
      if (from <= start && start < to && from > atStart) {
        at = declaration.getValue();
        atStart = from;
      }
    }
    Parsed parsed = byUnit.get(unit);
    if (parsed == null) {
      throw new IllegalArgumentException("not a parsed unit: " + unit.getSourceFile());
    }
    parsed.messages().clear();
    parsed.trees().printMessage(kind, message, tree, unit);
    long line = unit.getLineMap().getLineNumber(start);
    long column = unit.getLineMap().getColumnNumber(start);
    if (!parsed.messages().isEmpty()) {
      line = parsed.messages().get(0).getLineNumber();
      column = parsed.messages().get(0).getColumnNumber();
    }
    String where = simpleFileName(parsed.file().name()) + ":" + line + ":" + column + ": ";
    String text = message.toString();
    text = text.startsWith(Diagnostics.PREFIX)
        ? Diagnostics.PREFIX + where + text.substring(Diagnostics.PREFIX.length())
        : where + text;
    messager.printMessage(kind, text, at);
  }

  private static String simpleFileName(String name) {
    return name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  }

  @Override
  public Tree getTree(Element element) {
    TreePath path = getPath(element);
    return path == null ? null : path.getLeaf();
  }

  @Override
  public ClassTree getTree(TypeElement element) {
    return (ClassTree) getTree((Element) element);
  }

  @Override
  public MethodTree getTree(ExecutableElement method) {
    return (MethodTree) getTree((Element) method);
  }

  @Override
  public Tree getTree(Element element, AnnotationMirror annotation) {
    return getTree(element);
  }

  @Override
  public Tree getTree(Element element, AnnotationMirror annotation, AnnotationValue value) {
    return getTree(element);
  }

  @Override
  public TreePath getPath(CompilationUnitTree unit, Tree tree) {
    return TreePath.getPath(unit, tree);
  }

  @Override
  public TreePath getPath(Element element, AnnotationMirror annotation) {
    return getPath(element);
  }

  @Override
  public TreePath getPath(Element element, AnnotationMirror annotation, AnnotationValue value) {
    return getPath(element);
  }

  /** Unattributed trees have no elements. */
  @Override
  public Element getElement(TreePath path) {
    return null;
  }

  /** Unattributed trees have no types. */
  @Override
  public TypeMirror getTypeMirror(TreePath path) {
    return null;
  }

  @Override
  public Scope getScope(TreePath path) {
    throw new UnsupportedOperationException("parsed trees have no scopes");
  }

  @Override
  public String getDocComment(TreePath path) {
    return null;
  }

  @Override
  public boolean isAccessible(Scope scope, TypeElement type) {
    throw new UnsupportedOperationException("parsed trees have no scopes");
  }

  @Override
  public boolean isAccessible(Scope scope, Element member, DeclaredType type) {
    throw new UnsupportedOperationException("parsed trees have no scopes");
  }

  @Override
  public TypeMirror getOriginalType(ErrorType errorType) {
    return errorType;
  }

  @Override
  public TypeMirror getLub(CatchTree tree) {
    return null;
  }
}
