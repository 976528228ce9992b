package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Value records declared in another file of the same compilation (DESIGN.md, part 3): their own
 * methods, static and instance, are differentiated as helpers wherever their source is, and a
 * compact constructor that only checks runs as written, also in a method returning the record.
 * Each derivative against differences of the user's own method, forward against reverse, the
 * generated code compiling under {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class RecordsAcrossFilesTest {
  private static final CompiledOnce MODEL = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Vec3", String.join("\n",
              "package com.example;",
              "record Vec3(double x, double y, double z) {",
              "  double dot(Vec3 o) { return x * o.x + y * o.y + z * o.z; }",
              "  Vec3 plus(Vec3 o) { return new Vec3(x + o.x, y + o.y, z + o.z); }",
              "  static Vec3 of(double a) {",
              "    double s = Math.sin(a);",
              "    return new Vec3(a, s * a, a > 0 ? 1 : -1);",
              "  }",
              "  double norm() { return Math.sqrt(dot(this)); }",
              "}"),
          "com.example.Box", String.join("\n",
              "package com.example;",
              "record Box(double w, double h) {",
              "  Box {",
              "    if (w < 0) {",
              "      throw new IllegalArgumentException(\"negative width \" + w);",
              "    }",
              "  }",
              "  double area() { return w * h; }",
              "}"),
          "com.example.Model", String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Model {",
              "  @Differentiable(order = 2) static double f(double a, double b, double c) {",
              "    Vec3 v = new Vec3(a, b, c);",
              "    Vec3 w = v.plus(Vec3.of(a * b));",
              "    return w.dot(v) + w.norm() * Math.cos(c);",
              "  }",
              "  @Differentiable static Box box(double x, double y) {",
              "    Box b = new Box(x * y, y + Math.exp(x));",
              "    return new Box(b.area(), b.w() - y);",
              "  }",
              "  @Differentiable(order = 2) static double area(double x, double y) {",
              "    return new Box(x * x, y).area() * y;",
              "  }",
              "}")));

  @Test
  void methodsOfARecordInAnotherFileAreDifferentiatedAsHelpers() throws Exception {
    CompiledFunction f = MODEL.get().function("com.example.Model", "f", 3);
    Class<?> grad = MODEL.get().load("com.example.ModelGrad");
    for (double[] point : new double[][] {{0.4, -0.7, 1.3}, {-1.1, 0.6, 0.2}}) {
      DerivativeChecks.checkAt(f, point);
      HessianChecks.checkAt(f, grad, point);
    }
  }

  @Test
  void aCheckOnlyConstructorInAnotherFileRunsAsWrittenInTheMembers() throws Exception {
    CompiledFunction area = MODEL.get().function("com.example.Model", "area", 2);
    DerivativeChecks.checkAt(area, 0.8, -1.4);
    HessianChecks.checkAt(area, MODEL.get().load("com.example.ModelGrad"), 0.8, -1.4);
  }

  @Test
  void aMethodReturningARecordWithACheckOnlyConstructorInAnotherFile() throws Exception {
    Class<?> model = MODEL.get().load("com.example.Model");
    Class<?> grad = MODEL.get().load("com.example.ModelGrad");
    Class<?> box = MODEL.get().load("com.example.Box");
    double[] x = {0.3, 1.7};
    double[][] jacobian = (double[][]) Records.call(grad, "boxJacobian", x[0], x[1]);
    double h = 1e-5;
    for (int j = 0; j < 2; j++) {
      double[] up = x.clone();
      double[] down = x.clone();
      up[j] += h;
      down[j] -= h;
      double[] plus = leaves(Records.call(model, "box", up[0], up[1]));
      double[] minus = leaves(Records.call(model, "box", down[0], down[1]));
      for (int i = 0; i < 2; i++) {
        assertWithMessage("d box_%s / d x_%s", i, j).that(jacobian[i][j])
            .isWithin(1e-7 * (1 + Math.abs(jacobian[i][j]))).of((plus[i] - minus[i]) / (2 * h));
      }
    }
    double[][] written = new double[2][2];
    Object value = Records.call(grad, "boxValueAndJacobian", x[0], x[1], written);
    assertThat(value).isEqualTo(Records.call(model, "box", x[0], x[1]));
    for (int i = 0; i < 2; i++) {
      assertThat(written[i]).usingExactEquality().containsExactly(jacobian[i]).inOrder();
    }
    // forward against reverse: w . (J d) = (w^T J) . d
    double[] d = {0.45, -1.2};
    double[] tangent = leaves(Records.call(grad, "boxTangent", x[0], x[1], d[0], d[1]));
    double[] w = {0.7, 0.2}; // the seed record's checks see it: a positive width
    double[] adjoints = new double[2];
    Records.call(grad, "boxPullback", x[0], x[1], Records.make(box, w[0], w[1]), adjoints);
    double forward = w[0] * tangent[0] + w[1] * tangent[1];
    double reverse = adjoints[0] * d[0] + adjoints[1] * d[1];
    assertThat(forward).isWithin(1e-12 * (1 + Math.abs(reverse))).of(reverse);
    // the constructor's check runs where the method runs it: a negative width throws
    AssertionError thrown = assertThrows(AssertionError.class,
        () -> Records.call(grad, "boxJacobian", -0.5, 1.0));
    assertThat(thrown).hasCauseThat().isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anErrorInARecordsMethodOfAnotherFileIsReportedThereAtItsLine() {
    JavaFileObject vec = JavaFileObjects.forSourceString("com.example.Vec3", String.join("\n",
        "package com.example;",
        "record Vec3(double x, double y, double z) {",
        "  double text() {",
        "    return Double.parseDouble(Double.toString(x)) * y;",
        "  }",
        "  double noise() { return Math.random() * x; }",
        "}"));
    JavaFileObject model = JavaFileObjects.forSourceString("com.example.Model", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Model {",
        "  @Differentiable static double f(Vec3 v) {",
        "    return v.text();",
        "  }",
        "  @Differentiable static double g(Vec3 v) {",
        "    return v.noise();",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(vec, model);
    assertThat(compilation).hadErrorContaining("'Double.parseDouble(Double.toString(x))' depends"
        + " on 'vX' through 'Double.toString' (line 4 of Vec3.java), which carries no"
        + " derivative").inFile(vec).onLine(4);
    assertThat(compilation).hadErrorContaining("call to 'Math.random()' is not differentiable")
        .inFile(vec).onLine(6);
    assertThat(compilation.errors()).hasSize(2);
  }

  private static double[] leaves(Object box) throws Exception {
    java.lang.reflect.RecordComponent[] components = box.getClass().getRecordComponents();
    double[] leaves = new double[components.length];
    for (int i = 0; i < leaves.length; i++) {
      java.lang.reflect.Method accessor = components[i].getAccessor();
      accessor.setAccessible(true);
      leaves[i] = (Double) accessor.invoke(box);
    }
    return leaves;
  }
}
