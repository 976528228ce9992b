package ad4j.runtime.internal;

/**
 * Reads of arrays that generated code makes only for where they may throw. A member of a
 * generated class reads an element, or an array's length, wherever the user's method does, so
 * that it throws the same {@code ArrayIndexOutOfBoundsException} or {@code NullPointerException}
 * at the same point, even where it needs no value read there (a forward sweep whose reverse
 * reads the element again). Java has no statement that only reads an element, and a local that
 * nothing reads is one compilers warn of: generated code calls these and drops what they return.
 * The JIT inlines them to the read itself, with its checks. There is one for each kind of
 * Java array.
 *
 * <p>This class is public because generated code calls it; it is not meant for direct use.
 */
public final class ArrayReads {
  private ArrayReads() {}

  /**
   * Reads {@code array[index]}.
   *
   * @param array the array the user's method reads
   * @param index the index it reads at
   * @return the element
   */
  public static double element(double[] array, int index) {
    return array[index];
  }

  /**
   * Reads {@code array[index]}.
   *
   * @param array the array the user's method reads
   * @param index the index it reads at
   * @return the element
   */
  public static float element(float[] array, int index) {
    return array[index];
  }

  /**
   * Reads {@code array[index]}.
   *
   * @param array the array the user's method reads
   * @param index the index it reads at
   * @return the element
   */
  public static int element(int[] array, int index) {
    return array[index];
  }

  /**
   * Reads {@code array[index]}.
   *
   * @param array the array the user's method reads
   * @param index the index it reads at
   * @return the element
   */
  public static long element(long[] array, int index) {
    return array[index];
  }

  /**
   * Reads {@code array[index]}.
   *
   * @param array the array the user's method reads
   * @param index the index it reads at
   * @return the element
   */
  public static short element(short[] array, int index) {
    return array[index];
  }

  /**
   * Reads {@code array[index]}.
   *
   * @param array the array the user's method reads
   * @param index the index it reads at
   * @return the element
   */
  public static byte element(byte[] array, int index) {
    return array[index];
  }

  /**
   * Reads {@code array[index]}.
   *
   * @param array the array the user's method reads
   * @param index the index it reads at
   * @return the element
   */
  public static char element(char[] array, int index) {
    return array[index];
  }

  /**
   * Reads {@code array[index]}.
   *
   * @param array the array the user's method reads
   * @param index the index it reads at
   * @return the element
   */
  public static boolean element(boolean[] array, int index) {
    return array[index];
  }

  /**
   * Reads {@code array[index]}: a row of a matrix, or an object.
   *
   * @param array the array the user's method reads
   * @param index the index it reads at
   * @return the element
   */
  public static Object element(Object[] array, int index) {
    return array[index];
  }

  /**
   * Reads {@code array.length}.
   *
   * @param array the array the user's method reads
   * @return its length
   */
  public static int length(double[] array) {
    return array.length;
  }

  /**
   * Reads {@code array.length}.
   *
   * @param array the array the user's method reads
   * @return its length
   */
  public static int length(float[] array) {
    return array.length;
  }

  /**
   * Reads {@code array.length}.
   *
   * @param array the array the user's method reads
   * @return its length
   */
  public static int length(int[] array) {
    return array.length;
  }

  /**
   * Reads {@code array.length}.
   *
   * @param array the array the user's method reads
   * @return its length
   */
  public static int length(long[] array) {
    return array.length;
  }

  /**
   * Reads {@code array.length}.
   *
   * @param array the array the user's method reads
   * @return its length
   */
  public static int length(short[] array) {
    return array.length;
  }

  /**
   * Reads {@code array.length}.
   *
   * @param array the array the user's method reads
   * @return its length
   */
  public static int length(byte[] array) {
    return array.length;
  }

  /**
   * Reads {@code array.length}.
   *
   * @param array the array the user's method reads
   * @return its length
   */
  public static int length(char[] array) {
    return array.length;
  }

  /**
   * Reads {@code array.length}.
   *
   * @param array the array the user's method reads
   * @return its length
   */
  public static int length(boolean[] array) {
    return array.length;
  }

  /**
   * Reads {@code array.length}: of a matrix, or of an array of objects.
   *
   * @param array the array the user's method reads
   * @return its length
   */
  public static int length(Object[] array) {
    return array.length;
  }
}
