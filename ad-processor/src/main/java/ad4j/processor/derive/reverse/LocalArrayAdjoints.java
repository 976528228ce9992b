package ad4j.processor.derive.reverse;

import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.List;
import java.util.Map;

/**
 * The adjoints of local arrays: their adjoint arrays (made beside them, or once as long as the
 * longest for arrays made in loops, cleared per iteration), the elements kept when a store writes
 * over an array passed to calls, and where an array's adjoints go. Apart because arrays carry
 * adjoints in arrays, not in variables.
 */
final class LocalArrayAdjoints {
  private final SweepState s;

  LocalArrayAdjoints(SweepState s) {
    this.s = s;
  }

  /**
   * {@code aLongest = 0} at the top, for each local array {@code a} made inside a loop
   * ({@code new}, {@code clone()}, a vector function's result): a new array in each
   * iteration, all of whose adjoints the reverse sweep keeps in one adjoint array, made once, as
   * long as the longest of them.
   */
  void declareLongestLengths(Block block, List<Statement> out) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction && makesLocalArray(instruction)
          && s.flow.loopDepth(block) > 0) {
        Variable longest = s.builder.derivedVariable(instruction.result(), "Longest",
            NumericType.INT);
        out.add(new Declare(longest, Operand.Constant.zero(NumericType.INT), null));
        s.longestLengths.put(instruction.result(), longest);
      } else if (statement instanceof If branch) {
        declareLongestLengths(branch.thenBlock(), out);
        declareLongestLengths(branch.elseBlock(), out);
      } else if (statement instanceof Loop loop) {
        declareLongestLengths(loop.condition(), out);
        declareLongestLengths(loop.body(), out);
        declareLongestLengths(loop.update(), out);
      }
    }
  }

  /**
   * Whether {@code instruction} makes a local array that carries derivatives ({@code new},
   * {@code clone()}, a vector function's or vector target's result): one with adjoints of its
   * own.
   */
  static boolean makesLocalArray(Instruction instruction) {
    Operation.Form form = instruction.operation().form();
    return instruction.result().isActiveArray()
        && (form.makesArray() || form.callsDifferentiated());
  }

  /** After making {@code a} inside a loop: {@code aLongest = max(aLongest, a.length)}. */
  void trackLongest(Instruction making, List<Statement> out) {
    Variable longest = s.longestLengths.get(making.result());
    SourceLine line = making.line();
    Value length = s.builder.derived(making.result(), "Length", NumericType.INT);
    // a matrix's adjoints are all its elements, row after row
    out.add(making.operation().makesMatrix()
        ? new Instruction(length, Operation.slotsCall(SlotsCall.COUNT, 1),
            List.of(new Operand.Use(making.result())), line)
        : new Instruction(length, Operation.LENGTH, List.of(new Operand.Use(making.result())),
            line));
    Site site = Site.formulas(s.builder, line);
    Operand longer = site.isGreaterThan(new Operand.Use(length), new Operand.Read(longest));
    Operand chosen = site.choose(longer, new Operand.Use(length), new Operand.Read(longest));
    out.addAll(site.instructionsFor(List.of(chosen)));
    out.add(new Store(longest, chosen, line));
  }

  /** Before the reverse sweep: one adjoint array per local array made inside a loop. */
  void allocateLoopAdjointArrays(List<Statement> out) {
    for (Map.Entry<Value, Variable> entry : s.longestLengths.entrySet()) {
      Value adjoint = s.builder.derived(entry.getKey(), Derivative.ADJOINT, NumericType.DOUBLE_ARRAY);
      out.add(new Instruction(adjoint, Operation.newArray(NumericType.DOUBLE),
          List.of(new Operand.Read(entry.getValue())), null));
      s.adjointArrays.put(entry.getKey(), adjoint);
    }
  }

  /**
   * Before {@code a[i] = v} into a local array that is passed to calls of other
   * {@code @Differentiable} methods: the element written over, recorded inside loops, so that
   * the reverse of the store can put it back. The pullback of such a call reads the array as it
   * was when the call was made, and the reverse sweep reaches the call only after undoing every
   * later write.
   */
  void keepOverwritten(Instruction store, boolean recording, List<Statement> out) {
    Value overwritten = s.builder.derived(store.result(), "Overwritten", store.result().type());
    out.add(new Instruction(overwritten, Operation.ELEMENT,
        List.of(store.arguments().get(0), store.arguments().get(1)), store.line()));
    if (recording) {
      if (isMadeInALoop(store.arguments().get(0))) {
        // the reverse sweep has no variable that holds this iteration's array
        out.add(new Push(store.arguments().get(0), null));
      }
      out.add(new Push(new Operand.Use(overwritten), null));
      if (recordsIndex(store)) {
        out.add(new Push(store.arguments().get(1), null));
      }
    }
    s.overwrittenElements.put(store, overwritten);
  }

  /**
   * Whether {@link #keepOverwritten} records the index of a store inside loops: the index of an
   * active store is recorded for its adjoint already ({@link FlowAnalysis}), unless the store
   * writes through a row of a local matrix, whose adjoint needs the element's slot instead.
   */
  private static boolean recordsIndex(Instruction store) {
    return !store.result().isActive() || store.arguments().size() > 3;
  }

  /**
   * After the reverse of a store that kept the element it wrote over ({@link
   * #keepOverwritten}): that element back in the array, for the calls the reverse sweep meets
   * next. {@code index} is the store's index as the reverse sweep has it; inside loops the index
   * (where {@link #recordsIndex}), the element and, for an array made in the loop, the array
   * come back from the tape.
   */
  void restoreOverwritten(Instruction store, Operand index, Block block,
      List<Statement> out) {
    Value overwritten = s.overwrittenElements.get(store);
    SourceLine line = store.line().adjoint();
    Operand old = new Operand.Use(overwritten);
    boolean recorded = s.flow.loopDepth(block) > 0;
    if (recorded) {
      if (recordsIndex(store)) {
        index = s.statements.pop(NumericType.INT, line, out);
      }
      // an element that carries a derivative comes back as such: forward over reverse, which
      // recorded its tangent with it, takes that back too
      Value taken = s.builder.again(overwritten);
      out.add(new Instruction(taken, Operation.POP, List.of(), line));
      old = new Operand.Use(taken);
    }
    out.add(new ElementStore(arrayWrittenOver(store, recorded, line, out), index, old, false,
        line));
  }

  /**
   * The array a store into a local array passed to calls wrote into, in the reverse sweep: the
   * array's own variable, or, for an array made in a loop, that iteration's array, taken back
   * from the tape ({@link #keepOverwritten} recorded it first).
   */
  private Value arrayWrittenOver(Instruction store, boolean recorded, SourceLine line,
      List<Statement> out) {
    Operand array = store.arguments().get(0);
    if (!recorded || !isMadeInALoop(array)) {
      return ((Operand.Use) array).value();
    }
    Value taken = s.builder.again(((Operand.Use) array).value());
    out.add(new Instruction(taken, Operation.POP, List.of(), line));
    return taken;
  }

  /** Whether {@code array} is a local array made inside a loop: a new one each iteration. */
  private boolean isMadeInALoop(Operand array) {
    return array instanceof Operand.Use use && use.value().origin() != Value.Origin.PARAMETER
        && s.flow.loopDepth(s.flow.definingBlock(use.value())) > 0;
  }

  /**
   * {@code aBar = new double[a.length]} beside a local array {@code a} that carries
   * derivatives: the adjoints of its elements. Local arrays are made outside loops, so one
   * adjoint array serves the whole reverse sweep.
   */
  void allocateAdjointArray(Instruction creation, List<Statement> out) {
    allocateAdjointArray(creation, creation.operation().form() == Operation.Form.NEW_ARRAY
        ? creation.arguments().get(0) : null, out);
  }

  /**
   * As {@link #allocateAdjointArray(Instruction, List)}, of {@code length} elements when it is
   * not null (for an array made in a piece of a long chain, in the piece's reverse sweep: the
   * length there, {@link SweepState#arraysOfPieces}).
   */
  void allocateAdjointArray(Instruction creation, Operand length, List<Statement> out) {
    Value array = creation.result();
    Value adjoint = s.builder.derived(array, Derivative.ADJOINT, NumericType.DOUBLE_ARRAY);
    if (creation.operation().makesMatrix()) {
      // a local matrix: its adjoints in one flat array, row after row
      Value count = s.builder.derived(array, "Count", NumericType.INT);
      out.add(new Instruction(count, Operation.slotsCall(SlotsCall.COUNT, 1),
          List.of(new Operand.Use(array)), null));
      length = new Operand.Use(count);
    } else if (length == null) {
      Value measured = s.builder.derived(array, "Length", NumericType.INT);
      out.add(new Instruction(measured, Operation.LENGTH, List.of(new Operand.Use(array)),
          null));
      length = new Operand.Use(measured);
    }
    out.add(new Instruction(adjoint, Operation.newArray(NumericType.DOUBLE), List.of(length),
        null));
    s.adjointArrays.put(array, adjoint);
  }

  /**
   * The reverse of making an array inside a loop: its adjoints are consumed, and the adjoint
   * array, which every iteration's array shares, starts the earlier iteration at zero.
   */
  void clearIfMadeInLoop(Instruction making, List<Statement> out) {
    if (!s.longestLengths.containsKey(making.result())) {
      return;
    }
    Value cleared = s.builder.generated("cleared", NumericType.INT, false);
    out.add(new Instruction(cleared, Operation.slotsCall(SlotsCall.CLEAR, 1),
        List.of(new Operand.Use(s.adjointArrays.get(making.result()))), making.line().adjoint()));
  }

  /**
   * The array the adjoints of an array's elements are added into: a local array's own adjoint
   * array; for a parameter or a row of one, the output array, or in the pullback that callers
   * call, the array the caller passed for that parameter.
   */
  Value adjointTarget(Value array) {
    Value local = s.adjointArrays.get(array);
    if (local != null) {
      return local;
    }
    Instruction read = s.flow.rowRead(array);
    if (read != null && read.arguments().get(0) instanceof Operand.Use matrix
        && s.adjointArrays.containsKey(matrix.value())) {
      return s.adjointArrays.get(matrix.value()); // a row of a local matrix
    }
    if (s.parameterTargets.isEmpty()) {
      return s.outputArray;
    }
    Instruction row = s.flow.rowRead(array);
    Value parameter = row != null ? ((Operand.Use) row.arguments().get(0)).value() : array;
    return s.parameterTargets.get(parameter);
  }
}
