package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.GeneratedText;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Calls of a value record's {@code @Differentiable} methods whose body ad4j does not inline (a
 * loop, a branch; DESIGN.md, part 3: "calls of the record's own methods ... differentiated as
 * helpers, the receiver an active argument"): they call the members generated for the method,
 * which take the receiver's components first, as a record parameter's. Instance and static
 * methods, the receiver made of constants or of active values or a record parameter, in a
 * loop, a method calling another of its record on {@code this}, a {@code double[]} result,
 * components that carry no derivative ({@code int}, {@code String}) and a value class, a
 * compact constructor that changes the components, a nested record, a stream's lambda,
 * recursion, a {@code @Checkpointed} loop, a vector function calling them, receivers that
 * carry no derivative;
 * every member of the callers against differences of the user's method and forward against
 * reverse, at order 2, whole and cut into parts of 1 and 2 statements; a method returning a
 * record, a vector function over its leaves. What stays an error: a method that is not
 * {@code @Differentiable}, and one returning a record with components that carry no
 * derivative, each at its line.
 */
@ExtendWith(TapeIsEmpty.class)
class RecordMethodCallsTest {
  private static final String FILTERS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Filters {",
      "  record Biquad(double b0, double b1, double b2, double a1, double a2) {",
      "    /** A loop: not inlined, called through its generated members. */",
      "    @Differentiable(order = 2) double filterLast(double[] x) {",
      "      double x1 = 0, x2 = 0, y1 = 0, y2 = 0;",
      "      double y = 0;",
      "      for (int i = 0; i < x.length; i++) {",
      "        y = b0 * x[i] + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;",
      "        x2 = x1;",
      "        x1 = x[i];",
      "        y2 = y1;",
      "        y1 = y;",
      "      }",
      "      return y;",
      "    }",
      "    /** A branch, and a call of its own loop method on this. */",
      "    @Differentiable(order = 2) double gain(double w) {",
      "      if (w > 0) {",
      "        return filterLast(new double[] {w, 1, 0}) * b0;",
      "      }",
      "      double g = b1 * w;",
      "      return g * g + a1;",
      "    }",
      "    /** Static, with a loop. */",
      "    @Differentiable(order = 2) static double energy(Biquad f, double s) {",
      "      double e = 0;",
      "      for (int k = 0; k < 3; k++) {",
      "        e += f.b0() * s * k + f.a2() * f.a2();",
      "      }",
      "      return e;",
      "    }",
      "    /** A vector result with a loop. */",
      "    @Differentiable(order = 2) double[] response(double[] x) {",
      "      double[] y = new double[x.length];",
      "      double prev = 0;",
      "      for (int i = 0; i < x.length; i++) {",
      "        prev = b0 * x[i] - a1 * prev;",
      "        y[i] = prev;",
      "      }",
      "      return y;",
      "    }",
      "    /** Inlined: declarations and a return. */",
      "    @Differentiable(order = 2) double dc() {",
      "      double num = b0 + b1 + b2;",
      "      return num / (2 + a1 + a2);",
      "    }",
      "  }",
      "  /** Constants in the receiver, the signal active. */",
      "  @Differentiable(order = 2) static double lowPass(double a, double b, double c) {",
      "    Biquad f = new Biquad(0.2, 0.4, 0.2, -0.3, 0.1);",
      "    return f.filterLast(new double[] {a, b, c, a + c});",
      "  }",
      "  /** The receiver's components active; a method with a branch, both ways. */",
      "  @Differentiable(order = 2) static double tuned(double a, double b, double c) {",
      "    Biquad f = new Biquad(a, 0.4, b * c, -0.3, c);",
      "    return f.filterLast(new double[] {a, b, c}) + f.gain(b) + f.gain(-c) * a + f.dc();",
      "  }",
      "  /** A record parameter as receiver, in a loop; the static method; the vector result. */",
      "  @Differentiable(order = 2) static double cascade(Biquad f, double[] x) {",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      s += f.filterLast(x) * x[i] + Biquad.energy(f, x[i]);",
      "      double[] y = f.response(x);",
      "      s += y[i] * y[0];",
      "    }",
      "    return s;",
      "  }",
      "}");

  /** Components that carry no derivative, and a value class. */
  private static final String MIXED = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Mixed {",
      "  record Tagged(double k, int n, String name) {",
      "    @Differentiable double powered(double x) {",
      "      double y = 1;",
      "      for (int i = 0; i < n; i++) {",
      "        y *= k * x + name.length();",
      "      }",
      "      return y;",
      "    }",
      "  }",
      "  static final class Complex {",
      "    private final double re;",
      "    private final double im;",
      "    Complex(double re, double im) {",
      "      this.re = re;",
      "      this.im = im;",
      "    }",
      "    double re() { return re; }",
      "    double im() { return im; }",
      "    @Differentiable double absPow(int n) {",
      "      double s = 1;",
      "      for (int i = 0; i < n; i++) {",
      "        s *= Math.sqrt(re * re + im * im);",
      "      }",
      "      return s;",
      "    }",
      "  }",
      "  @Differentiable static double f(double a, double b) {",
      "    Tagged t = new Tagged(a * b, 3, \"ab\");",
      "    Complex z = new Complex(a, b * b);",
      "    return t.powered(b) + z.absPow(3) * a;",
      "  }",
      "}");

  /**
   * A compact constructor that changes the components, a nested record, a @NoDerivative
   * parameter given an array made for the call, a call in a stream's lambda.
   */
  private static final String SHAPES = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "import java.util.stream.IntStream;",
      "final class Shapes {",
      "  record Vec(double x, double y) {}",
      "  record Unit(double x, double y) {",
      "    Unit {",
      "      double n = Math.sqrt(x * x + y * y);",
      "      x = x / n;",
      "      y = y / n;",
      "    }",
      "    @Differentiable double walk(int k) {",
      "      double s = 0;",
      "      for (int i = 0; i < k; i++) {",
      "        s += x * i + y * y;",
      "      }",
      "      return s;",
      "    }",
      "  }",
      "  record Body(Vec pos, double m) {",
      "    @Differentiable double e(double t, @NoDerivative double[] data) {",
      "      double s = 0;",
      "      for (int i = 0; i < data.length; i++) {",
      "        s += pos.x() * t * m * data[i] + pos.y();",
      "      }",
      "      return s;",
      "    }",
      "  }",
      "  @Differentiable static double f(double a, double b) {",
      "    double s = new Unit(a, b).walk(3);",
      "    Body body = new Body(new Vec(a, b * a), b);",
      "    s += body.e(a, new double[] {1, 2, 3});",
      "    return s + IntStream.range(0, 3).mapToDouble(i -> body.e(i * a, new double[] {i}))",
      "        .sum();",
      "  }",
      "}");

  /** A method returning a record: a vector function over its leaves. */
  private static final String STATES = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class States {",
      "  record State(double x, double v) {",
      "    @Differentiable(order = 2) State stepped(double k, int n) {",
      "      double px = x;",
      "      double pv = v;",
      "      for (int i = 0; i < n; i++) {",
      "        double a = -k * px * px;",
      "        px += 0.1 * pv;",
      "        pv += 0.1 * a;",
      "      }",
      "      return new State(px, pv);",
      "    }",
      "    @Differentiable(order = 2) double energy() {",
      "      return 0.5 * v * v + 0.5 * x * x * x;",
      "    }",
      "  }",
      "  @Differentiable(order = 2) static double f(double a, double b) {",
      "    State s = new State(a, b);",
      "    State t = s.stepped(a * b, 3);",
      "    return t.x() * t.v() + t.stepped(1.5, 2).energy();",
      "  }",
      "}");

  /** Recursion, and calls on {@code this} and on a record made in the record's own method. */
  private static final String POWERS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Powers {",
      "  record P(double x, double y) {",
      "    @Differentiable double pow(int n) {",
      "      if (n == 0) {",
      "        return 1;",
      "      }",
      "      return pow(n - 1) * x + y;",
      "    }",
      "    @Differentiable double twice(double t) {",
      "      if (t > 0) {",
      "        return this.pow(2) * t;",
      "      }",
      "      return new P(y, x).pow(3);",
      "    }",
      "  }",
      "  @Differentiable static double f(double a, double b) {",
      "    P p = new P(a, b);",
      "    return p.pow(4) + p.twice(a) + p.twice(-b);",
      "  }",
      "}");

  /** A @Checkpointed loop's calls, and a vector function calling a record's. */
  private static final String CHECKPOINTS = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.Differentiable;",
      "final class W {",
      "  record Q(double k, double c) {",
      "    @Differentiable double decay(double x, int n) {",
      "      double y = x;",
      "      for (int i = 0; i < n; i++) {",
      "        y = y - k * y * c;",
      "      }",
      "      return y;",
      "    }",
      "    @Differentiable double[] pair(double x) {",
      "      double[] r = new double[2];",
      "      for (int i = 0; i < 2; i++) {",
      "        r[i] = k * x * (i + 1) + c;",
      "      }",
      "      return r;",
      "    }",
      "  }",
      "  @Checkpointed(snapshots = 3) @Differentiable static double march(double a, double b) {",
      "    Q q = new Q(a, 0.5);",
      "    double s = b;",
      "    for (int i = 0; i < 9; i++) {",
      "      s = q.decay(s, 2) + 0.1 * b;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double[] both(double a, double b) {",
      "    Q q = new Q(a, b);",
      "    double[] p = q.pair(b);",
      "    return new double[] {p[0] * q.decay(a, 3), p[1]};",
      "  }",
      "}");

  /** Receivers that carry no derivative: a @NoDerivative parameter, a constant. */
  private static final String DATA = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class N {",
      "  record Q(double k, double c) {",
      "    @Differentiable(order = 2) double decay(double x, int n) {",
      "      double y = x;",
      "      for (int i = 0; i < n; i++) {",
      "        y = y - k * y * y * c;",
      "      }",
      "      return y;",
      "    }",
      "  }",
      "  static final Q FIXED = new Q(0.3, 0.2);",
      "  @Differentiable(order = 2) static double f(@NoDerivative Q q, double a) {",
      "    return q.decay(a, 3) * FIXED.decay(a * a, 2);",
      "  }",
      "}");

  private static final CompiledOnce WHOLE = compiled(List.of());
  private static final CompiledOnce PARTS_OF_1 = compiled(options(1));
  private static final CompiledOnce PARTS_OF_2 = compiled(options(2));

  private static CompiledOnce compiled(List<String> options) {
    return new CompiledOnce(() -> compiled(options, "com.example.Filters", FILTERS));
  }

  /** The options of a compilation whole ({@code partSize} 0) or in parts of that many. */
  private static List<String> options(int partSize) {
    return partSize > 0 ? List.of("-Aad4j.partSize=" + partSize) : List.of();
  }

  /** {@code source} compiled with the processor, warnings as errors, and {@code options}. */
  private static InProcessCompiler.Compiled compiled(List<String> options, String name,
      String source) {
    List<String> all = new ArrayList<>(List.of("-Xlint:all", "-Werror"));
    all.addAll(options);
    return InProcessCompiler.compileWith(all, name, source);
  }

  private static InProcessCompiler.Compiled cut(int partSize) {
    return switch (partSize) {
      case 1 -> PARTS_OF_1.get();
      case 2 -> PARTS_OF_2.get();
      default -> WHOLE.get();
    };
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1, 2})
  void constantReceiver(int partSize) throws Exception {
    MemberAgreement members = MemberAgreement.of(cut(partSize), "com.example.Filters",
        "lowPass", true, true, true);
    members.checkScalar(new Object[] {0.4, 1.3, -0.7}, 2, 1e-7);
    members.checkScalar(new Object[] {-1.1, 0.2, 2.5}, 2, 1e-7);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1, 2})
  void activeReceiverAndBothBranches(int partSize) throws Exception {
    MemberAgreement members = MemberAgreement.of(cut(partSize), "com.example.Filters",
        "tuned", true, true, true);
    members.checkScalar(new Object[] {0.4, 1.3, -0.7}, 2, 1e-7);
    members.checkScalar(new Object[] {0.9, -0.6, 0.3}, 2, 1e-7);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1, 2})
  void recordParameterInALoop(int partSize) throws Exception {
    InProcessCompiler.Compiled compiled = cut(partSize);
    Class<?> biquad = compiled.load("com.example.Filters$Biquad");
    MemberAgreement members = MemberAgreement.of(compiled, "com.example.Filters", "cascade",
        true, true);
    members.checkScalar(new Object[] {Records.make(biquad, 0.3, 0.5, -0.2, 0.25, -0.1),
        new double[] {0.7, -0.4, 1.1, 0.2}}, 2, 1e-7);
  }

  @Test
  void componentsWithoutDerivativesAndAValueClass() throws Exception {
    checkF(MIXED, 1, 0, new double[] {0.4, 1.3}, new double[] {-0.8, 0.6});
  }

  @Test
  void changedComponentsNestedRecordsDataAndStreams() throws Exception {
    checkF(SHAPES, 1, 0, new double[] {0.4, 1.3}, new double[] {-0.8, 0.6});
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1})
  void recordResults(int partSize) throws Exception {
    checkF(STATES, 2, partSize, new double[] {0.4, 1.3}, new double[] {-0.8, 0.6});
  }

  @Test
  void recursionAndCallsOnThis() throws Exception {
    checkF(POWERS, 1, 0, new double[] {0.7, -0.4}, new double[] {-0.3, 0.9});
  }

  /**
   * Every member of {@code f(double a, double b)} of the class {@code source} declares, of
   * order {@code order}, at each of {@code points}; compiled whole, or in parts of
   * {@code partSize} statements when it is positive.
   */
  private static void checkF(String source, int order, int partSize, double[]... points)
      throws Exception {
    Matcher declared = Pattern.compile("final class (\\w+)").matcher(source);
    assertThat(declared.find()).isTrue();
    String name = "com.example." + declared.group(1);
    MemberAgreement members = MemberAgreement.of(compiled(options(partSize), name, source),
        name, "f", true, true);
    for (double[] point : points) {
      members.checkScalar(new Object[] {point[0], point[1]}, order, 1e-7);
    }
  }

  @Test
  void inACheckpointedLoopAndFromAVectorFunction() throws Exception {
    InProcessCompiler.Compiled compiled = compiled(List.of(), "com.example.W", CHECKPOINTS);
    MemberAgreement march = MemberAgreement.of(compiled, "com.example.W", "march", true, true);
    march.checkScalar(new Object[] {0.4, 1.3}, 1, 1e-7);
    MemberAgreement both = MemberAgreement.of(compiled, "com.example.W", "both", true, true);
    both.checkVector(new Object[] {0.4, 1.3});
    both.checkVector(new Object[] {-0.7, 0.2});
  }

  @Test
  void receiversThatCarryNoDerivative() throws Exception {
    InProcessCompiler.Compiled compiled = compiled(List.of(), "com.example.N", DATA);
    Object q = Records.make(compiled.load("com.example.N$Q"), 0.5, 0.7);
    MemberAgreement members = MemberAgreement.of(compiled, "com.example.N", "f", false, true);
    members.checkScalar(new Object[] {q, 0.4}, 2, 1e-7);
    members.checkScalar(new Object[] {q, -0.9}, 2, 1e-7);
  }

  @Test
  void callsTheGeneratedMembersAndInlinesTheRest() {
    String source = GeneratedText.of(WHOLE.get(), "com.example.FiltersGrad");
    // the loop's method through its members, the receiver's components first
    assertThat(source).contains("Filters_BiquadGradSweeps.filterLastValueFlat(fB0, fB1, fB2,"
        + " fA1, fA2,");
    // the one of declarations and a return inlined: no call of it
    assertThat(source).doesNotContain("GradSweeps.dc");
    assertThat(source).doesNotContain("BiquadGrad.dc");
  }

  @Test
  void aMethodThatIsNotDifferentiableIsInlinedOrAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record Smoother(double k) {",
        "    double last(double[] x) {",
        "      double y = 0;",
        "      for (double v : x) {",
        "        y = k * v + (1 - k) * y;",
        "      }",
        "      return y;",
        "    }",
        "  }",
        "  @Differentiable static double f(double a) {",
        "    return new Smoother(0.3).last(new double[] {a, 2 * a});",
        "  }",
        "}"),
        "call to 'Smoother.last': ad4j inlines the methods of a value record whose body is"
            + " local declarations and a final 'return', which 'Smoother.last''s is not (line"
            + " 7), and calls the members it generates for the others, which are"
            + " @Differentiable: mark 'Smoother.last' @Differentiable", 14, 34);
  }

  @Test
  void equalsThatTheCompilerWritesIsAnErrorThatSaysSo() {
    // before: "... when their source is in this compilation, which 'P.equals''s is not",
    // though P's source is: the compiler wrote the method
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record P(double a, double b) {}",
        "  @Differentiable static double f(double x, double y) {",
        "    P p = new P(x, y);",
        "    if (p.equals(new P(y, x))) {",
        "      return x;",
        "    }",
        "    return x * y;",
        "  }",
        "}"),
        "call to 'P.equals': the compiler writes 'equals' of value record 'P', so ad4j has no"
            + " code of it to differentiate; use the record's components instead (compare,"
            + " hash or print them)", 7, 17);
  }

  @Test
  void aRecordResultWithComponentsWithoutDerivativesIsInlinedOrAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record Tagged(double x, int id) {",
        "    @Differentiable Tagged turned(int n) {",
        "      double y = x;",
        "      for (int i = 0; i < n; i++) {",
        "        y = -y;",
        "      }",
        "      return new Tagged(y, id);",
        "    }",
        "  }",
        "  @Differentiable static double f(double a) {",
        "    return new Tagged(a, 1).turned(3).x();",
        "  }",
        "}"),
        "'new Tagged(a, 1).turned(3)' is not supported yet for a value record with components"
            + " that carry no derivative", 14, 35);
  }

}
