package ad4j.processor.front;

import ad4j.processor.ir.Value;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The loops around what is being lowered, and the objects, strings and arrays made inside
 * loops: a new one per iteration, which the reverse sweep cannot take as the one of each call
 * (a receiver of {@code @DerivativeOf} rules, say). Reached through {@link LoweringContext},
 * which notes what it emits here.
 */
final class EnclosingLoops {
  /** The loops around, innermost first, each by the number of loops entered before it. */
  private final ArrayDeque<Integer> around = new ArrayDeque<>();
  private int entered;
  /**
   * The objects and strings computed inside loops, and the arrays made there ({@code new},
   * {@code clone()}, a vector function's result).
   */
  private final Set<Value> madeInLoops = new HashSet<>();

  /** Lowering enters the condition and body of a loop. */
  void enter() {
    around.push(++entered);
  }

  /** Lowering leaves a loop. */
  void leave() {
    around.pop();
  }

  /** The loops around what is being lowered, each by the number of loops entered before it. */
  List<Integer> around() {
    return List.copyOf(around);
  }

  /** Whether what is being lowered runs once per iteration of some loop. */
  boolean inside() {
    return !around.isEmpty();
  }

  /** Notes {@code value}, an object, string or array just made, if it is made inside a loop. */
  void made(Value value) {
    if (inside()) {
      madeInLoops.add(value);
    }
  }

  /** Whether {@code value} is an object, a string or an array made inside a loop. */
  boolean isMadeInALoop(Value value) {
    return madeInLoops.contains(value);
  }
}
