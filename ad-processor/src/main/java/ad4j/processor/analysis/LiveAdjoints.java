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
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Dead-adjoint elimination: which values' adjoints the reverse sweep computes. An active value's
 * adjoint is live when one of its uses passes a derivative back to it from something whose
 * adjoint is live: the returned value, an active variable it is stored into, or an instruction
 * whose result's adjoint is live and whose rule has a partial for that argument (every
 * {@code double} argument of a call of another method). Any other value's adjoint is zero
 * whatever the seed, so {@link ad4j.processor.derive.reverse.Adjoint Adjoint} writes no reverse code for
 * its instruction.
 *
 * <p>A value stored into an active variable is live only when the variable is read where a
 * derivative passes back (a live instruction reads it, or it is returned): a variable that
 * never reaches the result has the adjoint zero, and the reverse of what it stores must not run
 * (a zero adjoint times an infinite partial, of a value that overflowed, would be NaN).
 *
 * <p>Some adjoints the reverse sweep sets up whatever their uses, and they count as live: those
 * summed in more than one block, which it declares ahead as zero ({@link
 * FlowAnalysis#needsDeclaredAdjoint}), and those another program hands over (a segment's
 * values carried into the next segment, whose adjoints come back from it on the tape).
 */
public final class LiveAdjoints {
  private final FlowAnalysis flow;
  private final Set<Value> live = Collections.newSetFromMap(new IdentityHashMap<>());
  /** The active variables read where a derivative passes back: their stores pass it on. */
  private final Set<Variable> read = Collections.newSetFromMap(new IdentityHashMap<>());
  /** In a segment of a split method every variable counts as read (the next one may read it). */
  private final boolean allVariablesRead;
  private boolean changed;

  /**
   * The live adjoints of {@code function}; {@code handedOver}: values whose adjoints come from
   * another program.
   */
  public LiveAdjoints(Function function, FlowAnalysis flow, Collection<Value> handedOver) {
    this.flow = flow;
    this.allVariablesRead = !handedOver.isEmpty();
    live.addAll(handedOver);
    // a use comes after its definition, so one backward walk finds almost all; walked again
    // until nothing changes, the answer does not depend on the order of nested blocks
    do {
      changed = false;
      walk(function.body());
    } while (changed);
  }

  /** Whether the reverse sweep computes {@code value}'s adjoint. */
  public boolean isLive(Value value) {
    return live.contains(value);
  }

  private void walk(Block block) {
    List<Statement> statements = block.statements();
    for (int i = statements.size() - 1; i >= 0; i--) {
      Statement statement = statements.get(i);
      if (statement instanceof Instruction instruction) {
        Value value = instruction.result();
        if (value.isActive() && flow.needsDeclaredAdjoint(value)) {
          mark(value);
        }
        if (flow.isLive(instruction) && value.isActive() && live.contains(value)) {
          passBack(instruction);
        }
        if (flow.isLive(instruction) && value.isActiveArray()
            && instruction.operation().form() == Operation.Form.USER_CALL) {
          // a vector function's result: its adjoints are an array's, which is always summed
          passBack(instruction);
        }
        if (instruction.operation().form() == Operation.Form.RULED_CALL
            && value.isActiveArray()) {
          // a vector target's arguments: their adjoints come from the result's adjoint array
          // (its partials, after them, pass nothing on)
          instruction.arguments().subList(0, instruction.operation().ruled().parameterTypes()
              .size()).forEach(this::mark);
        }
        if (instruction.operation().form() == Operation.Form.STORE && value.isActive()) {
          // what is stored into an array that carries derivatives may be read back: its
          // adjoint comes from the array's adjoint at the reverse of the store
          mark(instruction.arguments().get(2));
        }
      } else if (statement instanceof Return ret) {
        mark(ret.value());
      } else if (statement instanceof Declare declare && isRead(declare.variable())) {
        mark(declare.initial());
      } else if (statement instanceof Store store && isRead(store.variable())) {
        mark(store.value());
      } else if (statement instanceof If branch) {
        walk(branch.thenBlock());
        walk(branch.elseBlock());
      } else if (statement instanceof Loop loop) {
        walk(loop.update());
        walk(loop.body());
        walk(loop.condition());
      }
    }
  }

  /** Marks the arguments the reverse of {@code instruction} passes a derivative back to. */
  private void passBack(Instruction instruction) {
    Operation operation = instruction.operation();
    List<Operand> arguments = instruction.arguments();
    if (operation.form() == Operation.Form.COPY && arguments.get(0) instanceof Operand.Read) {
      mark(arguments.get(0)); // into the variable's adjoint, which is not a value's
      return;
    }
    for (int i = 0; i < arguments.size(); i++) {
      boolean passed = operation.form() == Operation.Form.USER_CALL
          ? i < operation.callee().parameterTypes().size()
              && operation.callee().isActiveScalar(i)
          : flow.hasPartial(instruction, i);
      if (passed) {
        mark(arguments.get(i));
      }
    }
  }

  private void mark(Operand operand) {
    if (operand instanceof Operand.Use use && use.isActive() && live.add(use.value())) {
      changed = true;
    } else if (operand instanceof Operand.Read variable && variable.variable().isActive()
        && read.add(variable.variable())) {
      changed = true;
    }
  }

  private boolean isRead(Variable variable) {
    return variable.isActive() && (allVariablesRead || read.contains(variable));
  }

  private void mark(Value value) {
    if (live.add(value)) {
      changed = true;
    }
  }
}
