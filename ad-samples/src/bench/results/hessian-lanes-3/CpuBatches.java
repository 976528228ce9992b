import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.util.Arrays;

/**
 * Thread-CPU medians of HessianBench's methods, batches interleaved. Arguments: n, the number
 * of batches, then the benchmark methods. Each method runs 3 s to warm up and to size its
 * batches (about 20 ms each); prints one line per method: the median, first and third
 * quartile of the thread CPU time per call.
 */
public class CpuBatches {
  static Object sink;

  static void hessian(ad4j.samples.bench.HessianBench h, int count) {
    for (int c = 0; c < count; c++) {
      sink = h.hessian();
    }
  }

  static void differences(ad4j.samples.bench.HessianBench h, int count) {
    for (int c = 0; c < count; c++) {
      sink = h.finiteDifferenceHessian();
    }
  }

  static void structures(ad4j.samples.bench.HessianBench h, int count) {
    for (int c = 0; c < count; c++) {
      sink = h.hipparchusDerivativeStructure();
    }
  }

  static void run(ad4j.samples.bench.HessianBench h, String method, int count) {
    switch (method) {
      case "hessian": hessian(h, count); break;
      case "finiteDifferenceHessian": differences(h, count); break;
      case "hipparchusDerivativeStructure": structures(h, count); break;
      default: throw new IllegalArgumentException(method);
    }
  }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    int batches = Integer.parseInt(args[1]);
    String[] methods = Arrays.copyOfRange(args, 2, args.length);
    Class<?> bench = Class.forName("ad4j.samples.bench.HessianBench");
    Object state = bench.getConstructor().newInstance();
    Field field = bench.getDeclaredField("n");
    field.setAccessible(true);
    field.setInt(state, n);
    bench.getMethod("setup").invoke(state);
    ad4j.samples.bench.HessianBench h = (ad4j.samples.bench.HessianBench) state;
    int[] calls = new int[methods.length];
    for (int m = 0; m < methods.length; m++) {
      // about 20 ms per batch, from a first timing after warm-up
      long start = System.nanoTime();
      int count = 0;
      while (System.nanoTime() - start < 3_000_000_000L) {
        run(h, methods[m], 100);
        count += 100;
      }
      calls[m] = Math.max(1, (int) (count * 0.02 / 3));
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[][] perCall = new double[methods.length][batches];
    for (int b = 0; b < batches; b++) {
      for (int m = 0; m < methods.length; m++) {
        long t0 = threads.getCurrentThreadCpuTime();
        run(h, methods[m], calls[m]);
        perCall[m][b] = (threads.getCurrentThreadCpuTime() - t0) / (double) calls[m];
      }
    }
    for (int m = 0; m < methods.length; m++) {
      double[] sorted = perCall[m].clone();
      Arrays.sort(sorted);
      System.out.printf("n=%d %s median %.0f ns (q1 %.0f, q3 %.0f, %d calls x %d batches)%n", n,
          methods[m], sorted[batches / 2], sorted[batches / 4], sorted[3 * batches / 4],
          calls[m], batches);
    }
  }
}
