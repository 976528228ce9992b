package ad4j.processor.rules;

import ad4j.processor.ir.Operand;

/**
 * The partial derivative of an operation's result with respect to one argument, in the form
 * {@code ±factor / divisor}, each an IR operand built by a {@link Site}. Keeping the division
 * and the sign apart lets a derivative program compute {@code aDot / b} and
 * {@code bBar -= yBar * y / b} instead of multiplying by a reciprocal or by {@code -1.0}.
 *
 * @param factor multiplies the incoming derivative; {@code null} means 1
 * @param divisor divides it; {@code null} means 1
 * @param negative whether the partial is the negation of {@code factor / divisor}
 * @param gate when not null, the partial is zero wherever this boolean is false
 */
public record Partial(Operand factor, Operand divisor, boolean negative, Operand gate) {
  public static final Partial ONE = new Partial(null, null, false, null);
  public static final Partial MINUS_ONE = new Partial(null, null, true, null);

  public static Partial times(Operand factor) {
    return new Partial(factor, null, false, null);
  }

  public static Partial over(Operand divisor) {
    return new Partial(null, divisor, false, null);
  }

  /**
   * One where {@code gate} holds and exactly zero elsewhere: a derivative that passes through
   * the chosen operand of {@code c ? a : b} and never reaches the other, not even as 0 * NaN.
   */
  public static Partial onlyWhen(Operand gate) {
    return new Partial(null, null, false, gate);
  }

  public Partial dividedBy(Operand newDivisor) {
    if (divisor != null) {
      throw new IllegalStateException("already divided by " + divisor);
    }
    return new Partial(factor, newDivisor, negative, gate);
  }

  public Partial negated() {
    return new Partial(factor, divisor, !negative, gate);
  }

  /** This partial without its divisor, for a caller that divides once for several. */
  public Partial undivided() {
    return new Partial(factor, null, negative, gate);
  }

  /** Whether this partial is exactly one: the derivative passes on unchanged. */
  public boolean isOne() {
    return equals(ONE);
  }

  /**
   * The magnitude of this partial applied to a derivative: {@code derivative * factor / divisor},
   * dropping factors of one, built at {@code site}. The sign is left to the caller, who
   * subtracts instead of adding.
   */
  public Operand applyTo(Operand derivative, Site site) {
    Operand scaled;
    if (factor == null) {
      scaled = derivative;
    } else if (derivative instanceof Operand.Constant constant && constant.isOne()) {
      scaled = factor;
    } else {
      scaled = site.times(derivative, factor);
    }
    Operand result = divisor == null ? scaled : site.over(scaled, divisor);
    return gate == null ? result : site.choose(gate, result, Site.number(0.0));
  }
}
