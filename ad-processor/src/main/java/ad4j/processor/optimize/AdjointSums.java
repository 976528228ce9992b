package ad4j.processor.optimize;

import ad4j.processor.analysis.Ids;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Adjoint accumulation, a pass on the programs {@code derive/reverse/Adjoint} makes. The reverse sweep adds
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
 *
 * <p>This class is the entry, and walks the blocks: {@link AdjointMentions} counts the program
 * once, per block {@link AdjointRuns} finds the runs, {@link RunSums} sums each ({@link
 * CommonFactors} collects the multiples of one adjoint), {@link AdjointCopies} cleans up the
 * copies that leaves, and {@link ElementAdjointSums} does the same for adjoints in arrays;
 * {@link UnreadAdjoints} removes, after the rounds, the adjoints no sum reads any more.
 */
public final class AdjointSums {
  /**
   * The rounds after the first that a run may wait for: each round sums the runs whose terms
   * read no adjoint that a run of the same round sums, so that {@link CommonFactors} sees
   * those adjoints declared once, as the products they are. Beyond this depth of runs that
   * wait for one another, the last round sums all that is left.
   */
  private static final int ROUNDS = 6;

  private final AdjointMentions facts;
  private final IrBuilder builder;
  /** Whether this round may leave a run for the next one. */
  private final boolean mayWait;
  /** Whether it did. */
  private boolean waited;

  private AdjointSums(Function program, boolean mayWait) {
    this.builder = new IrBuilder(Ids.next(program));
    this.facts = new AdjointMentions(program);
    this.mayWait = mayWait;
  }

  /** {@code program} with the contributions to each adjoint summed as described above. */
  public static Function of(Function program) {
    // a run whose terms read an adjoint that another run sums (dBar = t31Bar * d, then
    // dBar += t31Bar * d, read by xBar's terms) waits for the round after that one, which sees
    // that adjoint declared once; a last round sees the locals the rounds before declared once
    // (x * x's two contributions, now one term), so that an adjoint can take such a local's
    // place
    Function current = program;
    for (int round = 0; ; round++) {
      AdjointSums pass = new AdjointSums(current, round < ROUNDS);
      Function next = current.with(current.parameters(), pass.block(current.body()));
      if (!pass.waited) {
        current = next;
        break;
      }
      if (next.body().equals(current.body())) {
        // a round that summed nothing, all its runs waiting (as in many a loop's sweep): a
        // pass depends on its program alone, so each round up to the last would take this
        // same program and leave it as it is; the last round, which sums what waits, is next
        round = ROUNDS - 1;
      }
      current = next;
    }
    AdjointSums last = new AdjointSums(current, false);
    current = current.with(current.parameters(), last.block(current.body()));
    // CommonFactors having multiplied out adjoints that several sums read, the declarations
    // of those that no sum reads any more go
    return UnreadAdjoints.of(current);
  }

  private Block block(Block block) {
    List<Statement> statements = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch) {
        statements.add(new If(branch.id(), branch.condition(), block(branch.thenBlock()),
            block(branch.elseBlock()), branch.line()));
      } else if (statement instanceof Loop loop) {
        statements.add(new Loop(loop.id(), block(loop.condition()), loop.test(),
            loop.testFirst(), block(loop.body()), block(loop.update()), loop.line(), loop.kind()));
      } else {
        statements.add(statement);
      }
    }
    if (!addsIntoAdjoints(statements)) {
      return new Block(statements);
    }
    return new Block(ElementAdjointSums.of(AdjointCopies.renamed(summed(statements), facts),
        builder, facts.uses()));
  }

  /**
   * Whether the statements (not those of their nested blocks) declare or assign an adjoint, or
   * add into an array's element: what the runs, their sums, the copies they leave and the sums
   * into elements start from. A block without one, as every block of a forward sweep, comes
   * out of each as it went in, so it is not walked by them (each round walked them all).
   */
  private static boolean addsIntoAdjoints(List<Statement> statements) {
    for (Statement statement : statements) {
      if (statement instanceof Declare declare && AdjointMentions.isAdjoint(declare.variable())
          || statement instanceof Store store && AdjointMentions.isAdjoint(store.variable())
          || statement instanceof ElementStore store && store.add()) {
        return true;
      }
    }
    return false;
  }

  /** One block's statements (nested blocks done) with each run of additions summed once. */
  private List<Statement> summed(List<Statement> statements) {
    AdjointBlock block = new AdjointBlock(statements, facts);
    AdjointRuns runs = new AdjointRuns(block, facts);
    RunSums sums = new RunSums(block, facts, builder);
    // a single term after a zeroing is folded too: xBar = 0.0; ... xBar += y -> xBar = y,
    // so a loop whose sweep zeroes and refills one adjoint carries no addition 0.0 + y
    Map<AdjointRuns.Run, List<AdjointRuns.Run>> summable = new LinkedHashMap<>();
    Set<Variable> summed = new HashSet<>();
    for (AdjointRuns.Run run : runs.runs()) {
      List<AdjointRuns.Run> parts = runs.split(run).stream()
          .filter(part -> part.terms().size() > 1
              || part.zeroedAt() >= 0 && !part.terms().isEmpty())
          .toList();
      if (!parts.isEmpty()) {
        summable.put(run, parts);
        summed.add(run.variable());
      }
    }
    for (Map.Entry<AdjointRuns.Run, List<AdjointRuns.Run>> run : summable.entrySet()) {
      Variable variable = run.getKey().variable();
      if (mayWait && run.getKey().terms().stream()
          .anyMatch(term -> block.reads(term.operand(), summed, variable))) {
        waited = true;
        continue;
      }
      run.getValue().forEach(sums::sum);
    }
    return block.result();
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
}
