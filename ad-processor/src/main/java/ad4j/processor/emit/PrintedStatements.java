package ad4j.processor.emit;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.UnreadDefinitions;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A program as the emitter prints it: its instructions without the gradient slots the reverse
 * transform appended to them ({@link Operation#withoutSlots}, never printed), and without the
 * locals that then nothing reads ({@link UnreadDefinitions}). A forward sweep of a loop reads
 * an element at its slot although the reverse sweep computes the slot again for itself; a
 * tangent computes a value's variable that only the value needed. Printed, such a local is
 * one that Java compilers warn of ("the value of the local variable is not used").
 */
final class PrintedStatements {
  private PrintedStatements() {}

  static Function of(Function function) {
    Block printed = UnreadDefinitions.removedFrom(withoutSlots(function.body()),
        PrintedStatements::mayGoUnread);
    Block branched = withoutEmptyBranches(printed);
    if (branched != printed) {
      // the conditions only those branches read go too
      printed = UnreadDefinitions.removedFrom(branched, PrintedStatements::mayGoUnread);
    }
    Set<Value> read = new HashSet<>();
    printed.walk(statement -> statement.operands().forEach(operand -> {
      if (operand instanceof Operand.Use use) {
        read.add(use.value());
      }
    }));
    return function.with(function.parameters(),
        withoutRepeatedChecks(printed, read, new HashSet<>()));
  }

  /**
   * {@code block} without the branches left with nothing to run but comments ({@code if (t12)
   * { }}: a reverse sweep's branch whose adjoints no derivative reached); {@code block} itself
   * when it has none. A condition is a value, so testing it does nothing; an empty loop stays,
   * since whether it ends is something the caller sees.
   */
  private static Block withoutEmptyBranches(Block block) {
    List<Statement> out = new ArrayList<>();
    boolean changed = false;
    for (Statement statement : block.statements()) {
      if (statement.nestedBlocks().isEmpty()) {
        out.add(statement);
        continue;
      }
      // each nested block cleaned once: else-if chains nest hundreds deep
      Map<Block, Block> cleaned = new IdentityHashMap<>();
      boolean same = true;
      for (Block nested : statement.nestedBlocks()) {
        Block clean = withoutEmptyBranches(nested);
        cleaned.put(nested, clean);
        same &= clean == nested;
      }
      if (statement instanceof If branch && onlyNotes(cleaned.get(branch.thenBlock()))
          && onlyNotes(cleaned.get(branch.elseBlock()))) {
        changed = true;
      } else if (same) {
        out.add(statement);
      } else {
        changed = true;
        out.add(statement.withNestedBlocks(cleaned::get));
      }
    }
    return changed ? new Block(out) : block;
  }

  private static boolean onlyNotes(Block block) {
    return block.statements().stream().allMatch(statement -> statement instanceof Note);
  }

  /**
   * {@code block} without the reads kept only for where they throw (their values unread) of an
   * element that a read before it, in this block or one around it, reads at the same index of
   * the same array: that one throws where this one would ({@code x[i]} read three times in a
   * forward sweep is checked once). Only values, which never change, count as the same.
   */
  private static Block withoutRepeatedChecks(Block block, Set<Value> read,
      Set<List<Value>> checkedBefore) {
    Set<List<Value>> checked = new HashSet<>(checkedBefore);
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.ELEMENT
          && instruction.arguments().get(0) instanceof Operand.Use array
          && instruction.arguments().get(1) instanceof Operand.Use index) {
        List<Value> element = List.of(array.value(), index.value());
        if (!checked.add(element) && !read.contains(instruction.result())) {
          continue;
        }
      }
      out.add(statement.withNestedBlocks(
          nested -> withoutRepeatedChecks(nested, read, checked)));
    }
    return new Block(out);
  }

  /**
   * Whether {@code instruction} may go when nothing reads its value: a pure one; where a row
   * of a matrix starts among the slots (a function of its arguments, computed again where it is
   * needed); an array made of its elements ({@code new T[] {a, b}}); a read of a tangent's or an adjoint's array, never one the user's method makes, so
   * that nothing but the user's own reads is kept for where it may throw.
   */
  private static boolean mayGoUnread(Instruction instruction) {
    if (instruction.isPure() || instruction.operation().isSlotsCall(SlotsCall.ROW_START)
        || instruction.operation().form() == Operation.Form.PLAIN_CALL
            && (instruction.operation().plain() == Operation.Plain.ARRAY_CREATION
                || instruction.operation().testsType())) {
      // an array made of values already computed throws nothing, nor does a type test
      return true;
    }
    Operation.Form form = instruction.operation().form();
    return (form == Operation.Form.ELEMENT || form == Operation.Form.LENGTH)
        && instruction.arguments().get(0) instanceof Operand.Use array
        && array.value().isDerivative();
  }

  private static Block withoutSlots(Block block) {
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        Operation printed = instruction.operation().withoutSlots();
        out.add(printed == instruction.operation() ? instruction
            : new Instruction(instruction.result(), printed,
                instruction.arguments().subList(0, printed.arity()), instruction.line()));
      } else {
        out.add(statement.withNestedBlocks(PrintedStatements::withoutSlots));
      }
    }
    return new Block(out);
  }
}
