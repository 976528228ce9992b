package ad4j.processor.plan;

import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.ir.Function;
import ad4j.processor.methodsize.Guards;
import ad4j.processor.methodsize.Segments;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * How a method may be cut into segments: the method itself, or, when that stays whole, what
 * follows its argument checks (every member then runs the checks first). Apart because the
 * first-order members and the forward-over-reverse sweep try it with cuts of their own sizes.
 */
final class SegmentSplits {
  private SegmentSplits() {}

  /**
   * A split into segments: the segments, the argument checks taken off before them (null when
   * none) and the program the segments are cut from (the method, or its rest after the checks).
   */
  record Split(Segments segments, Guards guards, Function rest) {}

  /**
   * How {@code cut} splits the method, if it can. A method with array parameters stays whole:
   * segments hand over doubles only.
   */
  static Optional<Split> of(MethodPrograms programs,
      BiFunction<Function, FlowAnalysis, Segments> cut) {
    Function function = programs.function();
    if (function.hasActiveArrays()) {
      return Optional.empty();
    }
    Segments whole = cut.apply(function, programs.flow());
    if (whole != null) {
      return Optional.of(new Split(whole, null, function));
    }
    Optional<Guards> checked = Guards.of(function);
    if (checked.isEmpty()) {
      return Optional.empty();
    }
    Function rest = checked.get().rest();
    Segments segments = cut.apply(rest, new FlowAnalysis(rest));
    return segments == null ? Optional.empty()
        : Optional.of(new Split(segments, checked.get(), rest));
  }
}
