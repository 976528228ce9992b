package ad4j.processor.analysis;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.RuledCallee;
import ad4j.processor.ir.Value;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Partial;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Which values one instruction's derivative reads, per kind of instruction: for an operation
 * with a rule, what the partials the rule builds as IR read; for calls, stores, element reads
 * and clones, what their reverse takes again. Apart from {@link FlowAnalysis}, which asks it
 * for every instruction, because this is the per-instruction rule (it builds partials with the
 * rule table), while {@code FlowAnalysis} walks the blocks.
 */
final class DerivativeReads {
  private DerivativeReads() {}

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
  static List<Value> of(Instruction instruction, Set<Integer> withPartial) {
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
}
