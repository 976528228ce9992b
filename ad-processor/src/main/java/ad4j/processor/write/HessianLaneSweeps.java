package ad4j.processor.write;

import ad4j.processor.emit.JavaEmitter;
import ad4j.processor.emit.JavaTypes;
import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Value;
import ad4j.processor.plan.MethodPlan;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Hessian by sweeps that carry several directions at once ({@link MethodPlan.HessianLanes}):
 * the sweep {@code mHessianLanes}, and the driver {@code mHessianInto} that gives each lane the
 * unit direction of one slot and runs the sweep once per block of lanes, so that the primal and
 * the first-order reverse sweep run {@code ceil(N / lanes)} times instead of {@code N}.
 * Where the plan has no lanes, {@link HessianSweeps#hessianInto} runs one sweep per slot.
 */
final class HessianLaneSweeps {
  private final MethodContext method;
  private final SlotText slots;
  private final Function function;

  HessianLaneSweeps(MethodContext method, SlotText slots) {
    this.method = method;
    this.slots = slots;
    this.function = method.function();
  }

  /**
   * {@code private static void fHessianLanes(params, then per lane: directions...,
   * double[] gradientDot)}: adds, per lane, the Hessian times the lane's direction into its
   * {@code gradientDot}. It writes no gradient, which the Hessian does not read.
   */
  Written sweep(MethodPlan.HessianLanes lanes) {
    NameAllocator names = method.names();
    Function program = lanes.program().program();
    JavaEmitter emitter = new JavaEmitter(program, names);
    List<String> parameters = emitter.parameterNames();
    MethodSpec.Builder sweep = method.privateMethod(method.memberNames().hessianLanes())
        .addJavadoc("Forward over reverse for $L along $L directions at once: adds, per"
            + " direction,\nthe Hessian times it into the array after it.\n", method.link(),
            lanes.lanes());
    for (int i = 0; i < parameters.size(); i++) {
      sweep.addParameter(JavaTypes.parameterType(program.parameters().get(i)),
          parameters.get(i));
    }
    return TapeBodies.withBody(sweep, emitter, names);
  }

  /**
   * {@code private static void fHessianInto(params, double[][] hessian, int n)}: row j (zeros)
   * gets H·e_j added, {@code lanes} rows per sweep; then the lower triangle is made a copy of
   * the upper, so that the matrix is exactly symmetric. Each lane is given its slot, which
   * gives the directions of the parameters the plan gives by slot; the other parameters' (a
   * matrix, and those after it) are arrays per lane, cleared when the lane is given its next
   * slot, not after each sweep. In the last, partial block the lanes past the last slot still
   * carry their slots of the block before, whose rows they compute again from zeros, bit for
   * bit the same. Only where there is no block before (fewer slots than lanes) do they have
   * zero directions (slot -1) and write into a spare row. It allocates, per call, the lanes'
   * rows and slots, a direction per lane and parameter not given by slot (and that spare row).
   */
  MethodSpec hessianInto(MethodPlan.HessianLanes lanes) {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String hessian = names.fresh("hessian");
    String count = names.fresh("slots");
    String i = names.fresh("i");
    String j = names.fresh("j");
    String slot = names.fresh("slot");
    String lane = names.fresh("lane");
    String rows = names.fresh("rows");
    String laneSlots = names.fresh("laneSlots");
    String spare = names.fresh("spare");
    int k = lanes.lanes();
    boolean bySlot = lanes.bySlot() > 0;
    HessianInto frame = new HessianInto(method, slots);
    MethodSpec.Builder into = frame.start(parameters, hessian, count);
    CodeBlock.Builder code = CodeBlock.builder();
    code.addStatement("double[][] $L = new double[$L][]", rows, k);
    code.add("// $L forward-over-reverse directions per sweep: lane l of the sweep that"
        + " starts at slot b\n// carries the unit direction e_(b+l), and its H e_(b+l) goes"
        + " into row b + l\n", k);
    if (bySlot) {
      code.addStatement("int[] $L = new int[$L]", laneSlots, k);
    }
    List<String> directions = declareDirections(parameters, lanes.bySlot(), k, names, code);
    CodeBlock sweep = sweepCall(parameters, bySlot ? laneSlots : null, directions, rows, k);
    code.addStatement("int $L = 0", slot).addStatement("int $L = 0", lane);
    CodeBlock.Builder perSlot = CodeBlock.builder()
        .addStatement("$L[$L] = $L[$L]", rows, lane, hessian, slot);
    if (bySlot) {
      perSlot.addStatement("$L[$L] = $L", laneSlots, lane, slot);
    }
    perSlot.addStatement("$L++", slot)
        .addStatement("$L++", lane)
        .beginControlFlow("if ($L == $L)", lane, k)
        .add(sweep)
        .addStatement("$L = 0", lane)
        .endControlFlow();
    if (directions.isEmpty()) {
      // every parameter's directions given by the lanes' slots
      code.beginControlFlow("while ($L < $L)", slot, count).add(perSlot.build())
          .endControlFlow();
    } else {
      eachSlot(parameters, lanes.bySlot(), directions, lane, k,
          cleared(directions, lanes.bySlot(), lane, names), perSlot.build(), names, code);
    }
    String l = names.fresh("l");
    code.add("// the last, partial block: the lanes past the last slot compute their rows of"
        + " the block\n// before again, or, with none before, have zero directions\n")
        .beginControlFlow("if ($L > 0)", lane)
        .beginControlFlow("if ($L < $L)", slot, k)
        .addStatement("double[] $L = new double[$L]", spare, count)
        .beginControlFlow("for (int $L = $L; $L < $L; $L++)", l, lane, l, k, l)
        .addStatement("$L[$L] = $L", rows, l, spare);
    if (bySlot) {
      code.addStatement("$L[$L] = -1", laneSlots, l);
    }
    code.endControlFlow()
        .nextControlFlow("else")
        .beginControlFlow("for (int $L = $L; $L < $L; $L++)", l, lane, l, k, l)
        .addStatement("$T.fill($L[$L], 0, $L, 0.0)", Arrays.class, rows, l, count)
        .endControlFlow()
        .endControlFlow()
        .add(sweep)
        .endControlFlow();
    code.add(HessianInto.symmetrised(hessian, count, i, j));
    return into.addCode(code.build()).build();
  }

  /**
   * Per active parameter past the first {@code bySlot}, its lanes' directions, zeros:
   * {@code double[] pDirections} of one per lane for a {@code double}, {@code double[][]} of
   * the parameter's shape per lane for an array, {@code double[][][]} for a matrix.
   */
  private List<String> declareDirections(List<String> parameters, int bySlot, int k,
      NameAllocator names, CodeBlock.Builder code) {
    List<String> directions = new ArrayList<>();
    List<Value> all = function.parameters();
    int active = 0;
    for (int p = 0; p < all.size(); p++) {
      Value parameter = all.get(p);
      String name = parameters.get(p);
      if (!parameter.isActive() && !parameter.isActiveArray() || active++ < bySlot) {
        continue;
      }
      String d = names.fresh(name + "Directions");
      directions.add(d);
      if (parameter.isActive()) {
        code.addStatement("double[] $L = new double[$L]", d, k);
      } else if (parameter.type().isFloatingPointArray()) {
        String l = names.fresh("l");
        code.addStatement("double[][] $L = new double[$L][]", d, k)
            .beginControlFlow("for (int $L = 0; $L < $L; $L++)", l, l, k, l)
            .addStatement("$L[$L] = new double[$L.length]", d, l, name)
            .endControlFlow();
      } else {
        String l = names.fresh("l");
        String r = names.fresh("row");
        code.addStatement("double[][][] $L = new double[$L][][]", d, k)
            .beginControlFlow("for (int $L = 0; $L < $L; $L++)", l, l, k, l)
            .addStatement("$L[$L] = new double[$L.length][]", d, l, name)
            .beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", r, r, name, r)
            .addStatement("$L[$L][$L] = new double[$L[$L].length]", d, l, r, name, r)
            .endControlFlow()
            .endControlFlow();
      }
    }
    return directions;
  }

  /**
   * One sweep over the block, with each lane's slot ({@code laneSlots}, where the plan gives
   * directions by slot), directions and row.
   */
  private CodeBlock sweepCall(List<String> parameters, String laneSlots,
      List<String> directions, String rows, int k) {
    List<String> arguments = new ArrayList<>(parameters);
    for (int l = 0; l < k; l++) {
      if (laneSlots != null) {
        arguments.add(laneSlots + "[" + l + "]");
      }
      for (String d : directions) {
        arguments.add(d + "[" + l + "]");
      }
      arguments.add(rows + "[" + l + "]");
    }
    return CodeBlock.builder()
        .addStatement("$L($L)", method.memberNames().hessianLanes(),
            String.join(", ", arguments))
        .build();
  }

  /**
   * Lane {@code lane}'s directions (of the parameters past the first {@code bySlot}) back to
   * zeros, before it is given its next slot.
   */
  private CodeBlock cleared(List<String> directions, int bySlot, String lane,
      NameAllocator names) {
    CodeBlock.Builder block = CodeBlock.builder();
    List<Value> all = function.parameters();
    int d = 0;
    int active = 0;
    for (Value parameter : all) {
      if (!parameter.isActive() && !parameter.isActiveArray() || active++ < bySlot) {
        continue;
      }
      String direction = directions.get(d++);
      if (parameter.isActive()) {
        block.addStatement("$L[$L] = 0", direction, lane);
      } else if (parameter.type().isFloatingPointArray()) {
        block.addStatement("$T.fill($L[$L], 0.0)", Arrays.class, direction, lane);
      } else {
        String r = names.fresh("row");
        block.beginControlFlow("for (int $L = 0; $L < $L[$L].length; $L++)", r, r, direction,
                lane, r)
            .addStatement("$T.fill($L[$L][$L], 0.0)", Arrays.class, direction, lane, r)
            .endControlFlow();
      }
    }
    return block.build();
  }

  /**
   * Lane {@code lane}'s directions cleared before element {@code e} of an array (or of a
   * matrix's row) becomes its slot: the lane's slot before was {@code k} slots back, the
   * element {@code e - k} of the same array (or row) where there is one; only else is
   * every direction of the lane cleared whole ({@code clear}).
   */
  private CodeBlock clearedFrom(CodeBlock clear, String e, CodeBlock previous, int k) {
    return CodeBlock.builder()
        .beginControlFlow("if ($L >= $L)", e, k)
        .addStatement(previous)
        .nextControlFlow("else")
        .add(clear)
        .endControlFlow()
        .build();
  }

  /**
   * {@code perSlot} once per slot; for a parameter past the first {@code bySlot}, after the
   * lane's directions are cleared ({@code clear}, or only the element of its slot before) and
   * with that slot's element of lane {@code lane} set to 1.
   */
  private void eachSlot(List<String> parameters, int bySlot, List<String> directions,
      String lane, int k, CodeBlock clear, CodeBlock perSlot, NameAllocator names,
      CodeBlock.Builder code) {
    List<Value> all = function.parameters();
    int d = 0;
    int active = 0;
    for (int p = 0; p < all.size(); p++) {
      Value parameter = all.get(p);
      String name = parameters.get(p);
      if (!parameter.isActive() && !parameter.isActiveArray()) {
        continue;
      }
      if (active++ < bySlot) {
        // the lane's slot gives the direction
        if (parameter.isActive()) {
          code.add(perSlot);
        } else {
          String e = names.fresh("element");
          code.beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", e, e, name, e)
              .add(perSlot)
              .endControlFlow();
        }
        continue;
      }
      String direction = directions.get(d++);
      if (parameter.isActive()) {
        code.add(clear).addStatement("$L[$L] = 1", direction, lane).add(perSlot);
      } else if (parameter.type().isFloatingPointArray()) {
        String e = names.fresh("element");
        code.beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", e, e, name, e)
            .add(clearedFrom(clear, e, CodeBlock.of("$L[$L][$L - $L] = 0", direction, lane, e, k),
                k))
            .addStatement("$L[$L][$L] = 1", direction, lane, e).add(perSlot)
            .endControlFlow();
      } else {
        String r = names.fresh("row");
        String e = names.fresh("element");
        code.beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", r, r, name, r)
            .beginControlFlow("for (int $L = 0; $L < $L[$L].length; $L++)", e, e, name, r, e)
            .add(clearedFrom(clear, e, CodeBlock.of("$L[$L][$L][$L - $L] = 0", direction, lane,
                r, e, k), k))
            .addStatement("$L[$L][$L][$L] = 1", direction, lane, r, e).add(perSlot)
            .endControlFlow()
            .endControlFlow();
      }
    }
  }
}
