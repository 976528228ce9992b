package ad4j.processor.emit;

import ad4j.processor.ir.Function;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The printed form of each program of one user's method, made once: the program without what
 * is never printed ({@link PrintedStatements}) and the facts the emitter decides by
 * ({@link ProgramFacts}). The planner prints a member's program to measure it and the class
 * prints the same program again; the two cost as much as printing (a quarter of the samples'
 * programs were printed twice). Programs are immutable, so the same object has the same form.
 */
final class PrintedForms {
  /** A program as printed and the facts about it; both depend on the program alone. */
  record Form(Function program, ProgramFacts facts) {}

  private final Map<Function, Form> forms = new IdentityHashMap<>();

  /** The printed form of {@code program}. */
  Form of(Function program) {
    return forms.computeIfAbsent(program, unprinted -> {
      Function printed = PrintedStatements.of(unprinted);
      return new Form(printed, new ProgramFacts(printed));
    });
  }
}
