package ad4j.processor.write;

import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Value;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code mValueAndGradient} and {@code mPullback} of a long method, each over the sweep of
 * {@code mPullback(Tape, ...)} ({@link ad4j.processor.plan.ReverseMembers.OverPullbackOntoTape}):
 * the same signature, javadoc and checks as their own sweeps' ({@link OrderOneMembers}), then,
 * on the thread's tape and inside the handler that puts it back when the sweep throws
 * ({@link TapeBodies}), the call, and the {@code double} parameters' adjoints taken off the
 * tape into the member's array, the last parameter's first. An array parameter's adjoints the
 * sweep adds into the member's array itself, at the array's slots.
 */
final class MembersOverPullback {
  private final MethodContext method;
  private final SlotText slots;
  private final OrderOneMembers orderOne;
  private final Function function;

  MembersOverPullback(MethodContext method, SlotText slots, OrderOneMembers orderOne) {
    this.method = method;
    this.slots = slots;
    this.orderOne = orderOne;
    this.function = method.function();
  }

  /**
   * {@code mValueAndGradient(params, gradient)}: the sweep seeded with {@code 1.0}, whose
   * product with each partial derivative is exact, each adjoint written into the gradient.
   */
  MethodSpec valueAndGradient(MethodSpec pullbackOntoTape) {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String array = names.fresh("gradient");
    return over(orderOne.valueAndGradientStart(parameters, array), pullbackOntoTape,
        parameters, "1.0", array, "=", names);
  }

  /** {@code mPullback(params, seed, adjoints)}: each adjoint added to the array. */
  MethodSpec pullback(MethodSpec pullbackOntoTape) {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String seed = names.fresh("seed");
    String array = names.fresh("adjoints");
    return over(orderOne.pullbackStart(parameters, seed, array), pullbackOntoTape,
        parameters, seed, array, "+=", names);
  }

  /**
   * {@code member} calling {@code pullbackOntoTape} with the user's {@code parameters}, then
   * {@code array} and its slot for each active array parameter, then {@code seed}; then
   * {@code array[slot] <store> adjoint} for each {@code double} parameter's adjoint.
   */
  private MethodSpec over(MethodSpec.Builder member, MethodSpec pullbackOntoTape,
      List<String> parameters, String seed, String array, String store, NameAllocator names) {
    List<Value> all = function.parameters();
    String tape = names.fresh("tape");
    String value = names.fresh("value");
    List<String> arguments = new ArrayList<>(List.of(tape));
    arguments.addAll(parameters);
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).isActiveArray()) {
        arguments.add(array);
        arguments.add(slots.start(parameters, i));
      }
    }
    arguments.add(seed);
    if (arguments.size() != pullbackOntoTape.parameters().size()) {
      throw new IllegalStateException("the arguments " + arguments + " do not match "
          + pullbackOntoTape);
    }
    CodeBlock.Builder call = CodeBlock.builder().addStatement("$T $L = $L($L)",
        method.valueType(), value, pullbackOntoTape.name(), String.join(", ", arguments));
    // the adjoints lie on the tape in parameter order, the last parameter's on top
    for (int i = all.size() - 1; i >= 0; i--) {
      if (all.get(i).isActive()) {
        call.addStatement("$L[$L] $L $L.popDouble()", array, slots.start(parameters, i), store,
            tape);
      }
    }
    call.addStatement("return $L", value);
    return member.addCode(TapeBodies.tapeHandler(names, tape, call.build())).build();
  }
}
