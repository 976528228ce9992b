package ad4j.processor.derive.reverse;

import ad4j.processor.derive.ArraySlots;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Callee;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.List;

/**
 * The reverse of calls of other {@code @Differentiable} methods: their pullback (whole, or
 * the replaying half in split mode) seeded with the result's adjoint, the parameters' adjoints
 * taken back from the tape; and the forward sweep's calls made recording halves where the
 * reverse replays them. Apart because calls hand adjoints across methods.
 */
final class CallAdjoints {
  private final SweepState s;

  CallAdjoints(SweepState s) {
    this.s = s;
  }

  /**
   * The reverse of {@code v = g(args)}: g's pullback onto the tape, seeded with v's adjoint
   * (for a vector function, the adjoint array of the array it returned), leaves the adjoints of
   * g's {@code double} parameters there, the last on top; taken back at once, nothing is
   * allocated. The adjoints of g's array parameters are added where the caller keeps those of
   * the arguments: for an array that carries derivatives here, at its slots ({@link
   * ArraySlots} appended their starts to the call's arguments); for one that carries none, into
   * a scratch array nobody reads ({@code Slots.discarded}).
   */
  void reverseCall(Instruction instruction, List<Operand> arguments, Operand seed,
      SourceLine line, List<Statement> out) {
    Callee callee = instruction.operation().callee();
    int own = callee.parameterTypes().size();
    List<Operand> callArguments = new ArrayList<>();
    callArguments.addAll(arguments.subList(0, own));
    List<Operand> starts = starts(instruction, arguments);
    int nextStart = 0;
    for (int i = 0; i < own; i++) {
      if (!callee.isActiveArray(i)) {
        continue;
      }
      Operand start = starts.get(nextStart++);
      if (instruction.arguments().get(i) instanceof Operand.Use use
          && use.value().isActiveArray()) {
        callArguments.add(new Operand.Use(s.arrays.adjointTarget(use.value())));
      } else {
        callArguments.add(discarded(callArguments.get(i), line, out));
      }
      callArguments.add(start);
    }
    callArguments.add(seed);
    s.pullbackCalls.call(s, instruction, callArguments, line, out);
    List<Operand> slots = new ArrayList<>();
    for (int i = 0; i < own; i++) {
      if (callee.isActiveScalar(i)) {
        slots.add(instruction.arguments().get(i));
      }
    }
    Operand[] taken = new Operand[slots.size()];
    for (int slot = slots.size() - 1; slot >= 0; slot--) {
      // a constant argument has no adjoint: its value is taken off the tape and dropped. The
      // adjoint is active: the forward mode of this program takes its tangent back as well
      Value taking = s.builder.generated(callee.name() + "Adjoint", NumericType.DOUBLE, true);
      out.add(new Instruction(taking, Operation.POP, List.of(), line));
      if (slots.get(slot) instanceof Operand.Use use && use.isActive()) {
        taken[slot] = new Operand.Use(taking);
      }
    }
    for (int slot = 0; slot < slots.size(); slot++) {
      if (taken[slot] != null) {
        s.sums.accumulate(((Operand.Use) slots.get(slot)).value(), taken[slot], false, false,
            Site.formulas(s.builder, line), out);
      }
    }
  }

  /**
   * Per active array parameter of the callee of {@code call} (its {@code arguments} as the
   * sweep has them), the slot of the argument's first element where its adjoints go: the start
   * {@link ArraySlots} appended to the call for an array that carries derivatives here, 0 for
   * one that carries none (its adjoints go into scratch).
   */
  private static List<Operand> starts(Instruction call, List<Operand> arguments) {
    Callee callee = call.operation().callee();
    int own = callee.parameterTypes().size();
    List<Operand> starts = new ArrayList<>();
    int nextStart = own;
    for (int i = 0; i < own; i++) {
      if (!callee.isActiveArray(i)) {
        continue;
      }
      Operand start = nextStart < arguments.size() ? arguments.get(nextStart++)
          : Operand.Constant.of(0);
      boolean carries = call.arguments().get(i) instanceof Operand.Use use
          && use.value().isActiveArray();
      starts.add(carries ? start : Operand.Constant.of(0));
    }
    return starts;
  }

  /**
   * {@code statements} of the forward sweep with each call whose reverse the reverse sweep
   * replays made a call of the callee's recording half, with the same arguments and the starts
   * the replay will get: so the forward sweep records exactly what the reverse sweep takes back,
   * wherever the call is (in branches, in loops, not at all when its reverse is dead).
   */
  List<Statement> recordingCalls(List<Statement> statements) {
    if (s.replayedCalls.isEmpty()) {
      return statements;
    }
    List<Statement> out = new ArrayList<>();
    for (Statement statement : statements) {
      out.add(recordingCalls(statement));
    }
    return out;
  }

  private Block recordingCalls(Block block) {
    return new Block(recordingCalls(block.statements()));
  }

  private Statement recordingCalls(Statement statement) {
    if (statement instanceof Instruction call && s.replayedCalls.contains(call)) {
      Callee callee = call.operation().callee();
      List<Operand> arguments = new ArrayList<>(
          call.arguments().subList(0, callee.parameterTypes().size()));
      arguments.addAll(starts(call, call.arguments()));
      return new Instruction(call.result(), Operation.recordCall(callee), arguments,
          call.line());
    }
    if (statement instanceof If branch) {
      return new If(branch.id(), branch.condition(), recordingCalls(branch.thenBlock()),
          recordingCalls(branch.elseBlock()), branch.line());
    }
    if (statement instanceof Loop loop) {
      return new Loop(loop.id(), recordingCalls(loop.condition()), loop.test(),
          loop.testFirst(), recordingCalls(loop.body()), recordingCalls(loop.update()),
          loop.line(), loop.kind());
    }
    return statement;
  }

  /** {@code Slots.discarded(n)}: where the adjoints of {@code array}'s n elements may go. */
  private Operand discarded(Operand array, SourceLine line, List<Statement> out) {
    Value count = s.builder.generated("count", NumericType.INT, false);
    out.add(array.type() == NumericType.DOUBLE_MATRIX
        ? new Instruction(count, Operation.slotsCall(SlotsCall.COUNT, 1), List.of(array), line)
        : new Instruction(count, Operation.LENGTH, List.of(array), line));
    Value scratch = s.builder.generated("discarded", NumericType.DOUBLE_ARRAY, false);
    out.add(new Instruction(scratch, Operation.slotsCall(SlotsCall.DISCARDED, 1),
        List.of(new Operand.Use(count)), line));
    return new Operand.Use(scratch);
  }
}
