package ad4j.samples.bench;

/**
 * Calls the 500-statement chain and its generated derivatives often enough for HotSpot to
 * compile them (tier 4 after about 10,000 calls), so that {@code -XX:+PrintCompilation} shows
 * which of them it compiles. Run by {@code scripts/huge_methods.py}.
 */
public final class HugeMethodCheck {
  private HugeMethodCheck() {}

  /** Inputs, non-final so that nothing is folded. */
  static double[] p = {0.5, -0.3, 0.9, 0.8, 0.3};

  /**
   * Runs the calls.
   *
   * @param args optional: the number of calls of each method (default 20000)
   */
  public static void main(String[] args) {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    double[] gradient = new double[5];
    double[] adjoints = new double[5];
    double sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += Chain500.chain(p[0], p[1], p[2], p[3], p[4]);
      sum += Chain500Grad.chainValueAndGradient(p[0], p[1], p[2], p[3], p[4], gradient);
      sum += Chain500Grad.chainTangent(p[0], p[1], p[2], p[3], p[4], 1, 0, 0, 0, 0);
      sum += Chain500Grad.chainPullback(p[0], p[1], p[2], p[3], p[4], 1, adjoints);
    }
    System.out.println("checksum " + (sum + gradient[0] + adjoints[0]));
  }
}
