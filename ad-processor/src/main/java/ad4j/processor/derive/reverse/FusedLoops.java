package ad4j.processor.derive.reverse;

import ad4j.processor.analysis.AccumulatingLoops;
import ad4j.processor.analysis.TapePlan;
import ad4j.processor.derive.FreshCopy;
import ad4j.processor.derive.Sites;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Partial;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Loops outside loops that only add into sums whose adjoints are known before them ({@link
 * AccumulatingLoops}): each iteration's reverse follows it in the forward sweep, so the tape
 * holds one iteration's values. Apart because only the split-call programs fuse loops.
 */
final class FusedLoops {
  private final SweepState s;

  FusedLoops(SweepState s) {
    this.s = s;
  }

  /**
   * The fusible loops whose iterations record values inside loops of their own, so that the
   * whole loop's tape grows with the product of the trip counts (ADBench GMM: two values per
   * row of each component's matrix, 205 MB at d = 64, K = 200). Only there does fusing pay on
   * HotSpot: GMM's gradient 5 to 10 % faster; logistic regression, whose iterations record two
   * values each, 10 % slower fused than as two loops (BENCHMARKS.md, "Fused loops of sums").
   */
  Map<Integer, AccumulatingLoops.Fusible> worthFusing(
      Map<Integer, AccumulatingLoops.Fusible> fusible) {
    TapePlan plan = new TapePlan(s.flow); // no body kept in locals yet: the plain loop's records
    Map<Integer, AccumulatingLoops.Fusible> worth = new HashMap<>();
    fusible.forEach((id, loop) -> {
      if (recordsInInnerLoops(loop.loop().body(), false, plan)) {
        worth.put(id, loop);
      }
    });
    return worth;
  }

  /** Whether an instruction of {@code block} inside a loop of it records a value. */
  private boolean recordsInInnerLoops(Block block, boolean inner, TapePlan plan) {
    for (Statement statement : block.statements()) {
      if (inner && statement instanceof Instruction instruction) {
        for (Value value : plan.recordedAfter(instruction, block)) {
          if (!s.recomputation.isRecomputed(value)) {
            return true;
          }
        }
      }
      boolean loop = statement instanceof Loop;
      for (Block nested : statement.nestedBlocks()) {
        if (recordsInInnerLoops(nested, inner || loop, plan)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * A loop that only adds into sums whose adjoints are known before it ({@link
   * AccumulatingLoops}), with each iteration's reverse right after the iteration: the sums'
   * adjoints, the seed carried back along their paths to the result, are computed before the
   * loop; so are the adjoints of what the loop reads from before it, declared here since the
   * loop adds into them first. What an iteration records, its reverse takes back before the
   * next iteration records: the tape holds one iteration's values, not all of them.
   */
  void forwardFusedLoop(ForwardWalk walk, AccumulatingLoops.Fusible fusible, Block block,
      List<Statement> out) {
    Loop loop = fusible.loop();
    SourceLine line = loop.line();
    List<Statement> before = new ArrayList<>();
    for (Value value : fusible.valuesFromBefore()) {
      if (!s.adjoints.containsKey(value)) {
        Variable adjoint = s.builder.derivedVariable(value, Derivative.ADJOINT, NumericType.DOUBLE);
        before.add(new Declare(adjoint, Site.number(0.0), null));
        s.adjoints.put(value, new Accumulation.AdjointValue(null, adjoint));
      }
    }
    for (Variable variable : fusible.variablesFromBefore()) {
      s.sums.declareVariableAdjoint(variable, before);
    }
    for (AccumulatingLoops.Accumulator accumulator : fusible.accumulators()) {
      Operand adjoint = s.seed;
      List<AccumulatingLoops.Step> path = accumulator.path();
      for (int i = path.size() - 1; i >= 0; i--) {
        Instruction instruction = path.get(i).instruction();
        // what the step's factor needs that is made after the loop, made before it as well
        FreshCopy copy = new FreshCopy(s.builder);
        before.addAll(copy.of(new Block(List.copyOf(path.get(i).again()))).statements());
        List<Operand> arguments = instruction.arguments().stream().map(copy::map).toList();
        Site site = Sites.of(instruction, arguments,
            new Operand.Use(instruction.result()), s.builder, null, Site.Reuse.NONE);
        Partial partial = Sites.ruleFor(instruction).partial(path.get(i).position(), site)
            .orElseThrow(() -> new IllegalStateException("no partial on the path of "
                + accumulator.variable().name() + ": " + instruction));
        Operand next = partial.applyTo(adjoint, site);
        if (partial.negative()) {
          next = site.negate(next);
        }
        before.addAll(site.instructionsFor(List.of(next)));
        adjoint = next;
      }
      Variable sumAdjoint = s.builder.derived(accumulator.variable(), Derivative.ADJOINT, NumericType.DOUBLE,
          null);
      before.add(new Declare(sumAdjoint, adjoint, null));
      s.variableAdjoints.put(accumulator.variable(), sumAdjoint);
      // the read, and what only it makes active on the way to the result
      s.sumReadsAfterFusedLoops.add(accumulator.read().result());
      for (AccumulatingLoops.Step step : path) {
        List<Operand> arguments = step.instruction().arguments();
        boolean others = false;
        for (int i = 0; i < arguments.size(); i++) {
          others |= i != step.position() && arguments.get(i).isActive()
              && !(arguments.get(i) instanceof Operand.Use use
                  && s.sumReadsAfterFusedLoops.contains(use.value()));
        }
        if (others) {
          break;
        }
        s.sumReadsAfterFusedLoops.add(step.instruction().result());
      }
    }
    Variable count = s.tripCounts.get(loop.id());
    List<Statement> body = new ArrayList<>(s.statements.step(count, Operation.ADD, line));
    s.loopBranchBase.push(s.openBranches.size());
    body.addAll(walk.forward(loop.body()).statements());
    s.loopBranchBase.pop();
    body.add(new Note("the reverse of this iteration, at once", null));
    Variable iteration = s.builder.generatedVariable("iteration" + loop.id(), count.type());
    body.add(new Declare(iteration, new Operand.Read(count), null));
    s.reverseWalk.enterReverseBody(loop, block, iteration, null, before);
    List<Statement> reversed = s.reverseWalk.reverse(loop.body());
    body.addAll(s.place.leave(loop));
    body.addAll(reversed);
    if (!before.isEmpty()) {
      before.add(0, new Note("the adjoints of the sums of the loop of line " + line.number()
          + ", known before it runs", null));
    }
    // before the counter's declaration, which the loop's for statement takes in
    int at = out.size();
    if (at > 0 && out.get(at - 1) instanceof Declare declare
        && AccumulatingLoops.assigns(loop.update(), declare.variable())) {
      at--;
    }
    out.addAll(at, before);
    out.add(new Loop(loop.id(), walk.forward(loop.condition()), loop.test(),
        loop.testFirst(), new Block(body), walk.forward(loop.update()), line, loop.kind()));
  }
}
