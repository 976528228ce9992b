package ad4j.processor.ir;

/**
 * A loop: {@code while}, {@code do} and {@code for} all become this. Each iteration evaluates
 * {@code condition} (instructions ending in the boolean {@code test}; before the body, or after
 * it for {@code do}), runs {@code body}, then {@code update}. {@code break} and {@code continue}
 * in the body are {@link Jump}s naming this loop's id.
 *
 * @param id a number unique within the method
 * @param condition instructions computing {@code test}; empty when there is no test
 * @param test the loop continues while this is true; null for {@code for (;;)}
 * @param testFirst false for {@code do ... while}
 * @param body the statements of one iteration
 * @param update a {@code for} loop's update statements, run after the body and on continue
 * @param kind whether the user wrote this loop or a library call's copy or fill became it
 */
public record Loop(int id, Block condition, Operand test, boolean testFirst, Block body,
    Block update, SourceLine line, Kind kind) implements Statement {

  /** Where a loop comes from, which decides whether {@code @Checkpointed} applies to it. */
  public enum Kind {
    /**
     * A loop of the user's method ({@code for}, {@code while}, {@code do}, a stream's range),
     * or one inlined from a method it calls: {@code @Checkpointed} applies to it.
     */
    WRITTEN,
    /**
     * A loop ad4j makes: a library call's or an array swap's copy or fill, element by element
     * ({@code Arrays.fill}, {@code System.arraycopy}, {@code Arrays.copyOf}, {@code clone()}),
     * or a derived program's own (a Jacobian's rows, a checkpointed loop's segments). It is no
     * loop of the user's, so never checkpointed: the copies write arrays, which a checkpointed
     * loop must not, and the tape records them as any loop of a method without checkpoints.
     */
    GENERATED
  }

  /**
   * The variables this loop assigns that are declared outside it, in the order of their first
   * assignment: the state carried from one iteration to the next, which a snapshot of a
   * checkpointed loop holds.
   */
  public java.util.List<Variable> carriedVariables() {
    java.util.Set<Variable> declared = new java.util.HashSet<>();
    java.util.Set<Variable> assigned = new java.util.LinkedHashSet<>();
    for (Block block : java.util.List.of(condition, body, update)) {
      collect(block, declared, assigned);
    }
    assigned.removeAll(declared);
    return java.util.List.copyOf(assigned);
  }

  /**
   * The variables this loop reads and neither declares nor assigns that a statement of
   * {@code whole} (the method's body, which holds this loop outside loops) assigns after the
   * loop, in the order of their first read. A checkpointed loop computed again in the reverse
   * sweep would read them as the later statement left them, not as the loop read them, so its
   * snapshots hold them with the state the loop carries.
   */
  public java.util.List<Variable> readVariablesAssignedAfter(Block whole) {
    java.util.Set<Variable> read = new java.util.LinkedHashSet<>();
    for (Block block : java.util.List.of(condition, body, update)) {
      collectReads(block, read);
    }
    read.removeAll(carriedVariables());
    java.util.Set<Variable> later = new java.util.HashSet<>();
    storesAfter(whole, new boolean[1], later);
    read.retainAll(later);
    return java.util.List.copyOf(read);
  }

  /**
   * The variables this loop reads or assigns and does not declare: those it carries and those
   * it only reads, in the order of their first use.
   */
  public java.util.List<Variable> outsideVariables() {
    java.util.Set<Variable> used = new java.util.LinkedHashSet<>();
    for (Block block : java.util.List.of(condition, body, update)) {
      collectReads(block, used);
    }
    used.addAll(carriedVariables());
    java.util.Set<Variable> declared = new java.util.HashSet<>();
    for (Block block : java.util.List.of(condition, body, update)) {
      collect(block, declared, new java.util.HashSet<>());
    }
    used.removeAll(declared);
    return java.util.List.copyOf(used);
  }

  private static void collectReads(Block block, java.util.Set<Variable> read) {
    for (Statement statement : block.statements()) {
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Read variable) {
          read.add(variable.variable());
        }
      }
      for (Block nested : statement.nestedBlocks()) {
        collectReads(nested, read);
      }
    }
  }

  /** The variables stored to after this loop, in the order the statements are written. */
  private void storesAfter(Block block, boolean[] seen, java.util.Set<Variable> later) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Loop loop && loop.id() == id) {
        seen[0] = true;
        continue;
      }
      if (seen[0] && statement instanceof Store store) {
        later.add(store.variable());
      }
      for (Block nested : statement.nestedBlocks()) {
        storesAfter(nested, seen, later);
      }
    }
  }

  private static void collect(Block block, java.util.Set<Variable> declared,
      java.util.Set<Variable> assigned) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Declare declare) {
        declared.add(declare.variable());
      } else if (statement instanceof Store store) {
        assigned.add(store.variable());
      } else if (statement instanceof If branch) {
        collect(branch.thenBlock(), declared, assigned);
        collect(branch.elseBlock(), declared, assigned);
      } else if (statement instanceof Loop inner) {
        collect(inner.condition(), declared, assigned);
        collect(inner.body(), declared, assigned);
        collect(inner.update(), declared, assigned);
      }
    }
  }
}
