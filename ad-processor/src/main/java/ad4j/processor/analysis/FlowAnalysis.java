package ad4j.processor.analysis;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the derivative transforms need to know about a function's blocks and values: where each
 * value is defined and used, how deeply in loops, which primal values each instruction's
 * derivative reads ({@link DerivativeReads}, which builds its partials with the rule table),
 * which instructions a straight-line function needs, and which adjoints must be declared ahead
 * because they are summed across blocks.
 */
public final class FlowAnalysis {
  private final Function function;
  private int nextId;
  private final Map<Block, Integer> loopDepth = new IdentityHashMap<>();
  private final Map<Value, Block> definedIn = new HashMap<>();
  private final Map<Value, Set<Block>> usedIn = new HashMap<>();
  private final Map<Instruction, List<Value>> needs = new IdentityHashMap<>();
  /** Per instruction, the positions of the active arguments its rule has a partial for. */
  private final Map<Instruction, Set<Integer>> differentiated = new IdentityHashMap<>();
  private final Set<Block> conditionBlocks = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Set<Variable> parameterVariables = new LinkedHashSet<>();
  private final List<Instruction> live;
  private final boolean straightLine;
  private final Set<Instruction> liveSet = Collections.newSetFromMap(new IdentityHashMap<>());
  /** Per row {@code m[i]} of a matrix, the instruction that reads it. */
  private final Map<Value, Instruction> rows = new HashMap<>();

  public FlowAnalysis(Function function) {
    this.function = function;
    this.straightLine = function.isStraightLine();
    Block body = function.body();
    for (Value parameter : function.parameters()) {
      nextId = Math.max(nextId, parameter.id() + 1);
      definedIn.put(parameter, body);
    }
    visit(body, null, 0);
    this.live = straightLine ? liveInstructions(function) : null;
    if (live != null) {
      liveSet.addAll(live);
    }
  }

  public boolean isStraightLine() {
    return straightLine;
  }

  /** The instructions a straight-line method needs, in order; null for other methods. */
  public List<Instruction> liveInstructions() {
    return live;
  }

  /** The first id no value or variable of the function has, for the values transforms add. */
  public int nextId() {
    return nextId;
  }

  public int loopDepth(Block block) {
    return loopDepth.get(block);
  }

  /** Whether a straight-line method needs this instruction; all others are always emitted. */
  public boolean isLive(Instruction instruction) {
    return live == null || liveSet.contains(instruction);
  }

  public Block definingBlock(Value value) {
    return definedIn.get(value);
  }

  /** The variables that are parameters assigned under control flow. */
  public Set<Variable> parameterVariables() {
    return parameterVariables;
  }

  /** Whether the parameter is assigned under control flow, so that a variable stands for it. */
  public boolean isVariableParameter(Value parameter) {
    for (Variable variable : parameterVariables) {
      if (variable.parameter() == parameter) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code block} computes a loop's test: forward only, since tests carry no
   * derivative, so nothing in it is recorded for the reverse sweep.
   */
  public boolean isConditionBlock(Block block) {
    return conditionBlocks.contains(block);
  }


  /**
   * The primal values the derivative of {@code instruction} reads (its arguments or result, as
   * its rule's formulas use them; every argument for a call).
   */
  public List<Value> needs(Instruction instruction) {
    return needs.getOrDefault(instruction, List.of());
  }

  /**
   * Whether the rule of {@code instruction} has a partial for its active argument at
   * {@code position}: only then does the reverse sweep pass a derivative back to it. Calls of
   * other methods are not answered here.
   */
  public boolean hasPartial(Instruction instruction, int position) {
    return differentiated.getOrDefault(instruction, Set.of()).contains(position);
  }

  /**
   * Whether the adjoint of {@code value} is summed in more than one block, so that it must be
   * declared (as zero) at the start of the reverse of its defining block.
   */
  public boolean needsDeclaredAdjoint(Value value) {
    if (straightLine) {
      return false;
    }
    Block home = definedIn.get(value);
    Set<Block> blocks = usedIn.getOrDefault(value, Set.of());
    for (Block block : blocks) {
      if (block != home) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code value} is read nowhere but directly in {@code block}. */
  public boolean isUsedOnlyIn(Value value, Block block) {
    Set<Block> blocks = usedIn.getOrDefault(value, Set.of());
    return blocks.isEmpty() || blocks.size() == 1 && blocks.contains(block);
  }

  /** The values defined directly in {@code block}, in order. */
  public List<Value> valuesDefinedIn(Block block) {
    List<Value> values = new ArrayList<>();
    if (block == function.body()) {
      values.addAll(function.parameters());
    }
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        values.add(instruction.result());
      }
    }
    return values;
  }

  // ---- the walk ----------------------------------------------------------------------------

  private void visit(Block block, Block enclosing, int depth) {
    loopDepth.put(block, depth);
    if (enclosing != null && conditionBlocks.contains(enclosing)) {
      conditionBlocks.add(block); // branches of && and || inside a loop test
    }
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        nextId = Math.max(nextId, instruction.result().id() + 1);
        definedIn.put(instruction.result(), block);
        // a vector function's or a vector target's reverse passes its result's adjoints on to
        // its arguments
        boolean passesBack = instruction.result().isActive()
            || instruction.operation().form().callsDifferentiated()
                && instruction.result().isActiveArray();
        for (Operand argument : instruction.arguments()) {
          if (passesBack) {
            use(argument, block);
          }
          if (argument instanceof Operand.Read read) {
            noteVariable(read.variable());
          }
        }
        if (instruction.operation().form() == Operation.Form.ELEMENT
            && instruction.result().type().isArray()) {
          rows.put(instruction.result(), instruction);
        }
        Set<Integer> positions = new HashSet<>();
        needs.put(instruction, withRowsReadAgain(DerivativeReads.of(instruction, positions)));
        differentiated.put(instruction, positions);
      } else if (statement instanceof Declare declare) {
        use(declare.initial(), block);
        noteVariable(declare.variable());
      } else if (statement instanceof Store store) {
        use(store.value(), block);
        noteVariable(store.variable());
      } else if (statement instanceof Return ret) {
        use(ret.value(), block);
      } else if (statement instanceof If branch) {
        visit(branch.thenBlock(), block, depth);
        visit(branch.elseBlock(), block, depth);
      } else if (statement instanceof Loop loop) {
        conditionBlocks.add(loop.condition());
        visit(loop.condition(), block, depth + 1);
        visit(loop.body(), block, depth + 1);
        visit(loop.update(), block, depth + 1);
      }
    }
  }

  /**
   * {@code needed} with each row {@code m[i]} replaced by what reads it again: the tape holds
   * numbers, not arrays, so the reverse sweep reads the row again from its matrix, which is
   * made outside loops, at the recorded index ({@link #rowRead}).
   */
  private List<Value> withRowsReadAgain(List<Value> needed) {
    if (needed.stream().noneMatch(rows::containsKey)) {
      return needed;
    }
    Set<Value> replaced = new LinkedHashSet<>();
    for (Value value : needed) {
      Instruction row = rows.get(value);
      if (row == null) {
        replaced.add(value);
        continue;
      }
      for (Operand argument : row.arguments()) {
        if (argument instanceof Operand.Use use) {
          replaced.add(use.value());
        }
      }
    }
    return List.copyOf(replaced);
  }

  /** The read {@code row = m[i]} that defines {@code row}, a row of a matrix; or null. */
  public Instruction rowRead(Value row) {
    return rows.get(row);
  }

  private void noteVariable(Variable variable) {
    nextId = Math.max(nextId, variable.id() + 1);
    if (variable.parameter() != null) {
      parameterVariables.add(variable);
    }
  }

  private void use(Operand operand, Block block) {
    if (operand instanceof Operand.Use use) {
      // Blocks are records: hashing one would hash all its statements.
      usedIn.computeIfAbsent(use.value(),
          v -> Collections.newSetFromMap(new IdentityHashMap<>())).add(block);
    }
  }

  /**
   * The instructions of straight-line code that must run: those the result depends on, and
   * those that may throw (with what they depend on), so that every member throws where the
   * user's method does.
   */
  private static List<Instruction> liveInstructions(Function function) {
    Set<Value> neededValues = new HashSet<>();
    List<Instruction> instructions = new ArrayList<>();
    for (Statement statement : function.body().statements()) {
      if (statement instanceof Instruction instruction) {
        instructions.add(instruction);
      } else if (statement instanceof Return ret && ret.value() instanceof Operand.Use use) {
        neededValues.add(use.value());
      }
    }
    List<Instruction> result = new ArrayList<>();
    for (int i = instructions.size() - 1; i >= 0; i--) {
      Instruction instruction = instructions.get(i);
      if (neededValues.contains(instruction.result()) || instruction.mayThrow()) {
        result.add(instruction);
        for (Operand argument : instruction.arguments()) {
          if (argument instanceof Operand.Use use) {
            neededValues.add(use.value());
          }
        }
      }
    }
    Collections.reverse(result);
    return result;
  }
}
