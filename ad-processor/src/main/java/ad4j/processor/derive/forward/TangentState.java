package ad4j.processor.derive.forward;

import ad4j.processor.analysis.Ids;
import ad4j.processor.derive.ForwardValues;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.HashMap;
import java.util.Map;

/**
 * The state of one tangent transform that its classes share: the builder of new values, the
 * tangent of each value, variable and array so far, and the math calls straight-line code has
 * computed. One object per program, made by {@link Tangent}.
 */
final class TangentState {
  final IrBuilder builder;
  final Map<Value, Operand> tangents = new HashMap<>();
  final Map<Variable, Variable> variableTangents = new HashMap<>();
  final Map<Value, Value> arrayTangents = new HashMap<>();

  /**
   * The arrays of partials that {@code @DerivativeOf} rules gave where their targets are
   * called (and their copies taken back from the tape), each with a tangent array in
   * {@link #arrayTangents}: the reverse sweep reads them.
   */
  final java.util.Set<Value> arrayPartials = new java.util.HashSet<>();

  /** Math calls computed so far in straight-line code, which formulas may read again. */
  final ForwardValues computed = new ForwardValues();
  final boolean straightLine;
  /** The tangents known to be zero, which the rules leave out. */
  final ZeroTangents zeros;

  // the classes of one job each, sharing this state
  final TangentWalk walk = new TangentWalk(this);
  final InstructionTangents instructions = new InstructionTangents(this);
  final CallTangents calls = new CallTangents(this);
  final ReverseSweepTangents sweepHelpers = new ReverseSweepTangents(this);

  TangentState(Function function) {
    this.builder = new IrBuilder(Ids.next(function));
    this.zeros = new ZeroTangents(function.body());
    // without branches and loops, a value computed earlier is there wherever it is read
    this.straightLine = function.body().statements().stream()
        .noneMatch(s -> s instanceof If || s instanceof Loop);
  }
}
