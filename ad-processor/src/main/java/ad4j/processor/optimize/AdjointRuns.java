package ad4j.processor.optimize;

import static ad4j.processor.optimize.AdjointMentions.isAdjoint;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The runs of additions into one adjoint in one block that {@link AdjointSums} sums once:
 * consecutive steps {@code xBar = xBar ± term} with nothing reading the adjoint in between,
 * from its declaration, from where it was zeroed, or from its current value; cut where a term
 * that reads a variable would be read too late. Apart from {@link RunSums}, which writes each
 * run's sum, because this only finds the runs.
 */
final class AdjointRuns {
  /** One contribution: its operand, its sign, and where it is added. */
  record Term(Operand operand, boolean negated, int position) {}

  /** {@code sum = V ± term} at {@code position - 1}, {@code V = sum} at {@code position}. */
  private record Step(Variable variable, Term term) {}

  /**
   * A run of contributions to one adjoint: from its declaration ({@code declared}), from zero
   * where the sweep declared or zeroed it ({@code zeroedAt}, the position of
   * {@code double xBar = 0.0} or {@code xBar = 0.0}, or -1), or added to its current value.
   */
  record Run(Variable variable, boolean declared, int zeroedAt, List<Term> terms) {
    /** Whether the run's sum is the adjoint's whole new value (nothing to add it to). */
    boolean fromZero() {
      return declared || zeroedAt >= 0;
    }

    int end() {
      return terms.get(terms.size() - 1).position();
    }
  }

  private final AdjointBlock block;
  private final AdjointMentions facts;

  AdjointRuns(AdjointBlock block, AdjointMentions facts) {
    this.block = block;
    this.facts = facts;
  }

  /** The runs of additions into adjoints, in order of their ends' positions per variable. */
  List<Run> runs() {
    Map<Variable, Run> open = new LinkedHashMap<>();
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < block.statements.size(); i++) {
      Statement statement = block.statements.get(i);
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
      facts.mentions(statement, mentioned);
      Step next = i + 1 < block.statements.size() ? step(i + 1) : null;
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
    if (i == 0 || !(block.statements.get(i) instanceof Store store) || !isAdjoint(store.variable())
        || !(store.value() instanceof Operand.Use use)
        || !(block.statements.get(i - 1) instanceof Instruction sum) || sum.result() != use.value()
        || use.value().origin() != Value.Origin.FORMULA
        || facts.uses(use.value()) != 1
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
  List<Run> split(Run run) {
    List<Run> parts = new ArrayList<>();
    List<Term> terms = run.terms();
    boolean declared = run.declared();
    int zeroedAt = run.zeroedAt();
    while (!terms.isEmpty()) {
      int cut = terms.size() - 1;
      for (int k = 0; k < cut; k++) {
        Term term = terms.get(k);
        if (term.operand() instanceof Operand.Read read
            && block.writtenBetween(read.variable(), term.position(), terms.get(cut).position())) {
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

  private static boolean isZero(Operand operand) {
    return operand instanceof Operand.Constant constant && constant.knownValue().isPresent()
        && constant.knownValue().getAsDouble() == 0;
  }

  private static boolean reads(Operand operand, Variable variable) {
    return operand instanceof Operand.Read read && read.variable() == variable;
  }
}
