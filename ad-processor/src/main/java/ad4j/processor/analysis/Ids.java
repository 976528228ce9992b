package ad4j.processor.analysis;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.LinkedHashSet;
import java.util.Set;

/** Facts about a function's values and variables that transforms need before they start. */
public final class Ids {
  private Ids() {}

  /** The first id no value or variable of {@code function} has. */
  public static int next(Function function) {
    int[] max = {0};
    for (Value parameter : function.parameters()) {
      max[0] = Math.max(max[0], parameter.id());
    }
    // no set of variables: the planner asks for this of every program it rewrites, thousands
    // of statements long, and a set of their variables was most of the cost
    visit(function.body(), max, null);
    return max[0] + 1;
  }

  /** The variables standing for parameters (parameters assigned under control flow). */
  public static Set<Variable> parameterVariables(Block body) {
    Set<Variable> variables = new LinkedHashSet<>();
    visit(body, new int[1], variables);
    variables.removeIf(v -> v.parameter() == null);
    return variables;
  }

  /**
   * Raises {@code max} to every id in {@code block}; adds its variables to {@code variables},
   * unless that is null.
   */
  private static void visit(Block block, int[] max, Set<Variable> variables) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        max[0] = Math.max(max[0], instruction.result().id());
        for (Operand argument : instruction.arguments()) {
          if (argument instanceof Operand.Read read) {
            note(read.variable(), max, variables);
          }
        }
      } else if (statement instanceof Declare declare) {
        note(declare.variable(), max, variables);
      } else if (statement instanceof Store store) {
        note(store.variable(), max, variables);
      } else if (statement instanceof If branch) {
        visit(branch.thenBlock(), max, variables);
        visit(branch.elseBlock(), max, variables);
      } else if (statement instanceof Loop loop) {
        visit(loop.condition(), max, variables);
        visit(loop.body(), max, variables);
        visit(loop.update(), max, variables);
      }
    }
  }

  private static void note(Variable variable, int[] max, Set<Variable> variables) {
    max[0] = Math.max(max[0], variable.id());
    if (variables != null) {
      variables.add(variable);
    }
  }
}
