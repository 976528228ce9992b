package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Value records passed to and returned from {@code @Differentiable} methods of other classes
 * (DESIGN.md, part 3): a callee in another top-level class of the same package and one in
 * another package, each taking and returning records, called from plain and order-2 methods
 * and inside a loop. Each derivative against differences of the user's own method, forward
 * against reverse, the generated code compiling under {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class RecordsAcrossClassesTest {
  private static final CompiledOnce MODEL = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.geo.Vec", String.join("\n",
              "package com.example.geo;",
              "public record Vec(double x, double y) {",
              "  public Vec {",
              "    if (x > 1e300) {",
              "      throw new IllegalArgumentException(\"x too large\");",
              "    }",
              "  }",
              "}"),
          "com.example.geo.Geometry", String.join("\n",
              "package com.example.geo;",
              "import ad4j.Differentiable;",
              "public final class Geometry {",
              "  private Geometry() {}",
              "  @Differentiable(order = 2) public static double cube(Vec v) {",
              "    return v.x() * v.x() * Math.sin(v.y());",
              "  }",
              "  @Differentiable public static Vec turn(Vec v, double t) {",
              "    return new Vec(v.x() * Math.cos(t) - v.y() * Math.sin(t),",
              "        v.x() * Math.sin(t) + v.y() * Math.cos(t));",
              "  }",
              "}"),
          "com.example.Point", String.join("\n",
              "package com.example;",
              "record Point(double x, double y) {}"),
          "com.example.Lib", String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Lib {",
              "  @Differentiable(order = 2) static double norm2(Point p) {",
              "    return p.x() * p.x() + Math.exp(p.y()) * p.y();",
              "  }",
              "  @Differentiable static Point scale(Point p, double k) {",
              "    return new Point(k * p.x(), Math.sin(k) * p.y());",
              "  }",
              "}"),
          "com.example.Model", String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import com.example.geo.Geometry;",
              "import com.example.geo.Vec;",
              "final class Model {",
              "  @Differentiable(order = 2) static double f(double x, double y) {",
              "    Point p = new Point(x * y, y);",
              "    return Lib.norm2(p) * Geometry.cube(new Vec(y, x));",
              "  }",
              "  @Differentiable static double g(double x, double y, double t) {",
              "    Point s = Lib.scale(new Point(x, y), t);",
              "    Vec v = Geometry.turn(new Vec(s.x(), s.y()), x * t);",
              "    return v.x() * s.y() + Lib.norm2(s) + v.y();",
              "  }",
              "  @Differentiable static double loop(double x, double y) {",
              "    Vec v = new Vec(x, y);",
              "    double s = 0;",
              "    for (int i = 0; i < 3; i++) {",
              "      v = Geometry.turn(v, 0.3 * v.x());",
              "      s += Geometry.cube(v) * Lib.norm2(Lib.scale(new Point(v.y(), x), y));",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable static Point h(double x, double y) {",
              "    Point s = Lib.scale(new Point(x, y), x + y);",
              "    Vec v = Geometry.turn(new Vec(s.y(), x), y);",
              "    return new Point(v.x(), s.x() * v.y());",
              "  }",
              "}")));

  @Test
  void recordsPassedToCalleesOfOtherClassesAndPackages() throws Exception {
    CompiledFunction f = MODEL.get().function("com.example.Model", "f", 2);
    CompiledFunction g = MODEL.get().function("com.example.Model", "g", 3);
    Class<?> grad = MODEL.get().load("com.example.ModelGrad");
    for (double[] point : new double[][] {{0.4, -0.7}, {-1.1, 0.6}}) {
      DerivativeChecks.checkAt(f, point);
      HessianChecks.checkAt(f, grad, point);
    }
    DerivativeChecks.checkAt(g, 0.4, -0.7, 1.3);
    DerivativeChecks.checkAt(g, -1.1, 0.6, 0.2);
  }

  @Test
  void recordsReturnedFromCalleesOfOtherClassesInsideALoop() {
    CompiledFunction loop = MODEL.get().function("com.example.Model", "loop", 2);
    DerivativeChecks.checkAt(loop, 0.4, -0.7);
    DerivativeChecks.checkAt(loop, -1.1, 0.6);
  }

  @Test
  void aRecordResultMadeOfRecordsFromOtherClasses() throws Exception {
    Class<?> model = MODEL.get().load("com.example.Model");
    Class<?> grad = MODEL.get().load("com.example.ModelGrad");
    Class<?> point = MODEL.get().load("com.example.Point");
    double[] x = {0.3, 1.7};
    double[][] jacobian = (double[][]) Records.call(grad, "hJacobian", x[0], x[1]);
    double step = 1e-5;
    for (int j = 0; j < 2; j++) {
      double[] up = x.clone();
      double[] down = x.clone();
      up[j] += step;
      down[j] -= step;
      double[] plus = leaves(Records.call(model, "h", up[0], up[1]));
      double[] minus = leaves(Records.call(model, "h", down[0], down[1]));
      for (int i = 0; i < 2; i++) {
        assertWithMessage("d h_%s / d x_%s", i, j).that(jacobian[i][j])
            .isWithin(1e-7 * (1 + Math.abs(jacobian[i][j])))
            .of((plus[i] - minus[i]) / (2 * step));
      }
    }
    double[][] written = new double[2][2];
    Object value = Records.call(grad, "hValueAndJacobian", x[0], x[1], written);
    assertThat(value).isEqualTo(Records.call(model, "h", x[0], x[1]));
    for (int i = 0; i < 2; i++) {
      assertThat(written[i]).usingExactEquality().containsExactly(jacobian[i]).inOrder();
    }
    double[] d = {0.45, -1.2};
    double[] tangent = leaves(Records.call(grad, "hTangent", x[0], x[1], d[0], d[1]));
    double[] w = {0.7, -0.2};
    double[] adjoints = new double[2];
    Records.call(grad, "hPullback", x[0], x[1], Records.make(point, w[0], w[1]), adjoints);
    for (int i = 0; i < 2; i++) {
      assertThat(tangent[i]).isWithin(1e-12)
          .of(jacobian[i][0] * d[0] + jacobian[i][1] * d[1]);
      assertThat(adjoints[i]).isWithin(1e-12)
          .of(w[0] * jacobian[0][i] + w[1] * jacobian[1][i]);
    }
  }

  private static double[] leaves(Object record) throws Exception {
    java.lang.reflect.RecordComponent[] components = record.getClass().getRecordComponents();
    double[] leaves = new double[components.length];
    for (int i = 0; i < leaves.length; i++) {
      java.lang.reflect.Method accessor = components[i].getAccessor();
      accessor.setAccessible(true);
      leaves[i] = (Double) accessor.invoke(record);
    }
    return leaves;
  }
}
