package ad4j.processor.rules;

/**
 * The partial derivative of an operation's result with respect to one argument, in the form
 * {@code ±factor / divisor}. Keeping the division and the sign apart lets generated code write
 * {@code aDot / b} and {@code bBar -= yBar * y / b} instead of multiplying by a reciprocal or by
 * {@code -1.0}.
 *
 * @param factor multiplies the incoming derivative; {@code null} means 1
 * @param divisor divides it; {@code null} means 1
 * @param negative whether the partial is the negation of {@code factor / divisor}
 * @param gate when not null, the partial is zero wherever this boolean is false
 */
public record Partial(Expr factor, Expr divisor, boolean negative, Expr gate) {
  public static final Partial ONE = new Partial(null, null, false, null);
  public static final Partial MINUS_ONE = new Partial(null, null, true, null);

  public static Partial times(Expr factor) {
    return new Partial(factor, null, false, null);
  }

  public static Partial over(Expr divisor) {
    return new Partial(null, divisor, false, null);
  }

  /**
   * One where {@code gate} holds and exactly zero elsewhere: a derivative that passes through
   * the chosen operand of {@code c ? a : b} and never reaches the other, not even as 0 * NaN.
   */
  public static Partial onlyWhen(Expr gate) {
    return new Partial(null, null, false, gate);
  }

  public Partial dividedBy(Expr newDivisor) {
    if (divisor != null) {
      throw new IllegalStateException("already divided by " + divisor);
    }
    return new Partial(factor, newDivisor, negative, gate);
  }

  public Partial negated() {
    return new Partial(factor, divisor, !negative, gate);
  }

  /**
   * The magnitude of this partial applied to a derivative: {@code derivative * factor / divisor},
   * dropping factors of one. The sign is left to the caller, who writes {@code -} or {@code -=}.
   */
  public Expr applyTo(Expr derivative) {
    Expr scaled;
    if (factor == null) {
      scaled = derivative;
    } else if (derivative.isOne()) {
      scaled = factor;
    } else {
      scaled = derivative.times(factor);
    }
    Expr result = divisor == null ? scaled : scaled.over(divisor);
    return gate == null ? result : gate.choose(result, Expr.ZERO);
  }
}
