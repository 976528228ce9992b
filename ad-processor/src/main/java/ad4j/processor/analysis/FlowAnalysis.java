package ad4j.processor.analysis;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.RuledCallee;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Partial;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What the derivative transforms need to know about a function's blocks and values: where each
 * value is defined and used, how deeply in loops, which primal values each instruction's
 * derivative reads (found by building its partials with the rule table), which instructions a
 * straight-line function needs, and which adjoints must be declared ahead because they are
 * summed across blocks.
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
        // a vector target's reverse passes its result's adjoints on to its arguments
        boolean passesBack = instruction.result().isActive()
            || instruction.operation().form() == Operation.Form.RULED_CALL
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
        needs.put(instruction, withRowsReadAgain(computeNeeds(instruction, positions)));
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
   * Every value among {@code arguments}, for a call whose reverse calls a pullback or rules with
   * all of them again; the positions of the active ones go into {@code withPartial}.
   */
  private static List<Value> everyArgument(List<Operand> arguments, Set<Integer> withPartial) {
    Set<Value> needed = new LinkedHashSet<>();
    for (int i = 0; i < arguments.size(); i++) {
      if (arguments.get(i) instanceof Operand.Use use) {
        needed.add(use.value());
        if (arguments.get(i).isActive()) {
          withPartial.add(i);
        }
      }
    }
    return List.copyOf(needed);
  }

  /**
   * What the reverse of a call with {@code @DerivativeOf} rules reads when arrays are involved
   * (a vector target, or array arguments that carry derivatives): the partials its rules gave
   * where the call is, the arrays that carry derivatives (whose shapes the runtime helpers
   * check against the partials') and the slots after them; not the other arguments, which the
   * partials already saw. The positions of the active scalar arguments with rules go into
   * {@code withPartial}.
   */
  private static List<Value> ruledCallNeeds(Instruction instruction, Set<Integer> withPartial) {
    List<Operand> arguments = instruction.arguments();
    RuledCallee ruled = instruction.operation().ruled();
    Set<Value> needed = new LinkedHashSet<>();
    for (int i = 0; i < arguments.size(); i++) {
      if (!(arguments.get(i) instanceof Operand.Use use)) {
        continue;
      }
      if (i >= ruled.parameterTypes().size() || use.value().isActiveArray()) {
        needed.add(use.value());
      } else if (use.isActive() && ruled.partials().containsKey(i)) {
        withPartial.add(i);
      }
    }
    return List.copyOf(needed);
  }

  /**
   * The values an instruction's derivative formulas read: its rule builds the partials as IR,
   * and the operands they use are the instruction's arguments and result. The positions of the
   * arguments that have a partial go into {@code withPartial}.
   */
  private static List<Value> computeNeeds(Instruction instruction, Set<Integer> withPartial) {
    List<Operand> arguments = instruction.arguments();
    if (instruction.operation().form() == Operation.Form.CLONE) {
      // the reverse of c = m[i].clone() adds c's adjoints from the row's first slot on
      return instruction.result().isActiveArray() && arguments.size() == 2
          && arguments.get(1) instanceof Operand.Use start ? List.of(start.value()) : List.of();
    }
    Set<Value> needed = new LinkedHashSet<>();
    if (instruction.operation().form() == Operation.Form.RULED_CALL
        && !instruction.operation().ruled().partials().isEmpty()
        && (instruction.result().isActiveArray() || arguments.stream().anyMatch(
            a -> a instanceof Operand.Use use && use.value().isActiveArray()))) {
      return ruledCallNeeds(instruction, withPartial);
    }
    if (instruction.operation().form() == Operation.Form.USER_CALL
        && instruction.result().isActiveArray()) {
      // a vector function's pullback takes every argument again
      return everyArgument(arguments, withPartial);
    }
    if (!instruction.result().isActive()) {
      return List.of();
    }
    if (instruction.operation().form() == Operation.Form.STORE) {
      // the reverse of a[i] = v moves a's adjoint at i to v: it needs i (in a row of a local
      // matrix, the element's slot)
      Operand index = arguments.size() > 3 ? arguments.get(3) : arguments.get(1);
      if (index instanceof Operand.Use use) {
        needed.add(use.value());
      }
      return List.copyOf(needed);
    }
    if (instruction.operation().form() == Operation.Form.ELEMENT) {
      // the reverse of v = w[i] adds v's adjoint at the element's slot (see ArraySlots)
      if (arguments.size() == 3 && arguments.get(2) instanceof Operand.Use slot) {
        needed.add(slot.value());
      }
      return List.copyOf(needed);
    }
    if (instruction.operation().form() == Operation.Form.USER_CALL) {
      for (Operand argument : arguments) {
        if (argument instanceof Operand.Use use) {
          needed.add(use.value());
        }
      }
      return List.copyOf(needed);
    }
    Optional<DerivativeRules.Rule> rule = DerivativeRules.forOperation(instruction.operation());
    if (rule.isEmpty()) {
      return List.of();
    }
    List<Site.Argument> siteArguments = new ArrayList<>();
    for (Operand argument : arguments) {
      OptionalDouble known = argument instanceof Operand.Constant c
          ? c.knownValue() : OptionalDouble.empty();
      siteArguments.add(new Site.Argument(argument, known));
    }
    Operand result = new Operand.Use(instruction.result());
    Site site = new Site(siteArguments, result, MathOwner.MATH, new IrBuilder(),
        instruction.line(), Site.Reuse.NONE);
    List<Operand> formulas = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      if (arguments.get(i).isActive()) {
        Optional<Partial> partial = rule.get().partial(i, site);
        if (partial.isPresent()) {
          withPartial.add(i);
          formulas.add(partial.get().applyTo(Site.number(1.0), site));
        }
      }
    }
    Set<Value> read = new HashSet<>();
    for (Operand formula : formulas) {
      if (formula instanceof Operand.Use use) {
        read.add(use.value());
      }
    }
    for (Instruction built : site.instructionsFor(formulas)) {
      for (Operand operand : built.arguments()) {
        if (operand instanceof Operand.Use use) {
          read.add(use.value());
        }
      }
    }
    for (Operand argument : arguments) {
      if (argument instanceof Operand.Use use && read.contains(use.value())) {
        needed.add(use.value());
      }
    }
    if (read.contains(instruction.result())) {
      needed.add(instruction.result());
    }
    return List.copyOf(needed);
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
