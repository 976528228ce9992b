package ad4j.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A Spark context in local mode, as the tests and the sample use it: {@code threads} executor
 * threads in this JVM, bound to the loopback address, without the web UI and the console
 * progress bar.
 */
public final class LocalSpark {
  private LocalSpark() {}

  /**
   * Starts a context; close it when done.
   *
   * @param threads the executor threads ({@code local[threads]})
   * @param appName the application's name
   * @return the context
   */
  public static JavaSparkContext start(int threads, String appName) {
    SparkConf conf = new SparkConf()
        .setMaster("local[" + threads + "]")
        .setAppName(appName)
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.ui.enabled", "false")
        .set("spark.ui.showConsoleProgress", "false");
    return new JavaSparkContext(conf);
  }
}
