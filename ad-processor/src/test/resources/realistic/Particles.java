package com.example;
import ad4j.Differentiable;
import ad4j.NoDerivative;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;

final class Particles {
  record Vec3(double x, double y, double z) {
    Vec3 plus(Vec3 o) { return new Vec3(x + o.x, y + o.y, z + o.z); }
    Vec3 times(double s) { return new Vec3(x * s, y * s, z * s); }
    double dot(Vec3 o) { return x * o.x + y * o.y + z * o.z; }
    Vec3 cross(Vec3 o) { return new Vec3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x); }
  }
  record Particle(Vec3 pos, Vec3 vel, double mass, String name) {}
  record Kin(Vec3 pos, Vec3 vel) {}
  record Poly(double[] c, double shift) {
    @Differentiable
    double at(double t) { double u = 0; for (int i = c.length - 1; i >= 0; i--) u = u * (t - shift) + c[i]; return u; }
  }
  record Stats(double mean, double m2, int n) {
    Stats add(double v) {
      int n1 = n + 1;
      double d = v - mean;
      double mean1 = mean + d / n1;
      return new Stats(mean1, m2 + d * (v - mean1), n1);
    }
  }

  /** Boris-like push in a magnetic field, record state, record result. */
  @Differentiable
  static Kin push(Particle p, Vec3 b, double dt) {
    Particle q = p;
    for (int i = 0; i < 8; i++) {
      Vec3 t = b.times(0.5 * dt / q.mass());
      Vec3 vPrime = q.vel().plus(q.vel().cross(t));
      double t2 = t.dot(t);
      Vec3 s = t.times(2 / (1 + t2));
      Vec3 vNew = q.vel().plus(vPrime.cross(s));
      q = new Particle(q.pos().plus(vNew.times(dt)), vNew, q.mass(), q.name());
    }
    return new Kin(q.pos(), q.vel());
  }

  @Differentiable(order = 2)
  static double kinetic(Particle p, double scale) {
    Vec3 v = p.vel().times(scale);
    return 0.5 * p.mass() * v.dot(v) + p.pos().dot(p.vel());
  }

  /** Welford's running variance through a record carrying an int count. */
  @Differentiable(order = 2)
  static double welford(double[] xs, double w) {
    Stats s = new Stats(0, 0, 0);
    for (double x : xs) s = s.add(x * w);
    return s.m2() / (s.n() - 1) + s.mean();
  }

  @Differentiable
  static double polyRoot(Poly p, double guess) {
    double x = guess;
    for (int k = 0; k < 30; k++) {
      double fx = p.at(x);
      double h = 1e-7;
      double d = (p.at(x + h) - fx) / h;
      double step = fx / d;
      x -= step;
      if (Math.abs(step) < 1e-14) break;
    }
    return x;
  }

  @Differentiable
  static Vec3 rotate(Vec3 v, double angle, @NoDerivative Vec3 axis) {
    double c = Math.cos(angle), s = Math.sin(angle);
    Vec3 k = axis.times(1 / Math.sqrt(axis.dot(axis)));
    return v.times(c).plus(k.cross(v).times(s)).plus(k.times(k.dot(v) * (1 - c)));
  }

  @Differentiable
  static double apply(ToDoubleFunction<Vec3> f, Vec3 a, Vec3 b) {
    double s = 0;
    for (int i = 0; i <= 4; i++) s += f.applyAsDouble(a.times(1 - i / 4.0).plus(b.times(i / 4.0)));
    return s / 5;
  }

  @Differentiable
  static double lineAverage(Vec3 a, Vec3 b, double k) {
    return apply(v -> Math.exp(-k * v.dot(v)), a, b) + apply(v -> v.cross(a).dot(b), a, b);
  }

  static Object[] probes() {
    boolean T = true, F = false;
    Particle p = new Particle(new Vec3(0.1, 0.2, -0.3), new Vec3(1.0, 0.5, 0.2), 1.7, "e");
    return new Object[] {
      new Object[] {"push", 1, true, new boolean[] {T, T, T}, new Object[][] {{p, new Vec3(0.3, -0.4, 1.1), 0.05}}},
      new Object[] {"kinetic", 2, false, new boolean[] {T, T}, new Object[][] {{p, 0.7}}},
      new Object[] {"welford", 2, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8}, 0.7}}},
      new Object[] {"polyRoot", 1, false, new boolean[] {T, T}, new Object[][] {{new Poly(new double[] {-2, 0.5, 1}, 0.3), 1.5}}, null, 1e-5},
      new Object[] {"rotate", 1, true, new boolean[] {T, T, F}, new Object[][] {{new Vec3(0.3, -0.4, 1.1), 0.7, new Vec3(0.2, 0.1, 1.0)}}},
      new Object[] {"lineAverage", 1, false, new boolean[] {T, T, T}, new Object[][] {{new Vec3(0.3, -0.4, 1.1), new Vec3(0.2, 0.1, 1.0), 0.7}}},
    };
  }
}
