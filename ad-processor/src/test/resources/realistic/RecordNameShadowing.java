package com.example;
import ad4j.Differentiable;

final class RecordNameShadowing {
  record Vec2(double x, double y) {
    Vec2 scaled(double x) { return new Vec2(this.x * x, y * x); }
    double mix(double y) { double x = y * 2; return this.x * x + y() * y + this.y; }
    Vec2 with(double y) { return new Vec2(x, y); }
    static Vec2 of(double x, double y) { return new Vec2(y, x); }
    Vec2 swapped() { return of(x, y); }
    double lenTimes(double s) { double x = Math.hypot(this.x, y); return x * s; }
  }
  static final class Cplx {
    final double re, im;
    Cplx(double re, double im) { this.re = re; this.im = im; }
    double re() { return re; }
    double im() { return im; }
    Cplx times(double re) { return new Cplx(this.re * re, im * re); }
    Cplx mul(Cplx o) { double re = this.re * o.re - im * o.im; double im = this.re * o.im + this.im * o.re; return new Cplx(re, im); }
    double abs2() { return re * re + im * im; }
  }

  @Differentiable(order = 2)
  static double a(double p, double q) {
    Vec2 v = new Vec2(p, q);
    Vec2 w = v.scaled(q);
    return w.x() + 3 * w.y() + v.mix(p) + v.with(p * q).y() * 5 + v.swapped().x() * 7 + v.lenTimes(q);
  }

  @Differentiable(order = 2)
  static double b(double p, double q) {
    Cplx z = new Cplx(p, q);
    Cplx w = z.times(q).mul(z);
    double x = 0;
    for (int k = 0; k < 3; k++) {
      w = w.mul(new Cplx(0.5, 0.1 * k));
      x += w.abs2();
    }
    return w.re + x;
  }

  /** A loop that assigns names the record methods use (x, y, s, re). */
  @Differentiable
  static double c(double p, double q) {
    double x = p, y = q, s = 1, re = 0;
    Vec2 v = new Vec2(p, q);
    for (int k = 0; k < 3; k++) {
      x = v.mix(y) + x * 0.1;
      y = v.scaled(x).y() * 0.2;
      s *= v.lenTimes(s);
      re += new Cplx(x, y).times(re + 1).abs2() * 0.01;
    }
    return x + y + s + re;
  }

  static Object[] probes() {
    boolean T = true;
    Object[][] pts = {{0.7, 1.3}, {-0.4, 0.9}};
    return new Object[] {
      new Object[] {"a", 2, false, new boolean[] {T, T}, pts},
      new Object[] {"b", 2, false, new boolean[] {T, T}, pts},
      new Object[] {"c", 1, false, new boolean[] {T, T}, pts},
    };
  }
}
