package ad4j.processor.optimize;

import static ad4j.processor.optimize.AdjointMentions.isAdjoint;
import static ad4j.processor.optimize.AdjointSums.balanced;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.optimize.AdjointRuns.Term;
import ad4j.processor.optimize.AdjointSums.Signed;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The terms of a run that are multiples of one adjoint, collected: {@code qBar * t18 + t18Bar *
 * 12.0}, where {@code t18Bar = qBar * x} is read nowhere else, becomes {@code qBar * (t18 + x *
 * 12.0)}. Apart from {@link RunSums}, which sums the run, because this looks through products,
 * negations and adjoints read once to find each term's adjoint and factors.
 */
final class CommonFactors {
  /**
   * A contribution as {@code ± adjoint × factors}: the formulas the factors need, by position,
   * and the positions of what the product replaces (its own formulas, and the declarations of
   * the adjoints it reads through).
   */
  private record Monomial(Variable adjoint, boolean negated, List<Operand> factors,
      Map<Integer, Instruction> formulas, List<Integer> replaced) {
    Monomial negate() {
      return new Monomial(adjoint, !negated, factors, formulas, replaced);
    }
  }

  /** Per value of this block, whether it reads an adjoint: see {@link #readsAdjoint}. */
  private final Map<Value, Boolean> readsAdjoint = new HashMap<>();
  private final AdjointBlock block;
  private final AdjointMentions facts;

  CommonFactors(AdjointBlock block, AdjointMentions facts) {
    this.block = block;
    this.facts = facts;
  }

  /**
   * The run's terms as signed operands, each counted term times its count, with the terms
   * that are multiples of one adjoint factored: {@code qBar * t18 + t18Bar * 12.0 - t16Bar *
   * 32.0}, where {@code t18Bar = qBar * x} and {@code t16Bar = -qBar} are read nowhere else,
   * becomes {@code qBar * (t18 + x * 12.0 - 32.0)}. That is the statement's local partial
   * derivative (here of {@code q = 18 - 32x + 12x² + ...} in {@code x}) summed before one
   * multiplication by its adjoint, as a hand-written gradient does: the partial reads only
   * values of the forward sweep, so it is computed off the chain that waits for the adjoint,
   * and the adjoints of the statement's subexpressions are no longer computed one by one.
   * A group of one term stays as it was. Positions of formulas that move to the end are put
   * into {@code moved}; those of the factored terms' products and of the subexpressions'
   * adjoints they replace are block.removed.
   */
  List<Signed> factored(List<Term> kept, List<Integer> counts, List<Boolean> whole,
      int end, Variable variable, Map<Integer, Instruction> moved, Site site) {
    Map<Variable, List<Integer>> byAdjoint = new LinkedHashMap<>();
    Map<Integer, Monomial> monomials = new HashMap<>();
    for (int k = 0; k < kept.size(); k++) {
      if (!whole.get(k)) {
        continue;
      }
      Monomial monomial = monomial(kept.get(k).operand(), kept.get(k).position(), end,
          variable);
      if (monomial != null) {
        monomials.put(k, monomial);
        byAdjoint.computeIfAbsent(monomial.adjoint(), a -> new ArrayList<>()).add(k);
      }
    }
    List<Signed> signed = new ArrayList<>();
    Set<Integer> grouped = new HashSet<>();
    for (Map.Entry<Variable, List<Integer>> group : byAdjoint.entrySet()) {
      if (group.getValue().size() < 2) {
        continue;
      }
      Prefixes partials = new Prefixes();
      for (int k : group.getValue()) {
        Monomial monomial = monomials.get(k);
        partials.add(monomial.factors(), counts.get(k),
            kept.get(k).negated() != monomial.negated());
        moved.putAll(monomial.formulas());
        moved.keySet().removeAll(monomial.replaced());
        block.removed.addAll(monomial.replaced());
        grouped.add(k);
      }
      Signed sum = partials.sum(site);
      signed.add(new Signed(site.times(new Operand.Read(group.getKey()), sum.operand()),
          sum.negated()));
    }
    for (int k = 0; k < kept.size(); k++) {
      if (grouped.contains(k)) {
        continue;
      }
      signed.add(new Signed(counted(kept.get(k).operand(), counts.get(k), site),
          kept.get(k).negated()));
    }
    return signed;
  }

  /**
   * The partials of one adjoint's monomials as a tree of their common leading factors, the
   * factor nearest the adjoint first: {@code t31 · 12 x + t31 · (−36 y) + q · d · 4} is summed
   * as {@code t31 · (12 x − 36 y) + q · (d · 4)}, each shared factor multiplied once, as a person
   * writes the product rule. Exact in real arithmetic (distributivity); the monomials of a
   * partial that reads an adjoint shared by several sums ({@code qBar = t33Bar · t31}) have
   * such a factor in common.
   */
  private static final class Prefixes {
    /** The monomials that end here: a count each, and whether it is subtracted. */
    private final List<Signed> ends = new ArrayList<>();
    /** The next factors, by what they compute, in the order first met. */
    private final Map<Object, Operand> factors = new LinkedHashMap<>();
    private final Map<Object, Prefixes> children = new HashMap<>();

    void add(List<Operand> monomial, int count, boolean negated) {
      Prefixes node = this;
      for (Operand factor : monomial) {
        Object key = key(factor);
        node.factors.putIfAbsent(key, factor);
        node = node.children.computeIfAbsent(key, k -> new Prefixes());
      }
      node.ends.add(new Signed(Site.number(count), negated));
    }

    /** This node's sum: its ends' counts and each next factor times its own node's sum. */
    Signed sum(Site site) {
      List<Signed> terms = new ArrayList<>(ends);
      for (Map.Entry<Object, Operand> next : factors.entrySet()) {
        Prefixes child = children.get(next.getKey());
        Signed rest = child.sum(site);
        terms.add(new Signed(rest.operand() instanceof Operand.Constant constant
            && constant.isOne() ? next.getValue()
            : site.times(next.getValue(), rest.operand()), rest.negated()));
      }
      return balanced(terms, 0, terms.size(), site);
    }

    /** Equal for the same value, variable or constant. */
    private static Object key(Operand operand) {
      if (operand instanceof Operand.Constant constant) {
        return List.of(constant.type(), constant.expression().toString());
      }
      return operand;
    }
  }

  /**
   * {@code operand} times {@code count}, a term that occurs {@code count} times; null (a
   * product of no factors) stands for 1, and stays null when counted once.
   */
  private static Operand counted(Operand operand, int count, Site site) {
    if (count == 1) {
      return operand;
    }
    return operand == null ? Site.number(count) : site.times(operand, Site.number(count));
  }

  /**
   * {@code operand}, used at {@code position}, as ± one adjoint times factors that read no
   * adjoint, through products, negations and the declarations of adjoints read only there
   * (each of one such monomial); or null. The adjoint and the factors must be readable at
   * {@code end} still, and the factors' formulas movable there.
   */
  private Monomial monomial(Operand operand, int position, int end, Variable variable) {
    return monomial(operand, position, end, variable, false);
  }

  /**
   * {@link #monomial(Operand, int, int, Variable)}; {@code shared} when {@code operand} is
   * (part of) the declaration of an adjoint that other statements read too: that declaration
   * and the formulas it reads stay where they are, so the monomial moves and replaces nothing
   * and reads them there (they precede {@code end}; the checks that they are still what they
   * were at {@code end} are the same).
   */
  private Monomial monomial(Operand operand, int position, int end, Variable variable,
      boolean shared) {
    if (operand instanceof Operand.Read read && isAdjoint(read.variable())) {
      Variable adjoint = read.variable();
      Integer at = block.declaredAt.get(adjoint);
      if (at != null && at < position && facts.reads(adjoint) >= 1
          && !facts.isStored(adjoint)) {
        Declare declare = (Declare) block.statements.get(at);
        boolean sharedHere = shared || facts.reads(adjoint) > 1;
        Monomial inner = declare.initial() == null ? null
            : monomial(declare.initial(), at, end, variable, sharedHere);
        if (inner != null) {
          if (!sharedHere) {
            inner.replaced().add(at);
          }
          return inner;
        }
      }
      // through a shared declaration, which stays, the root is read once more than the
      // program's count says: one counted as read once might be renamed by AdjointCopies
      if (adjoint == variable || block.writtenBetween(adjoint, position, end)
          || shared && facts.reads(adjoint) < 2) {
        return null;
      }
      return new Monomial(adjoint, false, new ArrayList<>(), new TreeMap<>(),
          new ArrayList<>());
    }
    if (!(operand instanceof Operand.Use use) || !block.definedAt.containsKey(use.value())
        || use.value().origin() != Value.Origin.FORMULA
        || facts.uses(use.value()) != 1) {
      return null;
    }
    int at = block.definedAt.get(use.value());
    Instruction instruction = (Instruction) block.statements.get(at);
    Monomial monomial = null;
    if (instruction.operation().equals(Operation.NEGATE)) {
      Monomial inner = monomial(instruction.arguments().get(0), at, end, variable, shared);
      monomial = inner == null ? null : inner.negate();
    } else if (instruction.operation().equals(Operation.MULTIPLY)
        && instruction.result().type() == NumericType.DOUBLE) {
      for (int side = 0; side < 2 && monomial == null; side++) {
        Operand other = instruction.arguments().get(1 - side);
        Map<Integer, Instruction> formulas = new TreeMap<>();
        if (readsAdjoint(other)
            || !block.collect(other, at, end, variable, formulas)) {
          continue;
        }
        monomial = monomial(instruction.arguments().get(side), at, end, variable, shared);
        if (monomial != null) {
          monomial.factors().add(other);
          if (!shared) {
            monomial.formulas().putAll(formulas);
          }
        }
      }
    }
    if (monomial != null && !shared) {
      monomial.replaced().add(at);
    }
    return monomial;
  }

  /**
   * Whether {@code operand} reads an adjoint, through the instructions of this block (a value
   * from elsewhere counts when it is named after another, as adjoint values are).
   */
  private boolean readsAdjoint(Operand operand) {
    if (operand instanceof Operand.Read read) {
      return isAdjoint(read.variable());
    }
    if (!(operand instanceof Operand.Use use)) {
      return false;
    }
    Integer at = block.definedAt.get(use.value());
    if (at == null) {
      return use.value().origin() == Value.Origin.DERIVED
          || use.value().origin() == Value.Origin.GENERATED;
    }
    // remembered: values shared by several formulas would be visited once per path
    Boolean known = readsAdjoint.get(use.value());
    if (known == null) {
      known = false;
      for (Operand argument : ((Instruction) block.statements.get(at)).arguments()) {
        if (readsAdjoint(argument)) {
          known = true;
          break;
        }
      }
      readsAdjoint.put(use.value(), known);
    }
    return known;
  }
}
