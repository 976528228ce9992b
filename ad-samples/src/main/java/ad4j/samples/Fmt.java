package ad4j.samples;

import java.util.Locale;

/** Number formatting shared by the samples' output: locale-independent, 12 significant digits. */
final class Fmt {
  private Fmt() {}

  /** One number, 12 significant digits. */
  static String num(double value) {
    return String.format(Locale.ROOT, "%.12g", value).replaceFirst("(\\.\\d*?)0+(e|$)", "$1$2")
        .replaceFirst("\\.(e|$)", "$1");
  }

  /** A vector as {@code (a, b, ...)}. */
  static String vec(double[] values) {
    StringBuilder s = new StringBuilder("(");
    for (int i = 0; i < values.length; i++) {
      s.append(i == 0 ? "" : ", ").append(num(values[i]));
    }
    return s.append(')').toString();
  }

  /** A number in scientific notation with 2 decimals, for errors. */
  static String err(double value) {
    return String.format(Locale.ROOT, "%.2e", value);
  }
}
