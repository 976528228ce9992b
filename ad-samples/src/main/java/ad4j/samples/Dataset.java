package ad4j.samples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A labelled data set read from one of the CSV files shipped with the samples (see
 * {@code src/main/resources/ad4j/samples/data/README.md} for their origin and licence): a first
 * line {@code rows,features,class names...}, then per row the features and the class as an
 * integer.
 *
 * @param features one row per sample
 * @param classes the class of each sample, from 0
 * @param classNames the names of the classes, in the order of their numbers
 */
public record Dataset(double[][] features, int[] classes, String[] classNames) {
  /**
   * The Breast Cancer Wisconsin (Diagnostic) data: 569 samples, 30 features, classes 0 =
   * malignant and 1 = benign.
   *
   * @return the data as in the file
   */
  public static Dataset breastCancer() {
    return read("breast_cancer.csv");
  }

  /**
   * Fisher's iris data: 150 samples, 4 features, classes setosa, versicolor and virginica.
   *
   * @return the data as in the file
   */
  public static Dataset iris() {
    return read("iris.csv");
  }

  /**
   * Reads a data file from the samples' resources.
   *
   * @param name the file name in {@code ad4j/samples/data}
   * @return its contents
   */
  static Dataset read(String name) {
    try (InputStream in = Dataset.class.getResourceAsStream("data/" + name)) {
      if (in == null) {
        throw new IllegalStateException("resource ad4j/samples/data/" + name + " is missing");
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in,
          StandardCharsets.UTF_8));
      String[] header = reader.readLine().split(",");
      int rows = Integer.parseInt(header[0].trim());
      int columns = Integer.parseInt(header[1].trim());
      String[] classNames = Arrays.copyOfRange(header, 2, header.length);
      double[][] features = new double[rows][columns];
      int[] classes = new int[rows];
      for (int i = 0; i < rows; i++) {
        String[] fields = reader.readLine().split(",");
        if (fields.length != columns + 1) {
          throw new IllegalStateException(name + ": row " + (i + 1) + " has " + fields.length
              + " fields, expected " + (columns + 1));
        }
        for (int j = 0; j < columns; j++) {
          features[i][j] = Double.parseDouble(fields[j].trim());
        }
        classes[i] = Integer.parseInt(fields[columns].trim());
      }
      return new Dataset(features, classes, classNames);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The features shifted and scaled to mean 0 and standard deviation 1, column by column.
   *
   * @return a new matrix, one row per sample
   */
  public double[][] standardized() {
    int n = features.length;
    int d = features[0].length;
    double[][] z = new double[n][d];
    for (int j = 0; j < d; j++) {
      double mean = 0;
      for (double[] row : features) {
        mean += row[j];
      }
      mean /= n;
      double variance = 0;
      for (double[] row : features) {
        variance += (row[j] - mean) * (row[j] - mean);
      }
      double sd = Math.sqrt(variance / n);
      for (int i = 0; i < n; i++) {
        z[i][j] = sd > 0 ? (features[i][j] - mean) / sd : 0;
      }
    }
    return z;
  }

  /**
   * The classes as labels {@code -1} (class 0) and {@code +1} (any other class), for a binary
   * classifier.
   *
   * @return a new array
   */
  public double[] signLabels() {
    double[] y = new double[classes.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = classes[i] == 0 ? -1 : 1;
    }
    return y;
  }
}
