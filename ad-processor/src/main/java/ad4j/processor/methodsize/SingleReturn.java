package ad4j.processor.methodsize;

import ad4j.processor.analysis.Ids;
import ad4j.processor.derive.forward.Tangent;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.List;

/**
 * A method of many {@code return}s rewritten to store its result and return it once, at its
 * end, before {@link Tangent} makes its forward mode: {@code if (x < 1) return a; if (x < 2)
 * return b; ...} becomes {@code if (x < 1) result = a; else if (x < 2) result = b; ...; return
 * result;}. {@link LongBlocks} cannot move a {@code return} into a part method, so with 600
 * such pieces the tangent member stayed one method of 31 KB, run interpreted; with one store
 * per piece it is cut as a {@code ?:} chain is. The reverse-mode members store their result
 * this way already ({@link Adjoint}).
 *
 * <p>Lowering leaves nothing after a {@code return} on any path (what followed an {@code if}
 * that returns is in its else block), so a store there changes nothing else. Methods with fewer
 * than {@link Adjoint#LONG_CHAIN} returns, or with a return inside a loop, stay as they are.
 */
public final class SingleReturn {
  private SingleReturn() {}

  /** {@code function} with one {@code return}, or itself (see the class comment). */
  public static Function of(Function function) {
    if (function.isStraightLine() || function.returnsArray()) {
      return function;
    }
    int[] returns = {0};
    if (!countReturns(function.body(), returns) || returns[0] < Adjoint.LONG_CHAIN) {
      return function;
    }
    Variable result = new IrBuilder(Ids.next(function))
        .generatedVariable("result", function.valueType());
    List<Statement> body = new ArrayList<>();
    body.add(new Declare(result, Operand.Constant.zero(function.valueType()), null));
    body.addAll(stored(function.body(), result).statements());
    body.add(new Return(new Operand.Read(result), null));
    return function.with(function.parameters(), new Block(body));
  }

  /**
   * Counts the {@code return}s of {@code block} into {@code returns}; false when one lies in a
   * loop or returns nothing.
   */
  private static boolean countReturns(Block block, int[] returns) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Return ret) {
        if (ret.value() == null) {
          return false;
        }
        returns[0]++;
      } else if (statement instanceof If branch && !(countReturns(branch.thenBlock(), returns)
          && countReturns(branch.elseBlock(), returns))) {
        return false;
      } else if (statement instanceof Loop loop && (hasReturn(loop.condition())
          || hasReturn(loop.body()) || hasReturn(loop.update()))) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasReturn(Block block) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Return
          || statement instanceof If branch
              && (hasReturn(branch.thenBlock()) || hasReturn(branch.elseBlock()))
          || statement instanceof Loop loop && (hasReturn(loop.condition())
              || hasReturn(loop.body()) || hasReturn(loop.update()))) {
        return true;
      }
    }
    return false;
  }

  /** {@code block} with each {@code return v} outside loops written {@code result = v}. */
  private static Block stored(Block block, Variable result) {
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Return ret) {
        out.add(new Store(result, ret.value(), ret.line()));
      } else if (statement instanceof If branch) {
        out.add(new If(branch.id(), branch.condition(), stored(branch.thenBlock(), result),
            stored(branch.elseBlock(), result), branch.line()));
      } else {
        out.add(statement);
      }
    }
    return new Block(out);
  }
}
