package ad4j.processor.testing;

import java.util.Arrays;
import java.util.Random;

/**
 * Arguments of methods with array parameters, as the tests of array functions handle them: in
 * the flat layout of gradients ({@code double}, {@code double[]}, {@code double[][]} row by
 * row), copied deeply before a slot is moved, and random directions of the same shape.
 */
public final class ArrayArguments {
  private ArrayArguments() {}

  /** The slots of a {@code Double}, {@code double[]} or {@code double[][]} argument, in order. */
  public static double[] flatten(Object argument) {
    if (argument instanceof Double d) {
      return new double[] {d};
    }
    if (argument instanceof double[] a) {
      return a.clone();
    }
    return Arrays.stream((double[][]) argument).flatMapToDouble(Arrays::stream).toArray();
  }

  /** {@code argument} with flat slot {@code k} set to {@code value}; arrays are changed in place. */
  public static Object withSlot(Object argument, int k, double value) {
    if (argument instanceof Double) {
      return value;
    }
    if (argument instanceof double[] a) {
      a[k] = value;
      return a;
    }
    for (double[] row : (double[][]) argument) {
      if (k < row.length) {
        row[k] = value;
        break;
      }
      k -= row.length;
    }
    return argument;
  }

  /** A random direction of the shape of {@code argument}. */
  public static Object shapedLike(Object argument, Random random) {
    if (argument instanceof Double) {
      return random.nextGaussian();
    }
    if (argument instanceof double[] a) {
      return random.doubles(a.length).toArray();
    }
    double[][] m = (double[][]) argument;
    double[][] direction = new double[m.length][];
    for (int i = 0; i < m.length; i++) {
      direction[i] = random.doubles(m[i].length).toArray();
    }
    return direction;
  }

  /** A copy whose arrays are copies, rows included. */
  public static Object[] deepCopy(Object[] arguments) {
    Object[] copy = arguments.clone();
    for (int i = 0; i < copy.length; i++) {
      if (copy[i] instanceof double[] a) {
        copy[i] = a.clone();
      } else if (copy[i] instanceof double[][] m) {
        copy[i] = Arrays.stream(m).map(double[]::clone).toArray(double[][]::new);
      }
    }
    return copy;
  }

  /** {@code arguments} followed by {@code more}. */
  public static Object[] append(Object[] arguments, Object... more) {
    Object[] all = Arrays.copyOf(arguments, arguments.length + more.length);
    System.arraycopy(more, 0, all, arguments.length, more.length);
    return all;
  }
}
