package ad4j.processor.plan;

/**
 * What stands behind {@code mRecord} and {@code mReplay}, the members callers call in split
 * mode: the two halves of the pullback, or the value and the whole pullback.
 */
public sealed interface Halves {
  /**
   * The reverse sweep reads only numbers of the forward sweep: {@code record} runs the forward
   * sweep and records them, {@code replay} takes them back and runs the reverse sweep only.
   */
  record Recorded(Parted record, Parted replay) implements Halves {}

  /**
   * No halves ({@link ad4j.processor.derive.Adjoint#split}: local arrays, a vector result, a
   * method split into segments), or halves that, cut, still pass HotSpot's limit:
   * {@code mRecord} computes the value, {@code mReplay} runs the whole pullback.
   */
  record ByPullback() implements Halves {}
}
