package com.example;
import ad4j.Differentiable;
import java.util.Arrays;

final class LocalArrayAliases {
  @Differentiable
  static double alias1(double x, double y) {
    double[] a = new double[3];
    double[] b = a;
    b[0] = x * y;
    a[1] = b[0] + x;
    b[2] = a[1] * y;
    return a[0] + a[2] + b[1];
  }
  @Differentiable
  static double rowAlias(double x, double y) {
    double[][] m = new double[2][2];
    double[] row = m[1];
    row[0] = x * y;
    m[1][1] = row[0] * x;
    return m[1][0] + row[1] + m[0][0];
  }
  @Differentiable
  static double filled(double x, double y) {
    double[] a = {x, y, x * y};
    Arrays.fill(a, 1.0);
    return a[0] * x + a[2];
  }
  @Differentiable
  static double filledPart(double x, double y) {
    double[] a = {x, y, x * y};
    Arrays.fill(a, 1, 2, 0.5);
    return a[0] * x + a[1] + a[2];
  }
  @Differentiable
  static double copied(double x, double y) {
    double[] a = {x, y, x * y};
    double[] b = new double[4];
    System.arraycopy(a, 0, b, 1, 3);
    b[0] = b[3] * 2;
    double[] c = Arrays.copyOf(b, 6);
    double[] d = Arrays.copyOfRange(a, 1, 3);
    return b[0] + b[1] * b[2] + c[3] + c[5] + d[1] * d[0];
  }
  @Differentiable
  static double cloned(double x, double y) {
    double[] a = {x, y};
    double[] b = a.clone();
    b[0] = 5;
    a[1] = a[1] * b[1];
    return a[0] * 2 + a[1] + b[0] * b[1];
  }
  @Differentiable
  static double condStore(double x, double y) {
    double m = 1;
    double[] a = new double[4];
    for (int i = 0; i < 6; i++) {
      if (i % 2 == 0) m = m * x + 0.1;
      if (i % 3 == 1) a[i % 4] = m * y;
      a[(i + 1) % 4] += a[i % 4] * 0.5;
      a[i % 4] = a[i % 4] * x;
      a[i % 4] = a[i % 4] + a[i % 4] * y;
    }
    return m + a[0] + 2 * a[1] + 3 * a[2] + 4 * a[3];
  }
  static Object[] probes() {
    boolean T = true;
    Object[][] pts = {{0.7, 1.3}, {-0.4, 0.9}};
    return new Object[] {
      new Object[] {"alias1", 1, false, new boolean[] {T, T}, pts},
      new Object[] {"rowAlias", 1, false, new boolean[] {T, T}, pts},
      new Object[] {"filled", 1, false, new boolean[] {T, T}, pts},
      new Object[] {"filledPart", 1, false, new boolean[] {T, T}, pts},
      new Object[] {"copied", 1, false, new boolean[] {T, T}, pts},
      new Object[] {"cloned", 1, false, new boolean[] {T, T}, pts},
      new Object[] {"condStore", 1, false, new boolean[] {T, T}, pts},
    };
  }
}
