package ad4j.processor.emit;

import java.util.List;

/**
 * The plain lines of a body ({@link BodyText.Lines}), estimated as they are written, which stop
 * the printing once the estimate passes a budget ({@link PastBudget}). Whether a long program
 * fits one method as it is, the first question of the planner about it, needs no more than the
 * lines up to the budget: the cost of a line is never negative, so the estimate of the whole
 * body can only be larger. A program ten times the budget is printed a tenth.
 */
final class LinesWithinBudget extends BodyText {
  /**
   * Thrown by the calls of the printer once the lines written so far pass the budget; it
   * carries no stack trace, since it is control flow that ends a trial print.
   */
  static final class PastBudget extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private PastBudget() {
      super(null, null, false, false);
    }
  }

  private static final PastBudget PAST_BUDGET = new PastBudget();

  private final BodyText.Lines lines = BodyText.lines();
  private final BytecodeEstimate estimate;
  private final int budget;
  /** Where the first line not yet estimated starts in the text written. */
  private int estimatedTo;

  /**
   * Lines of the body of a static method with these parameters (pairs of type keyword and
   * name), stopped past {@code budget} estimated bytes.
   */
  LinesWithinBudget(List<String[]> parameters, int budget) {
    this.estimate = BytecodeEstimate.withParameters(parameters);
    this.budget = budget;
  }

  @Override
  void addStatement(String format, Object... args) {
    lines.addStatement(format, args);
    estimateWrittenLines();
  }

  @Override
  void add(String format, Object... args) {
    lines.add(format, args);
    estimateWrittenLines();
  }

  @Override
  void beginControlFlow(String format, Object... args) {
    lines.beginControlFlow(format, args);
    estimateWrittenLines();
  }

  @Override
  void nextControlFlow(String format, Object... args) {
    lines.nextControlFlow(format, args);
    estimateWrittenLines();
  }

  @Override
  void endControlFlow() {
    lines.endControlFlow();
    estimateWrittenLines();
  }

  @Override
  void endControlFlow(String format, Object... args) {
    lines.endControlFlow(format, args);
    estimateWrittenLines();
  }

  /**
   * Whether the whole body, written, is within the budget: the last line, which no line break
   * ends, estimated too, as {@link BytecodeEstimate#of} reads it.
   */
  boolean withinBudget() {
    CharSequence text = lines.written();
    if (estimatedTo < text.length()) {
      estimate.addLine(text.subSequence(estimatedTo, text.length()).toString());
      estimatedTo = text.length();
    }
    return estimate.bytes() <= budget;
  }

  /** Estimates each line the last call ended, and stops the printing past the budget. */
  private void estimateWrittenLines() {
    CharSequence text = lines.written();
    for (int end = estimatedTo; end < text.length(); end++) {
      if (text.charAt(end) == '\n') {
        estimate.addLine(text.subSequence(estimatedTo, end).toString());
        estimatedTo = end + 1;
      }
    }
    if (estimate.bytes() > budget) {
      throw PAST_BUDGET;
    }
  }
}
