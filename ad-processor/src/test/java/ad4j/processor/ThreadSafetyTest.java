package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.GeneratedClassChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.RandomPrograms;
import ad4j.processor.testing.RandomPrograms.Program;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Generated classes hold no shared mutable state (checked reflectively here and, for every
 * compiled program, in {@link RandomProgramsPropertyTest}), and their members give the same
 * results, bit for bit, when 8 threads call them at once as when one thread does.
 */
class ThreadSafetyTest {
  static final int THREADS = 8;
  static final int ROUNDS = 200;

  @Provide
  Arbitrary<List<Program>> batches() {
    return RandomPrograms.programs(2).list().ofSize(20);
  }

  @Property(tries = 1, seed = "777")
  void concurrentCallsGiveTheSingleThreadedResults(@ForAll("batches") List<Program> batch)
      throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compile(
        "com.example.Programs", RandomPrograms.classSource(batch),
        "com.example.Rosenbrock", GoldenTest.ROSENBROCK);
    GeneratedClassChecks.assertNoMutableStaticState(compiled.load("com.example.ProgramsGrad"));
    GeneratedClassChecks.assertNoMutableStaticState(compiled.load("com.example.RosenbrockGrad"));

    List<CompiledFunction> functions = new ArrayList<>();
    List<double[]> points = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      functions.add(compiled.function("com.example.Programs", "m" + i, batch.get(i).arity()));
      points.add(batch.get(i).pointList().get(0));
    }
    functions.add(compiled.function("com.example.Rosenbrock", "value", 2));
    points.add(new double[] {-1.2, 1});
    List<double[]> expected = new ArrayList<>();
    for (int i = 0; i < functions.size(); i++) {
      expected.add(everything(functions.get(i), points.get(i)));
    }

    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<String>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int offset = t;
        results.add(pool.submit(() -> {
          start.await();
          for (int round = 0; round < ROUNDS; round++) {
            for (int k = 0; k < functions.size(); k++) {
              int i = (k + offset * 3 + round) % functions.size(); // threads interleave differently
              double[] actual = everything(functions.get(i), points.get(i));
              if (!Arrays.equals(actual, expected.get(i))) { // bitwise, NaN included
                return functions.get(i) + " at " + Arrays.toString(points.get(i)) + ": "
                    + Arrays.toString(actual) + " != " + Arrays.toString(expected.get(i));
              }
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<String> result : results) {
        assertWithMessage("concurrent result").that(result.get(2, TimeUnit.MINUTES)).isNull();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** The results of all four members (and the primal) at x, in one array. */
  private static double[] everything(CompiledFunction f, double[] x) {
    int n = x.length;
    double[] all = new double[4 * n + 4];
    all[0] = f.value(x);
    System.arraycopy(f.gradient(x), 0, all, 1, n);
    double[] out = new double[n];
    all[n + 1] = f.valueAndGradient(x, out);
    System.arraycopy(out, 0, all, n + 2, n);
    double[] adjoints = new double[n];
    Arrays.fill(adjoints, 0.5);
    all[2 * n + 2] = f.pullback(x, -1.25, adjoints);
    System.arraycopy(adjoints, 0, all, 2 * n + 3, n);
    double[] direction = new double[n];
    for (int i = 0; i < n; i++) {
      direction[i] = 0.3 - 0.7 * i;
    }
    all[3 * n + 3] = f.tangent(x, direction);
    return all;
  }
}
