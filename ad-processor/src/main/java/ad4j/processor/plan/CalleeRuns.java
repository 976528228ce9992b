package ad4j.processor.plan;

import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Whether the members a plan prints run the code of each callee whose code does not run alike
 * twice ({@code front/UnrepeatableCall}: a draw, a counter, a log line) once per call, as the
 * method does (DESIGN.md, "Soundness"). Judged on the programs as printed, optimised and cut:
 * a tangent runs the callee once where {@code optimize/TangentCallsAlone} left one of its value
 * call and its tangent call, twice where the tangent reads both (a product of two such calls);
 * a reverse sweep runs it once where the forward sweep calls its recording half and the
 * reverse its replaying half, again where that half runs the callee's whole pullback (a callee
 * without halves: {@link Halves.ByPullback}).
 *
 * <p>Every instruction that calls the callee or one of its members counts one run (a replaying
 * half that the plan of the callee records counts none); a program with its parts may make no
 * more of them than the method makes calls of that name. Each call of the method is kept by
 * every program (a call may throw: dead code keeps it), so no more runs than calls means one
 * per call. What the plan splits into segments (whose reverse sweeps run whole pullbacks), or
 * differentiates again (order 2), or sweeps per slot (a vector function) is judged as running
 * it again: the lowering rejects such callers already, apart from the segments.
 */
public final class CalleeRuns {
  private CalleeRuns() {}

  /** A call to judge: the callee's name, and the line of the statement it is in. */
  public record Call(String callee, long line) {}

  /** What the members do with one call. */
  public enum Verdict {
    /** Every member runs the callee's code once per call of the method. */
    ONCE,
    /** The tangent runs it twice: for the value and for the tangent. */
    TWICE_IN_TANGENT,
    /** A reverse-mode member runs it again. */
    AGAIN_IN_REVERSE
  }

  /**
   * The verdict of each of {@code calls} (in their order) on {@code plan}; {@code recorded}
   * says whether a callee of that name has halves that record its values, so that its replaying
   * half runs none of its code.
   */
  public static List<Verdict> of(MethodPlan plan, List<Call> calls, Predicate<String> recorded) {
    Verdict[] verdicts = new Verdict[calls.size()];
    Arrays.fill(verdicts, Verdict.ONCE);
    if (calls.isEmpty()) {
      return List.of();
    }
    if (!(plan instanceof MethodPlan.Scalar scalar)
        || scalar.firstOrder() instanceof Segmentation.Segmented
        || scalar.secondOrder().isPresent()) {
      Arrays.fill(verdicts, Verdict.AGAIN_IN_REVERSE);
      return List.of(verdicts);
    }
    Map<String, Integer> made = new HashMap<>();
    Map<Call, Integer> madeOnLine = new HashMap<>();
    scalar.programs().function().body().walk(statement -> {
      if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.USER_CALL) {
        count(instruction, made, madeOnLine);
      }
    });
    List<Parted> reverse = new ArrayList<>();
    scalar.gradientWithoutValue().ifPresent(reverse::add);
    if (scalar.reverse() instanceof ReverseMembers.OwnSweeps own) {
      reverse.add(own.valueAndGradient());
      reverse.add(own.pullback());
    }
    reverse.add(scalar.pullbackOntoTape());
    if (scalar.halves() instanceof Halves.Recorded halves) {
      reverse.add(halves.record());
      reverse.add(halves.replay());
    }
    for (Parted program : reverse) {
      judge(program, calls, recorded, made, madeOnLine, Verdict.AGAIN_IN_REVERSE, verdicts);
    }
    scalar.tangent().ifPresent(tangent -> judge(tangent, calls, recorded, made, madeOnLine,
        Verdict.TWICE_IN_TANGENT, verdicts));
    return List.of(verdicts);
  }

  /**
   * Judges one program with its parts: where it runs a callee more often than the method calls
   * it, the calls of that name are given {@code verdict} (those on a line where it runs more
   * often than the line calls it, or all where no line shows it), unless they have one.
   */
  private static void judge(Parted program, List<Call> calls, Predicate<String> recorded,
      Map<String, Integer> made, Map<Call, Integer> madeOnLine, Verdict verdict,
      Verdict[] verdicts) {
    Map<String, Integer> runs = new HashMap<>();
    Map<Call, Integer> runsOnLine = new HashMap<>();
    // a replaying half that runs the whole pullback runs the callee again, whichever program
    // of the method ran its recording half
    Map<String, Integer> wholeReplays = new HashMap<>();
    Map<Call, Integer> wholeReplaysOnLine = new HashMap<>();
    List<Function> functions = new ArrayList<>(List.of(program.program()));
    program.parts().forEach(part -> functions.add(part.program()));
    for (Function function : functions) {
      function.body().walk(statement -> {
        if (statement instanceof Instruction instruction
            && instruction.operation().callee() != null
            && made.containsKey(instruction.operation().callee().name())) {
          Callee callee = instruction.operation().callee();
          boolean replay = instruction.operation().name()
              .equals(callee.name() + Operation.REPLAY);
          if (!replay) {
            count(instruction, runs, runsOnLine);
          } else if (!recorded.test(callee.name())) {
            count(instruction, wholeReplays, wholeReplaysOnLine);
          }
        }
      });
    }
    runs.forEach((name, count) -> {
      if (count > made.get(name)) {
        blame(calls, name, call -> runsOnLine.getOrDefault(call, 0)
            > madeOnLine.getOrDefault(call, 0), verdict, verdicts);
      }
    });
    wholeReplays.keySet().forEach(name -> blame(calls, name,
        wholeReplaysOnLine::containsKey, Verdict.AGAIN_IN_REVERSE, verdicts));
  }

  /**
   * Gives {@code verdict} to the calls of {@code name} that {@code onLine} picks, or to all of
   * them where it picks none, unless they have one.
   */
  private static void blame(List<Call> calls, String name, Predicate<Call> onLine,
      Verdict verdict, Verdict[] verdicts) {
    boolean picked = calls.stream().anyMatch(call -> call.callee().equals(name)
        && onLine.test(call));
    for (int i = 0; i < calls.size(); i++) {
      Call call = calls.get(i);
      if (call.callee().equals(name) && (!picked || onLine.test(call))) {
        blame(verdicts, i, verdict);
      }
    }
  }

  private static void blame(Verdict[] verdicts, int i, Verdict verdict) {
    if (verdicts[i] == Verdict.ONCE) {
      verdicts[i] = verdict;
    }
  }

  private static void count(Instruction instruction, Map<String, Integer> byName,
      Map<Call, Integer> byLine) {
    String name = instruction.operation().callee().name();
    byName.merge(name, 1, Integer::sum);
    if (instruction.line() != null) {
      byLine.merge(new Call(name, instruction.line().number()), 1, Integer::sum);
    }
  }
}
