package ad4j.processor.plan;

/**
 * What the public reverse-mode members of a method of {@code double} result print,
 * {@code mValueAndGradient} and {@code mPullback}: each its own sweep, or both the one sweep
 * that {@code mPullback(Tape, ...)}, the member callers call, prints already.
 *
 * <p>Each own sweep costs a copy of the whole reverse sweep in the generated class, with its
 * parts: for a long method, three near-identical copies of thousands of lines. Over the one
 * sweep, a member seeds it with {@code 1.0} (for the gradient) or its {@code seed}, and takes
 * the adjoints of the {@code double} parameters off the tape into its array, where its own
 * sweep would write them there at once. Where that costs nothing measurable, one sweep is
 * printed ({@link #of}).
 */
public sealed interface ReverseMembers {
  /**
   * Each member prints its own program: {@code mValueAndGradient}'s with the seed {@code 1}
   * folded into it, {@code mPullback}'s adding into the array.
   */
  record OwnSweeps(Parted valueAndGradient, Parted pullback) implements ReverseMembers {}

  /**
   * Both members call {@code mPullback(Tape, ...)} on the thread's tape: {@code
   * mValueAndGradient} with the seed {@code 1.0}, writing the adjoints it leaves on the tape
   * into the gradient, {@code mPullback} with its seed, adding them to its array; an array
   * parameter's adjoints it adds into the member's array at the array's slots.
   */
  record OverPullbackOntoTape() implements ReverseMembers {}

  /**
   * Whether the members share the sweep of {@code mPullback(Tape, ...)}: where the method is
   * split into segments, or {@code valueAndGradient}, the program of {@code mValueAndGradient},
   * is cut into parts for HotSpot's limit of 8000 bytes per compiled method. Such a sweep
   * already hands its values between methods through the tape, and runs thousands of
   * instructions at least: a push and a pop per
   * {@code double} parameter, one call more and, at the seed, a multiplication by {@code 1.0}
   * are lost in it. The product with {@code 1.0} is exact; the gradient may still differ from
   * the seed-folded sweep's in the last bit where the optimizer groups a sum of adjoints
   * otherwise around a seed. A shorter sweep keeps its own members: there the JIT would
   * inline the short body, and the seed folded away and the adjoints written straight into
   * the array are a measurable part of its cost. So does a sweep whose loop nests alone are
   * methods of their own ({@link PartMethod.Kind#LOOP_NEST}): short code, and hot, measured
   * as it is (the ADBench GMM's gradient).
   */
  static boolean oneSweepPays(Segmentation firstOrder, Parted valueAndGradient) {
    return firstOrder instanceof Segmentation.Segmented || inParts(valueAndGradient);
  }

  /**
   * Whether {@code sweep} is cut into parts for HotSpot's limit. The planner asks it of
   * {@code mPullback(Tape, ...)}'s sweep, which it needs in any case, before it makes
   * {@code mValueAndGradient}'s: where the one is cut into parts, the other, the same sweep
   * without the tape's seed and pushes, would be too (or fall within a few statements of the
   * limit), and the members share the one ({@link #oneSweepPays}). Derived, optimized and
   * printed to be measured only to be dropped, the other was the largest share of the
   * processor's time on a long method of branches (BENCHMARKS.md, session 54).
   */
  static boolean inParts(Parted sweep) {
    return sweep.parts().stream().anyMatch(part -> part.kind() == PartMethod.Kind.PART);
  }
}
