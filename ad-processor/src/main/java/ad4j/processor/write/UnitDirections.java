package ad4j.processor.write;

import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Value;
import com.palantir.javapoet.CodeBlock;
import java.util.ArrayList;
import java.util.List;

/**
 * The loops of the driver members that run a sweep once per slot along the unit direction
 * e_j (the Hessian by forward-over-reverse sweeps, a Jacobian by tangents): the direction
 * variables, shaped as the parameters, and the loop that sets one element to 1 at a time.
 * Apart because both drivers write them alike.
 */
final class UnitDirections {
  private UnitDirections() {}

  /** The direction variables of the active parameters: zeros of each one's shape. */
  static List<String> declare(Function function, List<String> parameters, NameAllocator names,
      CodeBlock.Builder code) {
    List<String> directions = new ArrayList<>();
    List<Value> all = function.parameters();
    for (int k = 0; k < all.size(); k++) {
      Value parameter = all.get(k);
      String p = parameters.get(k);
      if (parameter.isActive()) {
        String d = names.fresh(p + "Direction");
        code.addStatement("double $L = 0", d);
        directions.add(d);
      } else if (parameter.isActiveArray() && parameter.type().isFloatingPointArray()) {
        String d = names.fresh(p + "Direction");
        code.addStatement("double[] $L = new double[$L.length]", d, p);
        directions.add(d);
      } else if (parameter.isActiveArray()) {
        String d = names.fresh(p + "Direction");
        String r = names.fresh("row");
        code.addStatement("double[][] $L = new double[$L.length][]", d, p)
            .beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", r, r, p, r)
            .addStatement("$L[$L] = new double[$L[$L].length]", d, r, p, r)
            .endControlFlow();
        directions.add(d);
      }
    }
    return directions;
  }

  /** {@code perDirection} once per slot, with that slot's direction element set to 1. */
  static void each(Function function, List<String> parameters, List<String> directions,
      NameAllocator names, CodeBlock perDirection, CodeBlock.Builder code) {
    List<Value> all = function.parameters();
    int d = 0;
    for (int k = 0; k < all.size(); k++) {
      Value parameter = all.get(k);
      String p = parameters.get(k);
      if (parameter.isActive()) {
        String direction = directions.get(d++);
        code.addStatement("$L = 1", direction).add(perDirection)
            .addStatement("$L = 0", direction);
      } else if (parameter.isActiveArray() && parameter.type().isFloatingPointArray()) {
        String direction = directions.get(d++);
        String e = names.fresh("element");
        code.beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", e, e, p, e)
            .addStatement("$L[$L] = 1", direction, e).add(perDirection)
            .addStatement("$L[$L] = 0", direction, e)
            .endControlFlow();
      } else if (parameter.isActiveArray()) {
        String direction = directions.get(d++);
        String r = names.fresh("row");
        String e = names.fresh("element");
        code.beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", r, r, p, r)
            .beginControlFlow("for (int $L = 0; $L < $L[$L].length; $L++)", e, e, p, r, e)
            .addStatement("$L[$L][$L] = 1", direction, r, e).add(perDirection)
            .addStatement("$L[$L][$L] = 0", direction, r, e)
            .endControlFlow()
            .endControlFlow();
      }
    }
  }

  /**
   * {@code double[][] matrix = new double[rows][columns]}, written row by row: C2 compiles a
   * two-dimensional {@code new} into a call of the runtime, which costs more than the rows.
   */
  static CodeBlock newMatrix(String matrix, String rows, String columns, String row) {
    return CodeBlock.builder()
        .addStatement("double[][] $L = new double[$L][]", matrix, rows)
        .beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", row, row, matrix, row)
        .addStatement("$L[$L] = new double[$L]", matrix, row, columns)
        .endControlFlow()
        .build();
  }
}
