package ad4j.spark;

import org.apache.spark.api.java.JavaSparkContext;

/**
 * One Spark context in local mode ({@code local[2]}) for all test classes of this JVM: started
 * at the first use, stopped when the JVM ends. Starting a context costs seconds; the tests
 * share one.
 */
final class TestSpark {
  private static JavaSparkContext context;

  private TestSpark() {}

  static synchronized JavaSparkContext context() {
    if (context == null) {
      JavaSparkContext started = LocalSpark.start(2, "ad-spark tests");
      Runtime.getRuntime().addShutdownHook(new Thread(started::close));
      context = started;
    }
    return context;
  }
}
