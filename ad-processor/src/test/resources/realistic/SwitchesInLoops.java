package com.example;
import ad4j.Differentiable;

final class SwitchesInLoops {
  @Differentiable(order = 2)
  static double breakInSwitch(double x, double y) {
    double s = 0;
    for (int k = 0; k < 6; k++) {
      switch (k % 3) {
        case 0:
          s += x;
          break;
        case 1:
          s *= y;
          if (s <= 100) s += 0.5;
          break;
        default:
          s -= x * y;
      }
      s += 0.01 * k;
    }
    return s;
  }
  @Differentiable(order = 2)
  static double continueInSwitch(double x, double y) {
    double s = 1;
    int k = 0;
    while (k < 7) {
      k++;
      switch (k % 4) {
        case 0 -> { s += x; continue; }
        case 1 -> s *= y;
        case 2 -> { if (s <= 2) s += x * x; }
        default -> { s -= 0.1 * x; }
      }
      s *= 0.9;
    }
    return s;
  }
  @Differentiable(order = 2)
  static double labelledOut(double x, double y) {
    double s = 0;
    outer:
    for (int i = 0; i < 5; i++) {
      switch (i) {
        case 3: break outer;
        case 1: continue outer;
        default: s += x * i + y;
      }
      s *= 1.1;
    }
    return s * x;
  }
  @Differentiable(order = 2)
  static double yieldLoop(double x, double y, int mode) {
    double acc = 0;
    for (int i = 0; i < 4; i++) {
      double v = switch (mode + i) {
        case 0, 1 -> x * i;
        case 2 -> {
          double t = 0;
          for (int j = 0; j < 3; j++) { t += y * j; if (t > 1) break; }
          yield t;
        }
        default -> {
          yield x > 0 ? x * y : -y;
        }
      };
      acc += v * (i + 1);
    }
    return acc;
  }
  static Object[] probes() {
    boolean T = true, F = false;
    Object[][] pts = {{0.7, 1.3}, {-0.4, 0.9}};
    return new Object[] {
      new Object[] {"breakInSwitch", 2, false, new boolean[] {T, T}, pts},
      new Object[] {"continueInSwitch", 2, false, new boolean[] {T, T}, pts},
      new Object[] {"labelledOut", 2, false, new boolean[] {T, T}, pts},
      new Object[] {"yieldLoop", 2, false, new boolean[] {T, T, F}, new Object[][] {{0.7, 1.3, 0}, {-0.4, 0.9, 1}, {0.4, 0.3, 2}}},
    };
  }
}
