package ad4j.processor.derive.forward;

import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.rules.Site;
import java.util.List;

/**
 * The tangents of the runtime helpers a reverse sweep calls ({@code Slots.addInto},
 * {@code addScaled}, {@code dot}, {@code clear}, {@code seedWithin}), for forward over reverse:
 * each is followed by the same helper on the adjoints' tangents. Apart because only a
 * reverse-mode program holds them.
 */
final class ReverseSweepTangents {
  private final TangentState s;

  ReverseSweepTangents(TangentState s) {
    this.s = s;
  }

  /**
   * Whether {@code instruction} makes an adjoint array of a reverse-mode program
   * ({@code aBar = new double[n]}): a {@code double[]} a transform made, not the user.
   */
  static boolean isAdjointArray(Instruction instruction) {
    Value result = instruction.result();
    return instruction.operation().form() == Operation.Form.NEW_ARRAY
        && result.type() == NumericType.DOUBLE_ARRAY
        && (result.origin() == Value.Origin.DERIVED || result.origin() == Value.Origin.GENERATED);
  }

  /**
   * {@code Slots.addInto(cBar, target, start)}, which adds adjoints into {@code target} (the
   * reverse of a {@code clone()}), is followed by the same for their tangents.
   */
  void addIntoTangent(Instruction addInto, List<Statement> out) {
    List<Operand> arguments = addInto.arguments();
    Value from = s.arrayTangents.get(((Operand.Use) arguments.get(0)).value());
    Value into = s.arrayTangents.get(((Operand.Use) arguments.get(1)).value());
    if (from == null || into == null) {
      throw new IllegalArgumentException("no tangents for the arrays of " + addInto.result());
    }
    Value added = s.builder.derived(addInto.result(), Derivative.TANGENT, NumericType.INT);
    out.add(new Instruction(added, addInto.operation(), List.of(new Operand.Use(from),
        new Operand.Use(into), arguments.get(2)), addInto.line()));
  }

  /**
   * {@code Slots.seedWithin(seed, rBar)} (or {@code seed}), which starts a vector function's
   * reverse sweep by adding the seed into the adjoints of its result, is followed by the same
   * for their tangents when the seed carries a derivative (the pullback that callers'
   * second-order code differentiates); a seed that carries none adds nothing to them.
   */
  void seedTangent(Instruction seeding, List<Statement> out) {
    List<Operand> arguments = seeding.arguments();
    Value seedDot = arguments.get(0) instanceof Operand.Use use
        ? s.arrayTangents.get(use.value()) : null;
    if (seedDot == null) {
      return;
    }
    Value into = s.arrayTangents.get(((Operand.Use) arguments.get(1)).value());
    if (into == null) {
      throw new IllegalArgumentException("no tangents for the adjoints of " + seeding);
    }
    Value seeded = s.builder.derived(seeding.result(), Derivative.TANGENT, NumericType.INT);
    out.add(new Instruction(seeded, seeding.operation(), List.of(new Operand.Use(seedDot),
        new Operand.Use(into)), seeding.line()));
  }

  /**
   * The reverse of a call with a {@code @DerivativeOf} rule for an array argument adds
   * {@code seed * partial[k]} at the argument's slots ({@code Slots.addScaled}); its tangent
   * adds {@code seedDot * partial[k] + seed * partialDot[k]} at the same slots of the adjoints'
   * tangents. The rule is {@code @Differentiable} at order 2 (a vector function), so
   * {@code partialDot} is its tangent member's J·v with the arguments' tangents.
   */
  void addScaledTangent(Instruction addScaled, List<Statement> out) {
    List<Operand> arguments = addScaled.arguments();
    Value into = s.arrayTangents.get(((Operand.Use) arguments.get(3)).value());
    Value partial = arguments.get(0) instanceof Operand.Use use
        && s.arrayPartials.contains(use.value()) ? use.value() : null;
    if (into == null || partial == null) {
      throw new IllegalArgumentException("no tangents for the partials of " + addScaled);
    }
    SourceLine line = addScaled.line();
    if (s.instructions.isActive(arguments.get(2))) {
      Value added = s.builder.derived(addScaled.result(), Derivative.TANGENT, NumericType.INT);
      out.add(new Instruction(added, addScaled.operation(), List.of(arguments.get(0),
          arguments.get(1), s.instructions.tangentOf(arguments.get(2)), new Operand.Use(into),
          arguments.get(4)), line));
    }
    // the rule's J·v, computed where the partials were
    Value partialDot = s.arrayTangents.get(partial);
    Value added = s.builder.derived(addScaled.result(), Derivative.TANGENT, NumericType.INT);
    out.add(new Instruction(added, addScaled.operation(), List.of(new Operand.Use(partialDot),
        arguments.get(1), arguments.get(2), new Operand.Use(into), arguments.get(4)), line));
  }

  /**
   * Whether {@code instruction} is the reverse of a vector target's {@code @DerivativeOf} rule
   * for a {@code double} argument: {@code Slots.dot(partial, rBar)} (or {@code dotWithin}),
   * the rule's partials (a vector) against the adjoints of the target's result.
   */
  boolean isRuledDot(Instruction instruction) {
    Operation operation = instruction.operation();
    return operation.form() == Operation.Form.SLOTS_CALL
        && (operation.isSlotsCall(SlotsCall.DOT) || operation.isSlotsCall(SlotsCall.DOT_WITHIN))
        && instruction.arguments().get(0) instanceof Operand.Use partial
        && s.arrayPartials.contains(partial.value());
  }

  /**
   * The tangent of {@code Slots.dot(partial, rBar)}: {@code Slots.dot(partialDot, rBar) +
   * Slots.dot(partial, rBarDot)}. The rule is {@code @Differentiable} at order 2 (a vector
   * function), so {@code partialDot} is its tangent member's J·v with the arguments' tangents,
   * as for {@link #addScaledTangent}; {@code rBarDot} holds the tangents of the adjoints.
   */
  void ruledDotTangent(Instruction dot, List<Statement> out) {
    Value partial = ((Operand.Use) dot.arguments().get(0)).value();
    Operand seeds = dot.arguments().get(1);
    Value seedsDot = seeds instanceof Operand.Use use ? s.arrayTangents.get(use.value()) : null;
    if (seedsDot == null) {
      throw new IllegalArgumentException("no tangents for the adjoints of " + dot);
    }
    Value partialDot = s.arrayTangents.get(partial);
    Site site = Site.formulas(s.builder, dot.line());
    Operand tangent = site.plus(
        site.apply(dot.operation(), NumericType.DOUBLE, new Operand.Use(partialDot), seeds),
        site.apply(dot.operation(), NumericType.DOUBLE, dot.arguments().get(0),
            new Operand.Use(seedsDot)));
    Value value = s.builder.derived(dot.result(), Derivative.TANGENT, NumericType.DOUBLE);
    out.addAll(site.instructionsFor(List.of(tangent)));
    out.add(new Instruction(value, Operation.COPY, List.of(tangent), dot.line()));
    s.tangents.put(dot.result(), new Operand.Use(value));
  }
}
