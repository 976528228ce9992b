package ad4j.processor.derive.reverse;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reverse sweep over a block: adjoints declared, statements walked backwards, branches,
 * chains and loops mirrored; each instruction goes to {@link InstructionAdjoints}. Apart from the
 * per-instruction rules, which do not depend on the structure around them.
 */
final class ReverseWalk {
  private final SweepState s;

  ReverseWalk(SweepState s) {
    this.s = s;
  }

  List<Statement> reverse(Block block) {
    List<Statement> out = new ArrayList<>();
    for (Value value : s.flow.valuesDefinedIn(block)) {
      boolean parameter = value.origin() == Value.Origin.PARAMETER && !s.straightLine
          && !s.flow.isVariableParameter(value);
      if (value.isActive() && (s.flow.needsDeclaredAdjoint(value) || parameter)
          && !s.adjoints.containsKey(value)) { // declared before a fused loop: forwardFusedLoop
        Variable adjoint = s.builder.derivedVariable(value, Derivative.ADJOINT, NumericType.DOUBLE);
        out.add(new Declare(adjoint, Site.number(0.0), null));
        s.adjoints.put(value, new Accumulation.AdjointValue(null, adjoint));
      }
    }
    if (block == s.primal.body()) {
      for (Variable variable : s.flow.parameterVariables()) {
        s.sums.declareVariableAdjoint(variable, out);
      }
    }
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction making && s.arraysOfPieces.contains(making)) {
        Operand length = making.arguments().get(0);
        s.arrays.allocateAdjointArray(making, length instanceof Operand.Use use
            ? s.restored.getOrDefault(block, Map.of()).getOrDefault(use.value(), length) : length,
            out);
      }
    }
    for (Statement statement : block.statements()) {
      if (statement instanceof Declare declare) {
        s.sums.declareVariableAdjoint(declare.variable(), out);
      }
    }
    List<Statement> statements = block.statements();
    for (int i = statements.size() - 1; i >= 0; i--) {
      Statement statement = statements.get(i);
      if (statement instanceof Instruction instruction) {
        if (s.flow.isLive(instruction)) {
          s.instructions.reverseInstruction(instruction, block, out);
        }
      } else if (statement instanceof Declare declare) {
        Variable adjoint = s.variableAdjoints.get(declare.variable());
        if (adjoint != null && declare.initial() instanceof Operand.Use use && use.isActive()) {
          s.sums.accumulate(use.value(), new Operand.Read(adjoint), false, false,
              Site.formulas(s.builder, declare.line().adjoint()), out);
        }
      } else if (statement instanceof Store store) {
        Variable adjoint = s.variableAdjoints.get(store.variable());
        if (adjoint != null) {
          SourceLine line = store.line().adjoint();
          if (store.value() instanceof Operand.Use use && use.isActive()) {
            s.sums.accumulate(use.value(), new Operand.Read(adjoint), false, false,
                Site.formulas(s.builder, line), out);
          }
          out.add(new Store(adjoint, Site.number(0.0), line));
        }
      } else if (statement instanceof Return ret) {
        if (ret.value() instanceof Operand.Use use && use.isActive()) {
          s.sums.accumulate(use.value(), s.seed, false, true,
              Site.formulas(s.builder, ret.line().adjoint()), out);
        } else if (ret.value() instanceof Operand.Use use
            && s.adjointArrays.containsKey(use.value())) {
          // a vector function: the seed is the returned array's adjoint
          Value seeded = s.builder.generated("seeded", NumericType.INT, false);
          // a caller's adjoint array of a result made in a loop is as long as the longest
          out.add(new Instruction(seeded,
              Operation.slotsCall(s.adjointsOut.seedHelper(), 2),
              List.of(s.seed, new Operand.Use(s.adjointArrays.get(use.value()))),
              ret.line().adjoint()));
        }
      } else if (statement instanceof If branch) {
        List<If> chain = s.chains.chain(branch, block);
        SweepState.LongChain numbered = s.longChains.get(branch.id());
        if (numbered != null) {
          reverseChain(numbered.links(), 0, new Operand.Read(numbered.piece()), out);
        } else if (chain.isEmpty()) {
          reverseIf(branch, block, out);
        } else {
          Value piece = s.builder.generated("piece", NumericType.INT, false);
          out.add(new Instruction(piece, Operation.POP, List.of(), branch.line().adjoint()));
          reverseChain(chain, 0, new Operand.Use(piece), out);
        }
      } else if (statement instanceof Loop loop) {
        if (s.snapshots.containsKey(loop.id())) {
          s.checkpoints.reverseCheckpointedLoop(loop, out);
        } else if (s.fusedLoops.containsKey(loop.id())) {
          // its sums' adjoints are the same at its start as at its end: nothing to do here
          out.add(new Note("the reverse of the loop of line " + loop.line().number()
              + " followed each of its iterations", null));
        } else {
          reverseLoop(loop, block, out);
        }
      }
    }
    return out;
  }

  /** A branch's reverse takes the same path: by its condition, or its decision on the tape. */
  private void reverseIf(If branch, Block block, List<Statement> out) {
    SourceLine line = branch.line().adjoint();
    // in a piece of a long chain, a condition made in the piece comes in a variable
    Operand decision = branch.condition() instanceof Operand.Use use
        ? s.restored.getOrDefault(block, Map.of()).getOrDefault(use.value(), use)
        : branch.condition();
    boolean recorded = s.flow.loopDepth(block) > 0 && !s.iterationInLocals
        && !s.tape.keepsInLocals(block);
    if (recorded) {
      decision = s.statements.pop(NumericType.BOOLEAN, line, out);
    }
    List<Statement> thenReverse = reverse(branch.thenBlock());
    List<Statement> elseReverse = reverse(branch.elseBlock());
    if (thenReverse.isEmpty() && elseReverse.isEmpty() && !recorded) {
      return; // nothing to do on either path, and no decision to take back from the tape
    }
    out.add(new If(branch.id(), decision, new Block(thenReverse), new Block(elseReverse), line));
  }

  /**
   * The reverse of a chain from link {@code index}, choosing the piece by the number the forward
   * sweep recorded: {@code if (piece == 0) ... else if (piece == 1) ...}, flat as well. The
   * conditions between the links compute inactive values only and have no reverse.
   */
  private void reverseChain(List<If> chain, int index, Operand piece, List<Statement> out) {
    If link = chain.get(index);
    SourceLine line = link.line().adjoint();
    Site site = Site.formulas(s.builder, line);
    Operand taken = site.isEqualTo(piece, Operand.Constant.of(index));
    out.addAll(site.instructionsFor(List.of(taken)));
    Block thenBlock = new Block(reverse(link.thenBlock()));
    List<Statement> elseStatements = new ArrayList<>();
    if (index + 1 < chain.size()) {
      reverseChain(chain, index + 1, piece, elseStatements);
    } else {
      elseStatements = reverse(link.elseBlock());
    }
    out.add(new If(link.id(), taken, thenBlock, new Block(elseStatements), line));
  }

  /** {@code for (int iteration = trips; iteration > 0; iteration--)} over the body's reverse. */
  private void reverseLoop(Loop loop, Block block, List<Statement> out) {
    SourceLine line = loop.line().adjoint();
    Operand count;
    if (s.flow.loopDepth(block) == 0) {
      count = new Operand.Read(s.tripCounts.get(loop.id()));
    } else if (!s.iterationInLocals && s.recomputation.countsTrips(loop, block)) {
      count = s.recomputation.tripCount(loop, block, s.place,
          s.restored.computeIfAbsent(block, b -> new HashMap<>()), s.builder, line, out);
    } else {
      Value popped = s.builder.generated("loop" + loop.id() + "Trips",
          s.forwardWalk.tripType(loop), false);
      out.add(new Instruction(popped, Operation.POP, List.of(), line));
      count = new Operand.Use(popped);
    }
    Variable iteration = s.builder.generatedVariable("iteration" + loop.id(), count.type());
    out.add(new Declare(iteration, count, line));
    enterReverseBody(loop, block, iteration, line, out);
    Site site = Site.formulas(s.builder, line);
    Operand test = site.isGreaterThan(new Operand.Read(iteration),
        Operand.Constant.zero(count.type()));
    Block condition = new Block(new ArrayList<>(site.instructionsFor(List.of(test))));
    List<Statement> reversed = reverse(loop.body());
    List<Statement> body = new ArrayList<>(s.place.leave(loop));
    body.addAll(reversed);
    out.add(new Loop(loop.id(), condition, test, true, new Block(body),
        new Block(s.statements.step(iteration, Operation.SUBTRACT, line)), line, loop.kind()));
  }

  /**
   * Enters the reverse of an iteration of {@code loop} (held by {@code block}), whose number
   * from 1 is in {@code iteration}; what the counter's start needs goes into {@code out}.
   */
  void enterReverseBody(Loop loop, Block block, Variable iteration, SourceLine line,
      List<Statement> out) {
    if (s.recomputation.hasCounter(loop)) {
      // the loop's counter in forward iteration k is start + (k - 1) * step: what reads of it
      // computed again in the reverse body need
      Operand start = s.recomputation.start(loop, s.place,
          s.restored.computeIfAbsent(block, b -> new HashMap<>()), s.builder, line, out);
      s.place.enter(loop, iteration, start);
    } else {
      s.place.enter(loop, iteration, null);
    }
  }
}
