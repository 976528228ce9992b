package ad4j.processor.derive.reverse;

import ad4j.processor.analysis.AccumulatingLoops;
import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.analysis.KeptElements;
import ad4j.processor.analysis.LiveAdjoints;
import ad4j.processor.analysis.TapePlan;
import ad4j.processor.analysis.TripBounds;
import ad4j.processor.derive.ArraySlots;
import ad4j.processor.derive.ForwardValues;
import ad4j.processor.derive.Recomputation;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The state of one reverse-mode transform that its classes share: the primal and its analyses,
 * the builder of new values, the adjoints made so far, the variables the forward sweep hands to
 * the reverse sweep (trip counts, chain pieces, snapshots, longest lengths), and where the walk
 * is (open branches, enclosing reverse loops). One object per program, made by {@link Adjoint};
 * the classes of one job each (the forward and reverse walks, the rules per instruction, the
 * loops' variants, calls, local arrays) read and extend it as they write the sweeps.
 */
final class SweepState {
  // ---- the program, its analyses, and the variant chosen for it

  final Function primal;
  final FlowAnalysis flow;
  /** What the forward sweep records inside loops for the reverse sweep. */
  final TapePlan tape;
  /** The maker of the values and variables both sweeps add. */
  final IrBuilder builder;
  /** Whether the primal has no branch and no loop: every value stays readable in a local. */
  final boolean straightLine;
  /** The math calls of straight-line code, which the rules' partials may read again. */
  final ForwardValues computed = new ForwardValues();
  /** The values the reverse sweep computes again rather than taking back from the tape. */
  final Recomputation recomputation;
  /** Which loops count their trips in an {@code int}. */
  final TripBounds tripBounds;
  /** The stores into local arrays passed to calls whose overwritten elements come back. */
  final KeptElements keptElements;
  /** The values whose adjoints the reverse sweep computes; the others get no reverse code. */
  LiveAdjoints live;
  /** How the reverse sweep calls other {@code @Differentiable} methods' pullbacks. */
  final PullbackCalls pullbackCalls;
  /** Where the adjoints of the parameters go: set by {@link ReverseProgram#parts}. */
  AdjointsOut adjointsOut;
  /**
   * The loops outside loops whose reverse follows each of their iterations in the forward
   * sweep ({@link AccumulatingLoops}), by id; none but in the programs of {@link
   * Adjoint#withSplitCalls}.
   */
  Map<Integer, AccumulatingLoops.Fusible> fusedLoops = Map.of();

  // ---- the adjoints

  /** The seed of the reverse sweep: a parameter, or 1 for the gradient. */
  Operand seed;
  /** Per value, its adjoint: see {@link Accumulation}. */
  final Map<Value, Accumulation.AdjointValue> adjoints = new HashMap<>();
  /** Per variable that carries derivatives, the variable of its adjoint. */
  final Map<Variable, Variable> variableAdjoints = new HashMap<>();
  /** The gradient or adjoint array, into which reads of arrays add their adjoints; or null. */
  Value outputArray;
  /** Per local array that carries derivatives, its adjoint array, made beside it. */
  final Map<Value, Value> adjointArrays = new HashMap<>();
  /**
   * In the pullback that callers call, per active array parameter, the array its adjoints go
   * into (see {@link ArraySlots#perParameter}); empty when they go into {@link #outputArray}.
   */
  Map<Value, Value> parameterTargets = Map.of();
  /**
   * The reads, after a fused loop, of the sums it adds into: the adjoint they would pass back is
   * the one the loop's reverse took before the loop ran, so the reverse sweep computes none.
   */
  final Set<Value> sumReadsAfterFusedLoops = new java.util.HashSet<>();

  // ---- what the forward sweep hands to the reverse sweep

  /** The variable the forward sweep stores the value returned into, outside straight lines. */
  Variable result;
  /** Per loop, the variable that counts its trips (outside loops). */
  final Map<Integer, Variable> tripCounts = new HashMap<>();

  /**
   * A long {@code if / else if} chain outside loops ({@link BranchChains#longChain}): its links,
   * and the variable that holds the number of the piece the forward sweep took.
   */
  record LongChain(List<If> links, Variable piece) {}

  /** The long chains outside loops, by their first link's id. */
  final Map<Integer, LongChain> longChains = new HashMap<>();
  /**
   * Per block of a piece of a long chain ({@link LongChainSlots#pieceSlots}), the values made
   * there that the piece's reverse reads, each with the variable that carries it from the forward
   * sweep to the reverse sweep, stored at the block's end.
   */
  final Map<Block, Map<Value, Variable>> carriedFrom = new IdentityHashMap<>();
  /**
   * The local arrays made in a piece of a long chain ({@code double[] a = {...}}, {@code new
   * double[n]}) whose adjoint arrays the reverse sweep of the piece makes, not the forward
   * sweep: only that reverse adds into them, and an adjoint array made in the forward sweep was
   * one more variable per piece handed from part to part.
   */
  final Set<Instruction> arraysOfPieces =
      java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  /**
   * Per local array made inside a loop, the longest length it had: the one adjoint array of all
   * its iterations is that long (cleared at the reverse of each making). In the order the
   * arrays are made: values hash by identity, and the adjoint arrays are declared in this order.
   */
  final Map<Value, Variable> longestLengths = new LinkedHashMap<>();
  /** Per store that {@link #keptElements} keeps, the element it wrote over. */
  final Map<Instruction, Value> overwrittenElements = new IdentityHashMap<>();
  /** Per checkpointed loop, the variables of its snapshots. */
  final Map<Integer, CheckpointedLoops.Snapshots> snapshots = new HashMap<>();
  /**
   * The variables that a checkpointed loop inside a branch reads or assigns and that the user
   * declared in a branch: declared at the top of the program instead, and assigned where the
   * user declared them, so that the reverse sweep, outside the forward sweep's branch, reads
   * and restores the same variables ({@link TopLevelCounters}).
   */
  final Set<Variable> topLevelState = java.util.Collections.newSetFromMap(
      new IdentityHashMap<>());
  /** The calls whose reverse this program's reverse sweep makes: the forward sweep records. */
  final java.util.Set<Instruction> replayedCalls =
      java.util.Collections.newSetFromMap(new IdentityHashMap<>());

  // ---- where the walk is

  /** Per block of the reverse sweep, the values taken back from the tape. */
  final Map<Block, Map<Value, Operand>> restored = new IdentityHashMap<>();
  /** The branches the forward sweep is inside, innermost first: true in a then-block. */
  final Deque<Boolean> openBranches = new ArrayDeque<>();
  /** For each enclosing loop, how many open branches lie outside its body. */
  final Deque<Integer> loopBranchBase = new ArrayDeque<>(List.of(0));
  /** The reverse loops the reverse sweep is inside, for the values it computes again. */
  final Recomputation.Place place = new Recomputation.Place();
  /**
   * While the reverse sweep of a checkpointed loop's iteration follows the iteration computed
   * anew: what the reverse reads is in locals, not on the tape ({@link
   * CheckpointedLoops#reverseCheckpointedLoop}). A place of the walk, like the open branches,
   * not a variant of the program: the same reverse walk runs on both sides of it.
   */
  boolean iterationInLocals;
  /** The next id for a loop this transform makes: above every id of the primal's. */
  int nextLoopId;

  // ---- the classes of one job each, sharing this state

  final ReverseProgram program = new ReverseProgram(this);
  final SplitHalves halves = new SplitHalves(this);
  final TopLevelCounters counters = new TopLevelCounters(this);
  final LongChainSlots chainSlots = new LongChainSlots(this);
  final BranchChains chains = new BranchChains(this);
  final ForwardWalk forwardWalk = new ForwardWalk(this);
  final PrimalWalk primalWalk = new PrimalWalk(this);
  final FusedLoops fusion = new FusedLoops(this);
  final CheckpointedLoops checkpoints = new CheckpointedLoops(this);
  final ReverseWalk reverseWalk = new ReverseWalk(this);
  final InstructionAdjoints instructions = new InstructionAdjoints(this);
  final Accumulation sums = new Accumulation(this);
  final LocalArrayAdjoints arrays = new LocalArrayAdjoints(this);
  final CallAdjoints calls = new CallAdjoints(this);
  final CommonStatements statements = new CommonStatements(this);

  SweepState(Function primal, FlowAnalysis flow, PullbackCalls pullbackCalls) {
    this.primal = primal;
    this.flow = flow;
    this.tape = new TapePlan(flow);
    this.builder = new IrBuilder(flow.nextId());
    this.straightLine = flow.isStraightLine();
    this.keptElements = KeptElements.of(primal.body(), flow, primal.isCheckpointed());
    this.tripBounds = new TripBounds(primal);
    this.recomputation = new Recomputation(primal, flow, tripBounds);
    this.nextLoopId = maxStatementId(primal.body()) + 1;
    this.pullbackCalls = pullbackCalls;
  }

  private static int maxStatementId(Block block) {
    int max = 0;
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch) {
        max = Math.max(max, Math.max(branch.id(), Math.max(maxStatementId(branch.thenBlock()),
            maxStatementId(branch.elseBlock()))));
      } else if (statement instanceof Loop loop) {
        max = Math.max(max, Math.max(loop.id(), maxStatementId(loop.body())));
      }
    }
    return max;
  }
}
