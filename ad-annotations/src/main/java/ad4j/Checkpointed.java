package ad4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Bounds the memory that the reverse mode of a {@code @Differentiable} method's loops takes, by
 * checkpointing: instead of recording every intermediate value of every iteration on the tape,
 * the reverse mode keeps at most {@link #snapshots()} snapshots of each loop's state (the
 * variables the loop assigns that were declared before it, and those it reads that the method
 * assigns after it) and computes each iteration again
 * from them when the reverse sweep needs it. What the method computes, and every generated
 * member's signature and results, stay as they are; only how {@code mGradient},
 * {@code mValueAndGradient} and {@code mPullback} get there changes.
 *
 * <p>It applies to every loop of the method that is not inside another loop. For a loop of
 * {@code n} iterations and {@code S = snapshots()}:
 *
 * <ul>
 *   <li>while {@code n <= S}, the state at the start of each iteration is recorded (for RK4 the
 *       state vector, not the products of each stage) and each iteration is computed once more,
 *       right before its reverse, which then reads its values from locals;
 *   <li>beyond, the snapshots are thinned online (every other one is dropped when {@code S} are
 *       held, and the interval between them doubles), so that at most {@code S} are held, taken
 *       every {@code k} iterations with {@code k} the smallest power of two for which
 *       {@code n <= S * k} (so {@code k < 2n / S}); the reverse sweep computes each segment of
 *       {@code k} iterations forward from its snapshot, recording the state at the start of
 *       each, then each iteration once more before its reverse.
 * </ul>
 *
 * <p>The loop's tape then holds at most {@code S + k} states (each a few numbers: 8 bytes per
 * variable), whatever the iteration's own work, instead of every value each iteration's reverse
 * needs; an iteration runs at most three times forward (once while {@code n <= S}: twice) in
 * place of once. The trip count need not be known in advance.
 *
 * <p>A checkpointed loop's state must be variables of type {@code double}, {@code float},
 * {@code int}, {@code long} or {@code boolean}; the loop must not contain another loop, create
 * or write arrays, call methods that are not {@code @Differentiable} (they would run again; but
 * those that compute from numbers alone, such as {@code Math.floorMod}, {@code Integer.bitCount},
 * an argument-only static method of the sources or a {@code Double} parameter's unboxing, give
 * the same result again) or assign variables in its condition. Anything else, and this annotation on a method of order 2
 * or without loops, is a compile error at the loop or the annotation.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Checkpointed {
  /**
   * The most snapshots of a loop's state the reverse mode holds at once; at least 2, and an
   * odd number counts as one less.
   *
   * @return the number of snapshots
   */
  int snapshots() default 1024;
}
