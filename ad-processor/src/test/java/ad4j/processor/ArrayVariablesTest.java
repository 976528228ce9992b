package ad4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Array variables assigned again (issue 36, item 5): where the variable was declared (not in a
 * branch or loop inside its scope), it is bound to the new array from there on, while the old
 * array, and another variable bound to it, stay as they are. Checked against differences of
 * the user's own method, forward against reverse along random directions. The double-buffer
 * swap of a stencil ({@code tmp = cur; cur = next; next = tmp} in its loop) exchanges the
 * elements of two arrays the method made with the same length that no other variable names;
 * any other swap, and an array variable assigned in a branch or loop inside its scope, is an
 * error at the assignment. An array local declared as a choice between two arrays
 * ({@code double[] t = c ? u : v}) is a copy of the chosen one while all three are only read.
 */
@ExtendWith(TapeIsEmpty.class)
class ArrayVariablesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Rebound {",
      "  @Differentiable static double rebound(double[] x, int n) {",
      "    double[] r = new double[2];",
      "    r[0] = x[0] * x[1];",
      "    double[] kept = r;",
      "    r = new double[n];",
      "    for (int i = 0; i < n; i++) r[i] = x[i] * x[i] + kept[0];",
      "    kept[0] = 3 * x[1];",
      "    double s = kept[0] * r[0];",
      "    x = r;",
      "    x[0] = x[0] * s;",
      "    return s + x[n - 1] * r[0];",
      "  }",
      "  @Differentiable static double inLoopBody(double[] x, int steps) {",
      "    double total = 0;",
      "    for (int k = 0; k < steps; k++) {",
      "      double[] t = new double[x.length];",
      "      t[0] = x[0] * (k + 1);",
      "      t = new double[] {t[0] * x[1], x[k % x.length]};",
      "      total += t[0] + Math.sin(t[1]);",
      "    }",
      "    return total;",
      "  }",
      "  @Differentiable static double heat(double[] u0, int steps) {",
      "    int n = u0.length;",
      "    double[] cur = new double[n];",
      "    double[] next = new double[n];",
      "    for (int i = 0; i < n; i++) cur[i] = u0[i];",
      "    for (int s = 0; s < steps; s++) {",
      "      for (int i = 1; i < n - 1; i++) {",
      "        next[i] = cur[i] + 0.1 * (cur[i - 1] - 2 * cur[i] + cur[i + 1])",
      "            + 0.05 * cur[i] * cur[i];",
      "      }",
      "      next[0] = cur[0] * 0.9;",
      "      next[n - 1] = Math.sin(cur[n - 1]);",
      "      double[] tmp = cur;",
      "      cur = next;",
      "      next = tmp;",
      "    }",
      "    double e = 0;",
      "    for (int i = 0; i < n; i++) e += cur[i] * cur[i] + 0.5 * next[i];",
      "    return e;",
      "  }",
      "  @Differentiable static double declaredFirst(double[] x) {",
      "    double[] a;",
      "    double s = x[0] * x[2];",
      "    a = new double[] {s * x[1], x[1]};",
      "    return a[0] + a[1] * a[1];",
      "  }",
      "  @Differentiable static double chosen(double[] u, double[] v, double s) {",
      "    double[] w = new double[] {s * s, v[0] * s, 0.5};",
      "    double[] t = s > 0.5 ? u : (w);",
      "    double r = 0;",
      "    for (int i = 0; i < t.length; i++) r += t[i] * t[i] * s;",
      "    for (double e : t) r += Math.sin(e);",
      "    int[] n = {1, 2};",
      "    int[] k = {3};",
      "    int[] m = v.length > 2 ? n : k;",
      "    return r + u[0] * v[1] + m[0] * t[t.length - 1];",
      "  }",
      "  @Differentiable static double nullFirst(double[] x, int n) {",
      "    double[] a = null;",
      "    double s = x[0] * n;",
      "    a = new double[n];",
      "    for (int i = 0; i < n; i++) a[i] = x[i] * s;",
      "    return a[0] * a[n - 1];",
      "  }",
      "  @Differentiable static double checkedChoice(double[] w, double x) {",
      "    if (w == null || null == w) return x;",
      "    double[] a = {Math.cos(w[0] * x), x * w[1], 0.5};",
      "    double[] t = x > 0 ? w : a;",
      "    return t[0] * t[1] * x;",
      "  }",
      "  @Differentiable static double stencil(double[] w, double x) {",
      "    double[] cur = new double[w.length], next = new double[w.length];",
      "    for (int i = 0; i < w.length; i++) cur[i] = w[i] * x;",
      "    for (int step = 0; step < 3; step++) {",
      "      for (int i = 0; i < w.length; i++) {",
      "        next[i] = 0.5 * cur[i] + 0.25 * cur[(i + 1) % w.length] * x;",
      "      }",
      "      double[] tmp = cur; cur = next; next = tmp;",
      "    }",
      "    return cur[0] * cur[1] + next[2];",
      "  }",
      "}");

  private static final CompiledOnce REBOUND = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Rebound", SOURCE));

  @Test
  void anArrayVariableAssignedWhereItIsDeclared() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(REBOUND.get(), "com.example.Rebound");
    checks.check(new ArrayFunctionChecks.Call("rebound",
        new Object[] {new double[] {0.7, -1.3, 0.4}, 3}, true, false));
    checks.check(new ArrayFunctionChecks.Call("rebound",
        new Object[] {new double[] {1.1, 0.2, -0.5, 2.0}, 2}, true, false));
    checks.check(new ArrayFunctionChecks.Call("inLoopBody",
        new Object[] {new double[] {0.7, -1.3, 0.4}, 4}, true, false));
    checks.check(new ArrayFunctionChecks.Call("heat",
        new Object[] {new double[] {0.7, -1.3, 0.4, 1.1, 0.2}, 3}, true, false));
    checks.check(new ArrayFunctionChecks.Call("heat",
        new Object[] {new double[] {0.7, -1.3, 0.4, 1.1}, 4}, true, false));
    checks.check(new ArrayFunctionChecks.Call("declaredFirst",
        new Object[] {new double[] {0.7, -1.3, 0.4}}, true));
    // 'double[] a = null;' assigned next, before any other mention: as 'double[] a;'
    checks.check(new ArrayFunctionChecks.Call("nullFirst",
        new Object[] {new double[] {0.7, -1.3, 0.4}, 3}, true, false));
    // a swap of arrays made with 'new double[w.length]' at two places
    checks.check(new ArrayFunctionChecks.Call("stencil",
        new Object[] {new double[] {0.7, -1.3, 0.4, 1.1}, 0.8}, true, true));
  }

  @Test
  void anArrayChosenByAConditionalIsACopyOfTheChosenOne() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(REBOUND.get(), "com.example.Rebound");
    for (double s : new double[] {0.7, 0.3}) {
      checks.check(new ArrayFunctionChecks.Call("chosen",
          new Object[] {new double[] {0.7, -1.3, 0.4, 1.1}, new double[] {0.2, -0.5}, s},
          true, true, true));
      // an array copied from may be checked against null before the choice
      checks.check(new ArrayFunctionChecks.Call("checkedChoice",
          new Object[] {new double[] {0.7, -1.3, 0.4}, s - 0.5}, true, true));
    }
  }

  @Test
  void anArrayChoiceThatACopyWouldNotMatchIsAnErrorAtIt() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Choice", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Choice {",
        "  @Differentiable static double written(double[] x, double[] v, boolean c) {",
        "    double[] u = x.clone();",
        "    double[] t = c ? u : v;",
        "    u[0] = 2 * v[0];",
        "    return t[0];",
        "  }",
        "  @Differentiable static double passed(double[] u, double[] v, boolean c) {",
        "    double[] t = c ? u : v;",
        "    return sum(t);",
        "  }",
        "  @Differentiable static double sum(double[] a) { return a[0] + a[1]; }",
        "  @Differentiable static double computed(double[] u, boolean c) {",
        "    double[] t = c ? u : u.clone();",
        "    return t[0];",
        "  }",
        "  @Differentiable static double comparedAfter(double[] u, double[] v, boolean c) {",
        "    double[] t = c ? u : v;",
        "    if (u == null) return 0;",
        "    return t[0];",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("'?:' choosing between arrays for 't' is not"
        + " supported here: ad4j makes 't' a copy of the chosen array, which computes the same"
        + " only while 'u' is only read (indexed, its length, iterated or copied from); here it"
        + " is also used otherwise (assigned, written into, compared, passed to a method or"
        + " returned)").inFile(file).onLine(6);
    assertThat(compilation).hadErrorContaining("'?:' choosing between arrays for 't' is not"
        + " supported here: ad4j makes 't' a copy of the chosen array, which computes the same"
        + " only while 't' is only read").inFile(file).onLine(11);
    assertThat(compilation).hadErrorContaining("'?:' choosing between arrays for 't' is not"
        + " supported here: both operands must be array variables or parameters (declare a"
        + " local for each other array)").inFile(file).onLine(16);
    // compared with null after the choice: where the chosen array is null, Java binds null
    assertThat(compilation).hadErrorContaining("'?:' choosing between arrays for 't' is not"
        + " supported here: ad4j makes 't' a copy of the chosen array, which computes the same"
        + " only while 'u' is only read").inFile(file).onLine(20);
    assertThat(compilation).hadErrorCount(4);
  }

  /**
   * The chosen array written through another name after the choice: Java's 't' sees the write,
   * a copy would not (each of these gave a silently wrong value and gradient before): an
   * operand bound to another local's array, to a row, to a for-each element, or a table or
   * parameter that a call run as written may write after the choice.
   */
  @Test
  void anArrayChoiceFromAnArrayWrittenThroughAnotherNameIsAnErrorAtIt() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Aliased", String.join(
        "\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Aliased {",
        "  static final double[] TABLE = {1.0, 2.0};",
        "  static void bump() { TABLE[0] = 5; }",
        "  @Differentiable static double local(double a, boolean c) {",
        "    double[] w = new double[1];",
        "    double[] u = w;",
        "    double[] v = {a};",
        "    double[] t = c ? u : v;",
        "    w[0] = a * a;",
        "    return t[0];",
        "  }",
        "  @Differentiable static double row(double a, boolean c) {",
        "    double[][] m = new double[2][2];",
        "    double[] u = m[0];",
        "    double[] v = {a};",
        "    double[] t = c ? v : u;",
        "    m[0][0] = a * a;",
        "    return t[0];",
        "  }",
        "  @Differentiable static double element(double a, boolean c) {",
        "    double[][] m = {{a}, {2 * a}};",
        "    double[] v = {a};",
        "    double s = 0;",
        "    for (double[] r : m) {",
        "      double[] t = c ? r : v;",
        "      m[0][0] = a * a;",
        "      s += t[0];",
        "    }",
        "    return s;",
        "  }",
        "  @Differentiable static double table(double a, boolean c) {",
        "    double[] v = {a};",
        "    double[] t = c ? TABLE : v;",
        "    bump();",
        "    return t[0] * a;",
        "  }",
        "  @Differentiable static double parameterInLoop(double[] x, double a) {",
        "    double s = 0;",
        "    for (int i = 0; i < 2; i++) {",
        "      double[] v = {a};",
        "      double[] t = i == 0 ? x : v;",
        "      s += t[0] * a;",
        "      bump();",
        "    }",
        "    return s;",
        "  }",
        "  @Differentiable static double tableAfterTheCall(double a, boolean c) {",
        "    bump();",
        "    double[] v = {a};",
        "    double[] t = c ? TABLE : v;",
        "    return t[0] * a;",
        "  }",
        "}"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    String copy = "'?:' choosing between arrays for 't' is not supported here: ad4j makes 't'"
        + " a copy of the chosen array, which computes the same only while nothing writes that"
        + " array after the choice; ";
    String named = " names an array that other code may name and write too (declared as '";
    String choose = "; choose between arrays that the method makes ('new', 'clone()',"
        + " 'Arrays.copyOf') or its parameters";
    assertThat(compilation).hadErrorContaining(copy + "'u'" + named + "double[] u = w', line"
        + " 8)" + choose).inFile(file).onLine(10);
    assertThat(compilation).hadErrorContaining(copy + "'u'" + named + "double[] u = m[0]',"
        + " line 16)" + choose).inFile(file).onLine(18);
    assertThat(compilation).hadErrorContaining(copy + "'r'" + named + "double[] r', line 26)"
        + choose).inFile(file).onLine(27);
    String called = ", after the choice, runs as written and may write it; copy it into a"
        + " local array first ('";
    assertThat(compilation).hadErrorContaining(copy + "'TABLE' is an array the method did not"
        + " make, and 'bump()' (line 36)" + called + "TABLE.clone()') and choose that one, or"
        + " make the call before the choice").inFile(file).onLine(35);
    // in a loop around both, the call runs before the choice's next run
    assertThat(compilation).hadErrorContaining(copy + "'x' is an array the method did not"
        + " make, and 'bump()' (line 45)" + called + "x.clone()') and choose that one, or"
        + " make the call before the choice").inFile(file).onLine(43);
    assertThat(compilation).hadErrorCount(5);
  }

  @Test
  void nullForAnArrayVariableIsAnErrorThatDoesNotCallItAnObject() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Chosen", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Chosen {",
        "  @Differentiable static double f(double[] x, int n) {",
        "    double[] a = null;",
        "    if (n > 0) a = x.clone(); else a = new double[] {x[1]};",
        "    return a[0];",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("'null' cannot be assigned to a 'double[]'"
        + " variable: a differentiable method binds each array variable to an array")
        .inFile(file).onLine(5);
    // the local is broken from there on: its assignments add no errors
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aSwapThatExchangingElementsWouldNotMatchIsAnErrorAtTheSwap() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Heat", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Heat {",
        "  @Differentiable static double lengths(double[] u0, int steps, int m) {",
        "    double[] cur = new double[u0.length];",
        "    double[] next = new double[m];",
        "    for (int s = 0; s < steps; s++) {",
        "      next[0] = cur[0] + u0[0];",
        "      double[] tmp = cur;",
        "      cur = next;",
        "      next = tmp;",
        "    }",
        "    return cur[0];",
        "  }",
        "  @Differentiable static double aliased(double[] u0, int steps) {",
        "    double[] cur = new double[2];",
        "    double[] next = new double[2];",
        "    double[] start = cur;",
        "    for (int s = 0; s < steps; s++) {",
        "      next[0] = cur[0] + u0[0];",
        "      double[] tmp = cur;",
        "      cur = next;",
        "      next = tmp;",
        "    }",
        "    return cur[0] * start[0];",
        "  }",
        "  @Differentiable static double inBranch(double[] u0, boolean c) {",
        "    double[] cur = new double[2];",
        "    double[] next = new double[2];",
        "    if (c) cur = next;",
        "    return cur[0] * u0[0];",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("the swap of array variables 'cur' and 'next' is"
        + " not supported here: ad4j exchanges their elements instead, so both must be made with"
        + " the same length").inFile(file).onLine(10);
    assertThat(compilation).hadErrorContaining("the swap of array variables 'cur' and 'next' is"
        + " not supported here: ad4j exchanges their elements instead, so 'cur' may only be"
        + " indexed, have its length read, be iterated or copied with System.arraycopy")
        .inFile(file).onLine(22);
    assertThat(compilation).hadErrorContaining("array variable 'cur' cannot be assigned in a"
        + " branch or loop inside its scope").inFile(file).onLine(30);
  }
}
