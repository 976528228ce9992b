package ad4j.processor.plan;

import ad4j.processor.analysis.ResultLength;
import ad4j.processor.derive.jacobian.JacobianRows;
import ad4j.processor.derive.jacobian.RowsWithoutValue;
import ad4j.processor.emit.JavaEmitter;
import ad4j.processor.emit.PrintedSize;
import ad4j.processor.ir.Function;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;

/**
 * How a vector function's Jacobian members run the reverse sweeps of its rows: each row a
 * whole pullback ({@link BySweeps}), or all rows after one shared forward sweep
 * ({@link ByRows}, where {@link JacobianRows} allows and the program fits HotSpot's limit).
 * The members run the tangent once per slot instead when there are fewer slots than rows.
 */
public sealed interface JacobianPlan {
  /** One whole pullback per row. */
  record BySweeps() implements JacobianPlan {}

  /**
   * The rows after one forward sweep: {@code rows}, the program of {@code fJacobianRows};
   * {@code resultLength}, the length of the result when the method fixes it; and
   * {@code withoutValue}, the body of {@code fJacobian} that holds the sweeps itself, where
   * the method fixes its result's length, only writes the array ({@link RowsWithoutValue})
   * and the program records nothing on the tape.
   */
  record ByRows(Function rows, OptionalInt resultLength, Optional<Function> withoutValue)
      implements JacobianPlan {}

  /** The plan of the method of {@code programs}: rows one after the other where they fit. */
  static JacobianPlan of(MethodPrograms programs, MethodPlan.Names names) {
    Function function = programs.function();
    // rows one after the other where they fit in a method, else one loop over them
    Predicate<Function> fits = program ->
        PrintedSize.bodyFits(program, programs.names(), SizeLimits.BYTECODE_LIMIT);
    Optional<Function> unrolled = JacobianRows.of(programs.reverseFunction(),
        programs.reverseFlow(), names.prepareRows(), true).filter(fits);
    Optional<Function> rows = unrolled
        .or(() -> JacobianRows.of(programs.reverseFunction(), programs.reverseFlow(),
            names.prepareRows(), false).filter(fits));
    if (rows.isEmpty()) {
      return new BySweeps();
    }
    // the same rows into a matrix just made, for mJacobian; a program that records on the
    // tape is one of loops, where the result array costs little, and its member would need
    // the tape's handler around the matrix's making too
    Optional<Function> withoutValue = ResultLength.of(function).stream()
        .mapToObj(length -> JacobianRows.intoNewRows(programs.reverseFunction(),
                programs.reverseFlow(), names.jacobianInto(), unrolled.isPresent())
            .flatMap(program -> RowsWithoutValue.of(program, length)))
        .flatMap(Optional::stream)
        .filter(program -> !JavaEmitter.usesTape(program))
        .findFirst();
    return new ByRows(rows.get(), ResultLength.of(function), withoutValue);
  }
}
