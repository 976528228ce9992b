package ad4j.processor.plan;

import ad4j.processor.ir.Function;
import ad4j.processor.ir.Segment;
import ad4j.processor.methodsize.Segments;

/**
 * The private method of one sweep of one segment of a split method: its name, its program,
 * whether it returns the value (the last segment's forward sweeps do), which sweep it is and
 * the user's lines the segment covers.
 */
public record SegmentMethod(String name, Function program, boolean returnsValue, Sweep sweep,
    long firstLine, long lastLine) {
  /** Which sweep of the segment the method runs. */
  public enum Sweep {
    /** The forward sweep of the first-order members. */
    FORWARD,
    /** The reverse sweep of the first-order members. */
    REVERSE,
    /** The forward mode of {@code mTangent}. */
    TANGENT,
    /** The forward sweep with tangents, of the forward-over-reverse sweep. */
    HESSIAN_FORWARD,
    /** The reverse sweep with tangents, of the forward-over-reverse sweep. */
    HESSIAN_REVERSE
  }

  /** The method of {@code sweep} of {@code segment}, one of {@code segments}. */
  static SegmentMethod of(String name, Function program, Sweep sweep, Segments segments,
      Segment segment) {
    return new SegmentMethod(name, program,
        segment.number() == segments.list().size() && returnsValueWhenLast(sweep), sweep,
        segment.firstLine(), segment.lastLine());
  }

  private static boolean returnsValueWhenLast(Sweep sweep) {
    return switch (sweep) {
      case FORWARD, TANGENT, HESSIAN_FORWARD -> true;
      case REVERSE, HESSIAN_REVERSE -> false;
    };
  }
}
