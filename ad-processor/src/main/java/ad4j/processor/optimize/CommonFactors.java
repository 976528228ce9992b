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
import java.math.BigDecimal;
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

  /**
   * The most adjoints a sum multiplied by a factor they all have may read. A product is one
   * value: {@link SumSpreading} cannot add its terms in groups, one per part of a method cut
   * into parts, and every term is live until the end. Beale's {@code yBar} has three; a long
   * loop body's sum of one contribution per statement, each times {@code x}, would hold 150.
   */
  private static final int MOST_TERMS_WITH_A_COMMON_FACTOR = 8;

  /** Per value of this block, whether it reads an adjoint: see {@link #readsAdjoint}. */
  private final Map<Value, Boolean> readsAdjoint = new HashMap<>();
  private final AdjointBlock block;
  private final AdjointMentions facts;
  private final LikeTerms likeTerms;

  CommonFactors(AdjointBlock block, AdjointMentions facts) {
    this.block = block;
    this.facts = facts;
    this.likeTerms = new LikeTerms(block);
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
   * Like terms of a partial are collected first ({@link LikeTerms}: {@code t18 + x * 12.0},
   * where {@code t18 = 12 * x}, is {@code x * 24.0}). A term that is a sum of monomials
   * ({@link #monomials}) is factored where one of them shares its adjoint with another
   * monomial; a term of one monomial that shares its adjoint with none stays as it was.
   * Positions of formulas that move to the end are put into {@code moved}; those of the
   * factored terms' products and of the subexpressions' adjoints they replace are
   * block.removed.
   */
  List<Signed> factored(List<Term> kept, List<Integer> counts, List<Boolean> whole,
      int end, Variable variable, Map<Integer, Instruction> moved, Site site) {
    // per adjoint, its monomials: {term, index among the term's monomials}
    Map<Variable, List<int[]>> byAdjoint = new LinkedHashMap<>();
    Map<Integer, List<Monomial>> monomials = new HashMap<>();
    for (int k = 0; k < kept.size(); k++) {
      if (!whole.get(k)) {
        continue;
      }
      List<Monomial> sum = monomials(kept.get(k).operand(), kept.get(k).position(), end,
          variable, counts.get(k));
      if (sum != null) {
        monomials.put(k, sum);
        for (int i = 0; i < sum.size(); i++) {
          byAdjoint.computeIfAbsent(sum.get(i).adjoint(), a -> new ArrayList<>())
              .add(new int[] {k, i});
        }
      }
    }
    // a term is factored where one of its monomials shares its adjoint with another; then all
    // of its monomials are (a group that holds one of them is factored, even of one)
    Set<Integer> grouped = new HashSet<>();
    for (List<int[]> group : byAdjoint.values()) {
      if (group.size() > 1) {
        group.forEach(member -> grouped.add(member[0]));
      }
    }
    // where every monomial of every term has a factor in common, all are factored, so that
    // the sum multiplies by it once (below); only terms of one monomial join the factored
    // ones, as a term that is a sum is expanded only where its monomials meet others
    if (monomials.size() == kept.size() && byAdjoint.size() > 1
        && byAdjoint.size() <= MOST_TERMS_WITH_A_COMMON_FACTOR
        && monomials.keySet().stream()
            .allMatch(k -> grouped.contains(k) || monomials.get(k).size() == 1)) {
      List<List<Operand>> products = new ArrayList<>();
      monomials.values().forEach(sum -> sum.forEach(m -> products.add(m.factors())));
      if (!commonFactors(products).isEmpty()) {
        grouped.addAll(monomials.keySet());
      }
    }
    // per factored adjoint, the terms of its partial, like terms collected
    Map<Variable, List<LikeTerms.Term>> partials = new LinkedHashMap<>();
    for (Map.Entry<Variable, List<int[]>> group : byAdjoint.entrySet()) {
      if (!grouped.contains(group.getValue().get(0)[0])) {
        continue;
      }
      List<LikeTerms.Monomial> partial = new ArrayList<>();
      for (int[] member : group.getValue()) {
        int k = member[0];
        Monomial monomial = monomials.get(k).get(member[1]);
        partial.add(new LikeTerms.Monomial(monomial.factors(), counts.get(k),
            kept.get(k).negated() != monomial.negated()));
      }
      partials.put(group.getKey(), likeTerms.collected(partial));
    }
    List<Operand> common = grouped.size() == kept.size() && partials.size() > 1
        && partials.size() <= MOST_TERMS_WITH_A_COMMON_FACTOR
        ? commonFactors(partials.values().stream().flatMap(List::stream)
            .map(LikeTerms.Term::factors).toList())
        : List.of();
    List<Signed> signed = new ArrayList<>();
    for (Map.Entry<Variable, List<LikeTerms.Term>> partial : partials.entrySet()) {
      Prefixes prefixes = new Prefixes();
      for (LikeTerms.Term term : partial.getValue()) {
        prefixes.add(without(term.factors(), common), term.coefficient());
      }
      Signed sum = prefixes.sum(site);
      Operand adjoint = new Operand.Read(partial.getKey());
      // a group of one monomial of an expanded sum may be the adjoint alone
      signed.add(new Signed(sum.operand() instanceof Operand.Constant constant
          && constant.isOne() ? adjoint : site.times(adjoint, sum.operand()), sum.negated()));
    }
    if (!common.isEmpty()) {
      // x · (aBar + bBar · y · 2 + cBar · y2 · 3): one multiplication by what every term has
      Signed sum = balanced(signed, 0, signed.size(), site);
      Operand product = common.get(0);
      for (int i = 1; i < common.size(); i++) {
        product = site.times(product, common.get(i));
      }
      signed = new ArrayList<>(List.of(new Signed(site.times(product, sum.operand()),
          sum.negated())));
    }
    for (int k : grouped) {
      monomials.get(k).forEach(monomial -> moved.putAll(monomial.formulas()));
    }
    for (int k : grouped) {
      for (Monomial monomial : monomials.get(k)) {
        moved.keySet().removeAll(monomial.replaced());
        block.removed.addAll(monomial.replaced());
      }
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
    /** The monomials that end here: a coefficient each, and whether it is subtracted. */
    private final List<Signed> ends = new ArrayList<>();
    /** The next factors, by what they compute, in the order first met. */
    private final Map<Object, Operand> factors = new LinkedHashMap<>();
    private final Map<Object, Prefixes> children = new HashMap<>();

    void add(List<Operand> monomial, BigDecimal coefficient) {
      Prefixes node = this;
      for (Operand factor : monomial) {
        Object key = key(factor);
        node.factors.putIfAbsent(key, factor);
        node = node.children.computeIfAbsent(key, k -> new Prefixes());
      }
      node.ends.add(new Signed(Site.number(coefficient.abs().doubleValue()),
          coefficient.signum() < 0));
    }

    /** This node's sum: its ends' coefficients and each next factor times its own node's sum. */
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
   * The factors, other than constants, that every one of {@code products} has (as often as the
   * product that has each least often), in the order of the first: in Beale's {@code yBar
   * = cBar · x · y2 · 3 + bBar · x · y · 2 + aBar · x}, {@code x}. The sum then multiplies by
   * them once, where each term did: a hand-written gradient's {@code 2x (a + 2by + 3cy²)}.
   */
  private static List<Operand> commonFactors(List<List<Operand>> products) {
    Map<Object, Integer> common = null;
    Map<Object, Operand> byKey = new LinkedHashMap<>();
    for (List<Operand> product : products) {
      Map<Object, Integer> counted = new LinkedHashMap<>();
      for (Operand factor : product) {
        if (!(factor instanceof Operand.Constant)) {
          counted.merge(Prefixes.key(factor), 1, Integer::sum);
          byKey.putIfAbsent(Prefixes.key(factor), factor);
        }
      }
      if (common == null) {
        common = counted;
      } else {
        common.keySet().retainAll(counted.keySet());
        common.replaceAll((key, times) -> Math.min(times, counted.get(key)));
      }
    }
    List<Operand> factors = new ArrayList<>();
    if (common != null) {
      common.forEach((key, times) -> {
        for (int i = 0; i < times; i++) {
          factors.add(byKey.get(key));
        }
      });
    }
    return factors;
  }

  /** {@code factors} with one occurrence of each of {@code taken} taken out. */
  private static List<Operand> without(List<Operand> factors, List<Operand> taken) {
    List<Operand> rest = new ArrayList<>(factors);
    for (Operand factor : taken) {
      Object key = Prefixes.key(factor);
      for (int i = 0; i < rest.size(); i++) {
        if (Prefixes.key(rest.get(i)).equals(key)) {
          rest.remove(i);
          break;
        }
      }
    }
    return rest;
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
   * {@code operand}, used at {@code position}, as a sum of monomials, each ± one adjoint times
   * factors that read no adjoint, through products, negations, the declarations of adjoints
   * read only there, and sums in those declarations ({@code y2Bar = bBar * x + y3Bar * y}, read
   * once, as {@code y2Bar * y}: the two monomials {@code bBar · x · y} and {@code y3Bar · y ·
   * y}, so that the like terms of {@code y3Bar} can meet); or null. The adjoints and the
   * factors must be readable at {@code end} still, and the factors' formulas movable there.
   */
  private List<Monomial> monomials(Operand operand, int position, int end, Variable variable,
      int count) {
    return monomials(operand, position, end, variable, false, count);
  }

  /**
   * {@link #monomials(Operand, int, int, Variable, int)}; {@code copies}, the number of equal
   * terms this one stands for ({@link RunSums}), which read what it reads as often and go
   * away with it, until a declaration is passed; {@code shared} when {@code operand} is
   * (part of) the declaration of an adjoint that other statements read too: that declaration
   * and the formulas it reads stay where they are, so the monomial moves and replaces nothing
   * and reads them there (they precede {@code end}; the checks that they are still what they
   * were at {@code end} are the same). Such a declaration is a single monomial: its sum's
   * terms, formulas that stay, could not be read again.
   */
  private List<Monomial> monomials(Operand operand, int position, int end, Variable variable,
      boolean shared, int copies) {
    if (operand instanceof Operand.Read read && isAdjoint(read.variable())) {
      Variable adjoint = read.variable();
      Integer at = block.declaredAt.get(adjoint);
      if (at != null && at < position && facts.reads(adjoint) >= 1
          && !facts.isStored(adjoint)) {
        Declare declare = (Declare) block.statements.get(at);
        // y2Bar * y twice (from y * y), one term of count 2, reads y2Bar twice alone
        boolean sharedHere = shared || facts.reads(adjoint) > copies;
        List<Monomial> inner = declare.initial() == null ? null
            : monomials(declare.initial(), at, end, variable, sharedHere, 1);
        if (inner != null) {
          if (!sharedHere) {
            inner.forEach(monomial -> monomial.replaced().add(at));
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
      List<Monomial> root = new ArrayList<>();
      root.add(new Monomial(adjoint, false, new ArrayList<>(), new TreeMap<>(),
          new ArrayList<>()));
      return root;
    }
    if (!(operand instanceof Operand.Use use) || !block.definedAt.containsKey(use.value())
        || use.value().origin() != Value.Origin.FORMULA
        || facts.uses(use.value()) != 1) {
      return null;
    }
    int at = block.definedAt.get(use.value());
    Instruction instruction = (Instruction) block.statements.get(at);
    List<Monomial> monomials = null;
    boolean isDouble = instruction.result().type() == NumericType.DOUBLE;
    if (instruction.operation().equals(Operation.NEGATE)) {
      List<Monomial> inner = monomials(instruction.arguments().get(0), at, end, variable,
          shared, copies);
      monomials = inner == null ? null
          : new ArrayList<>(inner.stream().map(Monomial::negate).toList());
    } else if (instruction.operation().equals(Operation.MULTIPLY) && isDouble) {
      for (int side = 0; side < 2 && monomials == null; side++) {
        Operand other = instruction.arguments().get(1 - side);
        Map<Integer, Instruction> formulas = new TreeMap<>();
        if (readsAdjoint(other)
            || !block.collect(other, at, end, variable, formulas)) {
          continue;
        }
        List<Monomial> inner = monomials(instruction.arguments().get(side), at, end,
            variable, shared, copies);
        // a factor with formulas of its own is read once: it multiplies one monomial only
        if (inner == null || inner.size() > 1 && isFormula(other)) {
          continue;
        }
        for (Monomial monomial : inner) {
          monomial.factors().add(other);
          if (!shared) {
            monomial.formulas().putAll(formulas);
          }
        }
        monomials = inner;
      }
    } else if (!shared && isDouble && (instruction.operation().equals(Operation.ADD)
        || instruction.operation().equals(Operation.SUBTRACT))) {
      List<Monomial> left = monomials(instruction.arguments().get(0), at, end, variable,
          false, copies);
      List<Monomial> right = left == null ? null
          : monomials(instruction.arguments().get(1), at, end, variable, false, copies);
      if (right != null) {
        List<Monomial> sum = new ArrayList<>(left);
        boolean subtracted = instruction.operation().equals(Operation.SUBTRACT);
        right.forEach(monomial -> sum.add(subtracted ? monomial.negate() : monomial));
        monomials = sum;
      }
    }
    if (monomials != null && !shared) {
      monomials.forEach(monomial -> monomial.replaced().add(at));
    }
    return monomials;
  }

  /** Whether {@code operand} is a formula, computed where it is read. */
  private static boolean isFormula(Operand operand) {
    return operand instanceof Operand.Use use && use.value().origin() == Value.Origin.FORMULA;
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
