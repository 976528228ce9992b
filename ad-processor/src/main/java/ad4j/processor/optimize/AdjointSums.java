package ad4j.processor.optimize;

import ad4j.processor.analysis.Ids;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
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
 * copies that leaves, and {@link ElementAdjointSums} does the same for adjoints in arrays.
 */
public final class AdjointSums {
  private final AdjointMentions facts;
  private final IrBuilder builder;

  private AdjointSums(Function program) {
    this.builder = new IrBuilder(Ids.next(program));
    this.facts = new AdjointMentions(program);
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
    return new Block(ElementAdjointSums.of(AdjointCopies.renamed(summed(statements), facts),
        builder, facts.uses()));
  }

  /** One block's statements (nested blocks done) with each run of additions summed once. */
  private List<Statement> summed(List<Statement> statements) {
    AdjointBlock block = new AdjointBlock(statements, facts);
    AdjointRuns runs = new AdjointRuns(block, facts);
    RunSums sums = new RunSums(block, facts, builder);
    for (AdjointRuns.Run run : runs.runs()) {
      for (AdjointRuns.Run part : runs.split(run)) {
        // a single term after a zeroing is folded too: xBar = 0.0; ... xBar += y -> xBar = y,
        // so a loop whose sweep zeroes and refills one adjoint carries no addition 0.0 + y
        if (part.terms().size() > 1 || part.zeroedAt() >= 0 && !part.terms().isEmpty()) {
          sums.sum(part);
        }
      }
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
