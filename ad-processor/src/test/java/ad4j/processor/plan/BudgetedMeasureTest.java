package ad4j.processor.plan;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.emit.PrintedSize;
import ad4j.processor.ir.Function;
import ad4j.processor.methodsize.LongBlocks;
import ad4j.processor.testing.LoweredFunctions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link PrintedSize#bodyFits}, which stops printing a program once its estimate passes the
 * limit, answers as {@link PrintedSize#ofBody} compared with the limit, at every limit around
 * the program's own estimate: the planner decides by it whether a program is cut, so an answer
 * that differed would change the generated code.
 */
class BudgetedMeasureTest {
  private static final String SOURCE = """
      package com.example;

      import ad4j.Differentiable;

      public final class Shapes {
        @Differentiable
        public static double branches(double x, double y, double a, double c) {
          if (c < 0.25) {
      %1$s
          } else if (c < 0.5) {
      %1$s
          } else {
      %1$s
          }
          return x + y;
        }

        @Differentiable
        public static double looped(double x, double[] y, int n) {
          double s = 0;
          for (int i = 0; i < n; i++) {
            x = x * y[i %% y.length] + Math.sin(x);
            for (int j = 0; j < i; j++) {
              s += Math.exp(-x * j) * y[j %% y.length];
            }
          }
          if (x > 1) {
            s = Math.cos(x) * s;
          }
          return x * s;
        }

        @Differentiable
        public static double straight(double x, double y) {
          double u = x * y + Math.log(x * x + 1);
          double v = Math.atan2(u, y) * Math.sqrt(u * u + y * y);
          return u * v - Math.pow(v, 3) / (1 + x * x);
        }
      }
      """.formatted("""
            x = x * a + Math.sin(y);
            y = Math.cos(x) * y - y * c;
      """.repeat(30));

  /** The programs of {@code method} the planner measures: its sweeps, halves and cuts. */
  private static List<Function> programsOf(Function function, MethodPrograms programs) {
    List<Function> measured = new ArrayList<>();
    measured.add(function);
    Segmentation.Whole whole = new Segmentation.Whole(programs);
    measured.add(whole.tangent());
    measured.add(whole.reverse(Adjoint.Output.GRADIENT));
    measured.add(whole.reverse(Adjoint.Output.PULLBACK));
    measured.add(function.hasActiveArrays()
        ? Adjoint.withSplitCalls(programs.perParameter(), programs.perParameterFlow(),
            Adjoint.Output.TAPE)
        : whole.reverse(Adjoint.Output.TAPE));
    Adjoint.split(programs.pullbackSource(), programs.pullbackSourceFlow()).ifPresent(split -> {
      measured.add(split.record());
      measured.add(split.replay());
    });
    for (Function program : List.copyOf(measured)) {
      for (int size : new int[] {3, 40}) {
        LongBlocks.of(program, "part", size).ifPresent(cut -> {
          measured.add(cut.program());
          cut.parts().forEach(part -> measured.add(part.program()));
        });
      }
    }
    return measured;
  }

  @Test
  void answersAsTheWholeEstimateAtEveryLimitAroundIt() {
    Map<String, Function> lowered = LoweredFunctions.of("com.example.Shapes", SOURCE);
    int checked = 0;
    for (String method : List.of("branches", "looped", "straight")) {
      MethodPrograms programs = new MethodPrograms(lowered.get(method));
      List<Function> measured = programsOf(lowered.get(method), programs);
      for (int i = 0; i < measured.size(); i++) {
        Function program = measured.get(i);
        int bytes = PrintedSize.ofBody(program, programs.names());
        for (int limit : new int[] {0, 1, bytes / 3, bytes - 1, bytes, bytes + 1, 2 * bytes}) {
          assertWithMessage("%s, program %s of %s bytes, limit %s", method, i, bytes, limit)
              .that(PrintedSize.bodyFits(program, programs.names(), limit))
              .isEqualTo(bytes <= limit);
          checked++;
        }
      }
    }
    // the three methods give dozens of programs: sweeps, halves, cuts and their parts
    assertWithMessage("limits checked").that(checked).isAtLeast(7 * 60);
  }
}
