package com.example;
import ad4j.Checkpointed;
import ad4j.Differentiable;

final class CheckpointedLoops {
  record P2(double q, double p) {}

  @Differentiable
  static double force(double q, double k) { return -k * Math.sin(q); }

  @Differentiable
  @Checkpointed(snapshots = 3)
  static double leapfrog(double q0, double p0, double k) {
    double q = q0, p = p0;
    long n = 37;
    double h = 3.0 / n;
    for (long i = 0; i < n; i++) {
      p += 0.5 * h * force(q, k);
      q += h * p;
      p += 0.5 * h * force(q, k);
    }
    return q * p;
  }

  @Differentiable
  @Checkpointed(snapshots = 4)
  static double newtonSteps(double a, double x0) {
    double x = x0;
    int it = 0;
    while (it < 40) {
      double fx = x * x * x - a;
      double step = fx / (3 * x * x);
      x -= step;
      it++;
      if (Math.abs(step) < 1e-13) break;
    }
    return x * it;
  }

  @Differentiable
  @Checkpointed(snapshots = 2)
  static double breaksAndContinues(double x, double y) {
    double s = 0, t = x;
    int k = 0;
    do {
      k++;
      t = t * 0.9 + y * 0.05;
      if (k % 4 == 0) continue;
      s += t * t;
      if (s > 3) break;
    } while (k < 23);
    double u = s;
    for (int j = 0; j < 11; j++) {
      if (j == 7) return u * t;
      u = Math.sin(u) + t;
    }
    return u;
  }

  @Differentiable
  @Checkpointed(snapshots = 3)
  static double recordState(double q0, double p0, double dt) {
    P2 s = new P2(q0, p0);
    for (int i = 0; i < 19; i++) {
      double p = s.p() - dt * s.q() * s.q() * s.q();
      s = new P2(s.q() + dt * p, p);
    }
    return s.q() + 2 * s.p();
  }

  @Differentiable
  @Checkpointed(snapshots = 5)
  static float floatState(float x, double y) {
    float v = x;
    boolean flip = false;
    for (int i = 0; i < 13; i++) {
      v = flip ? v * 0.9f + (float) y : v * 1.05f - 0.1f;
      flip = v > 1.0f;
    }
    return v;
  }

  static Object[] probes() {
    boolean T = true;
    return new Object[] {
      new Object[] {"leapfrog", 1, false, new boolean[] {T, T, T}, new Object[][] {{0.7, 0.3, 1.3}, {-0.4, 0.9, 2.0}}},
      new Object[] {"newtonSteps", 1, false, new boolean[] {T, T}, new Object[][] {{5.0, 1.5}, {0.4, 0.9}}},
      new Object[] {"breaksAndContinues", 1, false, new boolean[] {T, T}, new Object[][] {{0.7, 1.3}, {0.3, 0.2}, {2.0, 0.5}}},
      new Object[] {"recordState", 1, false, new boolean[] {T, T, T}, new Object[][] {{0.7, 0.3, 0.05}}},
      new Object[] {"floatState", 1, false, new boolean[] {T, T}, new Object[][] {{0.7f, 0.3}}, null, 1e-3},
    };
  }
}
