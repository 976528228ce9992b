package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shipped data sets, and training with the generated gradients on them. */
class TrainingTest {

  @Test
  void theDataSetsHaveTheirDocumentedShapeAndClasses() {
    Dataset cancer = Dataset.breastCancer();
    assertEquals(569, cancer.features().length);
    assertEquals(30, cancer.features()[0].length);
    assertEquals(212, count(cancer.classes(), 0)); // malignant
    assertEquals(357, count(cancer.classes(), 1)); // benign
    assertEquals("malignant", cancer.classNames()[0]);

    Dataset iris = Dataset.iris();
    assertEquals(150, iris.features().length);
    assertEquals(4, iris.features()[0].length);
    for (int c = 0; c < 3; c++) {
      assertEquals(50, count(iris.classes(), c));
    }
    // Fisher's first sample
    assertEquals(List.of(5.1, 3.5, 1.4, 0.2), List.of(iris.features()[0][0],
        iris.features()[0][1], iris.features()[0][2], iris.features()[0][3]));
  }

  @Test
  void standardizedColumnsHaveMeanZeroAndUnitDeviation() {
    double[][] z = Dataset.breastCancer().standardized();
    for (int j = 0; j < z[0].length; j++) {
      double mean = 0;
      double square = 0;
      for (double[] row : z) {
        mean += row[j];
        square += row[j] * row[j];
      }
      assertEquals(0, mean / z.length, 1e-12);
      assertEquals(1, square / z.length, 1e-12);
    }
  }

  @Test
  void logisticRegressionLossFallsAtEveryStepAndFitsTheTrainingData() {
    Dataset data = Dataset.breastCancer();
    double[][] x = data.standardized();
    double[] y = data.signLabels();
    List<Double> losses = new ArrayList<>();

    double[] theta = LogisticRegression.train(x, y, 100, (step, loss) -> losses.add(loss));

    assertEquals(Math.log(2), losses.get(0), 1e-13); // zero weights: log(1 + e^0)
    for (int i = 1; i < losses.size(); i++) {
      assertTrue(losses.get(i) < losses.get(i - 1), "step " + i + ": " + losses);
    }
    assertEquals(losses.get(100), LogisticRegression.loss(java.util.Arrays.copyOf(theta, 30),
        theta[30], x, y), 0.0);
    assertTrue(losses.get(100) < 0.1, losses.toString());
    double accuracy = LogisticRegression.accuracy(java.util.Arrays.copyOf(theta, 30), theta[30],
        x, y);
    assertTrue(accuracy >= 0.95, "accuracy " + accuracy);
  }

  @Test
  void softmaxRegressionLossFallsAtEveryStepAndFitsTheTrainingData() {
    Dataset data = Dataset.iris();
    double[][] x = data.standardized();
    List<Double> losses = new ArrayList<>();

    double[][] trained = SoftmaxRegression.train(x, data.classes(), 3, 200,
        (step, loss) -> losses.add(loss));

    assertEquals(Math.log(3), losses.get(0), 1e-13); // zero weights: uniform over 3 classes
    for (int i = 1; i < losses.size(); i++) {
      assertTrue(losses.get(i) < losses.get(i - 1), "step " + i + ": " + losses);
    }
    double[][] w = java.util.Arrays.copyOf(trained, 3);
    assertEquals(losses.get(200), SoftmaxRegression.loss(w, trained[3], x, data.classes()), 0.0);
    double accuracy = SoftmaxRegression.accuracy(w, trained[3], x, data.classes());
    assertTrue(accuracy >= 0.9, "accuracy " + accuracy);
  }

  private static int count(int[] values, int value) {
    int n = 0;
    for (int v : values) {
      if (v == value) {
        n++;
      }
    }
    return n;
  }
}
