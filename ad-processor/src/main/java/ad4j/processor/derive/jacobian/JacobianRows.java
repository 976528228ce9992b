package ad4j.processor.derive.jacobian;

import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.analysis.ResultLength;
import ad4j.processor.derive.FreshCopy;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.optimize.AdjointSums;
import ad4j.processor.optimize.RowInvariants;
import ad4j.processor.optimize.SeedFolding;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A vector function's Jacobian by rows, its forward sweep shared: the forward sweep runs once,
 * then the reverse sweep once per element {@code i} of the result, seeded with the unit vector
 * {@code e_i} and adding into row {@code i} of the Jacobian. A Jacobian of p rows then costs one
 * forward sweep and p reverse sweeps, where p pullbacks cost p of each (seed 002: reverse mode
 * gives one row of J per sweep, and the rows share the point they are taken at).
 *
 * <p>The reverse sweep can run again only when it leaves the forward sweep's state as it found
 * it: it puts no overwritten element back, stores into no variable the forward sweep declared,
 * and writes into no array but its adjoint arrays, which are cleared before each row (those of
 * arrays made in loops it makes itself). What loops record on the tape the reverse sweep pops;
 * when it pushes nothing in between and the forward sweep records only numbers, the values are
 * still in place, and {@code Tape.rewind} gives them back for the next row. A call of another
 * {@code @Differentiable} method (whose pullback goes through the tape), a checkpointed loop
 * or an array recorded by reference keeps the Jacobian by whole pullbacks.
 *
 * <p>Where the reverse sweep is straight-line, what every row computes alike from the forward
 * sweep's values is computed once before the rows, and divisions by those values become
 * multiplications by reciprocals ({@link RowInvariants}). Where the method also fixes its
 * result's length at a few elements, the rows are written one after the other and each has its
 * seed folded in ({@link SeedFolding}): the result's adjoints are then constants, not an array,
 * and a row computes only what its own element reaches, as a hand-written Jacobian does.
 */
public final class JacobianRows {
  /**
   * The most rows written one after the other, each with its seed folded in, when the method
   * fixes their number; more take one loop.
   */
  static final int UNROLLED_ROWS = 4;

  private JacobianRows() {}

  /**
   * The program {@code (parameters..., double[][] jacobian, int slots, boolean cleared) ->
   * double[]}: the value of {@code primal}, bit for bit; when the result has no more elements
   * than {@code slots}, the first rows of {@code jacobian} hold the Jacobian, after {@code
   * prepareRows(jacobian, rows, slots)} (a method of the generated class that checks the rows'
   * number and lengths and clears them) has run, unless {@code cleared} says the caller has
   * just made the rows, all zeros. With more elements than slots the matrix is left alone:
   * forward mode, one sweep per slot, is cheaper then, and the caller runs it. Empty when the
   * reverse sweep cannot run more than once after one forward sweep.
   *
   * <p>With {@code unroll}, a method that fixes its result's length at {@link #UNROLLED_ROWS}
   * or less and whose reverse sweep is straight-line gets its rows one after the other, each
   * with its unit seed folded in ({@link SeedFolding}); otherwise, and always without
   * {@code unroll} (for a method too large to hold them), the rows are one loop.
   */
  public static Optional<Function> of(Function primal, FlowAnalysis flow, String prepareRows,
      boolean unroll) {
    return of(primal, flow, new Caller(prepareRows, null), unroll);
  }

  /**
   * As {@link #of}, for a caller that has just made the rows, all zeros, of the right lengths
   * ({@code fJacobian}): the program {@code (parameters..., double[][] jacobian, int slots) ->
   * double[]} neither checks nor clears them, and when the result has more elements than
   * {@code slots} it calls {@code forwardMode(parameters..., rows, jacobian, slots)}, the
   * method of the generated class that fills the rows by forward sweeps, one per slot.
   */
  public static Optional<Function> intoNewRows(Function primal, FlowAnalysis flow,
      String forwardMode, boolean unroll) {
    return of(primal, flow, new Caller(null, forwardMode), unroll);
  }

  /**
   * Which of the generated class's methods the program calls: {@code prepareRows} on rows it
   * is given, or {@code forwardMode} with rows just made; the other is null.
   */
  private record Caller(String prepareRows, String forwardMode) {}

  private static Optional<Function> of(Function primal, FlowAnalysis flow, Caller caller,
      boolean unroll) {
    OptionalInt fixed = unroll ? ResultLength.of(primal) : OptionalInt.empty();
    return Adjoint.pullbackPieces(primal, flow)
        .filter(RerunnableReverse::canRunAgain)
        .map(pieces -> AdjointSums.of(program(primal, pieces, caller, fixed)));
  }

  private static Function program(Function primal, Adjoint.PullbackPieces pieces,
      Caller caller, OptionalInt fixedRows) {
    IrBuilder builder = pieces.builder();
    Value jacobian = builder.generated("jacobian", NumericType.DOUBLE_MATRIX, false);
    Value slots = builder.generated("slots", NumericType.INT, false);
    List<Value> parameters = new ArrayList<>(primal.parameters());
    parameters.add(jacobian);
    parameters.add(slots);

    boolean recording = RerunnableReverse.records(pieces.preamble())
        || RerunnableReverse.records(pieces.forward());
    List<Statement> byRows = new ArrayList<>();
    byRows.add(new Note("the reverse sweep once per element i of the result, seeded with e_i:"
        + " row i of the Jacobian", null));
    Value rows = builder.generated("rows", NumericType.INT, false);
    if (caller.prepareRows() != null) {
      // rows the caller has just made are of the right lengths and all zeros already
      Value cleared = builder.generated("cleared", NumericType.BOOLEAN, false);
      parameters.add(cleared);
      Site notCleared = Site.formulas(builder, null);
      Operand prepare = notCleared.apply(Operation.NOT, NumericType.BOOLEAN,
          new Operand.Use(cleared));
      byRows.addAll(notCleared.instructionsFor(List.of(prepare)));
      byRows.add(new If(pieces.nextLoopId() + 2, prepare, new Block(List.of(new Instruction(
          builder.generated("prepared", NumericType.VOID, false),
          Operation.plainCall(caller.prepareRows(), 3), List.of(new Operand.Use(jacobian),
              new Operand.Use(rows), new Operand.Use(slots)), null))), new Block(List.of()),
          null));
    }
    // what the forward sweep recorded, each row's reverse sweep takes back again
    Value recorded = recording ? mark("recorded", builder, byRows) : null;
    List<Statement> sweep = pieces.reverse();
    int unrolled = 0;
    if (isStraightLine(sweep)) {
      List<Statement> forward = new ArrayList<>(pieces.preamble());
      forward.addAll(pieces.forward());
      RowInvariants.Split split = RowInvariants.of(sweep, forward, forwardValues(pieces),
          fixedRows.orElse(2) > 1, builder);
      if (!split.before().isEmpty()) {
        byRows.add(new Note("what every row's reverse sweep computes alike, computed once",
            null));
        byRows.addAll(split.before());
      }
      sweep = split.sweep();
      int fixed = fixedRows.orElse(0);
      if (fixed > 0 && fixed <= UNROLLED_ROWS) {
        unrolled = fixed;
      }
    }
    Value seeded = seededArray(pieces);
    List<List<Statement>> rowSweeps = new ArrayList<>();
    for (int i = 0; i < unrolled; i++) {
      rowSweeps.add(unrolledRow(pieces, sweep, seeded, jacobian, i, unrolled, recorded));
    }
    // where the seeds folded away all the result's adjoint array held, the rows no longer
    // clear it or store into it, and the forward sweep need not make it
    boolean seedRead = unrolled == 0
        || rowSweeps.stream().anyMatch(row -> SeedFolding.reads(row, seeded));
    for (List<Statement> row : rowSweeps) {
      byRows.addAll(seedRead ? row : SeedFolding.withoutWrites(row, seeded));
    }
    if (unrolled == 0) {
      byRows.addAll(rowLoop(pieces, sweep, jacobian, rows, recorded));
    }

    List<Statement> body = new ArrayList<>();
    Value unrecorded = recording ? mark("unrecorded", builder, body) : null;
    body.addAll(pieces.preamble());
    for (Statement statement : pieces.forward()) {
      // without the result's adjoint array, where the unrolled rows no longer read it
      if (seedRead || !(statement instanceof Instruction made && made.result() == seeded)) {
        body.add(statement);
      }
    }
    body.add(new Instruction(rows, Operation.LENGTH, List.of(pieces.returned()), null));
    Site compare = Site.formulas(builder, null);
    Operand reverseIsCheaper = compare.apply(Operation.infix("<="), NumericType.BOOLEAN,
        new Operand.Use(rows), new Operand.Use(slots));
    body.addAll(compare.instructionsFor(List.of(reverseIsCheaper)));

    List<Statement> otherwise = new ArrayList<>();
    if (recording) {
      // forward mode is cheaper, and the caller runs it: the recording is not needed
      otherwise.add(new Instruction(builder.generated("dropped", NumericType.VOID, false),
          Operation.tapeCall("reset", 1), List.of(new Operand.Use(unrecorded)), null));
    }
    if (caller.forwardMode() != null) {
      otherwise.add(forwardModeCall(caller.forwardMode(), primal, rows, jacobian, slots,
          builder));
    }
    body.add(new If(pieces.nextLoopId() + 1, reverseIsCheaper, new Block(byRows),
        new Block(otherwise), null));
    body.add(new Return(pieces.returned(), null));
    return primal.with(parameters, new Block(body));
  }

  /** {@code forwardMode(parameters..., rows, jacobian, slots)}. */
  private static Instruction forwardModeCall(String forwardMode, Function primal, Value rows,
      Value jacobian, Value slots, IrBuilder builder) {
    List<Operand> arguments = new ArrayList<>();
    primal.parameters().forEach(parameter -> arguments.add(new Operand.Use(parameter)));
    arguments.add(new Operand.Use(rows));
    arguments.add(new Operand.Use(jacobian));
    arguments.add(new Operand.Use(slots));
    return new Instruction(builder.generated("forwardMode", NumericType.VOID, false),
        Operation.plainCall(forwardMode, arguments.size()), arguments, null);
  }

  /** Whether {@code instruction} is the pullback's {@code Slots.seed(seed, resultAdjoints)}. */
  static boolean isSeeding(Instruction instruction, Value seed) {
    return instruction.operation().form() == Operation.Form.SLOTS_CALL
        && instruction.operation().isSlotsCall(SlotsCall.SEED)
        && instruction.arguments().get(0) instanceof Operand.Use use && use.value() == seed;
  }

  /** {@code long name = tape.mark()}. */
  private static Value mark(String name, IrBuilder builder, List<Statement> out) {
    Value mark = builder.generated(name, NumericType.LONG, false);
    out.add(new Instruction(mark, Operation.tapeCall("mark", 0), List.of(), null));
    return mark;
  }

  /**
   * {@code for (int row = 0; row < rows; row++)}: the recording back on the tape, the row as
   * the adjoints, the adjoint arrays cleared, the reverse sweep seeded with the unit vector of
   * the row: the result's adjoint is 1 at the row, where the pullback adds its seed
   * ({@code Slots.seed}).
   */
  private static List<Statement> rowLoop(Adjoint.PullbackPieces pieces,
      List<Statement> reverse, Value jacobian, Value rows, Value recorded) {
    IrBuilder builder = pieces.builder();
    Variable row = builder.generatedVariable("row", NumericType.INT);
    List<Statement> sweep = rowSweep(pieces, reverse, jacobian, new Operand.Read(row), recorded);

    Site condition = Site.formulas(builder, null);
    Operand more = condition.isLessThan(new Operand.Read(row), new Operand.Use(rows));
    Site next = Site.formulas(builder, null);
    Operand following = next.apply(Operation.ADD, NumericType.INT, new Operand.Read(row),
        Operand.Constant.of(1));
    List<Statement> update = new ArrayList<>(next.instructionsFor(List.of(following)));
    update.add(new Store(row, following, null));
    return List.of(new Declare(row, Operand.Constant.of(0), null),
        new Loop(pieces.nextLoopId(), new Block(new ArrayList<>(
            condition.instructionsFor(List.of(more)))), more, true, new Block(sweep),
            new Block(update), null, Loop.Kind.GENERATED));
  }

  /**
   * Row {@code row} of the Jacobian, for rows written one after the other: its sweep with fresh
   * values, the seed {@code e_row} folded in ({@link SeedFolding}).
   */
  private static List<Statement> unrolledRow(Adjoint.PullbackPieces pieces,
      List<Statement> reverse, Value seeded, Value jacobian, int row, int rows,
      Value recorded) {
    List<Statement> sweep = rowSweep(pieces, reverse, jacobian, Operand.Constant.of(row),
        recorded);
    int adjointsAt = recorded == null ? 0 : 1;
    List<Statement> copy = new FreshCopy(pieces.builder()).of(new Block(sweep)).statements();
    Value adjoints = ((Instruction) copy.get(adjointsAt)).result();
    return SeedFolding.fold(copy, seeded, rows, adjoints);
  }

  /**
   * One row's reverse sweep: the recording back on the tape, the row of {@code jacobian} at
   * {@code row} as the adjoints, the adjoint arrays cleared, {@code reverse} seeded with the
   * unit vector of the row.
   */
  private static List<Statement> rowSweep(Adjoint.PullbackPieces pieces,
      List<Statement> reverse, Value jacobian, Operand row, Value recorded) {
    IrBuilder builder = pieces.builder();
    List<Statement> sweep = new ArrayList<>();
    if (recorded != null) {
      sweep.add(new Instruction(builder.generated("rewound", NumericType.VOID, false),
          Operation.tapeCall("rewind", 1), List.of(new Operand.Use(recorded)), null));
    }
    sweep.add(new Instruction(pieces.adjoints(), Operation.ELEMENT,
        List.of(new Operand.Use(jacobian), row), null));
    for (Value adjointArray : madeByForward(pieces)) {
      // every row starts from zero adjoints: the previous row's reverse sweep left its own
      sweep.add(new Instruction(builder.generated("cleared", NumericType.INT, false),
          Operation.slotsCall(SlotsCall.CLEAR, 1), List.of(new Operand.Use(adjointArray)), null));
    }
    for (Statement statement : reverse) {
      if (statement instanceof Instruction seeding && isSeeding(seeding, pieces.seed())) {
        // the result's adjoints are zero here: the unit seed is one store
        sweep.add(new ElementStore(((Operand.Use) seeding.arguments().get(1)).value(), row,
            Operand.Constant.of(1.0), true, null));
      } else {
        sweep.add(statement);
      }
    }
    return sweep;
  }

  /** The result's adjoints, into which the pullback adds its seed. */
  private static Value seededArray(Adjoint.PullbackPieces pieces) {
    for (Statement statement : pieces.reverse()) {
      if (statement instanceof Instruction seeding && isSeeding(seeding, pieces.seed())) {
        return ((Operand.Use) seeding.arguments().get(1)).value();
      }
    }
    throw new IllegalStateException("the reverse sweep adds no seed");
  }

  /** The values the preamble and the forward sweep define outside branches and loops. */
  private static Set<Value> forwardValues(Adjoint.PullbackPieces pieces) {
    Set<Value> values = new HashSet<>(pieces.parameters());
    values.addAll(RerunnableReverse.madeIn(pieces.preamble()));
    values.addAll(RerunnableReverse.madeIn(pieces.forward()));
    return values;
  }

  /** Whether {@code statements} have no branch, no loop, nothing but these kinds. */
  private static boolean isStraightLine(List<Statement> statements) {
    return statements.stream().allMatch(statement -> statement instanceof Instruction
        || statement instanceof ElementStore || statement instanceof Declare
        || statement instanceof Store || statement instanceof Note);
  }

  /** The adjoint arrays the forward sweep makes, beside their arrays: cleared for each row. */
  private static List<Value> madeByForward(Adjoint.PullbackPieces pieces) {
    Set<Value> made = RerunnableReverse.madeIn(pieces.forward());
    return pieces.adjointArrays().stream().filter(made::contains).toList();
  }

}
