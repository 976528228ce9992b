package ad4j.processor.emit;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the printer needs to know about a program before it prints: how often each value is
 * read, which values are read outside the block that defines them (Java's scopes then need
 * their declaration earlier), which formula values can be written inline, and whether the
 * program uses the tape.
 */
final class ProgramFacts {
  private final Map<Value, Integer> uses = new HashMap<>();
  private final Map<Value, Block> definedIn = new HashMap<>();
  private final Map<Value, List<Block>> usedIn = new HashMap<>();
  private final Map<Block, Block> parents = new IdentityHashMap<>();
  private final Set<Value> inline = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Set<Value> hoisted = new LinkedHashSet<>();
  private boolean usesTape;

  ProgramFacts(Function function) {
    visit(function.body(), null);
    for (Map.Entry<Value, Block> entry : definedIn.entrySet()) {
      Block home = entry.getValue();
      if (home == function.body()) {
        continue;
      }
      for (Block use : usedIn.getOrDefault(entry.getKey(), List.of())) {
        if (!isWithin(use, home)) {
          hoisted.add(entry.getKey());
          break;
        }
      }
    }
  }

  /** How many operands read {@code value}. */
  int uses(Value value) {
    return uses.getOrDefault(value, 0);
  }

  /** Whether the formula value is written inline at its one use. */
  boolean isInline(Value value) {
    return inline.contains(value);
  }

  /** Whether {@code value} must be declared before its block, at the start of the method. */
  boolean isHoisted(Value value) {
    return hoisted.contains(value);
  }

  /** The values to declare at the start of the method, in the order they are defined. */
  List<Value> hoisted(Function function) {
    List<Value> ordered = new ArrayList<>();
    collect(function.body(), ordered);
    return ordered;
  }

  boolean usesTape() {
    return usesTape;
  }

  private void collect(Block block, List<Value> ordered) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction && hoisted.contains(instruction.result())) {
        ordered.add(instruction.result());
      } else if (statement instanceof If branch) {
        collect(branch.thenBlock(), ordered);
        collect(branch.elseBlock(), ordered);
      } else if (statement instanceof Loop loop) {
        collect(loop.condition(), ordered);
        collect(loop.body(), ordered);
        collect(loop.update(), ordered);
      }
    }
  }

  private boolean isWithin(Block block, Block ancestor) {
    for (Block b = block; b != null; b = parents.get(b)) {
      if (b == ancestor) {
        return true;
      }
    }
    return false;
  }

  private void visit(Block block, Block parent) {
    parents.put(block, parent);
    List<Statement> statements = block.statements();
    // formula values defined so far whose one use may still come, with nothing printed between
    Map<Value, Integer> pending = new HashMap<>();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      List<Operand> read = operands(statement);
      for (Operand operand : read) {
        if (operand instanceof Operand.Use use) {
          uses.merge(use.value(), 1, Integer::sum);
          usedIn.computeIfAbsent(use.value(), v -> new ArrayList<>()).add(block);
          if (pending.containsKey(use.value())) {
            inline.add(use.value());
          }
        }
      }
      if (statement instanceof Instruction instruction) {
        definedIn.put(instruction.result(), block);
        if (instruction.operation().form() == Operation.Form.POP) {
          usesTape = true;
        }
        if (instruction.result().origin() == Value.Origin.FORMULA) {
          pending.put(instruction.result(), i);
          continue;
        }
      }
      if (statement instanceof Push) {
        usesTape = true;
      }
      pending.clear(); // a printed statement ends the run of formulas before it
      if (statement instanceof If branch) {
        visit(branch.thenBlock(), block);
        visit(branch.elseBlock(), block);
      } else if (statement instanceof Loop loop) {
        visit(loop.condition(), block);
        visit(loop.body(), block);
        visit(loop.update(), block);
        if (loop.test() instanceof Operand.Use use) {
          // the test is read at the end of the condition block
          uses.merge(use.value(), 1, Integer::sum);
          usedIn.computeIfAbsent(use.value(), v -> new ArrayList<>()).add(loop.condition());
          if (use.value().origin() == Value.Origin.FORMULA && endsWith(loop.condition(),
              use.value())) {
            inline.add(use.value());
          }
        }
      }
    }
    // a formula used more than once is printed as a local of its own
    inline.removeIf(v -> uses.getOrDefault(v, 0) != 1);
  }

  private static boolean endsWith(Block block, Value value) {
    List<Statement> statements = block.statements();
    return !statements.isEmpty()
        && statements.get(statements.size() - 1) instanceof Instruction last
        && last.result() == value;
  }

  /** The operands a statement reads itself (not those of its nested blocks). */
  static List<Operand> operands(Statement statement) {
    if (statement instanceof Instruction instruction) {
      return instruction.arguments();
    } else if (statement instanceof Declare declare) {
      return List.of(declare.initial());
    } else if (statement instanceof Store store) {
      return List.of(store.value());
    } else if (statement instanceof Return ret) {
      return List.of(ret.value());
    } else if (statement instanceof If branch) {
      return List.of(branch.condition());
    } else if (statement instanceof Push push) {
      return List.of(push.value());
    } else if (statement instanceof ElementStore store) {
      return List.of(new Operand.Use(store.array()), store.value());
    } else if (statement instanceof Throw thrown) {
      List<Operand> operands = new ArrayList<>();
      for (Object part : thrown.messageParts()) {
        if (part instanceof Operand operand) {
          operands.add(operand);
        }
      }
      return operands;
    }
    return List.of();
  }

  /** Whether any statement of {@code statements}, nested ones included, mentions the variable. */
  static boolean mentions(List<Statement> statements, Variable variable) {
    for (Statement statement : statements) {
      if (statement instanceof Declare declare && declare.variable() == variable
          || statement instanceof Store store && store.variable() == variable) {
        return true;
      }
      for (Operand operand : operands(statement)) {
        if (operand instanceof Operand.Read read && read.variable() == variable) {
          return true;
        }
      }
      if (statement instanceof If branch && (mentions(branch.thenBlock().statements(), variable)
          || mentions(branch.elseBlock().statements(), variable))) {
        return true;
      }
      if (statement instanceof Loop loop && (mentions(loop.condition().statements(), variable)
          || mentions(loop.body().statements(), variable)
          || mentions(loop.update().statements(), variable))) {
        return true;
      }
    }
    return false;
  }
}
