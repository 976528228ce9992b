package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.PropertySeeds;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Property: random methods that route derivative-carrying values through code that carries no
 * derivative — strings, string concatenation, boxes, builders, a double-double object, a static
 * field written and read back, an object's setter and getter, bit patterns, logging, helpers
 * of the sources that read a static field or only their arguments — are
 * either rejected with an error at the first line where a laundered value comes back (into a
 * derivative-carrying value or the result), or compile and are exact: the values bit for bit
 * the user's method's, the gradient against extrapolated differences, pullback, tangent and
 * gradient consistent ({@link DerivativeChecks}). The expected outcome of each method is worked
 * out while it is generated, by the rule of the contract, the conservative part included: after
 * a call run as written received a dependent value, what such calls return is dependent too,
 * unless they read their arguments only.
 *
 * <p>Each round compiles a batch of {@value #BATCH} methods and compares the errors with the
 * expectations, then compiles the methods expected to be accepted on their own (under
 * {@code -Xlint:all -Werror}) and checks them at {@value #POINTS} points. The normal build runs
 * {@value #DEFAULT_PROGRAMS} methods from seed {@value #OWN_SEED}; a long run:
 *
 * <pre>
 * mvn -pl ad-processor test -Dtest=LaunderedProgramsPropertyTest -Dad4j.laundered.programs=5000 -Dad4j.seed=7
 * </pre>
 */
class LaunderedProgramsPropertyTest {
  static final int BATCH = 20;
  static final int DEFAULT_PROGRAMS = 20;
  static final int POINTS = 2;
  static final long OWN_SEED = 20261128L;

  private static final String HELPERS = String.join("\n",
      "package com.example;",
      "public final class LaunderHelpers {",
      "  private LaunderHelpers() {}",
      "  public static final class Pair {",
      "    final double hi;",
      "    final double lo;",
      "    Pair(double hi, double lo) { this.hi = hi; this.lo = lo; }",
      "    public double doubleValue() { return hi + lo; }",
      "  }",
      "  public static final class Box {",
      "    private double value;",
      "    public void set(double v) { value = v; }",
      "    public double get() { return value; }",
      "  }",
      "  static double kept;",
      "  static String lastLine = \"\";",
      "  public static Pair twoProd(double a, double b) {",
      "    double p = a * b;",
      "    return new Pair(p, Math.fma(a, b, -p));",
      "  }",
      "  public static void keep(double v) { kept = v; }",
      "  public static double kept() { return kept; }",
      "  public static void log(String line) { lastLine = line; }",
      "  static final double STEP = 0.25;",
      "  public static double weight(int n) {",
      "    double w = 1;",
      "    for (int i = 0; i < n; i++) { w = w * (1 + STEP) + Math.sqrt(i); }",
      "    return w;",
      "  }",
      "  static double rate = 0.5;",
      "  public static double drift(int n) { return n * rate + weight(n); }",
      "}");

  /** What a local holds, as the contract sees it. */
  private enum Kind { CONSTANT, CARRYING, LAUNDERED }

  /** One generated method: its statements, and the line (in the method) of its first error. */
  private record Method(List<String> lines, int firstError) {
    boolean rejected() {
      return firstError >= 0;
    }
  }

  /** Builds one method, tracking what each local holds and whether a call kept a value. */
  private static final class Generator {
    private final Random random;
    private final List<String> lines = new ArrayList<>();
    private final List<String> names = new ArrayList<>(List.of("x", "y"));
    private final List<Kind> kinds = new ArrayList<>(List.of(Kind.CARRYING, Kind.CARRYING));
    private boolean kept;
    private int firstError = -1;
    /** Half the methods keep laundered values away from what they compute: accepted ones. */
    private final boolean avoidLaundered;

    Generator(Random random) {
      this.random = random;
      this.avoidLaundered = random.nextBoolean();
    }

    Method method() {
      int statements = 2 + random.nextInt(5);
      for (int i = 0; i < statements; i++) {
        statement();
      }
      int a = pickToUse();
      int b = pickToUse();
      comesBack(Kind.CARRYING, a, b); // the result
      lines.add("return " + combine(names.get(a), names.get(b)) + ";");
      return new Method(lines, firstError);
    }

    private int pick() {
      // later locals more often, so that routes are used
      int n = names.size();
      return random.nextInt(3) == 0 ? random.nextInt(n) : n - 1 - random.nextInt(Math.min(n, 2));
    }

    /** A local or parameter to compute with; not a laundered one if this method avoids them. */
    private int pickToUse() {
      int i = pick();
      while (avoidLaundered && kinds.get(i) == Kind.LAUNDERED) {
        i = random.nextInt(names.size());
      }
      return i;
    }

    private String combine(String a, String b) {
      return switch (random.nextInt(4)) {
        case 0 -> a + " * " + b;
        case 1 -> "Math.sin(" + a + ") + 0.5 * " + b;
        case 2 -> a + " - Math.cos(" + b + ")";
        default -> "(" + a + " + 1.25) * (" + b + " - 0.5)";
      };
    }

    /** A line where a and b meet: an error there if a laundered value meets carrying code. */
    private Kind comesBack(Kind into, int a, int b) {
      Kind ka = kinds.get(a);
      Kind kb = kinds.get(b);
      boolean laundered = ka == Kind.LAUNDERED || kb == Kind.LAUNDERED;
      boolean carrying = into == Kind.CARRYING || ka == Kind.CARRYING || kb == Kind.CARRYING;
      if (laundered && carrying) {
        if (firstError < 0) {
          firstError = lines.size();
        }
        return Kind.CARRYING; // reported here; what it makes carries its derivative again
      }
      return laundered ? Kind.LAUNDERED
          : ka == Kind.CARRYING || kb == Kind.CARRYING ? Kind.CARRYING : Kind.CONSTANT;
    }

    private boolean dependent(int i) {
      return kinds.get(i) != Kind.CONSTANT;
    }

    private void local(String expression, Kind kind) {
      String name = "t" + names.size();
      lines.add("double " + name + " = " + expression + ";");
      names.add(name);
      kinds.add(kind);
    }

    private void statement() {
      int route = random.nextInt(13);
      if (route == 11) {
        // a helper of the sources that reads its argument only: never dependent
        local("LaunderHelpers.weight(" + (1 + random.nextInt(4)) + ")", Kind.CONSTANT);
        return;
      }
      if (route == 12) {
        // one that reads a static field (no call writes it, but ad4j cannot know): dependent
        // once a call may have kept a value
        local("LaunderHelpers.drift(" + (1 + random.nextInt(4)) + ")", launderedIf(kept));
        return;
      }
      if (route == 10 || names.size() < 3 && route >= 8) {
        // a constant that goes the same ways
        local(random.nextInt(2) == 0 ? "2.5" : "Math.sqrt(3.0)", Kind.CONSTANT);
        return;
      }
      int a = pick();
      String v = names.get(a);
      boolean dependent = dependent(a);
      switch (route) {
        case 0 -> local("Double.parseDouble(Double.toString(" + v + "))", launderedIf(dependent));
        case 1 -> local("Double.parseDouble(\"\" + " + v + ")", launderedIf(dependent));
        case 2 -> local("Double.valueOf(" + v + ").doubleValue()", launderedIf(dependent));
        case 3 -> local("Double.longBitsToDouble(Double.doubleToRawLongBits(" + v + "))",
            launderedIf(dependent));
        case 4 -> {
          // a call run as written: it may keep what it receives, and give back what it kept
          kept |= dependent;
          local("LaunderHelpers.twoProd(" + v + ", 1.0).doubleValue()",
              launderedIf(dependent || kept));
        }
        case 5 -> {
          lines.add("LaunderHelpers.keep(" + v + ");");
          kept |= dependent;
          local("LaunderHelpers.kept()", launderedIf(kept));
        }
        case 6 -> {
          String box = "b" + names.size();
          lines.add("LaunderHelpers.Box " + box + " = new LaunderHelpers.Box();");
          lines.add(box + ".set(" + v + ");");
          kept |= dependent;
          local(box + ".get()", launderedIf(kept));
        }
        case 7 -> {
          String builder = "sb" + names.size();
          lines.add("StringBuilder " + builder + " = new StringBuilder();");
          lines.add(builder + ".append(" + v + ");");
          kept |= dependent;
          local("Double.parseDouble(" + builder + ".toString())", launderedIf(kept));
        }
        case 8 -> {
          lines.add("LaunderHelpers.log(\"v = \" + " + v + ");");
          kept |= dependent;
        }
        default -> {
          a = pickToUse();
          v = names.get(a);
          int b = pickToUse();
          Kind kind = comesBack(Kind.CONSTANT, a, b);
          local(combine(v, names.get(b)), kind);
        }
      }
    }

    private static Kind launderedIf(boolean dependent) {
      return dependent ? Kind.LAUNDERED : Kind.CONSTANT;
    }
  }

  private static final int HEADER_LINES = 3; // package, import, class

  /** The class of {@code methods}; method i starts at the line {@link #startLines} gives. */
  private static String classSource(String name, List<Method> methods, List<Integer> starts) {
    StringBuilder text = new StringBuilder("package com.example;\nimport ad4j.Differentiable;\n"
        + "final class " + name + " {\n");
    int line = HEADER_LINES + 1;
    for (int i = 0; i < methods.size(); i++) {
      text.append("  @Differentiable static double m").append(i)
          .append("(double x, double y) {\n");
      line++;
      starts.add(line);
      for (String statement : methods.get(i).lines()) {
        text.append("    ").append(statement).append('\n');
        line++;
      }
      text.append("  }\n");
      line++;
    }
    return text.append("}\n").toString();
  }

  @Test
  void launderedValuesAreRejectedWhereTheyComeBackAndTheRestIsExact() {
    long seed = PropertySeeds.programsSeed(OWN_SEED);
    int programs = Integer.getInteger("ad4j.laundered.programs", DEFAULT_PROGRAMS);
    Random random = new Random(seed);
    int rejected = 0;
    int accepted = 0;
    long start = System.nanoTime();
    for (int done = 0; done < programs; done += BATCH) {
      List<Method> batch = new ArrayList<>();
      for (int i = 0; i < BATCH; i++) {
        batch.add(new Generator(random).method());
      }
      checkBatch(batch, seed, done);
      for (Method method : batch) {
        if (method.rejected()) {
          rejected++;
        } else {
          accepted++;
        }
      }
    }
    System.out.printf("LaunderedProgramsPropertyTest: seed %d, %d methods (%d rejected, %d"
        + " exact), %.1f s%n", seed, rejected + accepted, rejected, accepted,
        (System.nanoTime() - start) / 1e9);
    assertWithMessage("the generator must produce both outcomes").that(rejected).isGreaterThan(0);
    assertWithMessage("the generator must produce both outcomes").that(accepted).isGreaterThan(0);
  }

  private static void checkBatch(List<Method> batch, long seed, int first) {
    List<Integer> starts = new ArrayList<>();
    String source = classSource("Laundered", batch, starts);
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Laundered", source);
    Compilation all = InProcessCompiler.javac().compile(file,
        JavaFileObjects.forSourceString("com.example.LaunderHelpers", HELPERS));
    String where = "seed " + seed + ", methods from " + first + ":\n" + source + "\n"
        + InProcessCompiler.describe(all.diagnostics());
    List<TreeSet<Long>> errorLines = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      errorLines.add(new TreeSet<>());
    }
    for (Diagnostic<? extends JavaFileObject> error : all.errors()) {
      int method = methodAt(starts, error.getLineNumber());
      assertWithMessage("an error outside the methods, %s", where).that(method).isAtLeast(0);
      assertWithMessage("message of %s, %s", error, where).that(error.getMessage(null))
          .contains("which carries no derivative");
      errorLines.get(method).add(error.getLineNumber());
    }
    List<Method> exact = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      Method method = batch.get(i);
      if (method.rejected()) {
        assertWithMessage("first error of m%s, %s", i, where).that(errorLines.get(i).isEmpty()
            ? -1 : errorLines.get(i).first()).isEqualTo(starts.get(i) + method.firstError());
      } else {
        assertWithMessage("errors of m%s, %s", i, where).that(errorLines.get(i)).isEmpty();
        exact.add(method);
      }
    }
    if (exact.isEmpty()) {
      return;
    }
    String exactSource = classSource("Exact", exact, new ArrayList<>());
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Exact", exactSource,
        "com.example.LaunderHelpers", HELPERS);
    Random points = new Random(seed ^ first);
    for (int i = 0; i < exact.size(); i++) {
      CompiledFunction f = compiled.function("com.example.Exact", "m" + i, 2);
      for (int p = 0; p < POINTS; p++) {
        double x = 0.5 + points.nextDouble();
        double y = 0.5 + points.nextDouble();
        try {
          DerivativeChecks.checkAt(f, x, y);
        } catch (AssertionError e) {
          throw new AssertionError("m" + i + " at (" + x + ", " + y + "), seed " + seed
              + ", methods from " + first + ":\n" + exactSource, e);
        }
      }
    }
  }

  /** The method whose body holds {@code line}, or -1. */
  private static int methodAt(List<Integer> starts, long line) {
    for (int i = starts.size() - 1; i >= 0; i--) {
      if (line >= starts.get(i)) {
        return i;
      }
    }
    return -1;
  }
}
