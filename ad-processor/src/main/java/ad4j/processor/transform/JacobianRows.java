package ad4j.processor.transform;

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
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A vector function's Jacobian by rows, its forward sweep shared: the forward sweep runs once,
 * then the reverse sweep once per element {@code i} of the result, seeded with the unit vector
 * {@code e_i} and adding into row {@code i} of the Jacobian. A Jacobian of p rows then costs one
 * forward sweep and p reverse sweeps, where p pullbacks cost p of each (seed 002: reverse mode
 * gives one row of J per sweep, and the rows share the point they are taken at).
 *
 * <p>The reverse sweep can run again only when it leaves the forward sweep's state as it found
 * it: it reads no tape (a loop or a call of another {@code @Differentiable} method records on
 * it, and the reverse takes the records off), puts no overwritten element back, stores into no
 * variable the forward sweep declared, and writes into no array but its adjoint arrays, which
 * are cleared before each row. A vector function whose reverse sweep does not qualify keeps its
 * Jacobian by whole pullbacks.
 */
public final class JacobianRows {
  private JacobianRows() {}

  /**
   * The program {@code (parameters..., double[][] jacobian, int slots) -> double[]}: the value
   * of {@code primal}, bit for bit; when the result has no more elements than {@code slots},
   * the first rows of {@code jacobian} hold the Jacobian, after {@code prepareRows(jacobian,
   * rows, slots)} (a method of the generated class that checks the rows' number and lengths and
   * clears them) has run. With more elements than slots the matrix is left alone: forward mode,
   * one sweep per slot, is cheaper then, and the caller runs it. Empty when the reverse sweep
   * cannot run more than once after one forward sweep.
   */
  public static Optional<Function> of(Function primal, FlowAnalysis flow, String prepareRows) {
    return Adjoint.pullbackPieces(primal, flow)
        .filter(JacobianRows::canRunAgain)
        .map(pieces -> AdjointSums.of(program(primal, pieces, prepareRows)));
  }

  private static Function program(Function primal, Adjoint.PullbackPieces pieces,
      String prepareRows) {
    IrBuilder builder = pieces.builder();
    Value jacobian = builder.generated("jacobian", NumericType.DOUBLE_MATRIX, false);
    Value slots = builder.generated("slots", NumericType.INT, false);
    List<Value> parameters = new ArrayList<>(primal.parameters());
    parameters.add(jacobian);
    parameters.add(slots);

    List<Statement> body = new ArrayList<>(pieces.preamble());
    body.addAll(pieces.forward());
    Value rows = builder.generated("rows", NumericType.INT, false);
    body.add(new Instruction(rows, Operation.LENGTH, List.of(pieces.returned()), null));
    Site compare = Site.formulas(builder, null);
    Operand reverseIsCheaper = compare.apply(Operation.infix("<="), NumericType.BOOLEAN,
        new Operand.Use(rows), new Operand.Use(slots));
    body.addAll(compare.instructionsFor(List.of(reverseIsCheaper)));

    List<Statement> byRows = new ArrayList<>();
    byRows.add(new Note("the reverse sweep once per element i of the result, seeded with e_i:"
        + " row i of the Jacobian", null));
    byRows.add(new Instruction(builder.generated("prepared", NumericType.VOID, false),
        Operation.plainCall(prepareRows, 3), List.of(new Operand.Use(jacobian),
            new Operand.Use(rows), new Operand.Use(slots)), null));
    Value seed = pieces.seed();
    byRows.add(new Instruction(seed, Operation.newArray(NumericType.DOUBLE),
        List.of(new Operand.Use(rows)), null));
    Variable row = builder.generatedVariable("row", NumericType.INT);
    byRows.add(new Declare(row, Operand.Constant.of(0), null));
    Site condition = Site.formulas(builder, null);
    Operand more = condition.isLessThan(new Operand.Read(row), new Operand.Use(rows));
    List<Statement> sweep = new ArrayList<>();
    sweep.add(new Instruction(pieces.adjoints(), Operation.ELEMENT,
        List.of(new Operand.Use(jacobian), new Operand.Read(row)), null));
    sweep.add(new ElementStore(seed, new Operand.Read(row), Operand.Constant.of(1.0), false,
        null));
    for (Value adjointArray : pieces.adjointArrays()) {
      // every row starts from zero adjoints: the previous row's reverse sweep left its own
      sweep.add(new Instruction(builder.generated("cleared", NumericType.INT, false),
          Operation.slotsCall(Adjoint.CLEAR, 1), List.of(new Operand.Use(adjointArray)), null));
    }
    sweep.addAll(pieces.reverse());
    sweep.add(new ElementStore(seed, new Operand.Read(row), Operand.Constant.of(0.0), false,
        null));
    Site next = Site.formulas(builder, null);
    Operand following = next.apply(Operation.ADD, NumericType.INT, new Operand.Read(row),
        Operand.Constant.of(1));
    List<Statement> update = new ArrayList<>(next.instructionsFor(List.of(following)));
    update.add(new Store(row, following, null));
    int loopId = pieces.nextLoopId();
    byRows.add(new Loop(loopId, new Block(new ArrayList<>(condition.instructionsFor(List.of(more)))),
        more, true,
        new Block(sweep), new Block(update), null));
    body.add(new If(loopId + 1, reverseIsCheaper, new Block(byRows), new Block(List.of()),
        null));
    body.add(new Return(pieces.returned(), null));
    return primal.with(parameters, new Block(body));
  }

  /** Whether the reverse sweep can run once per row after one forward sweep (see above). */
  private static boolean canRunAgain(Adjoint.PullbackPieces pieces) {
    if (pieces.keepsElements() || usesTape(pieces.preamble()) || usesTape(pieces.forward())
        || usesTape(pieces.reverse())) {
      return false;
    }
    // the adjoint arrays are cleared at the top of each row: they must be made outside branches
    Set<Value> madeAtTop = new HashSet<>();
    for (Statement statement : pieces.forward()) {
      if (statement instanceof Instruction instruction) {
        madeAtTop.add(instruction.result());
      }
    }
    if (!madeAtTop.containsAll(pieces.adjointArrays())) {
      return false;
    }
    Set<Value> writable = new HashSet<>(pieces.adjointArrays());
    writable.add(pieces.adjoints());
    return writesOnly(pieces.reverse(), writable, new HashSet<>());
  }

  /**
   * Whether {@code statements} store only into {@code writable} arrays and into variables they
   * declare themselves (collected into {@code declared} on the way).
   */
  private static boolean writesOnly(List<Statement> statements, Set<Value> writable,
      Set<Variable> declared) {
    for (Statement statement : statements) {
      if (statement instanceof Declare declare) {
        declared.add(declare.variable());
      } else if (statement instanceof Store store && !declared.contains(store.variable())) {
        return false;
      } else if (statement instanceof ElementStore store && !writable.contains(store.array())) {
        return false;
      } else if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.STORE) {
        return false;
      } else if (statement instanceof If branch && !(
          writesOnly(branch.thenBlock().statements(), writable, declared)
          && writesOnly(branch.elseBlock().statements(), writable, declared))) {
        return false;
      } else if (statement instanceof Loop) {
        return false;
      }
    }
    return true;
  }

  /** Whether the statements record on the tape or take from it, or contain a loop. */
  private static boolean usesTape(List<Statement> statements) {
    for (Statement statement : statements) {
      if (statement instanceof Loop || statement instanceof Push) {
        return true;
      }
      if (statement instanceof Instruction instruction) {
        switch (instruction.operation().form()) {
          case POP, TAPE_CALL, PULLBACK_CALL, LOCAL_CALL -> {
            return true;
          }
          default -> { }
        }
      }
      if (statement instanceof If branch && (usesTape(branch.thenBlock().statements())
          || usesTape(branch.elseBlock().statements()))) {
        return true;
      }
    }
    return false;
  }
}
