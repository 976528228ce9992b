package ad4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ad4j.spark.readme.SparkLogistic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;

/**
 * The user guide's "Running on Spark" snippet ({@code docs/guide/spark.md}) is {@link
 * SparkLogistic}, which this module compiles with the processor: the guide's block is in its
 * source line for line, and the snippet trains
 * on partitions to the weights that gradient descent on one machine reaches.
 */
class GuideExampleTest {
  private static final Path GUIDE = Path.of("..", "docs", "guide", "spark.md");
  private static final Path SOURCE =
      Path.of("src", "main", "java", "ad4j", "spark", "readme", "SparkLogistic.java");

  @Test
  void theReadmesSparkSnippetIsTheCompiledExample() throws IOException {
    String readme = Files.readString(GUIDE);
    int at = readme.indexOf("<!-- snippet: module=ad-spark -->");
    assertTrue(at >= 0, GUIDE + " has no <!-- snippet: module=ad-spark --> marker");
    Matcher fence = Pattern.compile("```java\\n(.*?)\\n```", Pattern.DOTALL).matcher(readme);
    assertTrue(fence.find(at), "no ```java block after the marker");
    List<String> snippet = List.of(fence.group(1).split("\n", -1));
    List<String> source = Files.readAllLines(SOURCE);
    assertTrue(snippet.size() > 20, "the snippet: " + snippet);
    if (Collections.indexOfSubList(source, snippet) < 0) {
      fail(SOURCE + " does not hold the guide's Spark snippet line for line; the snippet is:\n"
          + String.join("\n", snippet));
    }
  }

  @Test
  void theSnippetTrainsOnPartitionsToTheSingleMachineWeights() {
    SyntheticData.Logistic data = new SyntheticData.Logistic(99, 8, 2_000);
    JavaRDD<Block> cached = data.rdd(TestSpark.context(), 6, 3);
    JavaRDD<SparkLogistic.Rows> blocks =
        cached.map(block -> new SparkLogistic.Rows(block.x(), block.y()));
    Block all = data.all(6);

    double[] w = SparkLogistic.train(blocks, all.rows(), 2.0, 10);
    double[] single = Training.gradientDescent(all, new double[8], 2.0, 10, Training.SILENT);
    cached.unpersist(false);

    for (int j = 0; j < w.length; j++) {
      assertEquals(single[j], w[j], 1e-10, "w[" + j + "]");
    }
  }
}
