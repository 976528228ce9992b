package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The samples' main program, and the shape of the generated classes. */
class SamplesTest {

  @Test
  void mainRunsAndPrintsAShortReport() {
    PrintStream original = System.out;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      Samples.main(new String[0]);
    } finally {
      System.setOut(original);
    }
    String output = buffer.toString(StandardCharsets.UTF_8);
    long lines = output.lines().count();
    // a few lines per sample: a report to read, not a log
    assertTrue(lines <= 120, "too long: " + lines + " lines");
    assertTrue(output.contains("df(5) = 11"), output);
    assertTrue(output.contains("converged: true"), output);
    assertTrue(output.contains("target/generated-sources/annotations/ad4j/samples/Outer_InnerGrad.java"),
        output);
  }

  @Test
  void generatedSourcePathsExistRelativeToTheModule() {
    // Surefire runs the tests in the module's directory.
    for (Class<?> generated : Samples.GENERATED) {
      String path = Samples.generatedSourcePath(generated);
      assertTrue(Files.isRegularFile(Path.of(path)), "no file " + path);
    }
    assertEquals("target/generated-sources/annotations/ad4j/samples/RosenbrockGrad.java",
        Samples.generatedSourcePath(RosenbrockGrad.class));
  }

  @Test
  void generatedClassesArePublicFinalWithAPrivateConstructor() throws Exception {
    for (Class<?> generated : Samples.GENERATED) {
      int modifiers = generated.getModifiers();
      assertTrue(Modifier.isPublic(modifiers), generated + " is not public");
      assertTrue(Modifier.isFinal(modifiers), generated + " is not final");
      assertEquals("ad4j.samples", generated.getPackageName());
      assertEquals(null, generated.getEnclosingClass(), generated + " should be top level");
      Constructor<?>[] constructors = generated.getDeclaredConstructors();
      assertEquals(1, constructors.length);
      assertTrue(Modifier.isPrivate(constructors[0].getModifiers()));
    }
  }

  @Test
  void nestedClassGivesOuterUnderscoreInnerGrad() throws Exception {
    Class<?> grad = Class.forName("ad4j.samples.Outer_InnerGrad");
    assertEquals(double[].class,
        grad.getMethod("dampedGradient", double.class, double.class).getReturnType());
  }

  @Test
  void overloadsGiveOverloadedGeneratedMembers() throws Exception {
    assertEquals(2, OverloadsGrad.normGradient(3, 4).length);
    assertEquals(3, OverloadsGrad.normGradient(1, 2, 2).length);
    assertEquals(0.6, OverloadsGrad.normGradient(3, 4)[0], 1e-15);
    assertEquals(2.0 / 3, OverloadsGrad.normGradient(1, 2, 2)[2], 1e-15);
    long count = java.util.Arrays.stream(OverloadsGrad.class.getDeclaredMethods())
        .filter(m -> m.getName().equals("normTangent")).count();
    assertEquals(2, count);
  }
}
