package ad4j.processor.front;

import ad4j.processor.ir.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which locals of the method become mutable variables ({@link VariablePlanner}'s plan, and the
 * plans of code inlined into it), all others being single-assignment values; and the
 * declarations of the variables lowering makes (the flags of exits from loops) that must
 * precede the method's statements or start each iteration of a loop. Reached through
 * {@link LoweringContext}.
 */
final class MutableVariables {
  private final Set<String> names;
  private final Set<String> inlinedNames = new HashSet<>();
  private final List<Statement> prologue = new ArrayList<>();
  private final Map<Integer, List<Statement>> loopPrologues = new HashMap<>();

  /** {@code names}: the locals of the method's own code that need variables. */
  MutableVariables(Set<String> names) {
    this.names = names;
  }

  /** Whether a local named {@code name} becomes a mutable variable. */
  boolean needsVariable(String name) {
    return names.contains(name) || inlinedNames.contains(name);
  }

  /**
   * The names that need mutable variables in code inlined from another method (a callee taking
   * a function, {@link FunctionValues}): a local of such a name becomes one anywhere, which is
   * always correct.
   */
  void planInlined(Set<String> inlined) {
    inlinedNames.addAll(inlined);
  }

  /** Declarations that must precede the method's statements (flags of returns from loops). */
  List<Statement> prologue() {
    return prologue;
  }

  /** Declarations that must start each iteration of the loop {@code loopId}. */
  List<Statement> loopPrologue(int loopId) {
    return loopPrologues.computeIfAbsent(loopId, id -> new ArrayList<>());
  }
}
