package ad4j.processor.front;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The first place in a {@code @DerivativeOf} target's body that changes state outlasting the
 * call: a write to a field ({@code k++}, {@code this.total += x}, {@code Owner.k = 1}) or to an
 * element of an array the body did not make (a parameter's, a field's, one a local took from
 * them), or a call that may do so. Such a target gives another result, or changes something
 * again, each time it runs, and the members that make one sweep per slot call it in every
 * sweep ({@link RepeatedRuns}).
 *
 * <p>Read from the source text, without attribution (the same under ECJ's parsed trees): a name
 * that no local or parameter in scope declares is a field's. The calls the body makes are
 * followed into the bodies of the methods and constructors they may call that have source in
 * this compilation (every method of the name in the receiver's class, transitively; a method
 * already being read counts as changing nothing there, so recursion ends). A call of a method
 * without source is taken as harmless only when the JDK's method is known to change nothing
 * outside what the body made ({@code Math}'s functions but {@code random}, {@code String}, the
 * boxes, streams, {@code Arrays.stream} and copies, {@code Arrays.fill} of a local array):
 * anything else (a print, a draw, {@code Arrays.fill} of a field's array, a method of an
 * object whose class is unknown here, a method a subclass may override) may change state and
 * so counts as a write; so does a JDK method taken for harmless that is given an object (not a
 * number, string, box or array of them, nor a lambda or method reference of the body, read in
 * place), whose methods it may call ({@code String.valueOf(tag)}, {@code map(COUNT)}), and a
 * concatenation of such an object, which calls its {@code toString()}. The target itself,
 * without source, stays the user's word that it is a function of its arguments: its rules say
 * so, and the user can name a library method itself as the target.
 *
 * <p>This class is the reading's entry: it keeps the answer for each method read and the
 * methods being read (which ends recursion), and judges a call of a method by its owner. The
 * walk over one body is {@link BodyWrites}, which asks {@link BodyLocals} what a body's names
 * hold and {@link BodyValues} whether a value is plain; what is known of the JDK's code is
 * {@link JdkHarmlessCode}; how code that cannot be read counts is {@link UnreadCode}.
 */
final class TargetStateWrites {
  private final Trees trees;
  private final Elements elements;
  private final Types types;
  /** Methods whose bodies are being read: a call of one of them adds nothing (recursion). */
  private final Set<ExecutableElement> reading = new HashSet<>();
  private final Map<ExecutableElement, Optional<Tree>> answers = new HashMap<>();
  /**
   * Whether the call being judged may run a JDK method taken for harmless, which may still
   * call methods of the objects it is given ({@code toString()}, a function's
   * {@code applyAsDouble}). Set by the walks of the bodies read ({@link BodyWrites}), which
   * keep the value of the call around them while they judge one.
   */
  boolean libraryRuns;

  /** Whether code this cannot read counts as changing state, or as changing none. */
  private final UnreadCode unread;

  private TargetStateWrites(Trees trees, Elements elements, Types types, UnreadCode unread) {
    this.trees = trees;
    this.elements = elements;
    this.types = types;
    this.unread = unread;
  }

  /**
   * The first such write or call of {@code target}'s body; empty without one, or without
   * source.
   */
  static Optional<Tree> first(Trees trees, Elements elements, Types types,
      ExecutableElement target) {
    return new TargetStateWrites(trees, elements, types, UnreadCode.TARGET).body(target)
        .orElse(Optional.empty());
  }

  /**
   * The first write of {@code rule}'s body, a {@code @DerivativeOf} rule, to state that
   * outlasts its call, or of a call it makes to a method whose body, read in source, makes one.
   * The user's method never runs a rule, and generated members run it, so any such write makes
   * them differ from the method. Code that cannot be read is taken for a function here (a
   * distribution's {@code density(x)} of a library): the rule is the user's word.
   */
  static Optional<Tree> ofRule(Trees trees, Elements elements, Types types,
      ExecutableElement rule) {
    return new TargetStateWrites(trees, elements, types, UnreadCode.RULE).body(rule)
        .orElse(Optional.empty());
  }

  /** {@code change}'s text for a message: its first line, at most 60 characters of it. */
  static String shown(Tree change) {
    String text = change.toString().strip();
    int end = text.indexOf('\n');
    String line = end < 0 ? text : text.substring(0, end).strip();
    return line.length() <= 60 && end < 0 ? line
        : line.substring(0, Math.min(line.length(), 57)) + "...";
  }

  /**
   * The first write of {@code method}'s body, or of a method it calls; an empty outer optional
   * when the method has no body in source.
   */
  private Optional<Optional<Tree>> body(ExecutableElement method) {
    TreePath path = trees.getPath(method);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree) || tree.getBody() == null
        || !(method.getEnclosingElement() instanceof TypeElement owner)) {
      return Optional.empty();
    }
    Optional<Tree> known = answers.get(method);
    if (known != null) {
      return Optional.of(known);
    }
    if (!reading.add(method)) {
      return Optional.of(Optional.empty()); // judged where its reading began
    }
    try {
      Symbols symbols = new Symbols(elements, types, owner, path.getCompilationUnit());
      BodyWrites body = new BodyWrites(this, unread,
          new BodyLocals(elements, types, symbols, owner, tree),
          method.getKind() == ElementKind.CONSTRUCTOR);
      Optional<Tree> found = body.firstWrite(new TreePath(path, tree.getBody()));
      if (found.isEmpty() && method.getKind() == ElementKind.CONSTRUCTOR) {
        found = beforeConstructorBody(owner, tree, body);
      }
      answers.put(method, found);
      return Optional.of(found);
    } finally {
      reading.remove(method);
    }
  }

  /**
   * What a constructor runs before its body: the superclass's constructor an implicit
   * {@code super()} calls, and the instance initializers and field initializers of its class.
   */
  private Optional<Tree> beforeConstructorBody(TypeElement owner, MethodTree constructor,
      BodyWrites body) {
    boolean explicit = constructor.getBody().getStatements().stream().findFirst()
        .filter(first -> first instanceof com.sun.source.tree.ExpressionStatementTree statement
            && statement.getExpression() instanceof MethodInvocationTree call
            && call.getMethodSelect() instanceof IdentifierTree name
            && (name.getName().contentEquals("super") || name.getName().contentEquals("this")))
        .isPresent();
    if (!explicit && owner.getSuperclass() instanceof DeclaredType declared
        && declared.asElement() instanceof TypeElement superclass) {
      for (ExecutableElement made
          : ElementFilter.constructorsIn(superclass.getEnclosedElements())) {
        if (made.getParameters().isEmpty()) {
          Optional<Tree> found = construction(made, constructor);
          if (found.isPresent()) {
            return found;
          }
        }
      }
    }
    TreePath path = trees.getPath(owner);
    if (path == null || !(path.getLeaf() instanceof ClassTree type)) {
      return Optional.empty();
    }
    for (Tree member : type.getMembers()) {
      TreePath initializer = member instanceof BlockTree block && !block.isStatic()
          ? new TreePath(path, block)
          : member instanceof VariableTree field && field.getInitializer() != null
              && !field.getModifiers().getFlags().contains(Modifier.STATIC)
              ? new TreePath(new TreePath(path, field), field.getInitializer()) : null;
      Optional<Tree> found = initializer == null ? Optional.empty()
          : body.firstWrite(initializer);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** {@code at} if running {@code constructor} may change state: one of the JDK's or read. */
  Optional<Tree> construction(ExecutableElement constructor, Tree at) {
    TypeElement type = (TypeElement) constructor.getEnclosingElement();
    String name = type.getQualifiedName().toString();
    if (JdkHarmlessCode.PLAIN_CONSTRUCTIONS.contains(name) || name.equals("java.lang.Record")
        || LaunderedDependence.readsArgumentsOnly(type)
        || JdkHarmlessCode.isThrowable(elements, types, type)) {
      return Optional.empty();
    }
    return body(constructor).map(found -> found.map(write -> at))
        .orElse(unread.countsAsChange() ? Optional.of(at) : Optional.empty());
  }

  /**
   * Whether a call of {@code method} (or a reference to it) from a body may change state
   * outlasting that body's call; {@code firstArgumentMade} says whether the call's first
   * argument is an array the body made.
   */
  boolean mayChangeState(ExecutableElement method, boolean firstArgumentMade) {
    if (!(method.getEnclosingElement() instanceof TypeElement owner)) {
      return unread.countsAsChange();
    }
    String qualified = owner.getQualifiedName() + "." + method.getSimpleName();
    if (ArgumentOnlyMethods.isArgumentOnlyLibraryMethod(method)
        || LaunderedDependence.onlyReads(method) || JdkHarmlessCode.MAKE_NEW.contains(qualified)
        || JdkHarmlessCode.WRITE_FIRST_ARGUMENT.contains(qualified) && firstArgumentMade
        || !StaticMembers.isStatic(method) && LaunderedDependence.readsArgumentsOnly(owner)
            && !method.getSimpleName().contentEquals("random")
        || JdkHarmlessCode.isStreamMethod(elements, owner)) {
      // a parameter of a class of objects: it may call their methods ('valueOf(Object)')
      libraryRuns |= method.getParameters().stream()
          .anyMatch(p -> !JdkHarmlessCode.isPlainType(p.asType()));
      return false; // a lambda or method reference given to it is read where it is written
    }
    if (unread.countsAsChange() && OverridableMethods.mayBeOverridden(method)) {
      return true; // an object of a subclass may run another body
    }
    return body(method).map(Optional::isPresent).orElse(unread.countsAsChange());
  }
}
