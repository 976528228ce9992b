package ad4j.samples.bench;

import ad4j.runtime.internal.Tape;
import ad4j.samples.ControlFlowGrad;
import ad4j.samples.LongIntegrationGrad;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The memory of the tape that the reverse gradients of the RK4 benchmarks take: each gradient
 * runs on a new thread, whose tape then holds as much as the call needed at most, rounded up to
 * a power of two ({@code Tape.capacityBytes}). Prints a table and, given a file, writes it as
 * JSON for the report.
 */
public final class TapeBytes {
  private TapeBytes() {}

  private static final double[] P = {1.1, 0.4, 0.1, 0.4, 10, 10};

  /**
   * Measures.
   *
   * @param args optional: the JSON file to write
   * @throws Exception when a thread is interrupted or the file cannot be written
   */
  public static void main(String[] args) throws Exception {
    double[] gradient = new double[6];
    List<String> rows = new ArrayList<>();
    System.out.printf("%-40s %10s %14s %12s%n", "gradient", "steps", "tape bytes",
        "bytes/step");
    rows.add(measure("ControlFlow.finalPrey (full tape)", 1000, steps ->
        ControlFlowGrad.finalPreyValueAndGradient(P[0], P[1], P[2], P[3], P[4], P[5],
            gradient)));
    for (int steps : new int[] {1000, 1_000_000}) {
      rows.add(measure("LongIntegration.prey (full tape)", steps, n ->
          LongIntegrationGrad.preyValueAndGradient(P[0], P[1], P[2], P[3], P[4], P[5], n,
              gradient)));
      rows.add(measure("LongIntegration.preyCheckpointed", steps, n ->
          LongIntegrationGrad.preyCheckpointedValueAndGradient(P[0], P[1], P[2], P[3], P[4],
              P[5], n, gradient)));
    }
    if (args.length > 0) {
      write(Path.of(args[0]), rows);
    }
  }

  private static String measure(String name, int steps, IntConsumer gradient)
      throws InterruptedException {
    long[] bytes = new long[1];
    Thread thread = new Thread(() -> {
      gradient.accept(steps);
      bytes[0] = Tape.current().capacityBytes();
    });
    thread.start();
    thread.join();
    System.out.printf("%-40s %10d %14d %12.1f%n", name, steps, bytes[0],
        (double) bytes[0] / steps);
    return String.format("{\"gradient\": \"%s\", \"steps\": %d, \"tapeBytes\": %d}", name,
        steps, bytes[0]);
  }

  private static void write(Path file, List<String> rows) throws IOException {
    Files.writeString(file, "[\n  " + String.join(",\n  ", rows) + "\n]\n");
  }
}
