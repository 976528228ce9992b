package ad4j.processor.optimize;

import ad4j.processor.analysis.Ids;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Adjoint accumulation, a pass on the programs {@link Adjoint} makes. The reverse sweep adds
 * each contribution to an adjoint where it arises, one statement after another
 * ({@code double xBar = cBar * y3; xBar -= cBar; xBar += bBar * y2; ...}): each addition waits
 * for the one before, a serial chain as long as the number of contributions, although the
 * contributions themselves are independent. This pass sums the contributions of such a run
 * (consecutive additions into one adjoint in one block, nothing reading the adjoint in between)
 * once, where the run ends, as a balanced sum ({@code (a + b) - (c + d)}): the chain becomes
 * logarithmic in length, which the processor's instruction-level parallelism can use. A
 * contribution that occurs several times ({@code xBar += t * x; xBar += t * x}, from
 * {@code x * x}) is added once times its count ({@code t * x * 2.0}; for two, exactly the same
 * number).
 *
 * <p>The sums are reassociated, so the last bits of a gradient may change (not the primal's
 * value, which this pass never touches: it rewrites only additions into adjoint variables). A
 * contribution's formula moves to the sum only when it is pure arithmetic on values that do not
 * change in between; otherwise it stays where it was computed (as a local), and a contribution
 * that reads a variable that changes before the end of the run ends the run there.
 */
public final class AdjointSums {
  /** The number of uses of each value in the whole program. */
  private final Map<Value, Integer> uses = new HashMap<>();
  /** The number of reads of each variable in the whole program. */
  private final Map<Variable, Integer> readCounts = new HashMap<>();
  /** The variables the whole program stores into, besides declaring them. */
  private final Set<Variable> stored = new HashSet<>();
  /**
   * Per statement with nested blocks, the adjoint variables they mention and those they
   * assign, not counting those they declare ({@link #visible}).
   */
  private final Map<Statement, Set<Variable>> nestedMentions = new IdentityHashMap<>();
  private final Map<Statement, Set<Variable>> nestedAssigned = new IdentityHashMap<>();
  private final IrBuilder builder;

  private AdjointSums(Function program) {
    this.builder = new IrBuilder(Ids.next(program));
    countUses(program.body());
  }

  /** {@code program} with the contributions to each adjoint summed as described above. */
  public static Function of(Function program) {
    // a second round sees the locals the first declared once (x * x's two contributions, now
    // one term), so that an adjoint can take such a local's place
    return once(once(program));
  }

  private static Function once(Function program) {
    AdjointSums pass = new AdjointSums(program);
    return program.with(program.parameters(), pass.block(program.body()));
  }

  private Block block(Block block) {
    List<Statement> statements = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch) {
        statements.add(new If(branch.id(), branch.condition(), block(branch.thenBlock()),
            block(branch.elseBlock()), branch.line()));
      } else if (statement instanceof Loop loop) {
        statements.add(new Loop(loop.id(), block(loop.condition()), loop.test(),
            loop.testFirst(), block(loop.body()), block(loop.update()), loop.line()));
      } else {
        statements.add(statement);
      }
    }
    return new Block(ElementAdjointSums.of(renameCopies(new BlockRewrite(statements).result()),
        builder, uses));
  }

  /**
   * {@code double c = formula; ... xBar = c}, where nothing else reads the local {@code c} and
   * nothing in between mentions {@code xBar}, becomes {@code xBar = formula} where {@code c} was
   * declared: the adjoint takes the local's place instead of being copied from it. (The sums
   * above leave such copies where an adjoint zeroed or declared as zero gets one contribution.)
   * And {@code double t = xBar; ... xBar = t}, with {@code xBar} unchanged in between, loses the
   * store: what a loop-carried adjoint that one iteration reads and leaves as it was comes to.
   */
  private List<Statement> renameCopies(List<Statement> statements) {
    Map<Variable, Integer> declaredAt = new HashMap<>();
    Map<Integer, List<Statement>> definitions = new HashMap<>();
    Set<Integer> removed = new HashSet<>();
    Map<Variable, Integer> lastMention = new HashMap<>();
    // locals declared as a copy of a variable that has not changed since
    Map<Variable, Variable> copyOf = new HashMap<>();
    for (int q = 0; q < statements.size(); q++) {
      Statement statement = statements.get(q);
      Variable target = null;
      Operand value = null;
      if (statement instanceof Declare declare && isAdjoint(declare.variable())) {
        target = declare.variable();
        value = declare.initial();
      } else if (statement instanceof Store store && isAdjoint(store.variable())) {
        target = store.variable();
        value = store.value();
      }
      // the local must hold that one value: stores into it later (an adjoint the sweep zeroes
      // again, read nowhere after) would be left without its declaration
      if (value instanceof Operand.Read read && declaredAt.containsKey(read.variable())
          && readCounts.getOrDefault(read.variable(), 0) == 1
          && !stored.contains(read.variable())
          && lastMention.getOrDefault(target, -1) < declaredAt.get(read.variable())) {
        int p = declaredAt.remove(read.variable());
        Declare local = (Declare) statements.get(p);
        definitions.put(p, List.of(statement instanceof Declare
            ? new Declare(target, local.initial(), local.line())
            : new Store(target, local.initial(), local.line())));
        removed.add(q);
        lastMention.put(target, q);
        copyOf.values().removeIf(target::equals); // it is assigned at p now
        continue;
      }
      if (statement instanceof Store store && value instanceof Operand.Read read
          && copyOf.get(read.variable()) == target) {
        removed.add(q); // xBar = t where t = xBar still: the adjoint keeps its value
        continue;
      }
      Set<Variable> assigned = new HashSet<>();
      assigned(statement, assigned);
      for (Variable variable : assigned) {
        declaredAt.remove(variable); // assigned again: not a local of one value
        copyOf.remove(variable);
        copyOf.values().removeIf(variable::equals);
      }
      if (statement instanceof Declare declare && declare.initial() != null) {
        declaredAt.put(declare.variable(), q);
        if (declare.initial() instanceof Operand.Read read) {
          copyOf.put(declare.variable(), read.variable());
        }
      }
      Set<Variable> mentioned = new HashSet<>();
      mentions(statement, mentioned);
      for (Variable variable : mentioned) {
        lastMention.put(variable, q);
      }
    }
    return rewritten(statements, removed, definitions);
  }

  /**
   * {@code statements} with the statements at the {@code removed} positions left out and those at
   * the {@code replaced} positions replaced (a replaced position counts as removed too).
   */
  static List<Statement> rewritten(List<Statement> statements, Set<Integer> removed,
      Map<Integer, List<Statement>> replaced) {
    if (removed.isEmpty() && replaced.isEmpty()) {
      return statements;
    }
    List<Statement> out = new ArrayList<>();
    for (int i = 0; i < statements.size(); i++) {
      if (replaced.containsKey(i)) {
        out.addAll(replaced.get(i));
      } else if (!removed.contains(i)) {
        out.add(statements.get(i));
      }
    }
    return out;
  }

  /** Whether {@code variable} is an adjoint that a reverse sweep sums into. */
  private static boolean isAdjoint(Variable variable) {
    return variable.base() != null && variable.name().equals("Bar")
        && variable.type() == NumericType.DOUBLE;
  }

  /** One contribution: its operand, its sign, and where it is added. */
  private record Term(Operand operand, boolean negated, int position) {}

  /** {@code sum = V ± term} at {@code position - 1}, {@code V = sum} at {@code position}. */
  private record Step(Variable variable, Term term) {}

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
   * A run of contributions to one adjoint: from its declaration ({@code declared}), from zero
   * where the sweep declared or zeroed it ({@code zeroedAt}, the position of
   * {@code double xBar = 0.0} or {@code xBar = 0.0}, or -1), or added to its current value.
   */
  private record Run(Variable variable, boolean declared, int zeroedAt, List<Term> terms) {
    /** Whether the run's sum is the adjoint's whole new value (nothing to add it to). */
    boolean fromZero() {
      return declared || zeroedAt >= 0;
    }

    int end() {
      return terms.get(terms.size() - 1).position();
    }
  }

  /** The rewrite of one block's statements (nested blocks are done already). */
  private final class BlockRewrite {
    private final List<Statement> statements;
    /** Where each value defined by an instruction of this block is defined. */
    private final Map<Value, Integer> definedAt = new HashMap<>();
    /** Per value of this block, whether it reads an adjoint: see {@link #readsAdjoint}. */
    private final Map<Value, Boolean> readsAdjoint = new HashMap<>();
    /** Where each adjoint declared in this block (not in its nested blocks) is declared. */
    private final Map<Variable, Integer> declaredAt = new HashMap<>();
    /** Per variable, the positions of the statements that assign it (nested ones included). */
    private final Map<Variable, List<Integer>> assignedAt = new HashMap<>();
    /** The positions whose statement goes away, and the statements that replace others. */
    private final Set<Integer> removed = new HashSet<>();
    private final Map<Integer, List<Statement>> replaced = new HashMap<>();

    BlockRewrite(List<Statement> statements) {
      this.statements = statements;
      for (int i = 0; i < statements.size(); i++) {
        if (statements.get(i) instanceof Instruction instruction) {
          definedAt.put(instruction.result(), i);
        } else if (statements.get(i) instanceof Declare declare
            && isAdjoint(declare.variable())) {
          declaredAt.put(declare.variable(), i);
        }
        Set<Variable> assigned = new HashSet<>();
        assigned(statements.get(i), assigned);
        for (Variable variable : assigned) {
          assignedAt.computeIfAbsent(variable, v -> new ArrayList<>()).add(i);
        }
      }
    }

    List<Statement> result() {
      for (Run run : runs()) {
        for (Run part : split(run)) {
          // a single term after a zeroing is folded too: xBar = 0.0; ... xBar += y -> xBar = y,
          // so a loop whose sweep zeroes and refills one adjoint carries no addition 0.0 + y
          if (part.terms().size() > 1 || part.zeroedAt() >= 0 && !part.terms().isEmpty()) {
            sum(part);
          }
        }
      }
      return rewritten(statements, removed, replaced);
    }

    /** The runs of additions into adjoints, in order of their ends' positions per variable. */
    private List<Run> runs() {
      Map<Variable, Run> open = new LinkedHashMap<>();
      List<Run> runs = new ArrayList<>();
      for (int i = 0; i < statements.size(); i++) {
        Statement statement = statements.get(i);
        Step step = step(i);
        if (step != null) {
          Run run = open.get(step.variable());
          if (run == null) {
            run = new Run(step.variable(), false, -1, new ArrayList<>());
            open.put(step.variable(), run);
          }
          run.terms().add(step.term());
          continue;
        }
        Set<Variable> mentioned = new HashSet<>();
        mentions(statement, mentioned);
        Step next = i + 1 < statements.size() ? step(i + 1) : null;
        if (next != null) {
          // the sum of the next step reads its own variable as part of the step
          mentioned.remove(next.variable());
        }
        for (Variable variable : mentioned) {
          Run run = open.remove(variable);
          if (run != null) {
            runs.add(run);
          }
        }
        if (statement instanceof Declare declare && isAdjoint(declare.variable())
            && !isZero(declare.initial()) && !reads(declare.initial(), declare.variable())) {
          List<Term> terms = new ArrayList<>();
          terms.add(new Term(declare.initial(), false, i));
          open.put(declare.variable(), new Run(declare.variable(), true, -1, terms));
        } else if (statement instanceof Declare declare && isAdjoint(declare.variable())
            && isZero(declare.initial())) {
          // declared where its first contribution arrives, with that value
          open.put(declare.variable(), new Run(declare.variable(), true, i, new ArrayList<>()));
        } else if (statement instanceof Store store && isAdjoint(store.variable())
            && isZero(store.value())) {
          open.put(store.variable(), new Run(store.variable(), false, i, new ArrayList<>()));
        }
      }
      runs.addAll(open.values());
      return runs;
    }

    /** The step that stores at {@code i}, or null. */
    private Step step(int i) {
      if (i == 0 || !(statements.get(i) instanceof Store store) || !isAdjoint(store.variable())
          || !(store.value() instanceof Operand.Use use)
          || !(statements.get(i - 1) instanceof Instruction sum) || sum.result() != use.value()
          || use.value().origin() != Value.Origin.FORMULA
          || uses.getOrDefault(use.value(), 0) != 1
          || !(sum.operation().equals(Operation.ADD)
              || sum.operation().equals(Operation.SUBTRACT))
          || !(sum.arguments().get(0) instanceof Operand.Read read)
          || read.variable() != store.variable()
          || reads(sum.arguments().get(1), store.variable())) {
        return null;
      }
      return new Step(store.variable(), new Term(sum.arguments().get(1),
          sum.operation().equals(Operation.SUBTRACT), i));
    }

    /**
     * The run cut where a contribution that is a variable's current value would be read too
     * late: that variable changes before the run's end.
     */
    private List<Run> split(Run run) {
      List<Run> parts = new ArrayList<>();
      List<Term> terms = run.terms();
      boolean declared = run.declared();
      int zeroedAt = run.zeroedAt();
      while (!terms.isEmpty()) {
        int cut = terms.size() - 1;
        for (int k = 0; k < cut; k++) {
          Term term = terms.get(k);
          if (term.operand() instanceof Operand.Read read
              && writtenBetween(read.variable(), term.position(), terms.get(cut).position())) {
            cut = k;
            break;
          }
        }
        parts.add(new Run(run.variable(), declared, zeroedAt, terms.subList(0, cut + 1)));
        terms = terms.subList(cut + 1, terms.size());
        declared = false;
        zeroedAt = -1;
      }
      return parts;
    }

    /** Replaces a run by one sum at its end. */
    private void sum(Run run) {
      int end = run.end();
      SourceLine line = statements.get(end) instanceof Store store ? store.line()
          : ((Declare) statements.get(end)).line();
      // the formulas that move to the end, by position; and per term whether all of it moves
      Map<Integer, Instruction> moved = new TreeMap<>();
      List<Map<Integer, Instruction>> parts = new ArrayList<>();
      List<Boolean> whole = new ArrayList<>();
      for (Term term : run.terms()) {
        Map<Integer, Instruction> part = new TreeMap<>();
        whole.add(collect(term.operand(), term.position(), end, run.variable(), part));
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
          removed.addAll(parts.get(k).keySet()); // its formulas are not needed
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
      List<Signed> signed = factored(kept, counts, keptWhole, end, run.variable(), moved, site);
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
      removed.addAll(moved.keySet());
      if (run.zeroedAt() >= 0) {
        removed.add(run.zeroedAt()); // the sum is the whole value now
      }
      for (Term term : run.terms()) {
        removed.add(term.position());
        if (statements.get(term.position()) instanceof Store) {
          removed.add(term.position() - 1); // its sum
        }
      }
      replaced.put(end, replacement);
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
     * adjoints they replace are removed.
     */
    private List<Signed> factored(List<Term> kept, List<Integer> counts, List<Boolean> whole,
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
        List<Signed> partials = new ArrayList<>();
        for (int k : group.getValue()) {
          Monomial monomial = monomials.get(k);
          Operand partial = null;
          for (Operand factor : monomial.factors()) {
            partial = partial == null ? factor : site.times(partial, factor);
          }
          partial = counted(partial, counts.get(k), site);
          partials.add(new Signed(partial == null ? Site.number(1) : partial,
              kept.get(k).negated() != monomial.negated()));
          moved.putAll(monomial.formulas());
          moved.keySet().removeAll(monomial.replaced());
          removed.addAll(monomial.replaced());
          grouped.add(k);
        }
        Signed sum = balanced(partials, 0, partials.size(), site);
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
      if (operand instanceof Operand.Read read && isAdjoint(read.variable())) {
        Variable adjoint = read.variable();
        Integer at = declaredAt.get(adjoint);
        if (at != null && at < position && readCounts.getOrDefault(adjoint, 0) == 1
            && !stored.contains(adjoint)) {
          Declare declare = (Declare) statements.get(at);
          Monomial inner = declare.initial() == null ? null
              : monomial(declare.initial(), at, end, variable);
          if (inner != null) {
            inner.replaced().add(at);
            return inner;
          }
        }
        if (adjoint == variable || writtenBetween(adjoint, position, end)) {
          return null;
        }
        return new Monomial(adjoint, false, new ArrayList<>(), new TreeMap<>(),
            new ArrayList<>());
      }
      if (!(operand instanceof Operand.Use use) || !definedAt.containsKey(use.value())
          || use.value().origin() != Value.Origin.FORMULA
          || uses.getOrDefault(use.value(), 0) != 1) {
        return null;
      }
      int at = definedAt.get(use.value());
      Instruction instruction = (Instruction) statements.get(at);
      Monomial monomial = null;
      if (instruction.operation().equals(Operation.NEGATE)) {
        Monomial inner = monomial(instruction.arguments().get(0), at, end, variable);
        monomial = inner == null ? null : inner.negate();
      } else if (instruction.operation().equals(Operation.MULTIPLY)
          && instruction.result().type() == NumericType.DOUBLE) {
        for (int side = 0; side < 2 && monomial == null; side++) {
          Operand other = instruction.arguments().get(1 - side);
          Map<Integer, Instruction> formulas = new TreeMap<>();
          if (readsAdjoint(other)
              || !collect(other, at, end, variable, formulas)) {
            continue;
          }
          monomial = monomial(instruction.arguments().get(side), at, end, variable);
          if (monomial != null) {
            monomial.factors().add(other);
            monomial.formulas().putAll(formulas);
          }
        }
      }
      if (monomial != null) {
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
      Integer at = definedAt.get(use.value());
      if (at == null) {
        return use.value().origin() == Value.Origin.DERIVED
            || use.value().origin() == Value.Origin.GENERATED;
      }
      // remembered: values shared by several formulas would be visited once per path
      Boolean known = readsAdjoint.get(use.value());
      if (known == null) {
        known = false;
        for (Operand argument : ((Instruction) statements.get(at)).arguments()) {
          if (readsAdjoint(argument)) {
            known = true;
            break;
          }
        }
        readsAdjoint.put(use.value(), known);
      }
      return known;
    }

    /**
     * Adds to {@code into} the single-use formulas that compute {@code operand} and may be
     * computed at {@code end} instead of before {@code position}. Returns whether every
     * single-use formula of the operand moves, so that the term can be dropped for an equal one
     * without leaving a formula nobody reads.
     */
    private boolean collect(Operand operand, int position, int end, Variable variable,
        Map<Integer, Instruction> into) {
      if (!(operand instanceof Operand.Use use) || !definedAt.containsKey(use.value())) {
        return !(operand instanceof Operand.Read read)
            || !writtenBetween(read.variable(), position, end);
      }
      if (use.value().origin() != Value.Origin.FORMULA
          || uses.getOrDefault(use.value(), 0) != 1) {
        return true; // a value of its own, which stays
      }
      int at = definedAt.get(use.value());
      Instruction instruction = (Instruction) statements.get(at);
      if (!isPure(instruction)) {
        return false;
      }
      for (Operand argument : instruction.arguments()) {
        if (argument instanceof Operand.Read read
            && (read.variable() == variable || writtenBetween(read.variable(), at, end))) {
          return false;
        }
      }
      into.put(at, instruction);
      boolean all = true;
      for (Operand argument : instruction.arguments()) {
        all &= collect(argument, at, end, variable, into);
      }
      return all;
    }

    /** Whether a statement in {@code (from, to]}, nested ones included, assigns the variable. */
    private boolean writtenBetween(Variable variable, int from, int to) {
      List<Integer> positions = assignedAt.getOrDefault(variable, List.of());
      int next = Collections.binarySearch(positions, from + 1);
      int index = next >= 0 ? next : -next - 1; // the first position after from
      return index < positions.size() && positions.get(index) <= to;
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
      Integer at = definedAt.get(value);
      if (at == null || value.origin() != Value.Origin.FORMULA) {
        return value;
      }
      Instruction instruction = (Instruction) statements.get(at);
      List<Object> key = new ArrayList<>();
      key.add(instruction.operation());
      for (Operand argument : instruction.arguments()) {
        key.add(key(argument));
      }
      return key;
    }
  }

  /** A partial sum and whether it is to be subtracted. */
  record Signed(Operand operand, boolean negated) {}

  /**
   * The sum of {@code terms[from, to)} as a balanced tree: halves summed separately, then
   * added. A negative half is subtracted from a positive one; the sum of two negative halves
   * is negative ({@code -a - b = -(a + b)}, exactly).
   */
  static Signed balanced(List<Signed> terms, int from, int to, Site site) {
    if (to - from == 1) {
      return terms.get(from);
    }
    int middle = from + (to - from + 1) / 2;
    Signed left = balanced(terms, from, middle, site);
    Signed right = balanced(terms, middle, to, site);
    if (left.negated() == right.negated()) {
      return new Signed(site.plus(left.operand(), right.operand()), left.negated());
    }
    return left.negated() ? new Signed(site.minus(right.operand(), left.operand()), false)
        : new Signed(site.minus(left.operand(), right.operand()), false);
  }

  /**
   * Whether an instruction may be computed later than where it stands: arithmetic and math
   * functions of {@code double}s, which neither throw nor read arrays or the tape.
   */
  private static boolean isPure(Instruction instruction) {
    NumericType type = instruction.result().type();
    return (type == NumericType.DOUBLE || type == NumericType.FLOAT
        || type == NumericType.BOOLEAN) && instruction.isPure();
  }

  private static boolean isZero(Operand operand) {
    return operand instanceof Operand.Constant constant && constant.knownValue().isPresent()
        && constant.knownValue().getAsDouble() == 0;
  }

  private static boolean reads(Operand operand, Variable variable) {
    return operand instanceof Operand.Read read && read.variable() == variable;
  }

  /**
   * Adds the variables the statement, nested ones included, assigns; not those declared in its
   * nested blocks, which the block around the statement cannot name.
   */
  private void assigned(Statement statement, Set<Variable> into) {
    if (statement instanceof Declare declare) {
      into.add(declare.variable());
    } else if (statement instanceof Store store) {
      into.add(store.variable());
    }
    if (!statement.nestedBlocks().isEmpty()) {
      into.addAll(memo(nestedAssigned, statement, this::assigned));
    }
  }

  /**
   * Adds the adjoint variables the statement, nested ones included, reads or assigns; not those
   * declared in its nested blocks.
   */
  private void mentions(Statement statement, Set<Variable> into) {
    if (statement instanceof Declare declare && isAdjoint(declare.variable())) {
      into.add(declare.variable());
    } else if (statement instanceof Store store && isAdjoint(store.variable())) {
      into.add(store.variable());
    }
    for (Operand operand : statement.operands()) {
      if (operand instanceof Operand.Read read && isAdjoint(read.variable())) {
        into.add(read.variable());
      }
    }
    if (!statement.nestedBlocks().isEmpty()) {
      into.addAll(memo(nestedMentions, statement, this::mentions));
    }
  }

  /**
   * What {@code collect} gathers from the statements of {@code statement}'s nested blocks, less
   * the variables declared in those blocks, kept per statement in {@code memo} ({@link
   * #nestedMentions}, {@link #nestedAssigned}): each
   * block's pass asks about the statements of the blocks around it again, so that a chain of
   * {@code else if} nested n deep was walked n times over (quadratic in the chain), and what a
   * level declares is all but the whole of it.
   */
  private static Set<Variable> memo(Map<Statement, Set<Variable>> memo, Statement statement,
      java.util.function.BiConsumer<Statement, Set<Variable>> collect) {
    // not computeIfAbsent: collecting asks the memo about the nested statements
    Set<Variable> known = memo.get(statement);
    if (known == null) {
      known = visible(statement, collect);
      memo.put(statement, known);
    }
    return known;
  }

  private static Set<Variable> visible(Statement statement,
      java.util.function.BiConsumer<Statement, Set<Variable>> collect) {
    Set<Variable> found = new HashSet<>();
    for (Block nested : statement.nestedBlocks()) {
      Set<Variable> declared = new HashSet<>();
      for (Statement inner : nested.statements()) {
        collect.accept(inner, found);
        if (inner instanceof Declare declare) {
          declared.add(declare.variable());
        }
      }
      found.removeAll(declared);
    }
    return found;
  }

  private void countUses(Block block) {
    for (Statement statement : block.statements()) {
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Use use) {
          uses.merge(use.value(), 1, Integer::sum);
        } else if (operand instanceof Operand.Read read) {
          readCounts.merge(read.variable(), 1, Integer::sum);
        }
      }
      if (statement instanceof Store store) {
        stored.add(store.variable());
      }
      for (Block nested : statement.nestedBlocks()) {
        countUses(nested);
      }
    }
  }
}
