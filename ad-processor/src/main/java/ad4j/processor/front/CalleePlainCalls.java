package ad4j.processor.front;

import com.sun.source.tree.MethodTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Whether the code of a {@code @Differentiable} method, or of the {@code @Differentiable}
 * methods it calls (transitively), makes a call that runs as written. A member that runs a
 * callee once per sweep (the Hessian's, the Jacobian's, a checkpointed loop's reverse sweep)
 * would run such a call more than once per call of the member, where the method runs it once
 * (DESIGN.md, "Soundness"): a draw would differ between sweeps, a side effect repeat.
 *
 * <p>The calls are those {@link RepeatedRuns} notes while the callee is lowered: calls that run
 * alike each time and change nothing are left out (the functions of {@code Math}-like classes,
 * static methods of the boxed types and {@code String}, argument-only and read-only methods,
 * the checks the lowering itself writes, field reads). A callee compiled earlier is judged by
 * the constant its generated class holds ({@link Lowering.Lowered#CONSTANT_SUFFIX}); one
 * without a generated class counts as making such calls.
 */
final class CalleePlainCalls {
  /** What was found: a call, a callee without source, or one that names what does not exist yet. */
  enum Kind { CALL, NO_SOURCE, UNRESOLVED }

  /**
   * A call that runs as written, found in {@code method}'s code ({@code call} and
   * {@code line}); or {@code method} itself, whose code ad4j cannot read ({@code NO_SOURCE}) or
   * cannot lower yet: it names a class another processor may generate ({@code UNRESOLVED}).
   */
  record Found(Kind kind, String method, String call, long line) {
    /** For messages: {@code 'F.g' runs code that carries no derivative ('h(...)', line 3)}. */
    String describe(String callee) {
      String which = method.equals(callee) ? "'" + callee + "'"
          : "'" + method + "', which '" + callee + "' calls,";
      return switch (kind) {
        case NO_SOURCE -> which + " was compiled earlier, and ad4j cannot see whether its code"
            + " makes calls that carry no derivative";
        case UNRESOLVED -> which + " names what does not exist yet, and ad4j cannot see yet"
            + " whether its code makes calls that carry no derivative";
        case CALL -> "'" + callee + "' runs code that carries no derivative ('" + call + "'"
            + (line > 0 ? ", line " + line : "")
            + (method.equals(callee) ? "" : ", in '" + method + "', which it calls") + ")";
      };
    }
  }

  private final Elements elements;
  private final Types types;
  private final Trees trees;
  private final Predicate<TypeElement> hasGradClass;
  private final ClassFiles classFiles;
  private final Map<ExecutableElement, Optional<Found>> known = new HashMap<>();
  private final Map<ExecutableElement, Optional<Found>> knownReads = new HashMap<>();
  private final Map<ExecutableElement, Optional<List<ValueRecords.Carried>>> knownCarried =
      new HashMap<>();
  /** The methods whose returned records {@link #carriedResult} is reading, on this thread. */
  private static final ThreadLocal<Set<ExecutableElement>> EXAMINING_CARRIED =
      ThreadLocal.withInitial(HashSet::new);

  CalleePlainCalls(Elements elements, Types types, Trees trees,
      Predicate<TypeElement> hasGradClass, ClassFiles classFiles) {
    this.elements = elements;
    this.classFiles = classFiles;
    this.types = types;
    this.trees = trees;
    this.hasGradClass = hasGradClass;
  }

  /** The first call that runs as written in {@code method}'s code or its callees'. */
  Optional<Found> in(ExecutableElement method) {
    Optional<Found> answer = known.get(method);
    if (answer == null) {
      answer = search(method, CalleePlainCalls::callRunAsWritten, true);
      known.put(method, answer);
    }
    return answer;
  }

  /**
   * Where the leaves that carry no derivative of the value record {@code method} returns come
   * from ({@link ValueRecords.Carried}), read from its lowered code; empty when its source is
   * not in the compilation or it does not lower (its errors are reported where it is processed
   * itself).
   */
  Optional<List<ValueRecords.Carried>> carriedResult(ExecutableElement method) {
    Optional<List<ValueRecords.Carried>> answer = knownCarried.get(method);
    if (answer != null) {
      return answer;
    }
    if (!EXAMINING_CARRIED.get().add(method)) {
      return Optional.empty(); // a method that calls itself, through others: not known here
    }
    answer = Optional.empty();
    try {
      TreePath path = trees.getPath(method);
      if (path != null && path.getLeaf() instanceof MethodTree tree && tree.getBody() != null) {
        Diagnostics errors = new Diagnostics(trees, path.getCompilationUnit());
        Lowering.Examined examined = Lowering.examine(elements, types, trees,
            path.getCompilationUnit(), method, tree, errors, hasGradClass,
            classFiles);
        if (examined.function().isPresent() && !errors.hasUnresolvedNames()) {
          answer = Optional.of(examined.carriedResult());
        }
      } else if (path == null) {
        answer = recordedCarried(method);
      }
    } finally {
      EXAMINING_CARRIED.get().remove(method);
    }
    knownCarried.put(method, answer);
    return answer;
  }

  /**
   * The first read in {@code method}'s code or its callees' of what a call run as written may
   * change: an array element, a call's result, a field of an object, a static field that is not
   * {@code final} ({@link StateReadAgain}). Its {@link Found#call} is the statement's source.
   */
  Optional<Found> readsChangeable(ExecutableElement method) {
    Optional<Found> answer = knownReads.get(method);
    if (answer == null) {
      answer = search(method, CalleePlainCalls::changeableRead, false);
      knownReads.put(method, answer);
    }
    return answer;
  }

  private static Optional<Found> callRunAsWritten(String name, Lowering.Examined examined) {
    return examined.callRunAsWritten().map(call ->
        new Found(Kind.CALL, name, call.shown(), call.line()));
  }

  private static Optional<Found> changeableRead(String name, Lowering.Examined examined) {
    return examined.stateRead()
        .or(() -> StateReadAgain.firstChangeableRead(examined.function().orElseThrow().body()))
        .map(read -> new Found(Kind.CALL, name, read.text(), read.number()));
  }

  /**
   * Breadth first through the callees, each once: recursion ends. {@code inspect} answers for
   * one method's lowered code; a method compiled earlier answers by its generated class's
   * constant when {@code recordedAnswers}, else as one whose code ad4j cannot see.
   */
  private Optional<Found> search(ExecutableElement start,
      java.util.function.BiFunction<String, Lowering.Examined, Optional<Found>> inspect,
      boolean recordedAnswers) {
    Set<ExecutableElement> seen = new HashSet<>();
    List<ExecutableElement> pending = new ArrayList<>(List.of(start));
    seen.add(start);
    while (!pending.isEmpty()) {
      ExecutableElement method = pending.remove(0);
      String name = method.getEnclosingElement().getSimpleName() + "." + method.getSimpleName();
      TreePath path = trees.getPath(method);
      if (path == null || !(path.getLeaf() instanceof MethodTree tree) || tree.getBody() == null) {
        Optional<Optional<Found>> recorded = recordedAnswers ? recorded(method, name)
            : Optional.empty();
        if (recorded.isEmpty()) {
          return Optional.of(new Found(Kind.NO_SOURCE, name, null, 0));
        }
        if (recorded.get().isPresent()) {
          return recorded.get();
        }
        continue; // its callees were checked when it was compiled
      }
      Diagnostics errors = new Diagnostics(trees, path.getCompilationUnit());
      Lowering.Examined examined = Lowering.examine(elements, types, trees,
          path.getCompilationUnit(), method, tree, errors, hasGradClass,
            classFiles);
      if (errors.hasUnresolvedNames()) {
        return Optional.of(new Found(Kind.UNRESOLVED, name, null, 0));
      }
      if (examined.function().isEmpty()) {
        continue; // its errors are reported where it is processed itself
      }
      Optional<Found> found = inspect.apply(name, examined);
      if (found.isPresent()) {
        return found;
      }
      for (ExecutableElement callee : examined.callees()) {
        if (seen.add(callee)) {
          pending.add(callee);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Where the leaves that carry no derivative of the value record {@code method}, compiled
   * earlier, returns come from, as the class ad4j generated for it records them
   * ({@link Lowering.Lowered#CARRIED_SUFFIX}); empty when it records nothing.
   */
  private Optional<List<ValueRecords.Carried>> recordedCarried(ExecutableElement method) {
    if (!(method.getEnclosingElement() instanceof TypeElement owner)) {
      return Optional.empty();
    }
    TypeElement grad = elements.getTypeElement(GradClassNames.gradClassName(elements, owner));
    if (grad == null) {
      return Optional.empty();
    }
    String constant = method.getSimpleName() + Lowering.Lowered.CARRIED_SUFFIX;
    for (javax.lang.model.element.VariableElement field
        : javax.lang.model.util.ElementFilter.fieldsIn(grad.getEnclosedElements())) {
      if (field.getSimpleName().contentEquals(constant)
          && field.getConstantValue() instanceof String text) {
        return ValueRecords.Carried.decode(text);
      }
    }
    return Optional.empty();
  }

  /**
   * What the class ad4j generated for {@code method}, compiled earlier, records of it
   * ({@link Lowering.Lowered#CONSTANT_SUFFIX}): the call its code makes that runs as written,
   * or none when the constant is absent; empty when there is no such class.
   */
  private Optional<Optional<Found>> recorded(ExecutableElement method, String name) {
    if (!(method.getEnclosingElement() instanceof TypeElement owner)) {
      return Optional.empty();
    }
    TypeElement grad = elements.getTypeElement(GradClassNames.gradClassName(elements, owner));
    if (grad == null) {
      return Optional.empty();
    }
    String constant = method.getSimpleName() + Lowering.Lowered.CONSTANT_SUFFIX;
    for (javax.lang.model.element.VariableElement field
        : javax.lang.model.util.ElementFilter.fieldsIn(grad.getEnclosedElements())) {
      if (field.getSimpleName().contentEquals(constant)
          && field.getConstantValue() instanceof String call) {
        return Optional.of(Optional.of(new Found(Kind.CALL, name, call, 0)));
      }
    }
    return Optional.of(Optional.empty());
  }
}
