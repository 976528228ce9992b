package ad4j.processor.derive;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Value;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Partial;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalDouble;

/** What the derivative transforms share about applying a rule to one instruction. */
public final class Sites {
  private Sites() {}

  /**
   * The site of {@code instruction}, its arguments as {@code arguments} (the operands as the
   * derivative program refers to them: the same, or values taken back from the tape).
   */
  public static Site of(Instruction instruction, List<Operand> arguments, Operand result,
      IrBuilder builder, SourceLine line, Site.Reuse reuse) {
    List<Site.Argument> siteArguments = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      Operand original = instruction.arguments().get(i);
      OptionalDouble known = original instanceof Operand.Constant constant
          ? constant.knownValue() : OptionalDouble.empty();
      siteArguments.add(new Site.Argument(arguments.get(i), known));
    }
    MathOwner owner = instruction.operation().owner() == null
        ? MathOwner.MATH : instruction.operation().owner();
    return new Site(siteArguments, result, owner, builder, line, reuse);
  }

  /** As the other {@code of}, with the instruction's own arguments, result and line. */
  public static Site of(Instruction instruction, IrBuilder builder, Site.Reuse reuse) {
    return of(instruction, instruction.arguments(), new Operand.Use(instruction.result()),
        builder, instruction.line(), reuse);
  }

  /** The rule of {@code instruction}'s operation; every active instruction has one. */
  public static DerivativeRules.Rule ruleFor(Instruction instruction) {
    return DerivativeRules.forOperation(instruction.operation()).orElseThrow(
        () -> new IllegalStateException("no derivative rule for " + instruction.operation()));
  }

  /** The divisor all of several partials share, if they do: divide once, then multiply. */
  public static Operand sharedDivisor(Collection<Partial> partials, Site site) {
    if (partials.size() < 2) {
      return null;
    }
    Operand shared = null;
    for (Partial partial : partials) {
      if (partial.divisor() == null || partial.gate() != null) {
        return null;
      }
      if (shared != null && !site.same(shared, partial.divisor())) {
        return null;
      }
      shared = partial.divisor();
    }
    return shared;
  }

  /**
   * The instructions defining {@code target} as {@code root}: the formula's instructions, the
   * last one defining {@code target} itself, or a copy when {@code root} is no formula.
   */
  public static List<Instruction> define(Value target, Operand root, Site site, SourceLine line) {
    List<Instruction> out = new ArrayList<>(site.instructionsFor(List.of(root)));
    if (site.isFormula(root)) {
      Instruction last = out.remove(out.size() - 1);
      out.add(new Instruction(target, last.operation(), last.arguments(), line));
    } else {
      out.add(new Instruction(target, Operation.COPY, List.of(root), line));
    }
    return out;
  }
}
