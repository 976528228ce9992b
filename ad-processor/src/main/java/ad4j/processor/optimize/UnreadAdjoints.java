package ad4j.processor.optimize;

import static ad4j.processor.optimize.AdjointMentions.isAdjoint;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The declarations of adjoints that nothing reads any more, and the pure formulas that only
 * they read, removed. {@link CommonFactors} multiplies out an adjoint that several sums read
 * ({@code qBar = t33Bar * t31}, read by {@code xBar}'s and {@code yBar}'s sums) in each of them
 * and leaves its declaration, since a sum it cannot factor may still read it; when every
 * reader was factored, the declaration is left unread. Only such declarations (never stored
 * into) go, and then only formulas whose last reader went: the rest of the program, the
 * primal's unread values included, stays as it was. Apart from {@link AdjointSums} because it
 * is a clean-up of the whole program after its rounds.
 */
final class UnreadAdjoints {
  private UnreadAdjoints() {}

  static Function of(Function program) {
    Block body = program.body();
    Set<Value> freed = new HashSet<>();
    while (true) {
      Map<Value, Integer> uses = new HashMap<>();
      Set<Variable> read = new HashSet<>();
      Set<Variable> stored = new HashSet<>();
      body.walk(statement -> {
        for (Operand operand : operands(statement)) {
          if (operand instanceof Operand.Use use) {
            uses.merge(use.value(), 1, Integer::sum);
          } else if (operand instanceof Operand.Read variable) {
            read.add(variable.variable());
          }
        }
        if (statement instanceof Store store) {
          stored.add(store.variable());
        }
      });
      boolean[] removedAny = {false};
      body = without(body, statement -> {
        boolean unread = statement instanceof Declare declare
            && isAdjoint(declare.variable()) && !read.contains(declare.variable())
            && !stored.contains(declare.variable())
            || statement instanceof Instruction instruction && instruction.isPure()
            && freed.contains(instruction.result()) && !uses.containsKey(instruction.result());
        if (unread) {
          removedAny[0] = true;
          for (Operand operand : operands(statement)) {
            if (operand instanceof Operand.Use use) {
              freed.add(use.value());
            }
          }
        }
        return unread;
      });
      if (!removedAny[0]) {
        return body == program.body() ? program : program.with(program.parameters(), body);
      }
    }
  }

  private static List<Operand> operands(Statement statement) {
    if (statement instanceof Declare declare && declare.initial() == null) {
      return List.of();
    }
    return statement.operands();
  }

  private interface Removal {
    boolean removes(Statement statement);
  }

  private static Block without(Block block, Removal removal) {
    List<Statement> out = new ArrayList<>();
    boolean changed = false;
    for (Statement statement : block.statements()) {
      if (removal.removes(statement)) {
        changed = true;
        continue;
      }
      Statement kept = statement.withNestedBlocks(nested -> without(nested, removal));
      changed |= kept != statement;
      out.add(kept);
    }
    return changed ? new Block(out) : block;
  }
}
