package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.Method;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Writes into arrays that the method did not make: a field's array (directly, through a local
 * that holds it, or reached through an object), a {@code static final} table held in a local,
 * one returned by a call run as written. Such an array carries no derivative, so a value that
 * carries one, written into it and read back, would lose it silently: an error at the write
 * (element stores, compound assignments, {@code Arrays.fill}, {@code System.arraycopy}). A write
 * that carries no derivative changes state outside the method, again each time it runs: an
 * error where generated members would run it more than once per call (an order-2 method's
 * Hessian sweeps, a vector function's, a caller's tangent), and accepted, run once, elsewhere.
 */
class ForeignArraysTest {
  private static final List<String> SOURCE = List.of(
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "public class Foreign {",
      "  public static final double[] T = {1, 2, 3};",
      "  public double[] table = {1, 2, 3};",
      "  public int[] counts = {0};",
      "  public double[][] grid = {{1, 2}, {3, 4}};",
      "  public static final class Box {",
      "    public double[] data = {1, 2};",
      "    public double[] get() { return data; }",
      "  }",
      "  @Differentiable public double field(double x) { table[0] = x; return table[0] * x; }",
      "  @Differentiable public double alias(double x) {",
      "    double[] t = table;",
      "    t[1] = x * 2;",
      "    return t[1] * x;",
      "  }",
      "  @Differentiable public static double boxed(double x, @NoDerivative Box b) {",
      "    b.data[0] = x;",
      "    return b.data[0] * x;",
      "  }",
      "  @Differentiable public double compound(double x) {",
      "    table[0] += x;",
      "    return table[0] * x;",
      "  }",
      "  @Differentiable public static double table(double x) {",
      "    double[] t = T;",
      "    t[2] = x;",
      "    return T[2] * x;",
      "  }",
      "  @Differentiable public static double returned(double x, @NoDerivative Box b) {",
      "    double[] d = b.get();",
      "    d[1] = x;",
      "    return d[1] * x;",
      "  }",
      "  @Differentiable public double row(double x) {",
      "    double[][] g = grid;",
      "    g[0][1] = x;",
      "    return g[0][1] * x;",
      "  }",
      "  @Differentiable public double filled(double x) {",
      "    java.util.Arrays.fill(table, x);",
      "    return table[0] * x;",
      "  }",
      "  @Differentiable public double copied(double x) {",
      "    double[] a = {x, x};",
      "    System.arraycopy(a, 0, table, 0, 2);",
      "    return table[0] * x;",
      "  }",
      "  @Differentiable(order = 2) public double counted(double x, double y) {",
      "    double[] t = table;",
      "    t[0]++;",
      "    return t[0] * x * y + x * x * y;",
      "  }",
      "  @Differentiable(order = 2) public double counter(double x, double y) {",
      "    counts[0]++;",
      "    return counts[0] * x * y;",
      "  }",
      "  @Differentiable(order = 2) public double refilled(double x, double y) {",
      "    java.util.Arrays.fill(table, 2.0);",
      "    return table[0] * x * y;",
      "  }",
      "  @Differentiable public double[] rows(double x, double y) {",
      "    double[] t = table;",
      "    t[0] += 1.0;",
      "    return new double[] {t[0] * x * y, x + y};",
      "  }",
      "}");

  /** A method writing a field's array, and callers that need its value and its tangent. */
  private static final List<String> BUMPING = List.of(
      "package com.example;",
      "import ad4j.Differentiable;",
      "public class Bumping {",
      "  public static final double[] T = {1, 2, 3};",
      "  @Differentiable public static double bumps(double x) {",
      "    double[] t = T;",
      "    t[0] += 1;",
      "    return t[0] * x;",
      "  }",
      "  @Differentiable public static double caller(double x) { return bumps(x) * x; }",
      "}");

  private static final JavaFileObject FILE =
      JavaFileObjects.forSourceString("com.example.Foreign", String.join("\n", SOURCE));
  private static Compilation rejected;

  private static Compilation rejected() {
    if (rejected == null) {
      rejected = InProcessCompiler.javac().compile(FILE);
    }
    return rejected;
  }

  private static int lineOf(String text) {
    int found = -1;
    for (int i = 0; i < SOURCE.size(); i++) {
      if (SOURCE.get(i).contains(text)) {
        assertThat(found).isEqualTo(-1);
        found = i + 1;
      }
    }
    assertThat(found).isAtLeast(1);
    return found;
  }

  private static void assertLoses(String value, String element, String array, String line) {
    assertThat(rejected()).hadErrorContaining(value + " carries a derivative into '" + element
        + "', an element of an array that this method did not make (a field's array, or one"
        + " reached through an object or returned by a call run as written), which carries no"
        + " derivative; copy it into a local array first ('" + array + ".clone()') and write"
        + " there").inFile(FILE).onLine(lineOf(line));
  }

  @Test
  void aValueWrittenIntoAFieldsArrayIsAnError() {
    // before: accepted, and fieldGradient(new Foreign(), 1.5) gave 1.5 where x * x gives 3.0
    assertLoses("'x'", "table[0]", "table", "table[0] = x;");
  }

  @Test
  void aValueWrittenThroughALocalHoldingAFieldsArrayIsAnError() {
    // before: 3.0 where 2 x * x gives 6.0
    assertLoses("'x * 2'", "t[1]", "t", "t[1] = x * 2;");
  }

  @Test
  void aValueWrittenIntoAnObjectsArrayIsAnError() {
    assertLoses("'x'", "b.data[0]", "b.data", "b.data[0] = x;");
  }

  @Test
  void aCompoundAssignmentIntoAFieldsArrayIsAnError() {
    assertLoses("the value stored", "table[0]", "table", "table[0] += x;");
  }

  @Test
  void aValueWrittenIntoAStaticFinalTableHeldInALocalIsAnError() {
    assertLoses("'x'", "t[2]", "t", "t[2] = x;");
  }

  @Test
  void aValueWrittenIntoAnArrayACallReturnedIsAnError() {
    assertLoses("'x'", "d[1]", "d", "d[1] = x;");
  }

  @Test
  void aValueWrittenIntoARowOfAFieldsMatrixIsAnError() {
    assertLoses("'x'", "g[0][1]", "g[0]", "g[0][1] = x;");
  }

  @Test
  void fillingAndCopyingValuesIntoAFieldsArrayAreErrors() {
    for (String call : List.of("java.util.Arrays.fill(table, x)",
        "System.arraycopy(a, 0, table, 0, 2)")) {
      assertThat(rejected()).hadErrorContaining("'" + call + "' writes values that carry"
          + " derivatives into 'table', an array that this method did not make (a field's"
          + " array, or one reached through an object or returned by a call run as written),"
          + " which carries no derivative; copy it into a local array first ('table.clone()')"
          + " and write there").inFile(FILE).onLine(lineOf(call));
    }
  }

  private static void assertRepeated(String what, String array, String method,
      String members, String line) {
    assertThat(rejected()).hadErrorContaining(what + " changes '" + array + "', an array that '"
        + method + "' did not make (a field's, or one reached through an object or a call), and"
        + " changes it again each time it runs: " + members + ", where '" + method + "' runs"
        + " it once; copy the array into a local one ('" + array + ".clone()') and write there,"
        + " or write it where '" + method + "' is called").inFile(FILE).onLine(lineOf(line));
  }

  @Test
  void anOrderTwoMethodWritingAFieldsArrayIsAnError() {
    // before: counted's mHessian ran t[0]++ once per sweep (table[0] 1 -> 3 after one call)
    // and gave 3.5 for d2/dxdy where the method, run once, gives 2 + 2 x = 3.0
    String hessians = "mHessian and mValueGradientAndHessian of '%s' make one sweep per slot"
        + " and would run it once per sweep";
    assertRepeated("the write into 't[0]'", "t", "counted", hessians.formatted("counted"),
        "    t[0]++;");
    assertRepeated("the write into 'counts[0]'", "counts", "counter",
        hessians.formatted("counter"), "counts[0]++;");
    assertRepeated("'java.util.Arrays.fill(table, 2.0)'", "table", "refilled",
        hessians.formatted("refilled"), "java.util.Arrays.fill(table, 2.0)");
  }

  @Test
  void aVectorFunctionWritingAFieldsArrayIsAnError() {
    int line = lineOf("return new double[] {t[0] * x * y, x + y};") - 1;
    assertThat(rejected()).hadErrorContaining("the write into 't[0]' changes 't', an array"
        + " that 'rows' did not make").inFile(FILE).onLine(line);
  }

  @Test
  void aCallOfAMethodWritingAFieldsArrayIsAnErrorWhereItWouldRunTwice() {
    // the caller's tangent runs the callee's code for its value and again for its tangent (the
    // product reads both), which its plan shows, once the class has no other error
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Bumping",
        String.join("\n", BUMPING));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("call to 'bumps(...)': 'Bumping.bumps' runs code"
        + " that carries no derivative ('t[0] = ...', line 7), which the tangent of 'caller'"
        + " would run twice").inFile(file).onLine(10).atColumn(BUMPING.get(9).indexOf("(x)") + 1);
    assertThat(compilation.errors()).hasSize(1);
  }

  @Test
  void theRejectedSourceHasNoOtherErrors() {
    assertThat(rejected().errors()).hasSize(13);
  }

  private static final String ACCEPTED = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "public class Kept {",
      "  public double[] table = {1, 2, 3};",
      "  @Differentiable public double once(double x) {",
      "    double[] t = table;",
      "    t[0]++;",
      "    return t[0] * x * x;",
      "  }",
      "  @Differentiable(order = 2) public double cloned(double x, double y) {",
      "    double[] t = table.clone();",
      "    t[0]++;",
      "    return t[0] * x * x * y;",
      "  }",
      "}");

  @Test
  void aWriteThatCarriesNoDerivativeRunsOnceWhereMembersRunTheMethodOnce() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compile("com.example.Kept", ACCEPTED);
    Class<?> user = compiled.load("com.example.Kept");
    Class<?> grad = compiled.load("com.example.KeptGrad");
    double x = 1.5;
    Object kept = user.getConstructor().newInstance();
    Method gradient = grad.getMethod("onceGradient", user, double.class);
    double[] g = (double[]) gradient.invoke(null, kept, x);
    // t[0] becomes 2 once: the value is 2 x^2, its derivative 4 x
    assertThat(((double[]) user.getField("table").get(kept))[0]).isEqualTo(2.0);
    assertThat(g[0]).isWithin(1e-12).of(4 * x);
    Object other = user.getConstructor().newInstance();
    double tangent = (double) grad.getMethod("onceTangent", user, double.class, double.class)
        .invoke(null, other, x, 0.5);
    assertThat(((double[]) user.getField("table").get(other))[0]).isEqualTo(2.0);
    assertThat(tangent).isWithin(1e-12).of(0.5 * 4 * x);

    Object cloned = user.getConstructor().newInstance();
    double y = 0.7;
    double[][] hessian = (double[][]) grad.getMethod("clonedHessian", user, double.class,
        double.class).invoke(null, cloned, x, y);
    // a local copy: the field stays 1; 2 x^2 y has the Hessian {{4 y, 4 x}, {4 x, 0}}
    assertThat(((double[]) user.getField("table").get(cloned))[0]).isEqualTo(1.0);
    assertThat(hessian[0][0]).isWithin(1e-12).of(4 * y);
    assertThat(hessian[0][1]).isWithin(1e-12).of(4 * x);
    assertThat(hessian[1][0]).isWithin(1e-12).of(4 * x);
    assertThat(hessian[1][1]).isWithin(1e-12).of(0.0);
  }
}
