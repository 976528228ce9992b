package ad4j.processor.derive.reverse;

import ad4j.processor.derive.FreshCopy;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code @Checkpointed} loops: the forward sweep records only snapshots of the loop's state;
 * the reverse sweep replays each segment from its snapshot and reverses each iteration right
 * after computing it anew. Apart because it drives both sweeps in a pattern of its own.
 */
final class CheckpointedLoops {
  private final SweepState s;

  CheckpointedLoops(SweepState s) {
    this.s = s;
  }

  /**
   * A checkpointed loop's snapshots: the loop's state (variables of {@code double},
   * {@code float}, {@code int}, {@code long} or {@code boolean}), the tape's mark below the
   * first snapshot, the iterations between two snapshots and the trip count of the next one.
   */
  record Snapshots(List<Variable> state, Variable start, Variable every,
      Variable next) {
    /** The state's variables recorded as {@code double}s, in order. */
    List<Variable> doubles() {
      return state.stream().filter(v -> v.type().isFloatingPoint()).toList();
    }

    /** The state's variables recorded as {@code long}s ({@code int}, {@code long}, booleans). */
    List<Variable> longs() {
      return state.stream().filter(v -> !v.type().isFloatingPoint()).toList();
    }
  }

  /**
   * The forward sweep of a checkpointed loop runs as the primal does and records no value of its
   * iterations: at the start of every {@code every}-th iteration it pushes a snapshot of the
   * loop's state, and {@code Tape.makeRoomForSnapshot} drops every other snapshot (doubling
   * {@code every}) when the method's limit is held, so that their number stays bounded
   * whatever the trip count.
   */
  void forwardCheckpointedLoop(Loop loop, List<Statement> out) {
    Snapshots loopSnapshots = s.snapshots.get(loop.id());
    Variable count = s.tripCounts.get(loop.id());
    SourceLine line = loop.line();
    out.add(new Store(loopSnapshots.start(),
        s.statements.tapeCall("mark", NumericType.LONG, List.of(), line, out), line));
    Site site = Site.formulas(s.builder, line);
    Operand due = site.isEqualTo(new Operand.Read(count), new Operand.Read(loopSnapshots.next()));
    List<Statement> snapshot = new ArrayList<>();
    snapshot.add(new Note("a snapshot of the loop's state", null));
    Operand every = s.statements.tapeCall("makeRoomForSnapshot", NumericType.INT, List.of(
        new Operand.Read(loopSnapshots.start()),
        Operand.Constant.of(loopSnapshots.doubles().size()),
        Operand.Constant.of(loopSnapshots.longs().size()),
        Operand.Constant.of(s.primal.snapshots()),
        new Operand.Read(loopSnapshots.every())), line, snapshot);
    snapshot.add(new Store(loopSnapshots.every(), every, line));
    pushState(loopSnapshots, snapshot);
    Site next = Site.formulas(s.builder, line);
    Operand nextTrip = next.apply(Operation.ADD, count.type(),
        new Operand.Read(loopSnapshots.next()), new Operand.Read(loopSnapshots.every()));
    snapshot.addAll(next.instructionsFor(List.of(nextTrip)));
    snapshot.add(new Store(loopSnapshots.next(), nextTrip, line));
    List<Statement> body = new ArrayList<>(site.instructionsFor(List.of(due)));
    body.add(new If(s.nextLoopId++, due, new Block(snapshot), new Block(List.of()), line));
    body.addAll(s.statements.step(count, Operation.ADD, line));
    FreshCopy copy = new FreshCopy(s.builder);
    Block condition = copy.of(s.primalWalk.forward(loop.condition()));
    Operand test = loop.test() == null ? null : copy.map(loop.test());
    body.addAll(copy.of(s.primalWalk.forward(loop.body())).statements());
    Block update = copy.of(s.primalWalk.forward(loop.update()));
    out.add(new Loop(loop.id(), condition, test, loop.testFirst(), new Block(body), update,
        line, loop.kind()));
  }

  /**
   * The reverse of a checkpointed loop, segment by segment from the last: the state comes back
   * from the segment's snapshot; the segment's iterations but its last run forward again,
   * each pushing the state it starts from; then, for each iteration from the last, its state
   * comes back (from the tape, or as the forward run left it), the iteration is computed once
   * more, recording nothing, and its reverse follows, reading the values it needs from the
   * locals just computed. Last, the snapshots leave the tape.
   */
  void reverseCheckpointedLoop(Loop loop, List<Statement> out) {
    Snapshots loopSnapshots = s.snapshots.get(loop.id());
    SourceLine line = loop.line().adjoint();
    Operand trips = new Operand.Read(s.tripCounts.get(loop.id()));
    // a loop counted by a long counts its trips, and so its segments' iterations, in longs
    NumericType tripType = trips.type();
    Operand every = new Operand.Read(loopSnapshots.every());
    Operand start = new Operand.Read(loopSnapshots.start());
    // segments = (trips + every - 1) / every: one per snapshot taken
    Site count = Site.formulas(s.builder, line);
    Operand segments = count.apply(Operation.DIVIDE, tripType,
        count.apply(Operation.SUBTRACT, tripType,
            count.apply(Operation.ADD, tripType, trips, every), Operand.Constant.of(1)),
        every);
    out.addAll(count.instructionsFor(List.of(segments)));
    Variable segment = s.builder.generatedVariable("loop" + loop.id() + "Segment", tripType);
    out.add(new Declare(segment, segments, line));
    Site more = Site.formulas(s.builder, line);
    Operand anyLeft = more.isGreaterThan(new Operand.Read(segment),
        Operand.Constant.zero(NumericType.INT));
    List<Statement> segmentBody =
        new ArrayList<>(s.statements.step(segment, Operation.SUBTRACT, line));
    Operand first = s.statements.named("first", tripType, Operation.MULTIPLY,
        List.of(new Operand.Read(segment), every), line, segmentBody);
    Site bound = Site.formulas(s.builder, line);
    Operand end = bound.apply(Operation.ADD, tripType, first, every);
    segmentBody.addAll(bound.instructionsFor(List.of(end)));
    Operand last = s.statements.named("last", tripType,
        Operation.call(MathOwner.MATH, "min", 2), List.of(end, trips), line, segmentBody);
    Operand snapshot = new Operand.Read(segment);
    if (tripType != NumericType.INT) {
      // at most the snapshots' limit of segments: the snapshot's number is an int
      snapshot = s.statements.named("snapshot", NumericType.INT, Operation.cast(NumericType.INT),
          List.of(snapshot), line, segmentBody);
    }
    restoreSnapshot(loopSnapshots, snapshot, start, line, segmentBody);
    segmentBody.addAll(replay(loop, loopSnapshots, first, last, line));
    segmentBody.addAll(reverseIterations(loop, loopSnapshots, first, last, line));
    out.add(new Loop(s.nextLoopId++,
        new Block(new ArrayList<>(more.instructionsFor(List.of(anyLeft)))), anyLeft,
        true, new Block(segmentBody), new Block(List.of()), line, Loop.Kind.GENERATED));
    out.add(new Instruction(s.builder.generated("dropped", NumericType.VOID, false),
        Operation.tapeCall("reset", 1), List.of(start), line));
  }

  /**
   * {@code for (int replayed = first + 1; replayed < last; replayed++)}: the iterations of the
   * segment but its last, from the state of its first, each pushing the state it starts from.
   */
  private List<Statement> replay(Loop loop, Snapshots loopSnapshots, Operand first,
      Operand last,
      SourceLine line) {
    Variable replayed = s.builder.generatedVariable("replayed", first.type());
    Site site = Site.formulas(s.builder, line);
    Operand test = site.isLessThan(new Operand.Read(replayed), last);
    List<Statement> body = new ArrayList<>();
    pushState(loopSnapshots, body);
    FreshCopy copy = new FreshCopy(s.builder);
    Block condition = copy.of(s.primalWalk.forward(loop.condition()));
    if (loop.testFirst() && readsAnyOf(loop, condition)) {
      body.addAll(condition.statements());
    }
    body.addAll(copy.of(s.primalWalk.forward(loop.body())).statements());
    List<Statement> update =
        new ArrayList<>(copy.of(s.primalWalk.forward(loop.update())).statements());
    update.addAll(s.statements.step(replayed, Operation.ADD, loop.line()));
    List<Statement> around = new ArrayList<>();
    Site from = Site.formulas(s.builder, line);
    Operand second = from.apply(Operation.ADD, first.type(), first, Operand.Constant.of(1));
    around.addAll(from.instructionsFor(List.of(second)));
    around.add(new Declare(replayed, second, line));
    around.add(new Loop(loop.id(),
        new Block(new ArrayList<>(site.instructionsFor(List.of(test)))), test, true,
        new Block(body), new Block(update), line, loop.kind()));
    return around;
  }

  /**
   * {@code for (int iteration = last; iteration > first; iteration--)}: each iteration of the
   * segment computed anew and, right after, its reverse.
   */
  private List<Statement> reverseIterations(Loop loop, Snapshots loopSnapshots, Operand first,
      Operand last, SourceLine line) {
    Variable iteration = s.builder.generatedVariable("iteration" + loop.id(), last.type());
    Site site = Site.formulas(s.builder, line);
    Operand test = site.isGreaterThan(new Operand.Read(iteration), first);
    List<Statement> body = new ArrayList<>();
    Site notLast = Site.formulas(s.builder, line);
    Operand popState = notLast.isLessThan(new Operand.Read(iteration), last);
    body.addAll(notLast.instructionsFor(List.of(popState)));
    List<Statement> pops = new ArrayList<>();
    List<Variable> state = loopSnapshots.state();
    List<Variable> pushed = new ArrayList<>(loopSnapshots.doubles());
    pushed.addAll(loopSnapshots.longs());
    for (int i = pushed.size() - 1; i >= 0; i--) {
      Variable variable = pushed.get(i);
      pops.add(new Store(variable, s.statements.pop(variable.type(), line, pops), line));
    }
    if (!state.isEmpty()) {
      body.add(new If(s.nextLoopId++, popState, new Block(pops), new Block(List.of()), line));
    }
    List<Statement> again = new ArrayList<>();
    Block condition = s.primalWalk.forward(loop.condition());
    if (loop.testFirst() && readsAnyOf(loop, condition)) {
      again.addAll(condition.statements());
    }
    again.addAll(s.primalWalk.forward(loop.body()).statements());
    if (loop.body().jumpsTo(loop.id(), Jump.Kind.BREAK, Jump.Kind.CONTINUE)) {
      // a break or continue of the iteration computed anew leaves only that computation
      body.add(new Loop(loop.id(), new Block(List.of()), Operand.Constant.of(false), false,
          new Block(again), new Block(List.of()), loop.line(), loop.kind()));
    } else {
      body.addAll(again);
    }
    s.iterationInLocals = true;
    body.addAll(s.reverseWalk.reverse(loop.body()));
    s.iterationInLocals = false;
    List<Statement> around = new ArrayList<>();
    around.add(new Declare(iteration, last, line));
    around.add(new Loop(s.nextLoopId++,
        new Block(new ArrayList<>(site.instructionsFor(List.of(test)))), test, true,
        new Block(body), new Block(s.statements.step(iteration, Operation.SUBTRACT, line)),
        line, Loop.Kind.GENERATED));
    return around;
  }

  /** Whether the loop's body or update reads a value that {@code condition} computes. */
  private static boolean readsAnyOf(Loop loop, Block condition) {
    java.util.Set<Value> defined = new java.util.HashSet<>();
    for (Statement statement : condition.statements()) {
      if (statement instanceof Instruction instruction) {
        defined.add(instruction.result());
      }
    }
    return !defined.isEmpty() && (reads(loop.body(), defined) || reads(loop.update(), defined));
  }

  private static boolean reads(Block block, java.util.Set<Value> values) {
    for (Statement statement : block.statements()) {
      if (statement.operands().stream().anyMatch(
          operand -> operand instanceof Operand.Use use && values.contains(use.value()))) {
        return true;
      }
      if (statement instanceof If branch
          && (reads(branch.thenBlock(), values) || reads(branch.elseBlock(), values))) {
        return true;
      }
    }
    return false;
  }

  /** Pushes the loop's state: its {@code double}s, then its {@code long}s. */
  private static void pushState(Snapshots loopSnapshots, List<Statement> out) {
    for (Variable variable : loopSnapshots.doubles()) {
      out.add(new Push(new Operand.Read(variable), null));
    }
    for (Variable variable : loopSnapshots.longs()) {
      out.add(new Push(new Operand.Read(variable), null));
    }
  }

  /** The state's variables from snapshot number {@code index}, read where it lies. */
  private void restoreSnapshot(Snapshots loopSnapshots, Operand index, Operand start,
      SourceLine line, List<Statement> out) {
    restoreFrom(loopSnapshots.doubles(), index, start, line, out);
    restoreFrom(loopSnapshots.longs(), index, start, line, out);
  }

  private void restoreFrom(List<Variable> variables, Operand index, Operand start,
      SourceLine line, List<Statement> out) {
    for (int i = 0; i < variables.size(); i++) {
      Variable variable = variables.get(i);
      // index * size + i, written without the factor 1 and the term 0
      Site site = Site.formulas(s.builder, line);
      Operand place = variables.size() == 1 ? index : site.apply(Operation.MULTIPLY,
          NumericType.INT, index, Operand.Constant.of(variables.size()));
      if (i > 0) {
        place = site.apply(Operation.ADD, NumericType.INT, place, Operand.Constant.of(i));
      }
      out.addAll(site.instructionsFor(List.of(place)));
      String method = switch (variable.type()) {
        case DOUBLE, FLOAT -> "doubleAt";
        case INT -> "intAt";
        case LONG -> "longAt";
        default -> "booleanAt";
      };
      NumericType read = variable.type() == NumericType.FLOAT ? NumericType.DOUBLE
          : variable.type();
      Value value = s.builder.formula(read, false);
      out.add(new Instruction(value, Operation.tapeCall(method, 2), List.of(start, place),
          line));
      Operand restored = new Operand.Use(value);
      if (variable.type() == NumericType.FLOAT) {
        Value narrowed = s.builder.formula(NumericType.FLOAT, false);
        out.add(new Instruction(narrowed, Operation.cast(NumericType.FLOAT),
            List.of(restored), line));
        restored = new Operand.Use(narrowed);
      }
      out.add(new Store(variable, restored, line));
    }
  }
}
