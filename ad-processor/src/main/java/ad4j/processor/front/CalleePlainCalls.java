package ad4j.processor.front;

import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Value;
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
 * <p>Calls that run alike each time and change nothing are left out: the functions of
 * {@code Math}-like classes without a derivative, static methods of {@code Math}, the boxed
 * types and {@code String} ({@code Double.isNaN}), the checks the lowering itself writes, and
 * field reads. A callee compiled earlier, whose code ad4j
 * cannot read, counts as making such calls.
 */
final class CalleePlainCalls {
  /** The lowering's own calls, which run the same each time and change nothing. */
  private static final Set<String> LOWERING_CHECKS = Set.of("ad4j.runtime.Assertions.enabled",
      "java.util.Objects.requireNonNull");

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
  private final Map<ExecutableElement, Optional<Found>> known = new HashMap<>();

  CalleePlainCalls(Elements elements, Types types, Trees trees,
      Predicate<TypeElement> hasGradClass) {
    this.elements = elements;
    this.types = types;
    this.trees = trees;
    this.hasGradClass = hasGradClass;
  }

  /** The first call that runs as written in {@code method}'s code or its callees'. */
  Optional<Found> in(ExecutableElement method) {
    Optional<Found> answer = known.get(method);
    if (answer == null) {
      answer = search(method);
      known.put(method, answer);
    }
    return answer;
  }

  /** Breadth first through the callees, each once: recursion ends. */
  private Optional<Found> search(ExecutableElement start) {
    Set<ExecutableElement> seen = new HashSet<>();
    List<ExecutableElement> pending = new ArrayList<>(List.of(start));
    seen.add(start);
    while (!pending.isEmpty()) {
      ExecutableElement method = pending.remove(0);
      String name = method.getEnclosingElement().getSimpleName() + "." + method.getSimpleName();
      TreePath path = trees.getPath(method);
      if (path == null || !(path.getLeaf() instanceof MethodTree tree) || tree.getBody() == null) {
        return Optional.of(new Found(Kind.NO_SOURCE, name, null, 0));
      }
      Diagnostics errors = new Diagnostics(trees, path.getCompilationUnit());
      Lowering.Examined examined = Lowering.examine(elements, types, trees,
          path.getCompilationUnit(), method, tree, errors, hasGradClass);
      if (errors.hasUnresolvedNames()) {
        return Optional.of(new Found(Kind.UNRESOLVED, name, null, 0));
      }
      if (examined.function().isEmpty()) {
        continue; // its errors are reported where it is processed itself
      }
      Optional<Instruction> call = firstPlainCall(examined.function().get(), examined.alike());
      if (call.isPresent()) {
        return Optional.of(new Found(Kind.CALL, name, call.get().operation().name() + "(...)",
            call.get().line() == null ? 0 : call.get().line().number()));
      }
      for (ExecutableElement callee : examined.callees()) {
        if (seen.add(callee)) {
          pending.add(callee);
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<Instruction> firstPlainCall(Function function, Set<Value> alike) {
    List<Instruction> found = new ArrayList<>();
    function.body().walk(statement -> {
      if (statement instanceof Instruction instruction
          && runsUserCode(instruction.operation()) && !alike.contains(instruction.result())) {
        found.add(instruction);
      }
    });
    return found.stream().findFirst();
  }

  private static boolean runsUserCode(Operation operation) {
    return operation.form() == Operation.Form.PLAIN_CALL
        && operation.plain() != Operation.Plain.FIELD_READ
        && !LOWERING_CHECKS.contains(operation.name());
  }
}
