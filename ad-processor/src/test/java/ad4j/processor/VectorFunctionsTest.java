package ad4j.processor;

import static ad4j.processor.testing.ArrayArguments.append;
import static ad4j.processor.testing.ArrayArguments.deepCopy;
import static ad4j.processor.testing.ArrayArguments.flatten;
import static ad4j.processor.testing.ArrayArguments.shapedLike;
import static ad4j.processor.testing.ArrayArguments.withSlot;
import static ad4j.processor.testing.GeneratedClassChecks.methodText;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Vector functions ({@code double[]} results, R^N to R^p): the Jacobian against fourth-order
 * central differences of the user's own method, entry by entry; the value bit for bit; the
 * Jacobian-vector product ({@code mTangent}) and the vector-Jacobian product ({@code mPullback})
 * against the Jacobian and against each other (the dot-product test); Jacobians by reverse
 * sweeps (p &le; N) and by forward sweeps (N &lt; p) alike.
 */
@ExtendWith(TapeIsEmpty.class)
class VectorFunctionsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Vec {",
      // the background text's vector example: a function of a vector x of R^3
      "  @Differentiable static double[] seedExample(double[] x) {",
      "    return new double[] {x[0] * x[1] + Math.sin(x[2]), Math.exp(x[0]) * x[2], x[1]};",
      "  }",
      "  @Differentiable static double[] polar(double r, double theta) {",
      "    double[] p = new double[2];",
      "    p[0] = r * Math.cos(theta);",
      "    p[1] = r * Math.sin(theta);",
      "    return p;",
      "  }",
      // more residuals than parameters: forward sweeps
      "  @Differentiable static double[] residuals(double[] p, @NoDerivative double[] t,",
      "      @NoDerivative double[] y) {",
      "    double[] r = new double[t.length];",
      "    for (int i = 0; i < t.length; i++) {",
      "      r[i] = p[0] * Math.exp(-p[1] * t[i]) + p[2] - y[i];",
      "    }",
      "    return r;",
      "  }",
      // straight-line with a branch: its reverse sweeps share one forward sweep, and the
      // adjoints of the local arrays w and c, read many times, start each row from zero
      "  @Differentiable static double[] mixed(double[] x, double s) {",
      "    double[] w = new double[] {x[0] * s, x[1] - s, x[2]};",
      "    double[] c = x.clone();",
      "    double a = w[0] * w[1] + w[2] + c[1] * c[0];",
      "    double[] out = new double[3];",
      "    if (a > 0) { out[0] = a * w[0]; } else { out[0] = -a * w[2]; }",
      "    out[1] = Math.exp(w[1]) * w[0];",
      "    out[2] = w[2] * w[2] + s;",
      "    out[2] += out[0] * w[1];",
      "    return out;",
      "  }",
      // a local array made in each iteration; read-modify-writes of the result's elements
      "  @Differentiable static double[] windows(double[] x) {",
      "    double[] out = new double[2];",
      "    for (int i = 0; i + 1 < x.length; i++) {",
      "      double[] pair = new double[] {x[i], x[i + 1] * x[i]};",
      "      out[i % 2] += pair[0] * Math.sin(pair[1]);",
      "    }",
      "    return out;",
      "  }",
      // the generated code's own names taken by the user's parameters and locals
      "  @Differentiable static double[] named(double[] jacobian, double rows, double slots) {",
      "    double[] seed = new double[2];",
      "    double recorded = rows;",
      "    for (int row = 0; row < jacobian.length; row++) {",
      "      double adjoints = jacobian[row] * slots;",
      "      recorded = recorded * 0.5 + Math.sin(adjoints + recorded);",
      "      seed[row % 2] += recorded * jacobian[row];",
      "    }",
      "    double[] unrecorded = {seed[0] * rows, seed[1] + recorded};",
      "    return unrecorded;",
      "  }",
      // calls of another @Differentiable method: its pullback goes through the tape
      "  @Differentiable static double norm(double a, double b) {",
      "    return Math.sqrt(a * a + b * b);",
      "  }",
      "  @Differentiable static double[] withCalls(double[] x) {",
      "    double[] r = new double[2];",
      "    r[0] = norm(x[0], x[1]) * x[2];",
      "    r[1] = x[0] - norm(x[1], x[2]);",
      "    return r;",
      "  }",
      // a length the method fixes, more rows than slots: the matrix is made first, then the
      // value's forward sweep and forward mode per slot
      "  @Differentiable static double[] spread(double a) {",
      "    double[] out = new double[3];",
      "    out[0] = a * a;",
      "    out[1] = Math.sin(a) * out[0];",
      "    out[2] = 1 / a;",
      "    return out;",
      "  }",
      // divisions by forward values, a fixed length: rows one after the other, reciprocals
      "  @Differentiable static double[] quotients(double a, double b, double c) {",
      "    double[] r = new double[3];",
      "    double n = Math.sqrt(a * a + b * b);",
      "    r[0] = a / c;",
      "    r[1] = b / n;",
      "    r[2] = n / c - a / (b * c);",
      "    return r;",
      "  }",
      // straight-line, more rows than are written one after the other: one loop over the rows
      "  @Differentiable static double[] five(double[] x) {",
      "    double[] r = new double[5];",
      "    r[0] = x[0] / x[1];",
      "    r[1] = x[1] * x[2];",
      "    r[2] = Math.sin(x[3]) / x[4];",
      "    r[3] = x[4] - x[0] * x[5];",
      "    r[4] = x[2] / x[3] + x[0];",
      "    return r;",
      "  }",
      // where one element overflows, the other's row is still its derivative
      "  @Differentiable static double[] overflowing(double x, double y) {",
      "    double[] r = new double[2];",
      "    r[0] = x * y;",
      "    r[1] = Math.exp(y);",
      "    return r;",
      "  }",
      "  @Differentiable static double[] matVec(double[][] a, double[] v, int rows) {",
      "    double[] out = new double[rows];",
      "    for (int i = 0; i < rows; i++) {",
      "      double[] row = a[i];",
      "      double s = 0;",
      "      for (int j = 0; j < row.length; j++) { s += row[j] * Math.tanh(v[j]); }",
      "      out[i] = s;",
      "      if (s < 0) { out[i] *= s; }",
      "    }",
      "    return out;",
      "  }",
      "}");

  private static final CompiledOnce VEC = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Vec",
          SOURCE));

  /** A call: the method, its arguments, and which of them carry derivatives. */
  record Call(String name, Object[] arguments, boolean[] active) {
    @Override
    public String toString() {
      return name + Arrays.deepToString(arguments);
    }
  }

  static Stream<Arguments> calls() {
    return Stream.of(
        call("seedExample", new Object[] {new double[] {0.3, -1.2, 0.8}}, true),
        call("polar", new Object[] {1.5, 0.4}, true, true),
        call("residuals", new Object[] {new double[] {2.0, 0.7, -0.1},
            new double[] {0, 0.5, 1, 1.5, 2, 3}, new double[] {1.9, 1.3, 0.9, 0.6, 0.4, 0.2}},
            true, false, false),
        call("mixed", new Object[] {new double[] {0.7, 1.3, -0.4}, 0.9}, true, true),
        call("mixed", new Object[] {new double[] {0.7, -1.3, -0.4}, 0.9}, true, true),
        call("windows", new Object[] {new double[] {0.7, -1.3, 0.4, 1.1, -0.6}}, true),
        call("named", new Object[] {new double[] {0.7, -1.3, 0.4}, 0.6, -0.8}, true, true, true),
        call("withCalls", new Object[] {new double[] {0.7, -1.3, 0.4}}, true),
        call("spread", new Object[] {0.8}, true),
        call("quotients", new Object[] {0.8, -1.7, 0.6}, true, true, true),
        call("five", new Object[] {new double[] {0.8, -1.7, 0.6, 1.2, 2.5, -0.3}}, true),
        call("overflowing", new Object[] {0.8, -1.7}, true, true),
        call("matVec", new Object[] {new double[][] {{0.3, -0.6, 1.1}, {0.2, 0.9, -1.4}},
            new double[] {0.5, -0.25, 0.75}, 2}, true, true, false));
  }

  private static Arguments call(String name, Object[] arguments, boolean... active) {
    return Arguments.of(new Call(name, arguments, active));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void jacobianMatchesFiniteDifferencesOfTheUsersMethod(Call call) throws Exception {
    double[][] jacobian = (double[][]) invoke(call.name() + "Jacobian", true, call.arguments());
    double[][] expected = finiteDifferences(call);

    assertThat(jacobian.length).isEqualTo(expected.length);
    for (int i = 0; i < expected.length; i++) {
      assertThat(jacobian[i].length).isEqualTo(expected[i].length);
      for (int j = 0; j < expected[i].length; j++) {
        assertWithMessage("[%s][%s] of %s", i, j, call).that(jacobian[i][j])
            .isWithin(1e-7 * Math.max(1, Math.abs(expected[i][j]))).of(expected[i][j]);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void valueAndJacobianGivesTheValueBitForBitAndOverwritesTheJacobian(Call call)
      throws Exception {
    double[] value = (double[]) invoke(call.name(), false, call.arguments());
    double[][] jacobian = (double[][]) invoke(call.name() + "Jacobian", true, call.arguments());
    double[][] written = new double[jacobian.length + 1][jacobian[0].length + 1];
    for (double[] row : written) {
      Arrays.fill(row, 42);
    }

    double[] returned = (double[]) invoke(call.name() + "ValueAndJacobian", true,
        append(call.arguments(), (Object) written));

    assertThat(Arrays.equals(returned, value)).isTrue(); // bit for bit (Double.equals)
    for (int i = 0; i < jacobian.length; i++) {
      assertThat(Arrays.copyOf(written[i], jacobian[i].length)).isEqualTo(jacobian[i]);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void tangentIsTheJacobianTimesTheDirectionAndPullbackItsTranspose(Call call)
      throws Exception {
    double[][] jacobian = (double[][]) invoke(call.name() + "Jacobian", true, call.arguments());
    Random random = new Random(call.name().hashCode());
    List<Object> directions = new ArrayList<>();
    List<Double> flat = new ArrayList<>();
    for (int i = 0; i < call.arguments().length; i++) {
      if (call.active()[i]) {
        Object direction = shapedLike(call.arguments()[i], random);
        directions.add(direction);
        for (double d : flatten(direction)) {
          flat.add(d);
        }
      }
    }
    double[] seed = random.doubles(jacobian.length).toArray();

    double[] tangent = (double[]) invoke(call.name() + "Tangent", true,
        append(call.arguments(), directions.toArray()));
    double[] adjoints = new double[flat.size()];
    Arrays.fill(adjoints, 1.0);
    double[] value = (double[]) invoke(call.name() + "Pullback", true,
        append(call.arguments(), seed, adjoints));

    assertThat(value).isEqualTo((double[]) invoke(call.name(), false, call.arguments()));
    double left = 0;
    for (int i = 0; i < jacobian.length; i++) {
      double expected = 0;
      for (int j = 0; j < flat.size(); j++) {
        expected += jacobian[i][j] * flat.get(j);
      }
      assertThat(tangent[i]).isWithin(1e-12 * Math.max(1, Math.abs(expected))).of(expected);
      left += seed[i] * tangent[i];
    }
    double right = 0;
    for (int j = 0; j < flat.size(); j++) {
      double expected = 0;
      for (int i = 0; i < jacobian.length; i++) {
        expected += seed[i] * jacobian[i][j];
      }
      assertThat(adjoints[j] - 1.0).isWithin(1e-12 * Math.max(1, Math.abs(expected)))
          .of(expected);
      right += (adjoints[j] - 1.0) * flat.get(j);
    }
    // the dot-product test: <seed, J v> = <J^T seed, v>
    assertThat(left).isWithin(1e-12 * Math.max(1, Math.abs(right))).of(right);
  }

  /**
   * Each row of the Jacobian is the pullback of its unit seed: to the last bits where the rows
   * multiply by a reciprocal that the pullback divides by.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void eachRowIsThePullbackOfItsUnitSeed(Call call) throws Exception {
    double[][] jacobian = (double[][]) invoke(call.name() + "Jacobian", true, call.arguments());
    for (int i = 0; i < jacobian.length; i++) {
      double[] seed = new double[jacobian.length];
      seed[i] = 1;
      double[] adjoints = new double[jacobian[i].length];
      invoke(call.name() + "Pullback", true, append(call.arguments(), seed, adjoints));
      for (int j = 0; j < adjoints.length; j++) {
        assertWithMessage("[%s][%s] of %s", i, j, call).that(jacobian[i][j])
            .isWithin(4e-16 * Math.max(1, Math.abs(adjoints[j]))).of(adjoints[j]);
      }
    }
  }

  /**
   * A method that fixes its result's length at 4 or less and whose reverse sweep is
   * straight-line gets its rows one after the other, each with its unit seed folded in: the
   * result's adjoints are constants, not an array, and what only another row's seed reaches is
   * not computed. Divisions by the forward sweep's values are multiplications by reciprocals
   * made once before the rows. Five rows take a loop.
   */
  @Test
  void rowsOfAFixedLengthAreWrittenOneAfterTheOtherWithTheirSeedsFolded() throws Exception {
    String generated = InProcessCompiler.gradSource(VEC.get().compilation())
        .getCharContent(true).toString();
    for (String name : List.of("polar", "quotients", "overflowing")) {
      String rows = methodText(generated, "private static double[] " + name + "JacobianRows(");
      assertWithMessage(name).that(rows).doesNotContain("for (int row");
      assertWithMessage(name).that(rows).doesNotContain("Slots.clear");
      // the result, and no adjoint array for it
      assertWithMessage(name).that(rows.lines().filter(line -> !line.strip().startsWith("//")
          && line.contains("new double[")).count()).isEqualTo(1);
      assertWithMessage(name).that(rows).contains("= jacobian[1];");
    }
    String quotients = methodText(generated, "private static double[] quotientsJacobianRows(");
    List<String> code = quotients.substring(quotients.indexOf("computed once")).lines()
        .map(String::strip).filter(line -> !line.startsWith("//")).toList();
    assertThat(code).contains("double cReciprocal = 1.0 / c;");
    assertThat(code).contains("double nReciprocal = 1.0 / n;");
    // the rows divide by nothing: each divisor's reciprocal is made once, before them
    int firstRow = code.indexOf("double[] adjoints = jacobian[0];");
    assertThat(firstRow).isGreaterThan(0);
    for (int i = 0; i < code.size(); i++) {
      if (code.get(i).contains(" / ")) {
        assertWithMessage(code.get(i)).that(i).isLessThan(firstRow);
        assertThat(code.get(i))
            .containsMatch("^double \\w*[rR]eciprocal\\d* = 1\\.0 / \\w+;$");
      }
    }
    assertThat(methodText(generated, "private static double[] fiveJacobianRows("))
        .contains("for (int row = 0; row < rows; row++)");
  }

  /**
   * Four rows that share a long chain: written one after the other they would make a method
   * too large to compile well, so they take one loop over the rows, whose Jacobian is the
   * same: each row is the pullback of its unit seed and matches differences of the method.
   * Five links of the chain still fit one after the other.
   */
  @Test
  void rowsTooLargeToWriteOneAfterTheOtherTakeOneLoop() throws Exception {
    for (int links : new int[] {5, 20}) {
      StringBuilder body = new StringBuilder();
      for (int t = 0; t < links; t++) {
        body.append("    a = Math.sin(a * x[").append(t % 6).append("] + ").append(t + 1)
            .append(") / (x[").append((t * 5 + 2) % 6).append("] + 7);\n");
      }
      InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
          List.of("-Xlint:all", "-Werror"), "com.example.Shared", "package com.example;\n"
              + "import ad4j.Differentiable;\n"
              + "final class Shared {\n"
              + "  @Differentiable static double[] f(double[] x) {\n"
              + "    double[] r = new double[4];\n"
              + "    double a = x[0];\n" + body
              + "    r[0] = a * x[0]; r[1] = a * x[1]; r[2] = a * x[2]; r[3] = a * x[3];\n"
              + "    return r;\n  }\n}\n");
      String generated = InProcessCompiler.gradSource(compiled.compilation())
          .getCharContent(true).toString();
      String rows = methodText(generated, "private static double[] fJacobianRows(");
      assertWithMessage("%s links", links).that(rows.contains("for (int row = 0; row < rows"))
          .isEqualTo(links == 20);
      assertWithMessage("%s links", links).that(rows.contains("= jacobian[3];"))
          .isEqualTo(links == 5);

      assertRowsArePullbacksAndDifferences(compiled, "com.example.Shared",
          new double[] {0.7, -1.1, 0.4, 1.3, -0.6, 0.9}, links + " links");
    }
  }

  /**
   * The rows reuse a reciprocal the method makes itself ({@code inverse = 1 / r}) instead of
   * dividing by {@code r} again, and take {@code 1 / (2.0 * r)}, the derivative of the square
   * root, as {@code 0.5 * inverse}: no division in the rows or before them. The Jacobian
   * matches the pullbacks to the last bits and differences of the method.
   */
  @Test
  void rowsShareTheMethodsReciprocalAndHalveItForASquareRoot() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Radial", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Radial {",
            "  @Differentiable static double[] f(double[] x) {",
            "    double r = Math.sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);",
            "    double inverse = 1 / r;",
            "    return new double[] {x[0] * inverse, x[1] * inverse * x[2]};",
            "  }",
            "}"));
    String generated = InProcessCompiler.gradSource(compiled.compilation())
        .getCharContent(true).toString();
    String rows = methodText(generated, "private static double[] fJacobianRows(");
    String shared = rows.substring(rows.indexOf("computed once"));
    List<String> code = shared.lines().map(String::strip)
        .filter(line -> !line.startsWith("//")).toList();
    assertThat(code).contains("double reciprocal = 0.5 * inverse;");
    assertThat(code.stream().filter(line -> line.contains(" / "))).isEmpty();

    assertRowsArePullbacksAndDifferences(compiled, "com.example.Radial",
        new double[] {0.7, -1.1, 0.4}, "radial");
  }

  /**
   * Row 0 of {@code (x y, exp(y))} at {@code y = 800}, where {@code exp(y)} overflows: the
   * derivative of {@code x y}, {@code (y, x)}. The pullback with the seed {@code (1, 0)}
   * multiplies {@code exp(y)} by that zero and gives NaN; the folded row never does.
   */
  @Test
  void aRowIsTheDerivativeOfItsOwnElementWhereAnotherElementOverflows() throws Exception {
    double[][] jacobian = (double[][]) invoke("overflowingJacobian", true, 0.8, 800.0);

    assertThat(jacobian[0]).usingExactEquality().containsExactly(800.0, 0.8).inOrder();
    assertThat(jacobian[1]).usingExactEquality()
        .containsExactly(0.0, Double.POSITIVE_INFINITY).inOrder();
  }

  @Test
  void jacobiansTakeTheCheaperModeAndBothGiveTheSameMatrix() throws Exception {
    // residuals: 6 rows, 3 slots: forward sweeps; seedExample: 3 by 3: reverse sweeps
    String generated = InProcessCompiler.gradSource(VEC.get().compilation())
        .getCharContent(true).toString();
    assertThat(generated).contains("one reverse sweep per row");
    assertThat(generated).contains("one forward sweep per slot");
  }

  /**
   * {@code mJacobian} of a method that fixes its result's length ({@code new double[2]}, an
   * array initializer) makes the matrix first and takes the value and the rows from one forward
   * sweep; with a length it learns from its arguments it computes the value first.
   */
  @Test
  void aFixedResultLengthSparesTheJacobianTheValueFirst() throws Exception {
    String generated = InProcessCompiler.gradSource(VEC.get().compilation())
        .getCharContent(true).toString();
    for (String name : List.of("polar", "mixed", "windows", "seedExample", "named", "spread")) {
      String member = methodText(generated, "static double[][] " + name + "Jacobian(");
      assertWithMessage(name).that(member).doesNotContain(name + "Value(");
      assertWithMessage(name).that(member).doesNotContain(name + "Value(");
    }
    assertThat(methodText(generated, "static double[][] polarJacobian("))
        .contains("double[][] jacobian = new double[2][];");
    assertThat(methodText(generated, "static double[][] matVecJacobian("))
        .contains("matVecValue(");
  }

  /**
   * {@code mJacobian} returns the matrix only: where the method makes its result with a fixed
   * length and only writes it at constant indices, and records nothing on the tape, the member
   * holds the sweeps itself, into the matrix it has just made, and does not make the array at
   * all. Where an element is read back ({@code spread}, {@code mixed}), written at an index
   * computed at run time ({@code windows}) or the forward sweep records on the tape ({@code
   * named}, a loop), the member calls the rows program, which returns the value.
   */
  @Test
  void aJacobianMakesNoResultArrayWhereTheMethodOnlyWritesIt() throws Exception {
    String generated = InProcessCompiler.gradSource(VEC.get().compilation())
        .getCharContent(true).toString();
    for (String name : List.of("polar", "seedExample", "quotients", "five", "overflowing")) {
      String member = methodText(generated, "static double[][] " + name + "Jacobian(");
      String rows = methodText(generated, "private static double[] " + name + "JacobianRows(");
      assertWithMessage(name).that(member).doesNotContain("JacobianRows(");
      assertWithMessage(name).that(member).contains("// forward sweep");
      // the matrix (its row array and its rows), the method's local arrays, not the result
      assertWithMessage(name).that(arraysMade(member)).isEqualTo(arraysMade(rows) - 1 + 2);
      assertWithMessage(name).that(member).contains(name + "JacobianInto(");
    }
    for (String name : List.of("spread", "mixed", "windows", "named")) {
      assertWithMessage(name).that(methodText(generated, "static double[][] " + name
          + "Jacobian(")).contains(name + "JacobianRows(");
    }
  }

  /**
   * A result written in both arms of a branch, at constant indices, from a local array: the
   * Jacobian without the value matches the pullbacks and differences on both sides of the
   * branch, and {@code mValueAndJacobian} to the last bit. A store past the end of the result,
   * or at an index the arguments give, keeps the array, and {@code fJacobian} throws where the
   * method throws.
   */
  @Test
  void aJacobianWithoutTheValueKeepsTheMethodsDerivativesAndExceptions() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Written", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Written {",
            "  @Differentiable static double[] f(double[] x) {",
            "    double[] r = new double[2];",
            "    double[] q = {x[1] * x[2], x[0] / x[2]};",
            "    if (x[0] > 0) { r[0] = x[0] * q[0]; } else { r[0] = Math.sin(x[1]) / x[2]; }",
            "    r[1] = Math.sqrt(x[0] * x[0] + q[1] * q[1]) * x[2];",
            "    return r;",
            "  }",
            "  @Differentiable static double[] pastTheEnd(double x) {",
            "    double[] r = new double[2];",
            "    r[0] = x * x;",
            "    r[2] = x;",
            "    return r;",
            "  }",
            "  @Differentiable static double[] at(double x, int k) {",
            "    double[] r = new double[2];",
            "    r[1 - k] = Math.exp(x);",
            "    r[k] = x * x;",
            "    return r;",
            "  }",
            "}"));
    String generated = InProcessCompiler.gradSource(compiled.compilation())
        .getCharContent(true).toString();
    assertThat(methodText(generated, "static double[][] fJacobian("))
        .doesNotContain("JacobianRows(");
    for (double[] x : new double[][] {{0.7, -1.1, 0.4}, {-0.7, -1.1, 0.4}}) {
      assertRowsArePullbacksAndDifferences(compiled, "com.example.Written", x,
          "x[0] = " + x[0]);
      double[][] viaValue = new double[2][3];
      compiled.invoke("com.example.WrittenGrad", "fValueAndJacobian", x, viaValue);
      assertThat(compiled.invoke("com.example.WrittenGrad", "fJacobian", (Object) x))
          .isEqualTo(viaValue);
    }

    for (String name : List.of("pastTheEnd", "at")) {
      assertWithMessage(name).that(methodText(generated, "static double[][] " + name
          + "Jacobian(")).contains(name + "JacobianRows(");
    }
    Object[] past = {1.5};
    assertThat(assertThrows(InvocationTargetException.class,
        () -> compiled.invoke("com.example.Written", "pastTheEnd", past)).getCause())
        .isInstanceOf(ArrayIndexOutOfBoundsException.class);
    assertThat(assertThrows(InvocationTargetException.class,
        () -> compiled.invoke("com.example.WrittenGrad", "pastTheEndJacobian", past))
        .getCause()).isInstanceOf(ArrayIndexOutOfBoundsException.class);
    assertThat(assertThrows(InvocationTargetException.class,
        () -> compiled.invoke("com.example.WrittenGrad", "atJacobian", 1.5, 2)).getCause())
        .isInstanceOf(ArrayIndexOutOfBoundsException.class);
    double[][] jacobian = (double[][]) compiled.invoke("com.example.WrittenGrad", "atJacobian",
        1.5, 1);
    assertThat(jacobian[0]).usingTolerance(1e-15).containsExactly(Math.exp(1.5));
    assertThat(jacobian[1]).usingTolerance(1e-15).containsExactly(3.0);
  }

  /** How many lines of {@code method}, comments aside, make an array. */
  private static long arraysMade(String method) {
    return method.lines().filter(line -> !line.strip().startsWith("//")
        && line.contains("new double[")).count();
  }

  /**
   * A {@code $} in a parameter's name is Java, written as it is: the calls of the rows program
   * and of {@code fJacobianInto} once took it for a format and stopped the generation with an
   * internal error.
   */
  @Test
  void aDollarInAParameterNameIsWrittenAsItIs() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Dollar", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Dollar {",
            "  @Differentiable static double[] f(double[] a$b) {",
            "    double[] r = new double[2];",
            "    r[0] = a$b[0] * a$b[1];",
            "    r[1] = Math.sin(a$b[0]);",
            "    return r;",
            "  }",
            "}"));
    double[] a = {0.7, -1.3};
    double[][] jacobian = (double[][]) compiled.invoke("com.example.DollarGrad", "fJacobian",
        (Object) a);
    assertThat(jacobian[0]).usingTolerance(1e-15).containsExactly(a[1], a[0]).inOrder();
    assertThat(jacobian[1]).usingTolerance(1e-15).containsExactly(Math.cos(a[0]), 0.0)
        .inOrder();
  }

  @Test
  void reverseSweepsShareOneForwardSweepUnlessACalleesPullbackUsesTheTape() throws Exception {
    String generated = InProcessCompiler.gradSource(VEC.get().compilation())
        .getCharContent(true).toString();
    // one forward sweep, then a reverse sweep per row: straight-line, with or without a branch,
    // and loops, whose recording each row takes back from the tape again
    for (String name : List.of("seedExample", "polar", "mixed", "windows", "matVec", "named")) {
      assertThat(generated).contains("private static double[] " + name + "JacobianRows(");
    }
    assertThat(generated).contains("tape.rewind(recorded);");
    // a callee's pullback pushes its adjoints over the recording: whole pullbacks per row
    assertThat(generated).doesNotContain("withCallsJacobianRows");
  }

  @Test
  void aTooSmallJacobianNamesTheMethodAndBothSizes() {
    Object[] arguments = {new double[] {0.3, -1.2, 0.8}};
    InvocationTargetException rows = assertThrows(InvocationTargetException.class,
        () -> invoke("seedExampleValueAndJacobian", true,
            append(arguments, (Object) new double[2][3])));
    InvocationTargetException columns = assertThrows(InvocationTargetException.class,
        () -> invoke("seedExampleValueAndJacobian", true,
            append(arguments, (Object) new double[3][2])));

    assertThat(rows.getCause()).hasMessageThat().isEqualTo("VecGrad.seedExampleValueAndJacobian:"
        + " 'jacobian' has 2 rows, needs 3 (one per element of the result of seedExample)");
    assertThat(columns.getCause()).hasMessageThat().isEqualTo(
        "VecGrad.seedExampleValueAndJacobian: row 0 of 'jacobian' has length 2, needs 3 (slots"
            + " in order: x (one per element))");
  }

  /**
   * A Jacobian whose second row is too short throws with the caller's matrix as it was: the
   * rows were checked and cleared in one loop, so row 0 was zeros when row 1's check threw.
   */
  @Test
  void aShortRowThrowsBeforeAnyRowIsCleared() {
    Object[] arguments = {new double[] {0.3, -1.2, 0.8}};
    double[][] jacobian = {{42, 42, 42}, {42, 42}, {42, 42, 42}};
    InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
        () -> invoke("seedExampleValueAndJacobian", true, append(arguments, (Object) jacobian)));

    assertThat(thrown.getCause()).hasMessageThat().isEqualTo(
        "VecGrad.seedExampleValueAndJacobian: row 1 of 'jacobian' has length 2, needs 3 (slots"
            + " in order: x (one per element))");
    assertThat(jacobian[0]).usingExactEquality().containsExactly(42.0, 42.0, 42.0).inOrder();
    assertThat(jacobian[1]).usingExactEquality().containsExactly(42.0, 42.0).inOrder();
    assertThat(jacobian[2]).usingExactEquality().containsExactly(42.0, 42.0, 42.0).inOrder();
  }

  @Test
  void returningAParameterOrReturningEarlyIsAnErrorAtTheReturn() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double[] f(double[] x) {",
        "    return x;",
        "  }",
        "  @Differentiable static double[] g(double[] x) {",
        "    double[] y = x.clone();",
        "    if (x[0] > 0) { return y; }",
        "    return y;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("'x' is a parameter's array, which callers own:"
        + " return a local array ('x.clone()')").inFile(file).onLine(5).atColumn(12);
    assertThat(compilation).hadErrorContaining("a method returning 'double[]' must return"
        + " once, as its last statement").inFile(file).onLine(9)
        .atColumn(lines.get(8).indexOf("return") + 1);
  }

  // ---- helpers -------------------------------------------------------------------------------

  /**
   * The Jacobian of {@code userClass}'s {@code double[] f(double[] x)} at {@code x}, from its
   * generated {@code fJacobian}: each row is the pullback of its unit seed to the last bits,
   * and matches fourth-order central differences of {@code f} to 1e-8.
   */
  private static void assertRowsArePullbacksAndDifferences(InProcessCompiler.Compiled compiled,
      String userClass, double[] x, String what) throws Exception {
    String gradClass = userClass + "Grad";
    double[][] jacobian = (double[][]) compiled.invoke(gradClass, "fJacobian", (Object) x);
    for (int i = 0; i < jacobian.length; i++) {
      double[] seed = new double[jacobian.length];
      seed[i] = 1;
      double[] adjoints = new double[x.length];
      compiled.invoke(gradClass, "fPullback", x, seed, adjoints);
      for (int j = 0; j < x.length; j++) {
        double h = 1e-3;
        double[] f = new double[4];
        double[] steps = {-2 * h, -h, h, 2 * h};
        for (int k = 0; k < 4; k++) {
          double[] moved = x.clone();
          moved[j] += steps[k];
          f[k] = ((double[]) compiled.invoke(userClass, "f", (Object) moved))[i];
        }
        double difference = (f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h);
        assertWithMessage("[%s][%s], %s", i, j, what).that(jacobian[i][j])
            .isWithin(4e-16 * Math.max(1, Math.abs(adjoints[j]))).of(adjoints[j]);
        assertWithMessage("[%s][%s], %s", i, j, what).that(jacobian[i][j])
            .isWithin(1e-8 * Math.max(1, Math.abs(difference))).of(difference);
      }
    }
  }

  private static Object invoke(String name, boolean generated, Object... arguments)
      throws Exception {
    return VEC.get().invoke(generated ? "com.example.VecGrad" : "com.example.Vec", name,
        arguments);
  }

  /** Fourth-order central differences of the user's method: column j for slot j. */
  private static double[][] finiteDifferences(Call call) throws Exception {
    List<double[]> columns = new ArrayList<>();
    for (int i = 0; i < call.arguments().length; i++) {
      if (!call.active()[i]) {
        continue;
      }
      int count = flatten(call.arguments()[i]).length;
      for (int k = 0; k < count; k++) {
        double x = flatten(call.arguments()[i])[k];
        double h = 1e-3 * Math.max(1, Math.abs(x));
        double[][] f = new double[4][];
        double[] steps = {-2 * h, -h, h, 2 * h};
        for (int s = 0; s < 4; s++) {
          Object[] moved = deepCopy(call.arguments());
          moved[i] = withSlot(moved[i], k, x + steps[s]);
          f[s] = (double[]) invoke(call.name(), false, moved);
        }
        double[] column = new double[f[0].length];
        for (int r = 0; r < column.length; r++) {
          column[r] = (f[0][r] - 8 * f[1][r] + 8 * f[2][r] - f[3][r]) / (12 * h);
        }
        columns.add(column);
      }
    }
    int p = columns.get(0).length;
    double[][] jacobian = new double[p][columns.size()];
    for (int j = 0; j < columns.size(); j++) {
      for (int r = 0; r < p; r++) {
        jacobian[r][j] = columns.get(j)[r];
      }
    }
    return jacobian;
  }
}
