package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A parameter named like the record of tangents of a value record parameter: {@code f(Vec2 v,
 * double vDot)}. {@code fTangent} takes the tangents of {@code v} as a record, which it named
 * {@code vDot} whatever the method's parameters were, so it declared {@code vDot} twice
 * ({@code Vec2 v, double vDot, Vec2 vDot, double vDotDot}) and the generated class did not
 * compile ("variable vDot is already defined"); so did a record parameter {@code Vec2 vDot}
 * beside {@code Vec2 v}, and a method returning a record. The record of tangents is now
 * {@code vDot2} there ({@code vDot3} when {@code vDot2} is taken too), as a {@code double}
 * parameter's tangent is; so is the record of a receiver's tangents beside a parameter named
 * {@code selfDot}. Each method against differences of order 8 of itself and forward
 * against reverse ({@link MemberAgreement}), the generated code compiling under
 * {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class TangentRecordNamesTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Named",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Named {",
              "  record Vec2(double x, double y) {",
              "    @Differentiable double along(double t, double selfDot) {",
              "      return x * t * selfDot + y * y * t;",
              "    }",
              "  }",
              "  @Differentiable static double scalar(Vec2 v, double vDot) {",
              "    return v.x() * vDot * v.y() + Math.sin(vDot);",
              "  }",
              "  @Differentiable static double records(Vec2 v, Vec2 vDot) {",
              "    return v.x() * vDot.y() + vDot.x() * v.y() * v.y();",
              "  }",
              "  @Differentiable static double both(Vec2 v, double vDot, double vDot2) {",
              "    return v.x() * vDot * vDot2 + v.y() * vDot2;",
              "  }",
              "  @Differentiable(order = 2) static double curved(Vec2 v, double vDot) {",
              "    return v.x() * v.x() * vDot + v.y() * vDot * vDot;",
              "  }",
              "  @Differentiable static Vec2 scaled(Vec2 v, double vDot) {",
              "    return new Vec2(v.x() * vDot, v.y() * v.x());",
              "  }",
              "}")));

  private static MemberAgreement method(String name, boolean... active) {
    return MemberAgreement.of(COMPILED.get(), "com.example.Named", name, active);
  }

  private static Object vec2(double x, double y) throws ReflectiveOperationException {
    Class<?> type = COMPILED.get().load("com.example.Named$Vec2");
    java.lang.reflect.Constructor<?> make =
        type.getDeclaredConstructor(double.class, double.class);
    make.setAccessible(true);
    return make.newInstance(x, y);
  }

  @Test
  void aDoubleParameterNamedAsTheRecordOfTangents() throws Exception {
    method("scalar", true, true).checkScalar(new Object[] {vec2(0.7, -1.3), 0.4}, 1, 1e-7);
    method("curved", true, true).checkScalar(new Object[] {vec2(0.7, -1.3), 0.4}, 2, 1e-7);
  }

  @Test
  void aRecordParameterNamedAsTheRecordOfTangents() throws Exception {
    method("records", true, true)
        .checkScalar(new Object[] {vec2(0.7, -1.3), vec2(0.4, 1.1)}, 1, 1e-7);
  }

  @Test
  void theNextNameWhenTheSecondIsTakenToo() throws Exception {
    method("both", true, true, true)
        .checkScalar(new Object[] {vec2(0.7, -1.3), 0.4, 1.9}, 1, 1e-7);
    String grad = COMPILED.get().compilation().generatedSourceFiles().stream()
        .filter(file -> file.getName().endsWith("/NamedGrad.java")).findFirst().orElseThrow()
        .getCharContent(true).toString();
    assertThat(grad).contains("bothTangent(Named.Vec2 v, double vDot, double vDot2, Named.Vec2"
        + " vDot3,");
  }

  @Test
  void aReceiverBesideAParameterNamedAsItsTangents() throws Exception {
    Class<?> grad = COMPILED.get().load("com.example.Named_Vec2Grad");
    Class<?> vec2 = COMPILED.get().load("com.example.Named$Vec2");
    double x = 0.7;
    double y = -1.3;
    double t = 0.4;
    double selfDot = 1.9;
    Method gradient = grad.getDeclaredMethod("alongGradient", vec2, double.class, double.class);
    gradient.setAccessible(true);
    double[] slots = (double[]) gradient.invoke(null, vec2(x, y), t, selfDot);
    // d/dx, d/dy of the receiver, then d/dt, d/dselfDot
    assertThat(slots).usingTolerance(1e-15).containsExactly(t * selfDot, 2 * y * t,
        x * selfDot + y * y, x * t).inOrder();
    Method tangent = grad.getDeclaredMethod("alongTangent", vec2, double.class, double.class,
        vec2, double.class, double.class);
    tangent.setAccessible(true);
    double[] d = {0.5, -0.25, 1.5, -2.0};
    double along = (Double) tangent.invoke(null, vec2(x, y), t, selfDot, vec2(d[0], d[1]), d[2],
        d[3]);
    double dot = 0;
    for (int i = 0; i < 4; i++) {
      dot += slots[i] * d[i];
    }
    assertThat(along).isWithin(1e-14).of(dot);
  }

  @Test
  void aMethodReturningARecord() throws Exception {
    method("scaled", true, true).checkVector(new Object[] {vec2(0.7, -1.3), 0.4});
  }
}
