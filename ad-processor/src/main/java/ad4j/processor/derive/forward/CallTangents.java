package ad4j.processor.derive.forward;

import ad4j.processor.derive.Sites;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.RuledCallee;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Value;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.List;

/**
 * The tangents of calls: of other {@code @Differentiable} methods (their tangent members, and
 * their pullbacks differentiated again for forward over reverse) and of vector targets with
 * {@code @DerivativeOf} rules. Apart because calls hand tangents across methods.
 */
final class CallTangents {
  private final TangentState s;

  CallTangents(TangentState s) {
    this.s = s;
  }

  /**
   * The arguments of the tangent member of the callee of {@code call}: the call's own, then per
   * parameter that carries derivatives in the callee, in order, the argument's tangent: a
   * number for a {@code double}, an array of the argument's shape for an array; for an array
   * that carries no derivative here, zeros ({@code Slots.zeros}, shared, never written).
   */
  List<Operand> tangentCallArguments(Instruction call, List<Instruction> out) {
    ad4j.processor.ir.Callee callee = call.operation().callee();
    int own = callee.parameterTypes().size();
    List<Operand> arguments = new ArrayList<>(call.arguments().subList(0, own));
    for (int i = 0; i < own; i++) {
      Operand argument = call.arguments().get(i);
      if (callee.isActiveScalar(i)) {
        arguments.add(s.instructions.tangentOf(argument));
      } else if (callee.isActiveArray(i)) {
        Value tangent = argument instanceof Operand.Use use ? s.arrayTangents.get(use.value())
            : null;
        arguments.add(tangent != null ? new Operand.Use(tangent) : zeros(argument, call, out));
      }
    }
    return arguments;
  }

  /** {@code Slots.zeros(...)} of {@code array}'s shape: the tangent of an inactive array. */
  private Operand zeros(Operand array, Instruction call, List<Instruction> out) {
    Value zeros = s.builder.generated("zeros", array.type().derivativeType(), false);
    if (array.type() == NumericType.DOUBLE_MATRIX) {
      out.add(new Instruction(zeros, Operation.slotsCall(SlotsCall.ZEROS, 1), List.of(array),
          call.line()));
    } else {
      Value length = s.builder.generated("length", NumericType.INT, false);
      out.add(new Instruction(length, Operation.LENGTH, List.of(array), call.line()));
      out.add(new Instruction(zeros, Operation.slotsCall(SlotsCall.ZEROS, 1),
          List.of(new Operand.Use(length)), call.line()));
    }
    return new Operand.Use(zeros);
  }

  /**
   * The tangent of {@code r = v(args)}, a vector target with {@code @DerivativeOf} rules:
   * {@code rDot = new double[r.length]}, then per argument that carries derivatives its rule's
   * partials times its tangent added in ({@code Slots.addScaled} for a {@code double},
   * {@code Slots.addProduct} for an array).
   */
  List<Instruction> vectorCallTangent(Instruction call, Value tangent) {
    RuledCallee ruled = call.operation().ruled();
    Value result = call.result();
    SourceLine line = call.line();
    Value length = s.builder.derived(result, "Length", NumericType.INT);
    List<Instruction> out = new ArrayList<>(List.of(
        new Instruction(length, Operation.LENGTH, List.of(new Operand.Use(result)), line),
        new Instruction(tangent, Operation.newArray(NumericType.DOUBLE),
            List.of(new Operand.Use(length)), line)));
    Site site = Sites.of(call, s.builder, Site.Reuse.NONE);
    for (int i = 0; i < ruled.parameterTypes().size(); i++) {
      Operand argument = call.arguments().get(i);
      List<Operand> helperArguments;
      SlotsCall helper;
      if (s.instructions.isActive(argument)) {
        helper = SlotsCall.ADD_SCALED;
        helperArguments = List.of(new Operand.Use(result), s.instructions.tangentOf(argument),
            new Operand.Use(tangent), Operand.Constant.of(0));
      } else if (argument instanceof Operand.Use use && s.arrayTangents.containsKey(use.value())) {
        helper = SlotsCall.ADD_PRODUCT;
        helperArguments = List.of(new Operand.Use(s.arrayTangents.get(use.value())),
            new Operand.Use(tangent));
      } else {
        continue;
      }
      Operand partial = DerivativeRules.vectorPartial(ruled, i, site).orElseThrow();
      List<Operand> all = new ArrayList<>();
      all.add(partial);
      all.addAll(helperArguments);
      out.addAll(site.instructionsFor(List.of(partial)));
      out.add(new Instruction(s.builder.derived(result, "Added", NumericType.INT),
          Operation.slotsCall(helper, all.size()), all, line));
    }
    return out;
  }

  /**
   * Whether the value taken back from the tape by a pop into {@code popped} was recorded with
   * its tangent: a reverse sweep's copy ({@code Value.Origin.DERIVED}) of a recorded value is
   * so exactly when the recorded value is active (see {@link Push} above).
   */
  static boolean recordedWithTangent(Value popped) {
    return popped.origin() != Value.Origin.DERIVED || popped.base() == null
        || popped.base().isActive();
  }

  /**
   * A reverse sweep's {@code g}'s pullback onto the tape becomes the forward mode of that
   * pullback, which pushes each adjoint's tangent below the adjoint: the pops that follow the
   * call take back both (see the pops above). The call's arguments are g's own, then per array
   * parameter that carries derivatives in g the array its adjoints go into and the slot there,
   * then the seed (see {@code Adjoint.reverseCall}); the tangents follow in the order of
   * {@link TangentWalk#transform(Function)}: of each argument for a parameter that carries
   * derivatives (zeros for an array that carries none here, as in {@link #tangentCallArguments}),
   * of the seed, and of each array the adjoints go into, where g adds the adjoints' tangents. Its
   * own result, the callee's value, is read by nobody; the new call's is its tangent (none for
   * a vector function, whose seed and seed's tangent are arrays).
   */
  List<Instruction> pullbackTangentCall(Instruction call) {
    ad4j.processor.ir.Callee callee = call.operation().callee();
    List<Operand> arguments = call.arguments();
    int own = callee.parameterTypes().size();
    List<Instruction> out = new ArrayList<>();
    List<Operand> callArguments = new ArrayList<>(arguments);
    for (int i = 0; i < own; i++) {
      Operand argument = arguments.get(i);
      if (callee.isActiveScalar(i)) {
        callArguments.add(s.instructions.tangentOf(argument));
      } else if (callee.isActiveArray(i)) {
        Value tangent = argument instanceof Operand.Use use ? s.arrayTangents.get(use.value())
            : null;
        callArguments.add(tangent != null ? new Operand.Use(tangent)
            : zeros(argument, call, out));
      }
    }
    int seed = arguments.size() - 1;
    callArguments.add(seedTangent(call, arguments.get(seed)));
    for (int target = own; target < seed; target += 2) {
      Value into = ((Operand.Use) arguments.get(target)).value();
      Value tangent = s.arrayTangents.get(into);
      if (tangent == null) {
        throw new IllegalArgumentException("no tangent for the adjoints " + into + " of " + call);
      }
      callArguments.add(new Operand.Use(tangent));
    }
    // a vector function's pullback tangent returns nothing: nobody reads its value's tangent
    Value valueTangent = s.builder.derived(call.result(), Derivative.TANGENT,
        callee.returnsArray() ? NumericType.VOID : NumericType.DOUBLE);
    out.add(new Instruction(valueTangent, Operation.pullbackTangentCall(callee),
        callArguments, call.line()));
    return out;
  }

  /**
   * The tangent of the seed of {@code call}, a callee's pullback onto the tape: a number for a
   * {@code double} result; for a vector function's, the seed is the adjoint array of the array
   * the call returned, whose tangent array holds the tangents of those adjoints.
   */
  private Operand seedTangent(Instruction call, Operand seed) {
    if (!call.operation().callee().returnsArray()) {
      return s.instructions.tangentOf(seed);
    }
    Value tangent = seed instanceof Operand.Use use ? s.arrayTangents.get(use.value()) : null;
    if (tangent == null) {
      throw new IllegalArgumentException("no tangent for the seed " + seed + " of " + call);
    }
    return new Operand.Use(tangent);
  }
}
