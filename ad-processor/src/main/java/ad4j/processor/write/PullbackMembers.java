package ad4j.processor.write;

import ad4j.processor.emit.JavaEmitter;
import ad4j.processor.emit.JavaTypes;
import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Value;
import ad4j.processor.plan.Parted;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The members that the generated code of callers calls, outside the contract:
 * {@code mPullback(Tape, ...)}, which pushes the adjoints onto the caller's tape, and the two
 * halves of the pullback in split mode, {@code mRecord} and {@code mReplay}: when the plan has
 * them, the forward sweep that records and the reverse sweep that takes back; else the value
 * and the whole pullback behind the same two names.
 */
final class PullbackMembers {
  private final MethodContext method;
  private final Function function;

  PullbackMembers(MethodContext method) {
    this.method = method;
    this.function = method.function();
  }

  /**
   * {@code mPullback(Tape tape, params, [aAdjoints, aStart, ...], seed)}: what the generated
   * code of a caller calls in its reverse sweep. It is {@code mPullback} with the adjoints of
   * the {@code double} parameters pushed onto the caller's tape (in parameter order, the last
   * on top) instead of added to an array, and those of each array parameter {@code a} added
   * into the array the caller passes for it, from slot {@code aStart} on: the caller's
   * gradient at the argument's slots, or a local array's adjoint array. So a call between
   * {@code @Differentiable} methods allocates nothing. The caller takes the adjoints back at
   * once; when this throws, the caller's own guard resets the tape. The leading {@code Tape}
   * keeps this overload apart from every member of the contract.
   */
  MethodSpec pullbackOntoTape(Parted parted) {
    NameAllocator names = method.names();
    MethodSpec.Builder member = method.forCallers(method.memberNames().pullback());
    Function program = parted.program();
    JavaEmitter emitter = new JavaEmitter(program, names);
    List<String> all = emitter.parameterNames();
    String tape = names.fresh("tape");
    emitter.bindTape(tape);
    String seed = all.get(all.size() - 1);
    member.addJavadoc("For the generated code of callers: the value of $L, bit for bit;\n"
            + "pushes {@code $L} times its partial derivative with respect to each active\n"
            + "{@code double} parameter onto {@code $L}, in parameter order$L.\n"
            + "Allocates nothing$L.\n", method.link(), seed, tape,
            function.hasActiveArrays() ? ", and adds those\nwith respect to each element"
                + " of an array parameter {@code a} into {@code aAdjoints},\nfrom slot"
                + " {@code aStart} on" : "",
            function.returnsArray() ? " but the value" : "")
        .returns(method.valueType())
        .addParameter(MethodContext.TAPE, tape);
    for (int i = 0; i < all.size(); i++) {
      member.addParameter(JavaTypes.parameterType(program.parameters().get(i)), all.get(i));
    }
    return member.addCode(emitter.body()).build();
  }

  /**
   * {@code mRecord} and {@code mReplay} without the halves: the value, and the whole pullback
   * onto the tape ({@code pullbackOntoTape}, the member {@link #pullbackOntoTape} wrote, whose
   * parameters {@code mReplay} takes).
   */
  List<MethodSpec> byPullback(MethodSpec pullbackOntoTape) {
    return List.of(recordByValue(), replayByPullback(pullbackOntoTape));
  }

  /**
   * The forward half, {@code mRecord(Tape tape, params, [aStart, ...])}, which callers' forward
   * sweeps call: the forward sweep, which records for {@code mReplay}. With the halves, a call
   * costs one forward and one reverse sweep of the callee, and recursion of depth d costs
   * O(d), not O(d²).
   */
  MethodSpec record(Parted program) {
    return half(method.memberNames().record(), program, method.valueType(),
        "For the generated code of callers, not for direct use: the forward sweep of"
            + " $L;\nreturns its value, bit for bit, and leaves on {@code $L} what"
            + " {@code $LReplay} takes back.\n");
  }

  /**
   * The reverse half, {@code mReplay(Tape tape, params, [aAdjoints, aStart, ...], seed)},
   * which callers' reverse sweeps call: takes back what {@code mRecord} recorded, and runs the
   * reverse sweep.
   */
  MethodSpec replay(Parted program) {
    return half(method.memberNames().replay(), program, TypeName.VOID,
        "For the generated code of callers, not for direct use: the reverse sweep of"
            + " $L\nafter {@code $LRecord}, whose recording it takes back from"
            + " {@code $L}; then as\n{@code $LPullback(Tape, ...)}: pushes the adjoints"
            + " of the {@code double} parameters"
            + (function.hasActiveArrays() ? ", adds those\nof the arrays' elements"
                + " into {@code aAdjoints} from slot {@code aStart} on" : "")
            + ".\n");
  }

  /** A half of the split pullback: the tape, then the program's parameters. */
  private MethodSpec half(String name, Parted parted, TypeName returns, String javadoc) {
    NameAllocator names = method.names();
    Function program = parted.program();
    JavaEmitter emitter = new JavaEmitter(program, names);
    List<String> all = emitter.parameterNames();
    String tape = names.fresh("tape");
    emitter.bindTape(tape);
    Object[] arguments = name.equals(method.memberNames().record())
        ? new Object[] {method.link(), tape, function.name()}
        : new Object[] {method.link(), function.name(), tape, function.name()};
    MethodSpec.Builder member = method.forCallers(name)
        .addJavadoc(javadoc, arguments)
        .returns(returns)
        .addParameter(MethodContext.TAPE, tape);
    for (int i = 0; i < all.size(); i++) {
      member.addParameter(JavaTypes.parameterType(program.parameters().get(i)), all.get(i));
    }
    return member.addCode(emitter.body()).build();
  }

  /**
   * {@code mRecord(Tape, params, [aStart, ...])} of a method whose halves are not split: the
   * value only; nothing is recorded, and {@link #replayByPullback} runs the whole pullback.
   */
  private MethodSpec recordByValue() {
    NameAllocator names = method.names();
    // the user's method cannot be called with the function's parameters (a receiver first,
    // the leaves of value records): the value is computed here
    JavaEmitter here = function.returnsArray() || takesItsOwnParameters() ? null
        : new JavaEmitter(function, names);
    List<String> parameters =
        here == null ? method.userParameterNames(names) : here.parameterNames();
    String tape = names.fresh("tape");
    MethodSpec.Builder member = method.forCallers(method.memberNames().record())
        .addJavadoc("For the generated code of callers, not for direct use: the value of"
            + " $L, bit for bit.\nRecords nothing: {@code $LReplay} runs the whole"
            + " pullback.\n", method.link(), function.name())
        .returns(method.valueType())
        .addParameter(MethodContext.TAPE, tape);
    for (int i = 0; i < parameters.size(); i++) {
      member.addParameter(JavaTypes.parameterType(function.parameters().get(i)),
          parameters.get(i));
    }
    for (Value parameter : function.parameters()) {
      if (parameter.isActiveArray()) {
        member.addParameter(int.class, names.fresh(parameter.nameHint() + "Start"));
      }
    }
    if (here != null) {
      return member.addCode(here.body()).build();
    }
    // a private method's value, and a vector function's, are computed in this class
    String owner = method.element().getModifiers().contains(Modifier.PRIVATE)
        || function.returnsArray() ? "" : method.userType() + ".";
    String name = function.returnsArray() ? method.memberNames().primal() : function.name();
    return member.addStatement("return $L$L($L)", owner, name, String.join(", ", parameters))
        .build();
  }

  /**
   * Whether the function's parameters are the user's method's own, so that {@code mRecord}
   * may call it: not for an instance method (the receiver comes first) nor for a method taking
   * value records (their leaves stand in for them).
   */
  private boolean takesItsOwnParameters() {
    return method.element().getModifiers().contains(Modifier.STATIC)
        && function.parameters().size() == method.element().getParameters().size();
  }

  /** {@code mReplay(Tape, ...)} of a method whose halves are not split: its whole pullback. */
  private MethodSpec replayByPullback(MethodSpec pullback) {
    List<String> parameters = pullback.parameters().stream().map(p -> p.name()).toList();
    MethodSpec.Builder member = method.forCallers(method.memberNames().replay())
        .addJavadoc("For the generated code of callers, not for direct use: as"
            + " {@code $LPullback(Tape, ...)}\n(its forward sweep runs again: $L is not"
            + " split into halves).\n", function.name(), method.link())
        .returns(void.class);
    pullback.parameters().forEach(member::addParameter);
    return member.addStatement("$LPullback($L)", function.name(),
        String.join(", ", parameters)).build();
  }
}
