package ad4j.processor.derive.reverse;

import ad4j.processor.derive.Sites;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.RuledCallee;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Site;
import java.util.List;

/**
 * The reverse of a call of a method with {@code @DerivativeOf} rules, for what its rules give
 * as arrays: the adjoints its array arguments take, and a vector target's arguments' adjoints
 * from its result's. Apart from {@link InstructionAdjoints} because the rules' arrays go
 * through the runtime's {@code Slots} helpers, not the rule table's partials.
 */
final class RuledCallAdjoints {
  private final SweepState s;

  RuledCallAdjoints(SweepState s) {
    this.s = s;
  }

  /**
   * The reverse of a call with {@code @DerivativeOf} rules for its array arguments: per array
   * that carries derivatives, {@code Slots.addScaled(partial, a, vBar, target, start)} adds
   * {@code vBar * partial[k]} at the slot ArraySlots gave its first element: into the output
   * array for a parameter or a row of one, into the array's own adjoint array for a local
   * array. The rule's array is the only one allocated, by the user's code.
   */
  void reverseArrayArguments(Instruction call, List<Operand> arguments,
      Operand adjoint, Site site, List<Statement> out) {
    RuledCallee ruled = call.operation().ruled();
    int slot = ruled.argumentCount();
    for (int i = 0; i < ruled.parameterTypes().size(); i++) {
      if (!(call.arguments().get(i) instanceof Operand.Use use)
          || !use.value().isActiveArray()) {
        continue;
      }
      Operand start = arguments.get(slot++);
      Operand partial = DerivativeRules.arrayPartial(ruled, i, site).orElseThrow(
          () -> new IllegalStateException("no rule for the array argument of " + call));
      Value target = s.arrays.adjointTarget(use.value());
      out.addAll(site.instructionsFor(List.of(partial)));
      Value added = s.builder.generated("added", NumericType.INT, false);
      out.add(new Instruction(added, Operation.slotsCall(SlotsCall.ADD_SCALED, 5), List.of(partial,
          arguments.get(i), adjoint, new Operand.Use(target), start), site.line()));
    }
  }

  /**
   * The reverse of {@code r = v(args)}, a vector target with {@code @DerivativeOf} rules, with
   * the arguments as the reverse sweep has them: with {@code rBar}, the adjoints of r's elements,
   * a {@code double} argument gets {@code Slots.dot(partial, rBar)}, an array argument {@code
   * Slots.addTransposed(partial, a, rBar, target, start)} at its slots.
   */
  void reverseVectorCall(Instruction call, List<Operand> arguments,
      List<Statement> out) {
    RuledCallee ruled = call.operation().ruled();
    Value resultAdjoint = s.adjointArrays.get(call.result());
    SourceLine line = call.line().adjoint();
    Site site = Sites.of(call, arguments, new Operand.Use(call.result()), s.builder, line,
        Site.Reuse.NONE);
    // made inside a loop, the result's adjoints are in an array as long as the longest result
    boolean within = s.longestLengths.containsKey(call.result());
    Operand seeds = new Operand.Use(resultAdjoint);
    int slot = ruled.argumentCount();
    for (int i = 0; i < ruled.parameterTypes().size(); i++) {
      // the adjoints go to the call's own arguments; the rules take them as restored
      Operand argument = call.arguments().get(i);
      if (argument instanceof Operand.Use use && use.isActive() && s.live.isLive(use.value())) {
        Operand partial = DerivativeRules.vectorPartial(ruled, i, site).orElseThrow();
        // active, as the adjoint it adds to: the second-order code differentiates it again
        // (Tangent), and a formula over two arrays would be taken for a constant
        out.addAll(site.instructionsFor(List.of(partial)));
        Value dot = s.builder.formula(NumericType.DOUBLE, true);
        out.add(new Instruction(dot,
            Operation.slotsCall(within ? SlotsCall.DOT_WITHIN : SlotsCall.DOT, 2),
            List.of(partial, seeds), line));
        s.sums.accumulate(use.value(), new Operand.Use(dot), false, false, site, out);
      } else if (argument instanceof Operand.Use use && use.value().isActiveArray()) {
        Operand start = arguments.get(slot++);
        Operand partial = DerivativeRules.vectorPartial(ruled, i, site).orElseThrow();
        Value target = s.arrays.adjointTarget(use.value());
        out.addAll(site.instructionsFor(List.of(partial)));
        Value added = s.builder.generated("added", NumericType.INT, false);
        out.add(new Instruction(added,
            Operation.slotsCall(within ? SlotsCall.ADD_TRANSPOSED_WITHIN : SlotsCall.ADD_TRANSPOSED, 5),
            List.of(partial, arguments.get(i), seeds, new Operand.Use(target), start), line));
      }
    }
  }
}
