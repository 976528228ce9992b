package ad4j.processor;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A value record's method inlined where a local of the caller that a loop assigns has the name
 * of one of the method's parameters or locals ({@code Vec2 times(double s)} called where the
 * caller's {@code s} is a running sum): the caller's name needs a mutable variable, names are
 * planned method-wide, so the inlined parameter got one too, and was stored into without being
 * declared. Found by hunt 58 in a leapfrog integrator: the reverse sweep found no adjoint for
 * the variable (an internal error, a {@code NullPointerException}), and where the parameter is
 * an {@code int} the generated class did not compile ({@code cannot find symbol i2}). Each
 * against differences of order 8 of the method and forward against reverse
 * ({@link MemberAgreement}); each compiled on its own, as each failed its whole class.
 */
@ExtendWith(TapeIsEmpty.class)
class RecordMethodParameterNamesTest {
  private static final String RECORDS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class R {",
      "  record Vec2(double x, double y) {",
      "    Vec2 times(double s) { return new Vec2(x * s, y * s); }",
      "    Vec2 plus(Vec2 o) { return new Vec2(x + o.x, y + o.y); }",
      "    Vec2 term(int i) { return new Vec2(x / (i + 1), y * i); }",
      "    double norm2() { double s = x * x + y * y; return s; }",
      "  }",
      "  record State(Vec2 q, Vec2 p) {}",
      "");

  private static MemberAgreement compiled(String method, String name, boolean... active) {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.R", RECORDS + method + "\n}\n");
    return MemberAgreement.of(compiled, "com.example.R", name, active);
  }

  /** The parameter {@code s} where the caller's {@code s} grows in the loop. */
  @Test
  void aParameterNamedAsALocalTheLoopAssigns() throws Exception {
    compiled(String.join("\n",
        "  @Differentiable static double scaled(double x, double y) {",
        "    double s = x;",
        "    Vec2 v = new Vec2(x, y);",
        "    for (int i = 0; i < 3; i++) {",
        "      v = v.times(s);",
        "      s += 0.25 * y;",
        "    }",
        "    return v.x() + v.y() * s;",
        "  }"), "scaled", true, true)
        .checkScalarAt(new double[][] {{0.7, 1.3}, {-0.4, 0.9}}, 1, 1e-7);
  }

  /** A leapfrog-like step on a record state named {@code s}, at order 2. */
  @Test
  void aRecordStateNamedAsTheParameter() throws Exception {
    compiled(String.join("\n",
        "  @Differentiable(order = 2) static double drift(double qx, double px, double dt) {",
        "    State s = new State(new Vec2(qx, 0.5), new Vec2(px, -0.25));",
        "    for (int i = 0; i < 3; i++) {",
        "      s = new State(s.q().plus(s.p().times(dt)), s.p().times(1 - dt * dt));",
        "    }",
        "    return s.q().x() * s.q().y() + s.p().norm2();",
        "  }"), "drift", true, true, true)
        .checkScalarAt(new double[][] {{0.7, 1.3, 0.1}, {-0.4, 0.9, 0.3}}, 2, 1e-7);
  }

  /** An {@code int} parameter {@code i} inlined inside the caller's loop over {@code i}. */
  @Test
  void anIntParameterNamedAsTheLoopCounter() throws Exception {
    compiled(String.join("\n",
        "  @Differentiable static double terms(double x, double y) {",
        "    Vec2 v = new Vec2(x, y);",
        "    double acc = 0;",
        "    for (int i = 0; i < 4; i++) {",
        "      acc += v.term(2).x() * i + v.term(i).y();",
        "    }",
        "    return acc;",
        "  }"), "terms", true, true)
        .checkScalarAt(new double[][] {{0.7, 1.3}, {-0.4, 0.9}}, 1, 1e-7);
  }

  /** A local {@code s} of the inlined method where the caller's {@code s} is a running sum. */
  @Test
  void aLocalOfTheMethodNamedAsALocalTheLoopAssigns() throws Exception {
    compiled(String.join("\n",
        "  @Differentiable static double sums(double x, double y) {",
        "    double s = 0;",
        "    for (int k = 1; k <= 3; k++) {",
        "      s += new Vec2(x * k, y).norm2() / k;",
        "    }",
        "    return s;",
        "  }"), "sums", true, true)
        .checkScalarAt(new double[][] {{0.7, 1.3}, {-0.4, 0.9}}, 1, 1e-7);
  }
}
