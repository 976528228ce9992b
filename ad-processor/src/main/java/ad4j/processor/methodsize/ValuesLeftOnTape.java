package ad4j.processor.methodsize;

import static ad4j.processor.analysis.StatementFacts.count;
import static ad4j.processor.analysis.StatementFacts.returns;
import static ad4j.processor.analysis.StatementFacts.usesTape;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers that parts of a method's own block leave on the tape for later parts, which read
 * them there ({@code tape.doubleAt(mark, i)}) instead of taking them back as locals of the
 * caller. A long method with a branch outside loops keeps every value of its forward sweep for
 * its reverse sweep: handed back, each would be a local of the caller, and the caller would
 * pass HotSpot's limit again. Apart from {@link Outliner}, which makes the parts, because this
 * is the bookkeeping of one way of handing values over: where each value lies, which call left
 * it, and how the method reads them back and drops them at its end.
 */
final class ValuesLeftOnTape {
  /** Where a value left on the tape by a part lies: its part's mark and its place above it. */
  private record Handed(Value mark, int index) {}

  private final IrBuilder builder;
  /**
   * The values, and variables, left on the tape by parts. A variable is left there by the
   * part that declares it when nothing stores into it after that part (an adjoint a later sum
   * reads), and read in place as a value is.
   */
  private final Map<Object, Handed> handed = new IdentityHashMap<>();
  /** The values and variables each part's call leaves on the tape, by the call. */
  private final Map<Instruction, List<Object>> handedBy = new IdentityHashMap<>();
  /** The mark of the first part that leaves values on the tape: the program resets to it. */
  private Value firstMark;

  ValuesLeftOnTape(IrBuilder builder) {
    this.builder = builder;
  }

  /**
   * Whether the parts of a method's own block, {@code statements}, may leave their numbers on
   * the tape: only where nothing else in the program uses the tape (no loop, no recorded value,
   * no callee's pullback, which leaves its adjoints there) but to push its results last, and it
   * returns once, at its end: then nothing takes anything off the tape below those values
   * before the program drops them all.
   */
  static boolean mayLeaveValues(List<Statement> statements) {
    return returns(statements) == 1
        && statements.get(statements.size() - 1) instanceof Return
        && !usesTape(statements.subList(0, resultPushesStart(statements)));
  }

  /**
   * How many pushes just before the final {@code return} of a method's own block, {@code
   * statements}, stay in it whatever the cut: where parts may leave their numbers on the tape
   * ({@link #mayLeaveValues}), those pushes go last, above what the parts left, so no part
   * takes one along ({@link LongRuns}); elsewhere they may move into parts, and none is sure
   * to stay.
   */
  static int resultPushesKept(List<Statement> statements) {
    return mayLeaveValues(statements) ? statements.size() - 1 - resultPushesStart(statements)
        : 0;
  }

  /**
   * Where the pushes just before the final {@code return} start: a pullback that leaves its
   * results on the tape ({@code mPullback(Tape, ...)}) pushes them there last, above the values
   * its parts left, which are dropped before those pushes.
   */
  private static int resultPushesStart(List<Statement> statements) {
    int start = statements.size() - 1;
    while (start > 0 && statements.get(start - 1) instanceof Push) {
      start--;
    }
    return start;
  }

  /** The mark of the part that left {@code used} on the tape; null when none did. */
  Value markOf(Object used) {
    Handed at = handed.get(used);
    return at == null ? null : at.mark();
  }

  /**
   * A new mark, {@code long handedAt = tape.mark()}, where a part's values will lie; the first
   * is where the method resets the tape to.
   */
  Instruction newMark() {
    Value mark = builder.generated("handedAt", NumericType.LONG, false);
    if (firstMark == null) {
      firstMark = mark;
    }
    return new Instruction(mark, Operation.tapeCall("mark", 0), List.of(), null);
  }

  /**
   * Pushes {@code left} at the end of a part's {@code body}, above {@code mark}, where later
   * parts read them: doubles and the other numbers are counted apart, as the tape keeps them.
   */
  void leave(List<Object> left, Value mark, List<Statement> body) {
    int doubles = 0;
    int longs = 0;
    for (Object value : left) {
      Operand pushed = value instanceof Variable variable ? new Operand.Read(variable)
          : new Operand.Use((Value) value);
      body.add(new Push(pushed, null));
      boolean isDouble = pushed.type() == NumericType.DOUBLE;
      handed.put(value, new Handed(mark, isDouble ? doubles++ : longs++));
    }
  }

  /** Notes that the part called by {@code call} leaves {@code left} on the tape. */
  void leftBy(Instruction call, List<Object> left) {
    handedBy.put(call, left);
  }

  /** Whether {@code inside}, the counts of a run of statements, reads a mark of a part. */
  boolean readsMark(Map<Object, Integer> inside) {
    for (Handed at : handed.values()) {
      if (inside.containsKey(at.mark())) {
        return true;
      }
    }
    return false;
  }

  /** Whether a call of a part in the blocks, nested ones included, left values on the tape. */
  boolean leavesValuesInPlace(List<Block> blocks) {
    for (Block block : blocks) {
      for (Statement statement : block.statements()) {
        if (statement instanceof Instruction call && handedBy.containsKey(call)
            || leavesValuesInPlace(statement.nestedBlocks())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The method's block as cut, made whole where parts left values on the tape: the values the
   * program's own statements read are read there after the call of their part, in whichever
   * block it stands, and the tape is reset to where it was before the first such part just
   * before the final {@code return} (before the pushes of the results, if any). When that part
   * is called in a branch, the mark it resets to is taken at the start of the method instead,
   * where every path passes.
   */
  Block finish(Block body) {
    if (firstMark == null) {
      return body;
    }
    Map<Object, Integer> read = new IdentityHashMap<>();
    count(body, read);
    Block withReads = readBackAfterCalls(body, read);
    Value resetTo = firstMark;
    List<Statement> statements = new ArrayList<>();
    if (withReads.statements().stream().noneMatch(s -> s instanceof Instruction mark
        && mark.result() == firstMark)) {
      resetTo = builder.generated("handedAt", NumericType.LONG, false);
      statements.add(new Instruction(resetTo, Operation.tapeCall("mark", 0), List.of(), null));
    }
    List<Statement> rest = withReads.statements();
    int resultPushes = resultPushesStart(rest);
    statements.addAll(rest.subList(0, resultPushes));
    statements.add(new Instruction(builder.temporary(NumericType.VOID, false),
        Operation.tapeCall("reset", 1), List.of(new Operand.Use(resetTo)), null));
    statements.addAll(rest.subList(resultPushes, rest.size()));
    return new Block(statements);
  }

  /**
   * The block with {@link #readBack}s of the values in {@code read} after each call of a part
   * that left them on the tape, branches included (a program whose parts leave values on the
   * tape has no loops).
   */
  private Block readBackAfterCalls(Block block, Map<Object, Integer> read) {
    List<Statement> statements = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch) {
        statements.add(new If(branch.id(), branch.condition(),
            readBackAfterCalls(branch.thenBlock(), read),
            readBackAfterCalls(branch.elseBlock(), read), branch.line()));
        continue;
      }
      statements.add(statement);
      List<Object> left = statement instanceof Instruction call ? handedBy.get(call) : null;
      for (Object value : left == null ? List.of() : left) {
        if (read.containsKey(value)) {
          statements.addAll(readBack(value));
        }
      }
    }
    return new Block(statements);
  }

  /**
   * {@code value = tape.doubleAt(mark, i)} (or {@code intAt}, ...) where its part left it; for
   * a variable, {@code double v = tape.doubleAt(mark, i)}.
   */
  List<Statement> readBack(Object left) {
    Handed at = handed.get(left);
    Value value = left instanceof Variable variable
        ? builder.formula(variable.type(), variable.isActive()) : (Value) left;
    Instruction read = new Instruction(value, Operation.tapeCall(readMethod(value.type()), 2),
        List.of(new Operand.Use(at.mark()), Operand.Constant.of(at.index())), null);
    return left instanceof Variable variable
        ? List.of(read, new Declare(variable, new Operand.Use(value), null)) : List.of(read);
  }

  /** Whether a value of this type can be left on the tape and read there. */
  static boolean readsInPlace(NumericType type) {
    return switch (type) {
      case DOUBLE, INT, LONG, BOOLEAN -> true;
      default -> false;
    };
  }

  private static String readMethod(NumericType type) {
    return switch (type) {
      case DOUBLE -> "doubleAt";
      case INT -> "intAt";
      case LONG -> "longAt";
      case BOOLEAN -> "booleanAt";
      default -> throw new IllegalArgumentException("not read in place: " + type);
    };
  }
}
