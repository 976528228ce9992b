package ad4j.processor.derive.reverse;

import ad4j.processor.analysis.LiveAdjoints;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Segment;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.List;

/**
 * The reverse sweep of one segment of a method cut by {@code methodsize/Segments}: adjoints come
 * from the tape (or the seed, in the last segment), go back on the tape for the previous segment.
 * Apart because it frames the per-instruction reverse differently from a whole program.
 */
final class SegmentSweep {
  private final SweepState s;
  /**
   * Whether the sweep is made for its forward mode (second order): see {@link
   * Adjoint#reverseSegmentWithTangents}.
   */
  private final boolean tangents;

  SegmentSweep(SweepState s, boolean tangents) {
    this.s = s;
    this.tangents = tangents;
  }

  Function segment(Segment segment, boolean last) {
    s.live = new LiveAdjoints(s.primal, s.flow, segment.carriedOut());
    List<Value> parameters = new ArrayList<>(s.primal.parameters());
    List<Statement> out = new ArrayList<>();
    List<Value> differentiable = s.primal.differentiableParameters();
    if (last) {
      // with tangents, the seed has one too (callers' second-order code seeds the pullback)
      Value seedParameter = s.builder.generated("seed", NumericType.DOUBLE, tangents);
      parameters.add(seedParameter);
      s.seed = new Operand.Use(seedParameter);
    } else {
      List<Value> incoming = new ArrayList<>(segment.carriedOut());
      incoming.addAll(differentiable);
      for (int i = incoming.size() - 1; i >= 0; i--) {
        Value value = incoming.get(i);
        Variable adjoint = s.builder.derivedVariable(value, Derivative.ADJOINT, NumericType.DOUBLE);
        // with tangents, active: its tangent, recorded beside it, comes back with it
        out.add(new Declare(adjoint, s.statements.pop(NumericType.DOUBLE, tangents, null, out),
            null));
        s.adjoints.put(value, new Accumulation.AdjointValue(null, adjoint));
      }
    }
    List<Value> needed = segment.needed();
    for (int i = needed.size() - 1; i >= 0; i--) {
      out.add(new Instruction(needed.get(i), Operation.POP, List.of(), null));
    }
    Return ret = s.program.finalReturn();
    if (last && ret.value() instanceof Operand.Use use && use.isActive()) {
      s.sums.accumulate(use.value(), s.seed, false, true,
          Site.formulas(s.builder, ret.line().adjoint()), out);
    }
    List<Instruction> instructions = segment.instructions();
    for (int i = instructions.size() - 1; i >= 0; i--) {
      s.instructions.reverseInstruction(instructions.get(i), s.primal.body(), out);
    }
    List<Value> outgoing = new ArrayList<>(segment.carriedIn());
    outgoing.addAll(differentiable);
    for (Value value : outgoing) {
      Accumulation.AdjointValue adjoint = s.adjoints.get(value);
      if (tangents) {
        // handed on in a variable, so that its tangent goes on the tape beside it even where
        // the adjoint is a constant or nothing reached it (zero)
        Variable handed = s.builder.derivedVariable(value, Derivative.ADJOINT, NumericType.DOUBLE);
        out.add(new Declare(handed, adjoint == null ? Site.number(0.0) : adjoint.expression(),
            null));
        out.add(new Push(new Operand.Read(handed), null));
      } else {
        out.add(new Push(adjoint == null ? Site.number(0.0) : adjoint.expression(), null));
      }
    }
    out.add(new Return(null, null));
    return s.primal.with(parameters, new Block(out));
  }
}
