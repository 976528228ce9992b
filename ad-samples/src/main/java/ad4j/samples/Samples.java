package ad4j.samples;

/** Runs the samples. */
public final class Samples {
  private Samples() {}

  public static void main(String[] args) {
    System.out.println(java.util.Arrays.toString(RosenbrockGrad.valueGradient(0.5, 2)));
  }
}
