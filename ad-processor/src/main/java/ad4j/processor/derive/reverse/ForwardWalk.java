package ad4j.processor.derive.reverse;

import ad4j.processor.analysis.TripBounds;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The forward sweep: the primal's statements as they are, plus what the reverse sweep needs
 * recorded (values, branch decisions, trip counts) inside loops; checkpointed and fused loops go
 * to their own classes. Apart from the reverse walk, which mirrors it.
 */
class ForwardWalk {
  private final SweepState s;

  ForwardWalk(SweepState s) {
    this.s = s;
  }

  /**
   * Whether this walk records for the reverse sweep; not the walk of a checkpointed loop's
   * iterations as the primal runs them ({@link PrimalWalk}).
   */
  boolean records() {
    return true;
  }

  Block forward(Block block) {
    List<Statement> out = new ArrayList<>();
    boolean recording = records() && s.flow.loopDepth(block) > 0
        && !s.flow.isConditionBlock(block) && !s.tape.keepsInLocals(block);
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        if (!s.flow.isLive(instruction)) {
          continue;
        }
        if (instruction.operation().form() == Operation.Form.STORE
            && s.keptElements.keeps(instruction)) {
          s.arrays.keepOverwritten(instruction, recording, out);
        }
        out.add(instruction);
        if (s.straightLine) {
          s.computed.record(instruction);
        }
        if (s.longestLengths.containsKey(instruction.result())) {
          s.arrays.trackLongest(instruction, out);
        } else if (LocalArrayAdjoints.makesLocalArray(instruction)
            && !s.arraysOfPieces.contains(instruction)) {
          s.arrays.allocateAdjointArray(instruction, out);
        }
        if (recording) {
          for (Value needed : s.tape.recordedAfter(instruction, block)) {
            if (!s.recomputation.isRecomputed(needed)) {
              out.add(new Push(new Operand.Use(needed), null));
            }
          }
        }
      } else if (statement instanceof Return ret) {
        if (!s.straightLine) {
          out.add(new Store(s.result, ret.value(), ret.line()));
        }
      } else if (statement instanceof If branch) {
        List<If> chain = recording ? s.chains.chain(branch, block) : List.of();
        SweepState.LongChain numbered = s.longChains.get(branch.id());
        if (numbered != null) {
          out.add(forwardChain(numbered.links(), 0, numbered.piece()));
        } else if (chain.isEmpty()) {
          forwardIf(branch, recording, out);
        } else {
          out.add(forwardChain(chain, 0, null));
        }
      } else if (statement instanceof Loop loop) {
        if (s.snapshots.containsKey(loop.id())) {
          s.checkpoints.forwardCheckpointedLoop(loop, out);
        } else if (s.fusedLoops.containsKey(loop.id())) {
          s.fusion.forwardFusedLoop(this, s.fusedLoops.get(loop.id()), block, out);
        } else {
          forwardLoop(loop, block, out);
        }
      } else if (statement instanceof Jump jump) {
        if (records()) {
          recordBranchesLeft(out);
        }
        out.add(jump);
      } else if (statement instanceof Declare declare
          && s.topLevelState.contains(declare.variable())) {
        // declared at the top (TopLevelCounters), for the reverse sweep
        if (declare.initial() != null) {
          out.add(new Store(declare.variable(), declare.initial(), declare.line()));
        }
      } else {
        out.add(statement); // declarations, stores, throws and notes
      }
    }
    s.carriedFrom.getOrDefault(block, Map.of()).forEach((value, slot) ->
        out.add(new Store(slot, new Operand.Use(value), null)));
    return new Block(out);
  }

  /**
   * A branch. Inside a loop its decision goes on the tape when the branch is left, so that it
   * lies above everything the branch recorded: after the statement when it completes normally,
   * and, before a jump out of it, as a constant (the path taken is known there).
   */
  private void forwardIf(If branch, boolean recording, List<Statement> out) {
    s.openBranches.push(true);
    Block thenBlock = forward(branch.thenBlock());
    s.openBranches.pop();
    s.openBranches.push(false);
    Block elseBlock = forward(branch.elseBlock());
    s.openBranches.pop();
    out.add(new If(branch.id(), branch.condition(), thenBlock, elseBlock, branch.line()));
    if (recording && completesNormally(branch)) {
      out.add(new Push(branch.condition(), null));
    }
  }

  /**
   * The forward sweep of a chain from link {@code index}: each piece ends by recording its
   * number, once, above everything it recorded, so every else block stays the next condition
   * and the next link, which the printer writes as {@code else if}.
   */
  private If forwardChain(List<If> chain, int index, Variable piece) {
    If link = chain.get(index);
    Block thenBlock = withPiece(forward(link.thenBlock()), index, piece);
    Block elseBlock;
    if (index + 1 < chain.size()) {
      List<Statement> next = new ArrayList<>();
      for (Statement statement : link.elseBlock().statements()) {
        if (statement instanceof Instruction instruction && s.flow.isLive(instruction)) {
          next.add(instruction);
        }
      }
      next.add(forwardChain(chain, index + 1, piece));
      elseBlock = new Block(next);
    } else {
      elseBlock = withPiece(forward(link.elseBlock()), chain.size(), piece);
    }
    return new If(link.id(), link.condition(), thenBlock, elseBlock, link.line());
  }

  /**
   * The block, then the number of its piece recorded: on the tape, or into {@code piece} for a
   * long chain outside loops.
   */
  private static Block withPiece(Block block, int number, Variable piece) {
    List<Statement> statements = new ArrayList<>(block.statements());
    statements.add(piece == null ? new Push(Operand.Constant.of(number), null)
        : new Store(piece, Operand.Constant.of(number), null));
    return new Block(statements);
  }

  /** Before a jump out of the loop body: the decisions of the branches being left. */
  private void recordBranchesLeft(List<Statement> out) {
    int inLoop = s.openBranches.size() - s.loopBranchBase.peek();
    int i = 0;
    for (boolean taken : s.openBranches) {
      if (i++ == inLoop) {
        break;
      }
      out.add(new Push(Operand.Constant.of(taken), null));
    }
  }

  /**
   * The type of {@code loop}'s trip count: {@code int} when the loop provably runs at most
   * {@code Integer.MAX_VALUE} times ({@link TripBounds}: {@code for (int i = 0; i < n; i++)}
   * and its kin), else {@code long}. A loop tested on a {@code double}, counted by a {@code
   * long}, or by an {@code int} from a start that may be negative may run longer, where an
   * {@code int} count wrapped; a {@code long} count cannot, as no loop runs 2^63 times. An
   * {@code int} counter checked once per loop ({@code Math.toIntExact}) would throw for loops
   * that a {@code long} differentiates exactly.
   */
  NumericType tripType(Loop loop) {
    return s.tripBounds.fitsInt(loop) ? NumericType.INT : NumericType.LONG;
  }

  /** A loop counts its trips; an inner loop records the count for the reverse sweep. */
  private void forwardLoop(Loop loop, Block block, List<Statement> out) {
    boolean nested = s.flow.loopDepth(block) > 0;
    // the reverse sweep counts a nested loop's trips again from its start and bound where it
    // can (not the fused reverse of a checkpointed loop, which takes them from the iteration
    // computed anew): then the loop counts nothing here
    boolean counted = !(nested && records() && s.recomputation.countsTrips(loop, block));
    List<Statement> body = new ArrayList<>();
    Variable count = s.tripCounts.get(loop.id());
    if (counted) {
      if (count == null) {
        count = s.builder.generatedVariable("loop" + loop.id() + "Trips", tripType(loop));
        s.tripCounts.put(loop.id(), count);
        out.add(new Declare(count, Operand.Constant.zero(count.type()), loop.line()));
      }
      body.addAll(s.statements.step(count, Operation.ADD, loop.line()));
    }
    s.loopBranchBase.push(s.openBranches.size());
    body.addAll(forward(loop.body()).statements());
    s.loopBranchBase.pop();
    out.add(new Loop(loop.id(), forward(loop.condition()), loop.test(), loop.testFirst(),
        new Block(body), forward(loop.update()), loop.line(), loop.kind()));
    if (nested && counted) {
      out.add(new Push(new Operand.Read(count), null));
    }
  }

  /**
   * Whether the forward sweep of {@code block} can complete normally by Java's rules (JLS
   * 14.22), so that javac accepts code after it. A {@code return} only stores the result there;
   * a loop without a test ends only by a {@code break} of its own.
   */
  static boolean forwardCompletes(Block block) {
    for (Statement statement : block.statements()) {
      boolean completes;
      if (statement instanceof Throw || statement instanceof Jump) {
        completes = false;
      } else if (statement instanceof If branch) {
        completes = forwardCompletes(branch.thenBlock()) || forwardCompletes(branch.elseBlock());
      } else if (statement instanceof Loop loop) {
        completes = loop.test() != null || loop.body().jumpsTo(loop.id(), Jump.Kind.BREAK);
      } else {
        completes = true;
      }
      if (!completes) {
        return false;
      }
    }
    return true;
  }

  /** Whether some path through the branch reaches its end (not ending in a jump or throw). */
  private static boolean completesNormally(If branch) {
    return completesNormally(branch.thenBlock()) || completesNormally(branch.elseBlock());
  }

  private static boolean completesNormally(Block block) {
    List<Statement> statements = block.statements();
    if (statements.isEmpty()) {
      return true;
    }
    Statement last = statements.get(statements.size() - 1);
    if (last instanceof Jump || last instanceof Return || last instanceof Throw) {
      return false;
    }
    return !(last instanceof If nested) || completesNormally(nested);
  }
}
