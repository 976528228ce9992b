package ad4j.processor.write;

import ad4j.processor.plan.Parted;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The members of one kind printed from the programs of a plan, each printed once: the planner
 * asks how long a member would be ({@link ad4j.processor.plan.MemberSizes}), and the class
 * lists that same member when the plan keeps its program, not a second print of it. Keyed by
 * the program's identity: a program planned again is another.
 */
final class PrintedOnce {
  private final Function<Parted, Written> print;
  private final Map<Parted, Written> printed = new IdentityHashMap<>();

  PrintedOnce(Function<Parted, Written> print) {
    this.print = print;
  }

  /** The member printed from {@code program}. */
  Written of(Parted program) {
    return printed.computeIfAbsent(program, print);
  }
}
