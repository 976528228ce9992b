package ad4j.processor.write;

import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Value;
import ad4j.processor.plan.MethodPlan;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The public Hessian members of an order-2 method (DESIGN.md, "Second order"): the Hessian,
 * the Hessian-vector product and the value with gradient and Hessian, small wrappers around
 * the private sweeps ({@link HessianSweeps}).
 */
final class HessianMembers {
  private final MethodContext method;
  private final SlotText slots;
  /** The checks that an output array is none of the arrays the member reads. */
  private final OutputAliasChecks aliases;
  private final Function function;

  HessianMembers(MethodContext method, SlotText slots) {
    this.method = method;
    this.slots = slots;
    this.aliases = new OutputAliasChecks(method);
    this.function = method.function();
  }

  /**
   * {@code mHessian(params)}: a new matrix, one sweep per slot, or per {@code lanes} slots
   * where the plan has a sweep with lanes.
   */
  MethodSpec hessian(Optional<MethodPlan.HessianLanes> lanes) {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String hessian = names.fresh("hessian");
    String count = names.fresh("slots");
    String row = names.fresh("row");
    return method.start(function.name() + "Hessian", parameters)
        .addJavadoc("Returns the Hessian of $L\nat the given point: a new matrix whose"
            + " element {@code [i][j]} is the second partial derivative\nwith respect to"
            + " slots {@code i} and {@code j}, exactly symmetric. Computed by one"
            + " forward-over-reverse\nsweep per $L.\n$L", method.link(),
            lanes.map(l -> l.lanes() + " slots").orElse("slot"), slots.layoutNote())
        .returns(double[][].class)
        .addStatement("int $L = $L", count, slots.count(parameters))
        .addCode(UnitDirections.newMatrix(hessian, count, count, row))
        .addStatement("$L($L)", method.memberNames().hessianInto(), String.join(", ",
            MethodContext.append(MethodContext.append(parameters, hessian), count)))
        .addStatement("return $L", hessian)
        .build();
  }

  /** {@code mHessianVector(params, v)}: one forward-over-reverse sweep along {@code v}. */
  MethodSpec hessianVector() {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String v = names.fresh("v");
    String count = names.fresh("slots");
    String gradient = names.fresh("gradient");
    String product = names.fresh("hessianVector");
    String methodName = function.name() + "HessianVector";
    MethodSpec.Builder member = method.start(methodName, parameters)
        .addJavadoc("Returns the Hessian of $L\nat the given point times {@code $L}: a new"
            + " array, computed in one forward-over-reverse sweep\n(the directional"
            + " derivative of the gradient along {@code $L}).\n$L", method.link(), v, v,
            slots.layoutNote())
        .addJavadoc("\n@throws IllegalArgumentException if the length of {@code $L} is not"
            + " the number of slots\n", v)
        .returns(double[].class)
        .addParameter(double[].class, v);
    CodeBlock.Builder code = CodeBlock.builder()
        .addStatement("int $L = $L", count, slots.count(parameters))
        .beginControlFlow("if ($L.length != $L)", v, count)
        .addStatement("throw new $T($S + $L.length + $S + $L + $S)",
            IllegalArgumentException.class,
            method.gradType() + "." + methodName + ": '" + v + "' has length ", v, ", needs ",
            count, " (" + slots.inWords() + ")")
        .endControlFlow();
    List<String> directions = directionsOf(v, parameters, names, code);
    List<String> arguments = new ArrayList<>(parameters);
    arguments.add(gradient);
    arguments.addAll(directions);
    arguments.add(product);
    // the gradient, computed on the way, is thrown away: where the sweep is inlined, C2's
    // escape analysis removes the array and its stores
    code.addStatement("double[] $L = new double[$L]", gradient, count)
        .addStatement("double[] $L = new double[$L]", product, count)
        .addStatement("$L($L)", method.memberNames().hessianSweep(),
            String.join(", ", arguments))
        .addStatement("return $L", product);
    return member.addCode(code.build()).build();
  }

  /** The flat {@code v} taken apart into one direction per parameter, of its shape. */
  private List<String> directionsOf(String v, List<String> parameters, NameAllocator names,
      CodeBlock.Builder code) {
    List<String> directions = new ArrayList<>();
    List<Value> all = function.parameters();
    boolean arrays = function.hasActiveArrays();
    String at = arrays ? names.fresh("at") : null;
    if (arrays) {
      code.addStatement("int $L = 0", at);
    }
    int constantSlot = 0;
    for (int k = 0; k < all.size(); k++) {
      Value parameter = all.get(k);
      String p = parameters.get(k);
      if (!parameter.isActive() && !parameter.isActiveArray()) {
        continue;
      }
      String d = names.fresh(p + "Direction");
      if (parameter.isActive()) {
        if (arrays) {
          code.addStatement("double $L = $L[$L++]", d, v, at);
        } else {
          code.addStatement("double $L = $L[$L]", d, v, constantSlot++);
        }
        directions.add(d);
      } else if (parameter.isActiveArray() && parameter.type().isFloatingPointArray()) {
        code.addStatement("double[] $L = $T.copyOfRange($L, $L, $L + $L.length)", d,
                Arrays.class, v, at, at, p)
            .addStatement("$L += $L.length", at, p);
        directions.add(d);
      } else if (parameter.isActiveArray()) {
        String r = names.fresh("row");
        code.addStatement("double[][] $L = new double[$L.length][]", d, p)
            .beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", r, r, p, r)
            .addStatement("$L[$L] = $T.copyOfRange($L, $L, $L + $L[$L].length)", d, r,
                Arrays.class, v, at, at, p, r)
            .addStatement("$L += $L[$L].length", at, p, r)
            .endControlFlow();
        directions.add(d);
      }
    }
    return directions;
  }

  /** {@code mValueGradientAndHessian(params, gradient, hessian)}. */
  MethodSpec valueGradientAndHessian() {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String gradient = names.fresh("gradient");
    String hessian = names.fresh("hessian");
    String count = names.fresh("slots");
    String value = names.fresh("value");
    String methodName = function.name() + "ValueGradientAndHessian";
    return method.start(methodName, parameters)
        .addJavadoc("Returns the value of $L,\nbit for bit, writes its gradient into"
            + " {@code $L} and its Hessian into {@code $L} (exactly\nsymmetric), as"
            + " {@code $LValueAndGradient} and {@code $LHessian} compute them.\n$L",
            method.link(), gradient, hessian, function.name(), function.name(),
            slots.layoutNote())
        .addJavadoc("\n@throws IllegalArgumentException if {@code $L} has $L, or"
            + " {@code $L} has fewer rows\nthan that or a row shorter than that, or if"
            + " {@code $L} is a row of {@code $L}$L$L,\nor if two rows of {@code $L} are one"
            + " array\n", gradient, slots.tooShortInWords(), hessian, gradient, hessian,
            aliases.javadoc(gradient), aliases.javadoc(hessian), hessian)
        .returns(method.valueType())
        .addParameter(double[].class, gradient)
        .addParameter(double[][].class, hessian)
        .addCode(slots.lengthCheck(methodName, gradient, parameters))
        .addCode(aliases.array(methodName, gradient, parameters))
        .addCode(aliases.matrix(methodName, hessian, parameters, gradient))
        .addStatement("int $L = $L", count, slots.count(parameters))
        .beginControlFlow("if ($L.length < $L)", hessian, count)
        .addStatement("throw new $T($S + $L.length + $S + $L + $S)",
            IllegalArgumentException.class,
            method.gradType() + "." + methodName + ": '" + hessian + "' has ", hessian,
            " rows, needs ", count, " (" + slots.inWords() + ")")
        .endControlFlow()
        .addCode(new HessianInto(method, slots).rowsCheckedAndCleared(hessian, count,
            names.fresh("i"), aliases.distinctRows(methodName, hessian, count, count)))
        .addStatement("$L($L)", method.memberNames().hessianInto(), String.join(", ",
            MethodContext.append(MethodContext.append(parameters, hessian), count)))
        .addStatement("$T $L = $LValueAndGradient($L)", method.valueType(), value,
            function.name(),
            String.join(", ", MethodContext.append(parameters, gradient)))
        .addStatement("return $L", value)
        .build();
  }
}
