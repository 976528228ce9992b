package ad4j.processor.optimize;

import static ad4j.processor.optimize.AdjointMentions.isAdjoint;
import static ad4j.processor.optimize.AdjointSums.rewritten;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The copies {@link AdjointSums} leaves behind, cleaned up: an adjoint that takes a local's
 * place instead of being copied from it, and a store of an adjoint's own unchanged value
 * dropped. Apart from the summing of runs because it rewrites what that leaves, once per block
 * after it.
 */
final class AdjointCopies {
  private AdjointCopies() {}

  /**
   * {@code double c = formula; ... xBar = c}, where nothing else reads the local {@code c} and
   * nothing in between mentions {@code xBar}, becomes {@code xBar = formula} where {@code c} was
   * declared: the adjoint takes the local's place instead of being copied from it. (The sums
   * above leave such copies where an adjoint zeroed or declared as zero gets one contribution.)
   * And {@code double t = xBar; ... xBar = t}, with {@code xBar} unchanged in between, loses the
   * store: what a loop-carried adjoint that one iteration reads and leaves as it was comes to.
   */
  static List<Statement> renamed(List<Statement> statements, AdjointMentions facts) {
    Map<Variable, Integer> declaredAt = new HashMap<>();
    Map<Integer, List<Statement>> definitions = new HashMap<>();
    Set<Integer> removed = new HashSet<>();
    Map<Variable, Integer> lastMention = new HashMap<>();
    // locals declared as a copy of a variable that has not changed since
    Copies copyOf = new Copies();
    for (int q = 0; q < statements.size(); q++) {
      Statement statement = statements.get(q);
      Variable target = null;
      Operand value = null;
      if (statement instanceof Declare declare && isAdjoint(declare.variable())) {
        target = declare.variable();
        value = declare.initial();
      } else if (statement instanceof Store store && isAdjoint(store.variable())) {
        target = store.variable();
        value = store.value();
      }
      // the local must hold that one value: stores into it later (an adjoint the sweep zeroes
      // again, read nowhere after) would be left without its declaration
      if (value instanceof Operand.Read read && declaredAt.containsKey(read.variable())
          && facts.reads(read.variable()) == 1
          && !facts.isStored(read.variable())
          && lastMention.getOrDefault(target, -1) < declaredAt.get(read.variable())) {
        int p = declaredAt.remove(read.variable());
        Declare local = (Declare) statements.get(p);
        definitions.put(p, List.of(statement instanceof Declare
            ? new Declare(target, local.initial(), local.line())
            : new Store(target, local.initial(), local.line())));
        removed.add(q);
        lastMention.put(target, q);
        copyOf.forgetCopiesOf(target); // it is assigned at p now
        continue;
      }
      if (statement instanceof Store store && value instanceof Operand.Read read
          && copyOf.get(read.variable()) == target) {
        removed.add(q); // xBar = t where t = xBar still: the adjoint keeps its value
        continue;
      }
      Set<Variable> assigned = new HashSet<>();
      facts.assigned(statement, assigned);
      for (Variable variable : assigned) {
        declaredAt.remove(variable); // assigned again: not a local of one value
        copyOf.forget(variable);
        copyOf.forgetCopiesOf(variable);
      }
      if (statement instanceof Declare declare && declare.initial() != null) {
        declaredAt.put(declare.variable(), q);
        if (declare.initial() instanceof Operand.Read read) {
          copyOf.put(declare.variable(), read.variable());
        }
      }
      Set<Variable> mentioned = new HashSet<>();
      facts.mentions(statement, mentioned);
      for (Variable variable : mentioned) {
        lastMention.put(variable, q);
      }
    }
    return rewritten(statements, removed, definitions);
  }

  /**
   * Which local copies which variable, indexed both ways: a block of thousands of statements
   * forgets the copies of each variable it assigns, which a scan of all copies made quadratic.
   */
  private static final class Copies {
    private final Map<Variable, Variable> copyOf = new HashMap<>();
    private final Map<Variable, Set<Variable>> copiesOf = new HashMap<>();

    Variable get(Variable local) {
      return copyOf.get(local);
    }

    void put(Variable local, Variable copied) {
      forget(local);
      copyOf.put(local, copied);
      copiesOf.computeIfAbsent(copied, v -> new HashSet<>()).add(local);
    }

    /** {@code local} no longer holds a copy. */
    void forget(Variable local) {
      Variable copied = copyOf.remove(local);
      if (copied != null) {
        copiesOf.get(copied).remove(local);
      }
    }

    /** No local holds a copy of {@code copied} any more. */
    void forgetCopiesOf(Variable copied) {
      Set<Variable> locals = copiesOf.remove(copied);
      if (locals != null) {
        for (Variable local : locals) {
          copyOf.remove(local);
        }
      }
    }
  }
}
