package ad4j.processor.write;

import ad4j.processor.front.UnrepeatableCall;
import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operation;
import ad4j.processor.plan.CalleeRuns;
import ad4j.processor.plan.Halves;
import ad4j.processor.plan.Parted;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The calls of the methods of one class whose callee's code, which does not run alike twice
 * ({@link UnrepeatableCall}), a member of their caller would run more than once per call, judged
 * on the callers' plans ({@link CalleeRuns}). The callees are methods of the same class, planned
 * first: whether a callee's replaying half runs nothing of its code again is its plan's
 * decision, and its replaying half's, which may replay other callees in turn.
 */
final class UnrepeatableCallees {
  private final List<GradClassWriter.Method> methods;
  private final IntFunction<MethodMembers> membersOf;
  private final String gradClass;
  /** By method index: whether its replaying half runs none of its code, nor a callee's, again. */
  private final Map<Integer, Boolean> replaysOnly = new HashMap<>();

  /**
   * The judge of {@code methods}, whose members {@code membersOf} gives by index, planned when
   * asked; {@code gradClass} is their generated class's simple name, as calls of their
   * members in the same package name it ({@link Callee#gradClass}).
   */
  UnrepeatableCallees(List<GradClassWriter.Method> methods,
      IntFunction<MethodMembers> membersOf, String gradClass) {
    this.methods = methods;
    this.membersOf = membersOf;
    this.gradClass = gradClass;
  }

  /** The calls whose callee a member would run again, each with its error, in method order. */
  List<CalleesRunAgain.Rejected> rejected() {
    List<CalleesRunAgain.Rejected> rejected = new ArrayList<>();
    for (int i = 0; i < methods.size(); i++) {
      List<UnrepeatableCall> calls = methods.get(i).unrepeatableCalls();
      if (calls.isEmpty()) {
        continue;
      }
      List<CalleeRuns.Verdict> verdicts = CalleeRuns.of(membersOf.apply(i).plan(),
          calls.stream().map(call -> new CalleeRuns.Call(call.calleeName(), call.line()))
              .toList(),
          name -> replaysOnly(name, Set.of()));
      for (int c = 0; c < calls.size(); c++) {
        UnrepeatableCall call = calls.get(c);
        switch (verdicts.get(c)) {
          case TWICE_IN_TANGENT -> rejected.add(new CalleesRunAgain.Rejected(call,
              call.inTangent()));
          case AGAIN_IN_REVERSE -> rejected.add(new CalleesRunAgain.Rejected(call,
              call.inReverse()));
          case ONCE -> { }
        }
      }
    }
    return rejected;
  }

  /**
   * Whether every method of the class named {@code name} (there is one at least) has a
   * replaying half that runs none of its code again; {@code open} holds the methods being
   * asked about further up, which a recursion answers for as not.
   */
  private boolean replaysOnly(String name, Set<Integer> open) {
    boolean found = false;
    for (int i = 0; i < methods.size(); i++) {
      if (methods.get(i).element().getSimpleName().contentEquals(name)) {
        found = true;
        if (!replaysOnly(i, open)) {
          return false;
        }
      }
    }
    return found;
  }

  /**
   * Whether method {@code i} has halves that record its values ({@link Halves.Recorded}) and
   * whose replaying half calls no whole pullback, and replays only callees of this class that
   * answer the same.
   */
  private boolean replaysOnly(int i, Set<Integer> open) {
    Boolean known = replaysOnly.get(i);
    if (known != null) {
      return known;
    }
    if (open.contains(i)) {
      return false;
    }
    Set<Integer> asking = new HashSet<>(open);
    asking.add(i);
    boolean answer = membersOf.apply(i).plan().halves() instanceof Halves.Recorded halves
        && replaysOnly(halves.replay(), asking);
    if (open.isEmpty()) {
      replaysOnly.put(i, answer); // an answer within a recursion may be a guard's
    }
    return answer;
  }

  private boolean replaysOnly(Parted program, Set<Integer> open) {
    List<Function> functions = new ArrayList<>(List.of(program.program()));
    program.parts().forEach(part -> functions.add(part.program()));
    boolean[] only = {true};
    for (Function function : functions) {
      function.body().walk(statement -> {
        if (only[0] && statement instanceof Instruction instruction
            && instruction.operation().form() == Operation.Form.PULLBACK_CALL) {
          Callee callee = instruction.operation().callee();
          only[0] = callee != null && instruction.operation().name()
              .equals(callee.name() + Operation.REPLAY)
              && callee.gradClass().equals(gradClass) && replaysOnly(callee.name(), open);
        }
      });
    }
    return only[0];
  }
}
