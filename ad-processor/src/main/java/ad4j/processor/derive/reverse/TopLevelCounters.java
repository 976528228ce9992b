package ad4j.processor.derive.reverse;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.List;

/**
 * The variables at the top of the program that the reverse sweep reads wherever it is: the
 * trip counts of loops outside loops, the piece numbers of long chains and the snapshots' book
 * keeping of checkpointed loops. Apart because it runs once, before either sweep.
 */
final class TopLevelCounters {
  private final SweepState s;

  TopLevelCounters(SweepState s) {
    this.s = s;
  }

  /**
   * The trip counts of loops outside loops, and the piece numbers of long chains outside loops
   * ({@link BranchChains#longChain}), read by the reverse sweep wherever it is.
   */
  void declareTopLevelCounters(Block block, List<Statement> out) {
    declareTopLevelCounters(block, out, null);
  }

  /**
   * As {@link #declareTopLevelCounters(Block, List)}; inside a piece of a long chain, {@code
   * shared} holds the chain's trip counts, which its pieces share as they share the values they
   * carry ({@link LongChainSlots#pieceSlots}): only one piece runs, and each of its loops at most
   * once, so its n-th loop counts in the chain's n-th trip count. One count per loop of every
   * piece made a chain of 300 pieces with a loop each hand 300 counts from part to part.
   */
  private void declareTopLevelCounters(Block block, List<Statement> out, ChainSlots shared) {
    for (Statement statement : block.statements()) {
      List<If> chain = statement instanceof If head ? s.chains.longChain(head, block) : List.of();
      if (!chain.isEmpty()) {
        Variable piece = s.builder.generatedVariable("chain" + chain.get(0).id() + "Piece",
            NumericType.INT);
        s.longChains.put(chain.get(0).id(), new SweepState.LongChain(chain, piece));
        out.add(new Declare(piece, Operand.Constant.zero(NumericType.INT), null));
        ChainSlots slots = new ChainSlots(s.builder, chain.get(0).id(), out);
        s.chainSlots.pieceSlots(chain, slots);
        for (Block pieceBlock : LongChainSlots.pieces(chain)) {
          slots.startPiece();
          declareTopLevelCounters(pieceBlock, out, s.primal.isCheckpointed() ? null : slots);
        }
      } else if (statement instanceof If branch) {
        declareTopLevelCounters(branch.thenBlock(), out, shared);
        declareTopLevelCounters(branch.elseBlock(), out, shared);
      } else if (statement instanceof Loop loop && shared != null) {
        s.tripCounts.put(loop.id(), shared.take("Trips", s.forwardWalk.tripType(loop)));
      } else if (statement instanceof Loop loop) {
        Variable count = s.builder.generatedVariable("loop" + loop.id() + "Trips",
            s.forwardWalk.tripType(loop));
        s.tripCounts.put(loop.id(), count);
        out.add(new Declare(count, Operand.Constant.zero(count.type()), null));
        if (s.primal.isCheckpointed() && loop.kind() == Loop.Kind.WRITTEN) {
          // what the loop carries, and what it reads that the method assigns after it
          List<Variable> state = new ArrayList<>(loop.carriedVariables());
          state.addAll(loop.readVariablesAssignedAfter(s.primal.body()));
          CheckpointedLoops.Snapshots loopSnapshots = new CheckpointedLoops.Snapshots(state,
              s.builder.generatedVariable("loop" + loop.id() + "Snapshots", NumericType.LONG),
              s.builder.generatedVariable("loop" + loop.id() + "Every", NumericType.INT),
              s.builder.generatedVariable("loop" + loop.id() + "Next", count.type()));
          s.snapshots.put(loop.id(), loopSnapshots);
          out.add(new Declare(loopSnapshots.start(), Operand.Constant.zero(NumericType.LONG),
              null));
          out.add(new Declare(loopSnapshots.every(), Operand.Constant.of(1), null));
          out.add(new Declare(loopSnapshots.next(), Operand.Constant.zero(count.type()),
              null));
          declareAtTop(loop, out);
        }
      }
    }
  }

  /**
   * Declares at the top each variable that {@code loop}, a checkpointed loop, reads or assigns
   * and that the user declared inside a branch ({@link SweepState#topLevelState}). The reverse
   * sweep of a branch is a scope of its own, apart from the forward sweep's, where a variable
   * the forward sweep declared is out of reach; and the reverse of a later checkpointed loop
   * of the branch reads what the earlier ones assigned, as the forward sweep left it. (Declared
   * again in the reverse of each loop whose snapshots held it, two such loops in one branch
   * declared it twice in one scope, and a loop that only read what an earlier one assigned
   * found no variable: generated code did not compile.)
   */
  private void declareAtTop(Loop loop, List<Statement> out) {
    java.util.Set<Variable> atTop = java.util.Collections.newSetFromMap(
        new java.util.IdentityHashMap<>());
    atTop.addAll(s.flow.parameterVariables());
    for (Statement statement : s.primal.body().statements()) {
      if (statement instanceof Declare declare) {
        atTop.add(declare.variable());
      }
    }
    for (Variable variable : loop.outsideVariables()) {
      if (!atTop.contains(variable) && s.topLevelState.add(variable)) {
        out.add(new Declare(variable, Operand.Constant.zero(variable.type()), null));
      }
    }
  }
}
