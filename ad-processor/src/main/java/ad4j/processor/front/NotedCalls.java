package ad4j.processor.front;

import ad4j.processor.ir.Operand;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.ExecutableElement;

/**
 * The calls of the method's code that others must know of, noted as lowering meets them: calls
 * run as written that do not run alike each time (the generated class records the first for
 * callers compiled later), calls of {@code @Differentiable} methods (its callees, whose code
 * is examined in turn), calls whose callees' code the plan must see run once per call, and the
 * first read of state such a call may change. Apart from {@link LoweringContext} because
 * lowering only adds to these lists and the plan and callers' checks only read them.
 */
final class NotedCalls {
  private final LoweringContext context;

  NotedCalls(LoweringContext context) {
    this.context = context;
  }

  /** A call of the method's own code that runs as written and not alike each time. */
  record CallRunAsWritten(String shown, long line, Tree at, long start, List<Integer> loops) {
    /** For messages and the generated class: {@code "RNG.nextGaussian() (line 8)"}. */
    String describe() {
      return shown + (line > 0 ? " (line " + line + ")" : "");
    }
  }

  /** Every {@link CallRunAsWritten}, in the order of lowering. */
  private final List<CallRunAsWritten> callsRunAsWritten = new ArrayList<>();

  List<CallRunAsWritten> callsRunAsWritten() {
    return List.copyOf(callsRunAsWritten);
  }

  /** Notes a call of the method's own code that runs as written and not alike each time. */
  void callRunsAsWritten(String shown, long line, Tree at) {
    CallRunAsWritten call = new CallRunAsWritten(shown, line, at,
        at == null ? -1 : context.source().start(at), context.loops().around());
    callsRunAsWritten.add(call);
  }

  /** How many {@code throw} statements' exceptions are being lowered around the current tree. */
  private int buildingThrown;

  /**
   * Runs {@code lowering} of the exception a {@code throw} (or a failing {@code assert})
   * builds, and gives its result. The calls it makes run
   * at most once per call of any generated member: once the exception is thrown the member
   * ends (a differentiable method catches nothing), so no sweep or caller runs them again.
   */
  <T> T lowerThrown(java.util.function.Supplier<T> lowering) {
    buildingThrown++;
    try {
      return lowering.get();
    } finally {
      buildingThrown--;
    }
  }

  /** Whether the tree being lowered builds the exception of a {@code throw}. */
  boolean buildingThrown() {
    return buildingThrown > 0;
  }

  /** The first {@link CallRunAsWritten}. */
  java.util.Optional<CallRunAsWritten> firstCallRunAsWritten() {
    return callsRunAsWritten.stream().findFirst();
  }

  /** The line of the first read of a static field that is not final or an object array's element. */
  private ad4j.processor.ir.SourceLine firstStateRead;

  /**
   * {@code value} reads state that a call run as written may have written: a static field that
   * is not final, an element of an array of objects ({@link LaunderedDependence#readsState},
   * {@link StateReadAgain}).
   */
  void readsState(Operand value) {
    context.dependences().readsState(value);
    if (firstStateRead == null) {
      firstStateRead = context.line();
    }
  }

  java.util.Optional<ad4j.processor.ir.SourceLine> firstStateRead() {
    return java.util.Optional.ofNullable(firstStateRead);
  }

  /** A call of a {@code @Differentiable} method, at {@code at}, written {@code shown}. */
  record DifferentiableCall(ExecutableElement callee, Tree at, String shown, long start,
      List<Integer> loops) {}

  private final List<DifferentiableCall> differentiableCalls = new ArrayList<>();

  /** Records a resolved call, at {@code at}, of the {@code @Differentiable} method {@code callee}. */
  void calls(ExecutableElement callee, Tree at, String shown) {
    differentiableCalls.add(new DifferentiableCall(callee, at, shown,
        context.source().start(at), context.loops().around()));
  }

  List<DifferentiableCall> differentiableCalls() {
    return List.copyOf(differentiableCalls);
  }

  private final List<UnrepeatableCall> unrepeatableCalls = new ArrayList<>();

  /** Notes a call whose callee's code the caller's programs must run once per call. */
  void callsUnrepeatable(UnrepeatableCall call) {
    unrepeatableCalls.add(call);
  }

  /** Every {@link UnrepeatableCall}, in the order of lowering. */
  List<UnrepeatableCall> unrepeatableCalls() {
    return List.copyOf(unrepeatableCalls);
  }

  /** The {@code @Differentiable} methods it calls, in the order its calls resolve. */
  List<ExecutableElement> callees() {
    return differentiableCalls.stream().map(DifferentiableCall::callee).toList();
  }
}
