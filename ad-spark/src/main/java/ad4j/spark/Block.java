package ad4j.spark;

import java.io.Serializable;

/**
 * A block of labelled rows, the unit that a partition hands to a generated gradient: the
 * features {@code x} (one row per sample) and the labels {@code y}. A cached RDD of blocks keeps
 * the arrays as they are, so that a gradient over a block reads them in place.
 *
 * @param x the features, one row per sample
 * @param y the labels, one per row
 */
public record Block(double[][] x, double[] y) implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * The number of rows.
   *
   * @return {@code x.length}
   */
  public int rows() {
    return x.length;
  }
}
