package ad4j.processor.derive.reverse;

import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.List;

/**
 * How the reverse sweep calls the pullback of another {@code @Differentiable} method, chosen once
 * per program ({@link Adjoint#withSplitCalls} and {@link Adjoint#split} split, the others call
 * whole pullbacks). Apart so that {@link CallAdjoints} writes the same arguments either way.
 */
enum PullbackCalls {
  /** The callee's whole pullback, which runs its forward sweep again. */
  WHOLE {
    @Override
    void call(SweepState s, Instruction instruction, List<Operand> callArguments,
        SourceLine line, List<Statement> out) {
      Callee callee = instruction.operation().callee();
      Value value = s.builder.generated("value", callee.resultType(), false);
      out.add(new Instruction(value, Operation.pullbackCall(callee), callArguments, line));
    }
  },
  /**
   * The callee's replaying half: the forward sweep called the callee's recording half ({@link
   * CallAdjoints#recordingCalls}), and the replaying half takes back what that left on the tape
   * and returns nothing.
   */
  SPLIT {
    @Override
    void call(SweepState s, Instruction instruction, List<Operand> callArguments,
        SourceLine line, List<Statement> out) {
      if (s.iterationInLocals) {
        // a checkpointed loop's iteration is computed again without recording right before
        // its reverse, which therefore calls the whole pullback
        WHOLE.call(s, instruction, callArguments, line, out);
        return;
      }
      s.replayedCalls.add(instruction);
      Value replayed = s.builder.generated("replayed", NumericType.VOID, false);
      out.add(new Instruction(replayed, Operation.replayCall(instruction.operation().callee()),
          callArguments, line));
    }
  };

  /** Writes the call of {@code instruction}'s callee's pullback with {@code callArguments}. */
  abstract void call(SweepState s, Instruction instruction, List<Operand> callArguments,
      SourceLine line, List<Statement> out);
}
