package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code char}, {@code short} and {@code byte} parameters and locals: inactive values that keep
 * their places and types in every generated signature, and run as Java runs them (promoted to
 * {@code int} in arithmetic, narrowed by compound assignments and casts, a {@code char} printed
 * and concatenated as a character, overloads chosen by the narrow type). They were an error
 * ("only 'double' and 'float' ..., 'int', 'long' and 'boolean' primitive parameters are
 * supported"). The same source compiles under ECJ in {@link EcjTest}.
 */
@ExtendWith(TapeIsEmpty.class)
class NarrowIntegralParametersTest {
  /** Methods with narrow parameters and locals in every member family. */
  static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Narrow {",
      "  record Weights(double a, double b) {",
      "    double at(double x, char c) {",
      "      int k = c - 'a';",
      "      char d = (char) (c + 2);",
      "      short e = (short) (k * 1000);",
      "      return a * x * k + b * (d - 'a') + (\"\" + d).length() + h(d) * a + e * b;",
      "    }",
      "  }",
      "  private final double scale;",
      "  Narrow(double scale) {",
      "    this.scale = scale;",
      "  }",
      "  @Differentiable double instance(double x, short s) {",
      "    short t = s;",
      "    t -= 2;",
      "    return scale * x * t + h(t) * x;",
      "  }",
      "  @Differentiable static double viaRecord(double x, double y, char c) {",
      "    Weights w = new Weights(x, y);",
      "    return w.at(x * y, c) + w.at(y, (char) (c + 1));",
      "  }",
      "  static int h(char c) { return 1; }",
      "  static int h(int c) { return 2; }",
      "  static int h(short c) { return 3; }",
      "  static int h(byte c) { return 4; }",
      "  @Differentiable static double scaled(double x, char c) {",
      "    return x * x * (c - 'a' + 1);",
      "  }",
      "  @Differentiable static double shortScaled(double x, short s) {",
      "    return x * s;",
      "  }",
      "  @Differentiable static double ofChar(double x, char c, double y) {",
      "    int d = c - '0';",
      "    double s = x * d + y;",
      "    char e = c;",
      "    e += 1;",
      "    e++;",
      "    for (int i = 0; i < d; i++) {",
      "      s += x * y * i;",
      "    }",
      "    String t = \"\" + e + c;",
      "    s += t.length() * x + t.charAt(0) * y;",
      "    if (e == '5') {",
      "      s *= x;",
      "    }",
      "    switch (c) {",
      "      case '1' -> s += y;",
      "      case '3' -> s -= y * y;",
      "      default -> s += 1;",
      "    }",
      "    s += scaled(x, c) + h(c) * x + h(e) * y + h(d) * x * y;",
      "    char f = (char) (c + 2);",
      "    s += Character.getNumericValue(f) * x;",
      "    var g = 'q';",
      "    s += (\"\" + g).length() * y + (int) g;",
      "    return s;",
      "  }",
      "  @Differentiable static double ofShort(double x, short n, double[] a) {",
      "    double s = a[n] * x;",
      "    short m = n;",
      "    m += 32000;",
      "    m *= 3;",
      "    s += m * x + h(m) + h(n) * a[0];",
      "    for (short k = 0; k < n; k++) {",
      "      s += a[k] * a[k] * k;",
      "    }",
      "    s += shortScaled(x, n) + -n * x + ~n;",
      "    long w = n;",
      "    s += w * x;",
      "    return s;",
      "  }",
      "  @Differentiable static double ofByte(double x, byte b, double y) {",
      "    byte c = b;",
      "    c >>= 1;",
      "    c += 100;",
      "    c++;",
      "    byte d = (byte) (b * 3);",
      "    double s = x * c + y * d + h(b) * x + h(c) * y + (b & 0xff) * x * y;",
      "    double[] v = {x, y, x * y};",
      "    s += v[(b & 0xff) % 3] * (b + 1);",
      "    String t = \"b\" + b + c;",
      "    s += t.length() * x;",
      "    short z = b;",
      "    s += z * y;",
      "    return s;",
      "  }",
      "  @Differentiable static double[] vector(double x, double y, char c, short s, byte b) {",
      "    char k = c;",
      "    k -= 'a';",
      "    return new double[] {x * k + y, x * y * s, b * y, (\"\" + c).length() * x};",
      "  }",
      "  @Differentiable(order = 2)",
      "  static double second(double x, double y, char c, short s, byte b) {",
      "    int d = c - 'a';",
      "    double r = x * x * y * d + s * x * y * y + b * x;",
      "    for (byte i = 0; i < b; i++) {",
      "      r += x * y * i;",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable static double overwritten(double x, char c, byte b) {",
      "    char c2 = c;",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      c2 += 2;",
      "      s += x * x * c2 + x * c2++ + x / b + b / 2 * x;",
      "    }",
      "    s += Math.max(c, 3) * x + Math.abs(b) * x;",
      "    StringBuilder sb = new StringBuilder();",
      "    sb.append(c2).append(b);",
      "    s += sb.length() * x + String.valueOf(c2).length();",
      "    char e = x > 0 ? 'a' : 'b';",
      "    return s + (c2 > c ? x : -x) + (c == 'a' ? 1 : 2) * x + e * x;",
      "  }",
      "  @Differentiable static double chars(double x, char[] cs) {",
      "    double s = 0;",
      "    for (int i = 0; i < cs.length; i++) {",
      "      char c = cs[i];",
      "      s += x * (c - '0');",
      "    }",
      "    for (char c : cs) {",
      "      s += x * x * c;",
      "    }",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() -> InProcessCompiler
      .compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Narrow", SOURCE));

  /** The same source cut into the smallest parts: narrow values passed between them. */
  private static final CompiledOnce PARTS = new CompiledOnce(() -> InProcessCompiler
      .compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=1"), "com.example.Narrow",
          SOURCE));

  private static MemberAgreement agreement(String name, boolean... active) {
    return MemberAgreement.of(COMPILED.get(), "com.example.Narrow", name, active);
  }

  @Test
  void everyMethodAgreesWhenCutIntoParts() throws Exception {
    String user = "com.example.Narrow";
    MemberAgreement.of(PARTS.get(), user, "ofChar", true, false, true)
        .checkScalar(new Object[] {0.7, '3', -1.3}, 1, 1e-7);
    MemberAgreement.of(PARTS.get(), user, "ofShort", true, false, true)
        .checkScalar(new Object[] {0.6, (short) 3, new double[] {0.3, -0.8, 1.2, 0.5}}, 1, 1e-7);
    MemberAgreement.of(PARTS.get(), user, "ofByte", true, false, true)
        .checkScalar(new Object[] {0.9, (byte) -7, -0.6}, 1, 1e-7);
    MemberAgreement.of(PARTS.get(), user, "vector", true, true, false, false, false)
        .checkVector(new Object[] {0.8, -1.7, 'd', (short) -300, (byte) 9});
    MemberAgreement.of(PARTS.get(), user, "second", true, true, false, false, false)
        .checkScalar(new Object[] {0.8, -1.4, 'e', (short) 3, (byte) 4}, 2, 1e-7);
    MemberAgreement.of(PARTS.get(), user, "viaRecord", true, true, false)
        .checkScalar(new Object[] {0.8, -1.4, 'c'}, 1, 1e-7);
  }

  @Test
  void charParameterInArithmeticLoopsSwitchesCallsAndConcatenation() throws Exception {
    MemberAgreement agreement = agreement("ofChar", true, false, true);
    for (char c : new char[] {'0', '1', '3', '4', '7'}) {
      agreement.checkScalar(new Object[] {0.7, c, -1.3}, 1, 1e-7);
      agreement.checkScalar(new Object[] {-1.1, c, 0.4}, 1, 1e-7);
    }
  }

  @Test
  void shortParameterAsIndexLoopBoundAndWrappingCompoundAssignments() throws Exception {
    MemberAgreement agreement = agreement("ofShort", true, false, true);
    for (short n : new short[] {0, 1, 2, 3}) {
      agreement.checkScalar(new Object[] {0.6, n, new double[] {0.3, -0.8, 1.2, 0.5}}, 1, 1e-7);
    }
  }

  @Test
  void byteParameterShiftedCastAndNarrowedAsJavaDoes() throws Exception {
    MemberAgreement agreement = agreement("ofByte", true, false, true);
    for (byte b : new byte[] {0, 1, 5, 127, -128, -7}) {
      agreement.checkScalar(new Object[] {0.9, b, -0.6}, 1, 1e-7);
    }
  }

  @Test
  void narrowParametersOfAVectorFunction() throws Exception {
    MemberAgreement agreement = agreement("vector", true, true, false, false, false);
    agreement.checkVector(new Object[] {0.8, -1.7, 'd', (short) -300, (byte) 9});
    agreement.checkVector(new Object[] {-0.2, 0.5, 'z', Short.MAX_VALUE, Byte.MIN_VALUE});
  }

  @Test
  void narrowParametersAndLoopCounterAtOrderTwo() throws Exception {
    MemberAgreement agreement = agreement("second", true, true, false, false, false);
    agreement.checkScalar(new Object[] {0.8, -1.4, 'e', (short) 3, (byte) 4}, 2, 1e-7);
    agreement.checkScalar(new Object[] {-0.5, 0.9, 'a', (short) -2, (byte) 0}, 2, 1e-7);
  }

  @Test
  void narrowLocalsOfAnInlinedRecordMethodAndOfAnInstanceMethod() throws Exception {
    MemberAgreement record = agreement("viaRecord", true, true, false);
    record.checkScalar(new Object[] {0.8, -1.4, 'c'}, 1, 1e-7);
    record.checkScalar(new Object[] {1.3, 0.2, 'x'}, 1, 1e-7);
    java.lang.reflect.Constructor<?> constructor = COMPILED.get().load("com.example.Narrow")
        .getDeclaredConstructor(double.class);
    constructor.setAccessible(true);
    Object receiver = constructor.newInstance(1.75);
    MemberAgreement instance = agreement("instance", true, false).on(receiver);
    instance.checkScalar(new Object[] {0.8, (short) 5}, 1, 1e-7);
    instance.checkScalar(new Object[] {-0.3, Short.MIN_VALUE}, 1, 1e-7);
  }

  @Test
  void narrowValuesOverwrittenInALoopPassedToTheJdkAndReadFromACharArray() throws Exception {
    MemberAgreement overwritten = agreement("overwritten", true, false, false);
    overwritten.checkScalar(new Object[] {0.7, 'c', (byte) 5}, 1, 1e-7);
    overwritten.checkScalar(new Object[] {-0.4, 'a', (byte) -3}, 1, 1e-7);
    MemberAgreement chars = agreement("chars", true, false);
    chars.checkScalar(new Object[] {0.7, new char[] {'1', '5', 'z'}}, 1, 1e-7);
  }

  @Test
  void aCalleeTakingTheNarrowTypeKeepsItInItsSignature() throws Exception {
    MemberAgreement agreement = agreement("scaled", true, false);
    agreement.checkScalar(new Object[] {0.8, 'c'}, 1, 1e-7);
    assertThat(COMPILED.get().load("com.example.NarrowGrad")
        .getDeclaredMethod("scaledGradient", double.class, char.class)).isNotNull();
    assertThat(COMPILED.get().load("com.example.NarrowGrad")
        .getDeclaredMethod("shortScaledTangent", double.class, short.class, double.class))
        .isNotNull();
  }

  /**
   * A {@code switch} expression whose cases yield {@code char}s is a {@code char} (JLS
   * 15.28.1), printed as a character; one beside an {@code int} constant is an {@code int}, as
   * javac types it. Before, the first was an error.
   */
  @Test
  void aSwitchExpressionOfCharsIsAChar() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Switch", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Switch {",
            "  @Differentiable static double f(double x, int k, char c) {",
            "    String s = \"\" + switch (k) { case 1 -> 'a'; case 2 -> c; default -> 'B'; };",
            "    String t = \"\" + switch (k) { case 1 -> 'a'; case 2 -> (int) c; default -> 66; };",
            "    return x * s.length() + x * x * t.length();",
            "  }",
            "}"));
    MemberAgreement agreement = MemberAgreement.of(compiled, "com.example.Switch", "f",
        true, false, false);
    for (int k = 0; k < 3; k++) {
      agreement.checkScalar(new Object[] {2.0, k, 'q'}, 1, 1e-9);
      double[] gradient = (double[]) agreement.member("Gradient", new Object[] {2.0, k, 'q'});
      int[] lengths = {2, 2, 3}; // "66", "97", "113"
      assertThat(gradient).isEqualTo(new double[] {1.0 + 2 * 2.0 * lengths[k]});
    }
  }

  @Test
  void aConditionalChoosingBetweenTwoCharVariablesIsAChar() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Choice", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Choice {",
            "  @Differentiable static double f(double x, char c, char d) {",
            "    String s = \"\" + (x > 0 ? c : d) + (x > 1 ? 'e' : c);",
            "    return x * s.length();",
            "  }",
            "}"));
    MemberAgreement agreement = MemberAgreement.of(compiled, "com.example.Choice", "f",
        true, false, false);
    agreement.checkScalar(new Object[] {0.5, 'c', 'd'}, 1, 1e-9);
    agreement.checkScalar(new Object[] {-0.5, 'c', 'd'}, 1, 1e-9);
    assertThat((double[]) agreement.member("Gradient", new Object[] {0.5, 'c', 'd'}))
        .isEqualTo(new double[] {2.0});
  }

  /** A chain of two levels is computed as an {@code int}: still the error it was. */
  @Test
  void aConditionalChainChoosingBetweenCharVariablesIsAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x, char c, char d) {",
        "    String s = \"\" + (x > 0 ? c : x > 1 ? d : 'e');",
        "    return x * s.length();",
        "  }",
        "}"),
        "this '?:' has type 'char' in Java (JLS 15.25), which ad4j computes as an 'int' here:"
            + " cast its operands to 'int'",
        5, 28);
  }
}
