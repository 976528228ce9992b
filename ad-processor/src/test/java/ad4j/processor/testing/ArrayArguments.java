package ad4j.processor.testing;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Arguments of methods with array parameters, as the tests of array functions handle them: in
 * the flat layout of gradients ({@code double}, {@code double[]}, {@code double[][]} row by
 * row, a value record's derivative-carrying components depth first), copied deeply before a
 * slot is moved, and random directions of the same shape.
 */
public final class ArrayArguments {
  private ArrayArguments() {}

  /**
   * The slots of a {@code Double}, {@code double[]}, {@code double[][]} or value record argument,
   * in order.
   */
  public static double[] flatten(Object argument) {
    if (argument instanceof Double d) {
      return new double[] {d};
    }
    if (argument instanceof Float f) {
      return new double[] {f};
    }
    if (argument instanceof Record record) {
      return components(record).stream()
          .filter(c -> carries(c.getType()))
          .flatMapToDouble(c -> Arrays.stream(flatten(read(c, record))))
          .toArray();
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
    if (argument instanceof Float) {
      return (float) value;
    }
    if (argument instanceof Record record) {
      // a new record made by its canonical constructor, its arrays copies
      List<Object> values = new ArrayList<>();
      for (RecordComponent component : components(record)) {
        Object held = copy(read(component, record));
        if (carries(component.getType())) {
          int slots = flatten(held).length;
          if (k >= 0 && k < slots) {
            held = withSlot(held, k, value);
          }
          k -= slots;
        }
        values.add(held);
      }
      return make(record.getClass(), values.toArray());
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
    if (argument instanceof Float) {
      return (float) random.nextGaussian();
    }
    if (argument instanceof Record record) {
      // the record of tangents: its components that carry no derivative as they are
      List<Object> values = new ArrayList<>();
      for (RecordComponent component : components(record)) {
        Object held = read(component, record);
        values.add(carries(component.getType()) ? shapedLike(held, random) : held);
      }
      return make(record.getClass(), values.toArray());
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
      copy[i] = copy(copy[i]);
    }
    return copy;
  }

  /**
   * {@code argument}, a copy if it is an array of numbers (each row of a matrix too), so that
   * what one call writes into it no other call sees; a record's arrays copied too.
   */
  private static Object copy(Object argument) {
    if (argument instanceof double[] a) {
      return a.clone();
    }
    if (argument instanceof double[][] m) {
      return Arrays.stream(m).map(double[]::clone).toArray(double[][]::new);
    }
    if (argument instanceof float[] a) {
      return a.clone();
    }
    if (argument instanceof int[] a) {
      return a.clone();
    }
    if (argument instanceof long[] a) {
      return a.clone();
    }
    if (argument instanceof boolean[] a) {
      return a.clone();
    }
    if (argument instanceof int[][] m) {
      return Arrays.stream(m).map(int[]::clone).toArray(int[][]::new);
    }
    if (argument instanceof Record record) {
      return make(record.getClass(),
          components(record).stream().map(c -> copy(read(c, record))).toArray());
    }
    return argument;
  }

  /** Whether a record component of this type carries derivatives (DESIGN.md, part 3). */
  private static boolean carries(Class<?> type) {
    return type == double.class || type == float.class || type == double[].class
        || type == double[][].class || type.isRecord();
  }

  private static List<RecordComponent> components(Record record) {
    return Arrays.asList(record.getClass().getRecordComponents());
  }

  private static Object read(RecordComponent component, Record record) {
    try {
      Method accessor = component.getAccessor();
      accessor.setAccessible(true);
      return accessor.invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static Object make(Class<?> type, Object... components) {
    try {
      return Records.make(type, components);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** {@code arguments} followed by {@code more}. */
  public static Object[] append(Object[] arguments, Object... more) {
    Object[] all = Arrays.copyOf(arguments, arguments.length + more.length);
    System.arraycopy(more, 0, all, arguments.length, more.length);
    return all;
  }
}
