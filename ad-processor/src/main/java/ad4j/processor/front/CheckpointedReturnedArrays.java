package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreeScanner;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A vector function marked {@code @Checkpointed} that returns an array a checkpointed loop reads
 * and the method writes into after the loop. The reverse of each such write puts back the
 * element it wrote over, so that the loop computed again reads what it read first
 * ({@code analysis/KeptElements}); in the returned array that would undo the writes in the value
 * {@code mPullback} and {@code mValueAndJacobian} return. As for an array passed to a
 * {@code @Differentiable} call and written into ({@code ReturnLowering}), returning such an
 * array is an error at the return, which advises to return a copy.
 */
final class CheckpointedReturnedArrays {
  private final Map<Value, Instruction> made = new HashMap<>();
  /**
   * The arrays (matrices for their rows) whose elements a loop of the user's outside loops
   * reads.
   */
  private final Set<Value> readInLoops = new HashSet<>();
  /** Those of them written into after such a loop. */
  private final Set<Value> writtenAfter = new HashSet<>();
  private Value returned;
  private long returnLine = -1;

  private CheckpointedReturnedArrays() {}

  /**
   * Reports the return of {@code body} (of the method {@code tree}) when it returns such an
   * array.
   */
  static void check(MethodTree tree, Block body, SourceText source, Diagnostics diagnostics) {
    CheckpointedReturnedArrays walk = new CheckpointedReturnedArrays();
    walk.walk(body, false);
    if (walk.returned == null || !walk.writtenAfter.contains(walk.returned)) {
      return;
    }
    long line = walk.returnLine;
    Tree[] at = {tree};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitReturn(ReturnTree node, Void unused) {
        if (node.getExpression() != null && source.line(node) == line) {
          at[0] = node.getExpression();
        }
        return super.visitReturn(node, unused);
      }
    }.scan(tree.getBody(), null);
    String shown = at[0] == tree ? "the result" : "'" + source.of(at[0]) + "'";
    String copy = at[0] == tree ? "a copy" : "a copy ('" + source.of(at[0]) + ".clone()')";
    diagnostics.error(at[0], shown + " is read by a @Checkpointed loop and written into after"
        + " it, and ad4j cannot return such an array yet (the reverse sweep puts back what the"
        + " writes wrote over, for the loop computed again): return " + copy);
  }

  private void walk(Block block, boolean inLoop) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        made.put(instruction.result(), instruction);
        Operation.Form form = instruction.operation().form();
        if (inLoop && form == Operation.Form.ELEMENT) {
          Value array = base(instruction.arguments().get(0));
          if (array != null) {
            readInLoops.add(array);
          }
        } else if (!inLoop && form == Operation.Form.STORE) {
          Value array = base(instruction.arguments().get(0));
          if (array != null && readInLoops.contains(array)) {
            writtenAfter.add(array);
          }
        }
      } else if (statement instanceof Return result && result.value() != null
          && result.value().type().isArray()) {
        returned = base(result.value());
        returnLine = result.line() == null ? -1 : result.line().number();
      }
      // a library call's copy or fill, written out as a loop, is not checkpointed: its
      // stores are writes after the loops before it, its reads are not made again
      boolean inside = inLoop
          || statement instanceof Loop loop && loop.kind() == Loop.Kind.WRITTEN;
      for (Block nested : statement.nestedBlocks()) {
        walk(nested, inside);
      }
    }
  }

  /** The array whose elements {@code array} holds: for a row {@code m[i]}, the matrix m. */
  private Value base(Operand array) {
    if (!(array instanceof Operand.Use use)) {
      return null;
    }
    Value value = use.value();
    Instruction making = made.get(value);
    while (making != null && making.operation().form() == Operation.Form.ELEMENT
        && making.arguments().get(0) instanceof Operand.Use matrix) {
      value = matrix.value();
      making = made.get(value);
    }
    return value;
  }
}
