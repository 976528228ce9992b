package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Constructor;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A field read whose value only the method's value needs, not its derivatives ({@code return
 * x * y + k;} of an instance method): the tangent keeps the read where the method makes it,
 * since it runs as written, but nothing reads its value there. It was printed as a statement of
 * its own, {@code self.k;}, which is not Java: the generated class did not compile (found by
 * probe48: any instance method adding a field to its result). Such a read, one of a private
 * field through its handle (a cast) and an array made as written are now declared as an
 * unused element read is. Each method is compiled with {@code -Xlint:all -Werror}, whole and
 * cut into parts of one statement, and its members checked against differences of the method
 * and each other ({@link MemberAgreement}).
 */
@ExtendWith(TapeIsEmpty.class)
class UnusedFieldReadsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Fields {",
      "  double k = 0.7;",
      "  double[] table = {0.2, 0.5};",
      "  static final class Body {",
      "    private final double mass;",
      "    Body(double mass) { this.mass = mass; }",
      "  }",
      "  @Differentiable double shifted(double x, double y) {",
      "    return x * y + k;",
      "  }",
      "  @Differentiable(order = 2) double looped(double x, double y) {",
      "    double s = x * k;",
      "    for (int i = 0; i < table.length; i++) {",
      "      s = s * Math.cos(y * table[i]) + x * y;",
      "    }",
      "    y = y * s;",
      "    return s * y + k;",
      "  }",
      "  @Differentiable static double weighed(Body b, double x) {",
      "    return x * x + b.mass;",
      "  }",
      "}");

  private static final List<CompiledOnce> COMPILED = List.of(
      compiledWith(List.of("-Xlint:all", "-Werror")),
      compiledWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=1")));

  private static CompiledOnce compiledWith(List<String> options) {
    return new CompiledOnce(() ->
        InProcessCompiler.compileWith(options, "com.example.Fields", SOURCE));
  }

  /** 0: whole; 1: cut into parts of one statement. */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1})
  void theMembersOfMethodsReadingAFieldForTheirValue(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    Constructor<?> constructor = compiled.load("com.example.Fields").getDeclaredConstructor();
    constructor.setAccessible(true);
    Object fields = constructor.newInstance();
    MemberAgreement.of(compiled, "com.example.Fields", "shifted", true, true).on(fields)
        .checkScalar(new Object[] {0.7, -0.4}, 1, 1e-7);
    MemberAgreement looped =
        MemberAgreement.of(compiled, "com.example.Fields", "looped", true, true).on(fields);
    looped.checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    looped.checkScalar(new Object[] {-0.3, 0.9}, 2, 1e-7);
    Constructor<?> body = compiled.load("com.example.Fields$Body")
        .getDeclaredConstructor(double.class);
    body.setAccessible(true);
    MemberAgreement.of(compiled, "com.example.Fields", "weighed", false, true)
        .checkScalar(new Object[] {body.newInstance(2.5), 0.6}, 1, 1e-7);
  }
}
