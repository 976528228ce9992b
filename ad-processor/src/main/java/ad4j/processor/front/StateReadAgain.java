package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import com.sun.source.tree.MethodTree;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;

/**
 * "Exact or rejected" for what a call run as written may change between two runs of the same
 * code. A generated member runs some code again, later than the user's method ran it: a
 * callee's pullback whose two halves cannot hand its values over runs its forward sweep again
 * in the caller's reverse sweep (and a vector callee runs twice in a caller's gradient), and
 * a {@code @Checkpointed} loop's reverse sweep computes its iterations again. Code run again
 * must read what it read the first time; a call of the method's own that runs as written and
 * may change state (a setter, {@code TABLE[0] = ...} inside a helper, a counter:
 * {@link RepeatedRuns} notes them) could have changed it in between, so that the derivative
 * would belong to other values than the result.
 *
 * <p>So in a method that makes such a call, it is an error to call, before it or in a loop
 * around it, a {@code @Differentiable} method whose code (or its callees') reads what such a
 * call may change: elements of arrays
 * that it did not make itself (parameters, {@code static final} tables), fields of objects,
 * static fields that are not {@code final}, results of calls run as written, values of
 * {@code @DerivativeOf} rules; and a {@code @Checkpointed} method may make no such call. (The
 * method's own reverse sweep reads no array element again: {@code Function.changesState}.)
 */
final class StateReadAgain {
  private final LoweringContext context;

  StateReadAgain(LoweringContext context) {
    this.context = context;
  }

  /** Reports each such call of the method {@code method} being lowered. */
  void check(ExecutableElement method, MethodTree tree) {
    Optional<NotedCalls.CallRunAsWritten> change = context.notedCalls().firstCallRunAsWritten();
    if (change.isEmpty() || context.examining()) {
      return;
    }
    String name = context.methodName();

    if (CheckpointedLoops.isCheckpointed(method)) {
      context.diagnostics().error(change.get().at() != null ? change.get().at() : tree,
          "call to '" + change.get().shown() + "' runs as written and may change what the"
          + " @Checkpointed loops of '" + name + "' read, and their reverse sweep computes"
          + " iterations again after it ran; make the call where '" + name + "' is called and"
          + " pass its result as a @NoDerivative parameter");
      return;
    }
    for (NotedCalls.DifferentiableCall call : context.notedCalls().differentiableCalls()) {
      if (context.notedCalls().unrepeatableCalls().stream()
          .anyMatch(judged -> judged.at() == call.at())) {
        // the plan rejects it wherever a member would run its code again (UnrepeatableCall):
        // its replaying half must run none of it, nor a callee's, so it reads nothing again
        continue;
      }
      Optional<NotedCalls.CallRunAsWritten> later = runsLater(call);
      if (later.isEmpty()) {
        continue;
      }
      Optional<CalleePlainCalls.Found> read =
          context.calleeServices().calleePlainCalls().readsChangeable(call.callee());
      if (read.isEmpty()) {
        continue;
      }
      String callee = call.callee().getEnclosingElement().getSimpleName() + "."
          + call.callee().getSimpleName();
      String what = switch (read.get().kind()) {
        case CALL -> "'" + read.get().method() + "' reads what a call run as written may change"
            + " (line " + read.get().line() + ": " + read.get().call() + ")";
        case NO_SOURCE -> "'" + read.get().method() + "' was compiled earlier, and ad4j cannot"
            + " see whether it reads what a call run as written may change";
        case UNRESOLVED -> "'" + read.get().method() + "' names what does not exist yet, and"
            + " ad4j cannot see yet whether it reads what a call run as written may change";
      };
      String changing = "'" + later.get().shown() + "' (line " + later.get().line()
          + "), which runs as written and may change it";
      String message = "call to '" + call.shown() + "': " + what + ", and the gradient of '"
          + name + "' may run '" + callee + "' again in its reverse sweep, after "
          + changing + "; make that call where '" + name + "' is called and pass its result"
          + " as a @NoDerivative parameter, or pass what '" + callee + "' reads as arguments";
      if (read.get().kind() == CalleePlainCalls.Kind.UNRESOLVED) {
        context.diagnostics().unresolved(call.at(), message);
      } else {
        context.diagnostics().error(call.at(), message);
      }
    }
  }

  /**
   * The first call that may change state and may run after {@code call}: later in the method,
   * or in a loop around both. (One that only runs before it changes nothing the callee's
   * second run could see differently from its first.)
   */
  private Optional<NotedCalls.CallRunAsWritten> runsLater(
      NotedCalls.DifferentiableCall call) {
    for (NotedCalls.CallRunAsWritten change : context.notedCalls().callsRunAsWritten()) {
      boolean sharedLoop = change.loops().stream().anyMatch(call.loops()::contains);
      if (change.start() < 0 || change.start() > call.start() || sharedLoop) {
        return Optional.of(change);
      }
    }
    return Optional.empty();
  }

  /**
   * The line of the first instruction of {@code body} (at any depth) that reads what a call run
   * as written may change, besides the reads of static fields and object arrays' elements that
   * the lowering notes ({@link NotedCalls#readsState}); empty when there is none. Elements of
   * arrays the code makes itself are its own: only it could change them.
   */
  static Optional<SourceLine> firstChangeableRead(Block body) {
    Map<Value, Instruction> made = new HashMap<>();
    return first(body, made);
  }

  private static Optional<SourceLine> first(Block block, Map<Value, Instruction> made) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        made.put(instruction.result(), instruction);
        if (readsChangeable(instruction, made)) {
          return Optional.of(instruction.line());
        }
      }
      for (Block nested : statement.nestedBlocks()) {
        Optional<SourceLine> found = first(nested, made);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  private static boolean readsChangeable(Instruction instruction,
      Map<Value, Instruction> made) {
    Operation.Form form = instruction.operation().form();
    return switch (form) {
      // a type test reads the class of its object, which never changes
      case PLAIN_CALL -> !instruction.operation().testsType();
      case RULED_CALL -> true;
      case ELEMENT -> isOutsideArray(instruction.arguments().get(0), made);
      default -> false;
    };
  }

  /** Whether {@code array} is not one the code made: a parameter, a table, a row of either. */
  private static boolean isOutsideArray(Operand array, Map<Value, Instruction> made) {
    if (!(array instanceof Operand.Use use)) {
      return true; // a static final table, or what an object holds
    }
    if (use.value().origin() == Value.Origin.PARAMETER) {
      return true;
    }
    Instruction making = made.get(use.value());
    return making == null || making.operation().form() == Operation.Form.ELEMENT
        && isOutsideArray(making.arguments().get(0), made);
  }
}
