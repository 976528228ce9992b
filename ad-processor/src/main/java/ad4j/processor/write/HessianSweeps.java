package ad4j.processor.write;

import ad4j.processor.emit.JavaEmitter;
import ad4j.processor.emit.JavaTypes;
import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Function;
import ad4j.processor.plan.Parted;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The private sweeps of an order-2 method and what callers' second-order code calls: the
 * forward-over-reverse sweep {@code mHessianSweep}, the driver {@code mHessianInto} that runs it
 * once per slot, and {@code mPullbackTangent}. The public Hessian members wrap them
 * ({@link HessianMembers}).
 */
final class HessianSweeps {
  private final MethodContext method;
  private final SlotText slots;
  private final Function function;

  HessianSweeps(MethodContext method, SlotText slots) {
    this.method = method;
    this.slots = slots;
    this.function = method.function();
  }

  /**
   * {@code private static double fHessianSweep(params, double[] gradient, directions...,
   * double[] gradientDot)}: the forward mode of the gradient program (forward over reverse).
   * It writes the gradient into {@code gradient} and the Hessian times the direction into
   * {@code gradientDot}, and returns the directional derivative. With array parameters both
   * arrays must hold zeros on entry (their elements' adjoints are added into them). For a
   * method split into segments it calls the forward modes of the segments' sweeps.
   */
  Written hessianSweep(Parted parted) {
    NameAllocator names = method.names();
    Function program = parted.program();
    JavaEmitter emitter = new JavaEmitter(program, names);
    List<String> parameters = emitter.parameterNames();
    MethodSpec.Builder sweep = method.privateMethod(method.memberNames().hessianSweep())
        .addJavadoc("Forward over reverse for $L: writes the gradient into {@code $L} and the"
            + "\nHessian times the direction into {@code $L}; returns the directional"
            + " derivative.\n", method.link(), parameters.get(function.parameters().size()),
            parameters.get(parameters.size() - 1))
        .returns(double.class);
    for (int i = 0; i < parameters.size(); i++) {
      sweep.addParameter(JavaTypes.parameterType(program.parameters().get(i)),
          parameters.get(i));
    }
    return TapeBodies.withBody(sweep, emitter, names);
  }

  /**
   * {@code private static void fHessianInto(params, double[][] hessian, int n)}: one sweep
   * per slot j along the unit direction e_j, whose H·e_j it adds into row j (zeros); then the lower
   * triangle is made a copy of the upper, so that the matrix is exactly symmetric.
   */
  MethodSpec hessianInto() {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String hessian = names.fresh("hessian");
    String count = names.fresh("slots");
    String i = names.fresh("i");
    String j = names.fresh("j");
    String slot = names.fresh("slot");
    String gradient = names.fresh("gradient");
    HessianInto frame = new HessianInto(method, slots);
    MethodSpec.Builder into = frame.start(parameters, hessian, count);
    CodeBlock.Builder code = CodeBlock.builder();
    code.addStatement("double[] $L = new double[$L]", gradient, count);
    code.add("// one forward-over-reverse sweep per slot: row j is H times the unit"
        + " direction e_j\n");
    List<String> directions = UnitDirections.declare(function, parameters, names, code);
    List<String> arguments = new ArrayList<>(parameters);
    arguments.add(gradient);
    arguments.addAll(directions);
    arguments.add(hessian + "[" + slot + "]");
    CodeBlock sweep = CodeBlock.builder()
        .addStatement("$T.fill($L, 0.0)", Arrays.class, gradient)
        .addStatement("$L($L)", method.memberNames().hessianSweep(),
            String.join(", ", arguments))
        .addStatement("$L++", slot)
        .build();
    code.addStatement("int $L = 0", slot);
    UnitDirections.each(function, parameters, directions, names, sweep, code);
    code.add(HessianInto.symmetrised(hessian, count, i, j));
    return into.addCode(code.build()).build();
  }

  /**
   * {@code mPullbackTangent(Tape tape, params, [aAdjoints, aStart, ...], double seed,
   * directions..., double seedDot, [aAdjointsDot, ...])}: the forward mode of
   * {@code mPullback(Tape, ...)}, with the seed's tangent too (for a vector function, of order
   * 2 too, the seed and its tangent are arrays of the result's length, and it returns nothing:
   * its callers read no tangent of its value). It pushes, for each
   * {@code double} parameter in order, the tangent of its adjoint and then the adjoint; it adds
   * the adjoints of each array parameter {@code a}'s elements into {@code aAdjoints} and their
   * tangents into {@code aAdjointsDot}, both from slot {@code aStart} on (the caller's
   * gradient and its tangent, or a local array's adjoint array and its tangent); it returns
   * the tangent of the value. The second-order sweeps of callers call it.
   */
  MethodSpec pullbackTangent(Parted parted) {
    NameAllocator names = method.names();
    MethodSpec.Builder member = method.forCallers(method.memberNames().pullbackTangent());
    Function program = parted.program();
    JavaEmitter emitter = new JavaEmitter(program, names);
    List<String> all = emitter.parameterNames();
    String tape = names.fresh("tape");
    emitter.bindTape(tape);
    member.addJavadoc("For the second-order code of callers: the forward mode of"
            + " {@code $LPullback(Tape, ...)}\nfor $L along the given directions"
            + " of the parameters and of the seed: pushes,\nfor each {@code double} parameter"
            + " in order, the tangent of its adjoint and then the adjoint,\nonto {@code $L}$L;"
            + " returns the tangent of the value.\n", function.name(), method.link(), tape,
            function.hasActiveArrays() ? ", and adds those of each element of an array"
                + " parameter {@code a}\ninto {@code aAdjoints} and their tangents into"
                + " {@code aAdjointsDot}, from slot\n{@code aStart} on" : "")
        .returns(function.returnsArray() ? TypeName.VOID : TypeName.DOUBLE)
        .addParameter(MethodContext.TAPE, tape);
    for (int i = 0; i < all.size(); i++) {
      member.addParameter(JavaTypes.parameterType(program.parameters().get(i)), all.get(i));
    }
    return member.addCode(emitter.body()).build();
  }
}
