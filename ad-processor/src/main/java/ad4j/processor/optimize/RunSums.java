package ad4j.processor.optimize;

import static ad4j.processor.optimize.AdjointSums.balanced;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.optimize.AdjointRuns.Run;
import ad4j.processor.optimize.AdjointRuns.Term;
import ad4j.processor.optimize.AdjointSums.Signed;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A run of additions into one adjoint ({@link AdjointRuns}) replaced by one balanced sum at its
 * end: the terms' formulas move there, equal terms of the same sign become one term times their
 * count, and the multiples of one adjoint are factored ({@link CommonFactors}). Apart from the
 * finding of runs because this is the rewrite of one run.
 */
final class RunSums {
  private final AdjointBlock block;
  private final IrBuilder builder;
  private final CommonFactors factors;

  RunSums(AdjointBlock block, AdjointMentions facts, IrBuilder builder) {
    this.block = block;
    this.builder = builder;
    this.factors = new CommonFactors(block, facts);
  }

  /** Replaces a run by one sum at its end. */
  void sum(Run run) {
    int end = run.end();
    SourceLine line = block.statements.get(end) instanceof Store store ? store.line()
        : ((Declare) block.statements.get(end)).line();
    // the formulas that move to the end, by position; and per term whether all of it moves
    Map<Integer, Instruction> moved = new TreeMap<>();
    List<Map<Integer, Instruction>> parts = new ArrayList<>();
    List<Boolean> whole = new ArrayList<>();
    for (Term term : run.terms()) {
      Map<Integer, Instruction> part = new TreeMap<>();
      whole.add(block.collect(term.operand(), term.position(), end, run.variable(), part));
      parts.add(part);
    }
    // equal contributions of the same sign: one term times their count
    List<Term> kept = new ArrayList<>();
    List<Boolean> keptWhole = new ArrayList<>();
    List<Integer> counts = new ArrayList<>();
    Map<List<Object>, Integer> keptAt = new HashMap<>();
    for (int k = 0; k < run.terms().size(); k++) {
      Term term = run.terms().get(k);
      List<Object> key = whole.get(k) ? List.of(term.negated(), key(term.operand())) : null;
      Integer match = key != null ? keptAt.get(key) : null;
      if (match != null) {
        counts.set(match, counts.get(match) + 1);
        block.removed.addAll(parts.get(k).keySet()); // its formulas are not needed
      } else {
        if (key != null) {
          keptAt.put(key, kept.size());
        }
        kept.add(term);
        keptWhole.add(whole.get(k));
        counts.add(1);
        moved.putAll(parts.get(k));
      }
    }
    Site site = Site.formulas(builder, line);
    List<Signed> signed = factors.factored(kept, counts, keptWhole, end, run.variable(), moved,
        site);
    Signed total = balanced(signed, 0, signed.size(), site);
    Operand value;
    if (run.fromZero()) {
      value = total.negated() ? site.negate(total.operand()) : total.operand();
    } else {
      Operand current = new Operand.Read(run.variable());
      value = total.negated() ? site.minus(current, total.operand())
          : site.plus(current, total.operand());
    }
    List<Statement> replacement = new ArrayList<>(moved.values());
    replacement.addAll(site.instructionsFor(List.of(value)));
    replacement.add(run.declared() ? new Declare(run.variable(), value, line)
        : new Store(run.variable(), value, line));
    block.removed.addAll(moved.keySet());
    if (run.zeroedAt() >= 0) {
      block.removed.add(run.zeroedAt()); // the sum is the whole value now
    }
    for (Term term : run.terms()) {
      block.removed.add(term.position());
      if (block.statements.get(term.position()) instanceof Store) {
        block.removed.add(term.position() - 1); // its sum
      }
    }
    block.replaced.put(end, replacement);
  }

  /**
   * What an operand computes, equal for operands that compute the same: the same value,
   * variable or constant, or formulas of this block with equal operations on operands that
   * compute the same.
   */
  private Object key(Operand operand) {
    if (operand instanceof Operand.Constant constant) {
      return List.of(constant.type(), constant.expression().toString());
    }
    if (operand instanceof Operand.Read read) {
      return read.variable();
    }
    Value value = ((Operand.Use) operand).value();
    Integer at = block.definedAt.get(value);
    if (at == null || value.origin() != Value.Origin.FORMULA) {
      return value;
    }
    Instruction instruction = (Instruction) block.statements.get(at);
    List<Object> key = new ArrayList<>();
    key.add(instruction.operation());
    for (Operand argument : instruction.arguments()) {
      key.add(key(argument));
    }
    return key;
  }
}
