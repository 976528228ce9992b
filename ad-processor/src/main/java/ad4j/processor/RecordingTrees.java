package ad4j.processor;

import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Scope;
import com.sun.source.tree.Tree;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ErrorType;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic;

/**
 * The compiler's {@link Trees} (or ad4j's parsed ones), noting each element whose declaration
 * is looked up through them while one class is processed: what its generated class was made
 * from. A class's derivatives follow the code of other files that the front end reads (a
 * record's accessors and constructor, a called method's body, a field's initializer), and a
 * build that compiles only the files that changed needs to know which those were
 * ({@link CodeReadIndex}). Every other question is passed on as asked.
 */
final class RecordingTrees extends Trees {
  private final Trees trees;
  /** The elements looked up since {@link #start()}, in order; null when not recording. */
  private Set<Element> looked;

  RecordingTrees(Trees trees) {
    this.trees = trees;
  }

  /** The trees asked, for lookups that are not to be noted. */
  Trees unrecorded() {
    return trees;
  }

  /** Starts noting the elements looked up, for one class. */
  void start() {
    looked = new LinkedHashSet<>();
  }

  /** The elements looked up since {@link #start()}; stops noting them. */
  Set<Element> stop() {
    Set<Element> seen = looked == null ? Set.of() : looked;
    looked = null;
    return seen;
  }

  private void note(Element element) {
    if (looked != null && element != null) {
      looked.add(element);
    }
  }

  @Override
  public TreePath getPath(Element element) {
    note(element);
    return trees.getPath(element);
  }

  @Override
  public Tree getTree(Element element) {
    note(element);
    return trees.getTree(element);
  }

  @Override
  public ClassTree getTree(TypeElement element) {
    note(element);
    return trees.getTree(element);
  }

  @Override
  public MethodTree getTree(ExecutableElement method) {
    note(method);
    return trees.getTree(method);
  }

  @Override
  public Tree getTree(Element element, AnnotationMirror annotation) {
    note(element);
    return trees.getTree(element, annotation);
  }

  @Override
  public Tree getTree(Element element, AnnotationMirror annotation, AnnotationValue value) {
    note(element);
    return trees.getTree(element, annotation, value);
  }

  @Override
  public TreePath getPath(Element element, AnnotationMirror annotation) {
    note(element);
    return trees.getPath(element, annotation);
  }

  @Override
  public TreePath getPath(Element element, AnnotationMirror annotation, AnnotationValue value) {
    note(element);
    return trees.getPath(element, annotation, value);
  }

  @Override
  public SourcePositions getSourcePositions() {
    return trees.getSourcePositions();
  }

  @Override
  public TreePath getPath(CompilationUnitTree unit, Tree tree) {
    return trees.getPath(unit, tree);
  }

  @Override
  public Element getElement(TreePath path) {
    return trees.getElement(path);
  }

  @Override
  public TypeMirror getTypeMirror(TreePath path) {
    return trees.getTypeMirror(path);
  }

  @Override
  public Scope getScope(TreePath path) {
    return trees.getScope(path);
  }

  @Override
  public String getDocComment(TreePath path) {
    return trees.getDocComment(path);
  }

  @Override
  public boolean isAccessible(Scope scope, TypeElement type) {
    return trees.isAccessible(scope, type);
  }

  @Override
  public boolean isAccessible(Scope scope, Element member, DeclaredType type) {
    return trees.isAccessible(scope, member, type);
  }

  @Override
  public TypeMirror getOriginalType(ErrorType errorType) {
    return trees.getOriginalType(errorType);
  }

  @Override
  public void printMessage(Diagnostic.Kind kind, CharSequence message, Tree tree,
      CompilationUnitTree unit) {
    trees.printMessage(kind, message, tree, unit);
  }

  @Override
  public TypeMirror getLub(CatchTree tree) {
    return trees.getLub(tree);
  }
}
