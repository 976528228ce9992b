package ad4j.processor.derive.reverse;

import ad4j.processor.analysis.LiveAdjoints;
import ad4j.processor.derive.FlatLayout;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole reverse-mode program of a method: its parameters (the seed, the output array),
 * the declarations both sweeps share, the forward sweep, the reverse sweep and the parameters'
 * adjoints written where {@link AdjointsOut} says. Apart from the sweeps because it only
 * composes them: what each sweep writes is decided in its own class.
 */
final class ReverseProgram {
  private final SweepState s;

  ReverseProgram(SweepState s) {
    this.s = s;
  }

  /**
   * The pieces of a reverse-mode program: its parameters; the declarations both sweeps share;
   * the forward sweep; the reverse sweep with the parameters' adjoints written out (null when
   * the method never returns: nothing may follow the forward sweep); the value returned.
   */
  record Parts(List<Value> parameters, List<Statement> preamble,
      List<Statement> forward, List<Statement> reverse, Operand returned) {}

  Function transform(AdjointsOut adjointsOut) {
    Parts parts = parts(adjointsOut);
    List<Statement> out = new ArrayList<>(parts.preamble());
    out.addAll(parts.forward());
    if (parts.reverse() != null) {
      out.addAll(parts.reverse());
      out.add(new Return(parts.returned(), null));
    }
    return s.primal.with(parts.parameters(), new Block(out));
  }

  Parts parts(AdjointsOut adjointsOut) {
    s.adjointsOut = adjointsOut;
    s.live = new LiveAdjoints(s.primal, s.flow, List.of());
    List<Value> parameters = new ArrayList<>(s.primal.parameters());
    s.seed = adjointsOut.seed(s, parameters);
    Value array = adjointsOut.outputArray(s, parameters);
    s.outputArray = array;

    Block body = s.primal.body();
    List<Statement> preamble = new ArrayList<>();
    if (!s.straightLine) {
      NumericType resultType = s.primal.valueType();
      s.result = s.builder.generatedVariable("result", resultType);
      preamble.add(new Declare(s.result, Operand.Constant.zero(resultType), null));
      s.counters.declareTopLevelCounters(body, preamble);
      s.arrays.declareLongestLengths(body, preamble);
    }
    List<Statement> forward = new ArrayList<>();
    boolean anything = hasStatements(body);
    if (anything) {
      forward.add(new Note(Adjoint.FORWARD_NOTE, null));
    }
    forward.addAll(s.forwardWalk.forward(body).statements());
    if (!ForwardWalk.forwardCompletes(body)) {
      // the method only throws or loops forever: nothing may follow the forward sweep
      return new Parts(parameters, preamble, s.calls.recordingCalls(forward), null, null);
    }
    List<Statement> out = new ArrayList<>();
    if (isDifferentiated()) {
      if (anything) {
        out.add(new Note(Adjoint.REVERSE_NOTE, null));
      }
      s.arrays.allocateLoopAdjointArrays(out);
      out.addAll(s.reverseWalk.reverse(body));
    }
    Map<Value, Operand> parameterAdjoints = new HashMap<>();
    for (Value parameter : s.primal.differentiableParameters()) {
      Accumulation.AdjointValue adjoint = s.adjoints.get(parameter);
      if (adjoint != null) {
        parameterAdjoints.put(parameter, adjoint.expression());
      }
    }
    for (Variable variable : s.flow.parameterVariables()) {
      if (variable.isActive()) {
        parameterAdjoints.put(variable.parameter(),
            new Operand.Read(s.variableAdjoints.get(variable)));
      }
    }
    List<Value> differentiable = s.primal.differentiableParameters();
    // arrays' adjoints are in the output array already; the doubles' slots follow the layout
    FlatLayout layout = s.primal.hasActiveArrays() && adjointsOut.laysOutSlots()
        ? new FlatLayout(s.primal, Value::isActive, false, s.builder, out) : null;
    for (int i = 0; i < differentiable.size(); i++) {
      Value parameter = differentiable.get(i);
      if (parameter.isActiveArray()) {
        continue;
      }
      adjointsOut.write(s, parameter, i, parameterAdjoints.get(parameter), layout, array, out);
    }
    return new Parts(parameters, preamble, s.calls.recordingCalls(forward), out,
        s.straightLine ? finalReturn().value() : new Operand.Read(s.result));
  }

  /** Whether any derivative reaches a parameter at all. */
  private boolean isDifferentiated() {
    return !s.straightLine || finalReturn().value().isActive()
        || finalReturn().value() instanceof Operand.Use use && use.value().isActiveArray();
  }

  Return finalReturn() {
    List<Statement> statements = s.primal.body().statements();
    return (Return) statements.get(statements.size() - 1);
  }

  private boolean hasStatements(Block block) {
    for (Statement statement : block.statements()) {
      if (!(statement instanceof Return)
          && (!(statement instanceof Instruction instruction) || s.flow.isLive(instruction))) {
        return true;
      }
    }
    return false;
  }
}
