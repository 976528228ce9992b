package ad4j.processor.derive.reverse;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.List;

/**
 * The adjoints themselves: a value's adjoint is a variable summed into or an adjoint passed on
 * unchanged and shared; a variable's adjoint is a variable. Apart because every other class adds
 * into adjoints the same way.
 */
final class Accumulation {
  private final SweepState s;

  Accumulation(SweepState s) {
    this.s = s;
  }

  /** An adjoint: a variable being summed into, or an operand passed on unchanged. */
  record AdjointValue(Operand shared, Variable variable) {
    Operand expression() {
      return variable != null ? new Operand.Read(variable) : shared;
    }
  }

  void declareVariableAdjoint(Variable variable, List<Statement> out) {
    if (variable.isActive() && !s.variableAdjoints.containsKey(variable)) {
      Variable adjoint = s.builder.derived(variable, Derivative.ADJOINT, NumericType.DOUBLE, null);
      out.add(new Declare(adjoint, Site.number(0.0), null));
      s.variableAdjoints.put(variable, adjoint);
    }
  }

  /**
   * Adds a contribution to a value's adjoint. {@code mayShare}: the contribution is another
   * adjoint passed on unchanged, which a value with no adjoint yet may share instead of
   * copying (its source is final by now).
   */
  void accumulate(Value target, Operand contribution, boolean negated, boolean mayShare,
      Site site, List<Statement> out) {
    if (s.sumReadsAfterFusedLoops.contains(target)) {
      return;
    }
    SourceLine line = site.line();
    AdjointValue existing = s.adjoints.get(target);
    if (existing != null && existing.variable() != null) {
      Operand.Read current = new Operand.Read(existing.variable());
      Operand sum = negated ? site.minus(current, contribution) : site.plus(current, contribution);
      out.addAll(site.instructionsFor(List.of(sum)));
      out.add(new Store(existing.variable(), sum, line));
      return;
    }
    if (existing == null && mayShare && !negated && s.straightLine) {
      s.adjoints.put(target, new AdjointValue(contribution, null));
      return;
    }
    Variable adjoint = s.builder.derivedVariable(target, Derivative.ADJOINT, NumericType.DOUBLE);
    Operand initial;
    if (existing == null) {
      initial = negated ? site.negate(contribution) : contribution;
    } else {
      initial = negated ? site.minus(existing.expression(), contribution)
          : site.plus(existing.expression(), contribution);
    }
    out.addAll(site.instructionsFor(List.of(initial)));
    out.add(new Declare(adjoint, initial, line));
    s.adjoints.put(target, new AdjointValue(null, adjoint));
  }
}
