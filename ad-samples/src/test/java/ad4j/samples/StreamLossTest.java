package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import org.junit.jupiter.api.Test;

/**
 * The loss written with streams and its twin written as loops: both gradients against the
 * analytic one and against differences of the methods themselves, forward against reverse
 * mode, and the stream version's value bit for bit the method's.
 */
class StreamLossTest {
  private static final double[][] POINTS = {{0.7, 1.6, 0.1}, {-0.3, 2.4, 0.0}, {1.5, -0.8, 2.0}};

  @Test
  void bothGradientsMatchTheAnalyticOne() {
    for (double[] p : POINTS) {
      double[] exact = StreamLoss.exactGradient(p[0], p[1], StreamLoss.T, StreamLoss.Y, p[2]);
      double[] streams = StreamLossGrad.withStreamsGradient(p[0], p[1], StreamLoss.T,
          StreamLoss.Y, p[2]);
      double[] loops = StreamLossGrad.withLoopsGradient(p[0], p[1], StreamLoss.T, StreamLoss.Y,
          p[2]);
      for (int i = 0; i < 3; i++) {
        assertEquals(exact[i], streams[i], 1e-12);
        assertEquals(exact[i], loops[i], 1e-12);
      }
      GradientCheck.check(x -> StreamLoss.withStreams(x[0], x[1], StreamLoss.T, StreamLoss.Y,
          x[2]), p, streams).assertWithin(1e-8);
    }
  }

  @Test
  void forwardModeAgreesWithReverseModeAndTheValueIsTheStreams() {
    double[] g = new double[3];
    double value = StreamLossGrad.withStreamsValueAndGradient(0.7, 1.6, StreamLoss.T,
        StreamLoss.Y, 0.1, g);
    assertEquals(Double.doubleToRawLongBits(StreamLoss.withStreams(0.7, 1.6, StreamLoss.T,
        StreamLoss.Y, 0.1)), Double.doubleToRawLongBits(value));
    assertEquals(0.3 * g[0] - 0.7 * g[1] + 0.2 * g[2], StreamLossGrad.withStreamsTangent(0.7,
        1.6, StreamLoss.T, StreamLoss.Y, 0.1, 0.3, -0.7, 0.2), 1e-13);
  }
}
