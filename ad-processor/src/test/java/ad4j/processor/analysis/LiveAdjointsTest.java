package ad4j.processor.analysis;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.testing.IrInterpreter;
import ad4j.processor.testing.LoweredFunctions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dead-adjoint elimination: a value that depends on a parameter but whose uses pass no
 * derivative on (here: it is only compared) gets no adjoint and no reverse code, while the
 * gradient stays right.
 */
class LiveAdjointsTest {
  private static final String SOURCE = """
      package com.example;

      import ad4j.Differentiable;

      final class Functions {
        @Differentiable
        static double f(double x, double y) {
          double d = x * y;
          boolean big = d > 1;
          double s = Math.sin(x);
          return big ? s : y;
        }
      }
      """;

  @Test
  void aValueOnlyComparedHasADeadAdjointAndNoReverseCode() {
    Function f = LoweredFunctions.of("com.example.Functions", SOURCE).get("f");
    Value d = local(f, "d");
    Value s = local(f, "s");
    assertThat(d.isActive()).isTrue();

    LiveAdjoints live = new LiveAdjoints(f, new FlowAnalysis(f), List.of());
    assertThat(live.isLive(d)).isFalse();
    assertThat(live.isLive(s)).isTrue();
    assertThat(live.isLive(f.parameters().get(0))).isTrue();

    Function gradientProgram = Adjoint.of(f, Adjoint.Output.GRADIENT);
    assertThat(adjointsIn(gradientProgram.body(), d)).isEqualTo(0);
    assertThat(adjointsIn(gradientProgram.body(), s)).isGreaterThan(0);

    // and the gradient is still the analytic one: sin(x) where x y > 1, else y
    double[] gradient = new double[2];
    IrInterpreter.run(gradientProgram, 2.0, 1.0, gradient);
    assertThat(gradient[0]).isWithin(1e-15).of(Math.cos(2.0));
    assertThat(gradient[1]).isEqualTo(0.0);
    IrInterpreter.run(gradientProgram, 0.5, 1.0, gradient);
    assertThat(gradient[0]).isEqualTo(0.0);
    assertThat(gradient[1]).isEqualTo(1.0);
  }

  /** The value the local {@code name} holds. */
  private static Value local(Function f, String name) {
    for (Statement statement : f.body().statements()) {
      if (statement instanceof Instruction instruction
          && instruction.result().nameHint().equals(name)) {
        return instruction.result();
      }
    }
    throw new AssertionError("no local " + name);
  }

  /** How many statements of {@code block} define something named after {@code value}. */
  private static int adjointsIn(Block block, Value value) {
    int count = 0;
    for (Statement statement : block.statements()) {
      if (statement instanceof Declare declare && declare.variable().base() == value
          || statement instanceof Instruction instruction && instruction.result().base() == value) {
        count++;
      }
    }
    return count;
  }
}
