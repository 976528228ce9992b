package ad4j.processor.plan;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.emit.PrintedSize;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.methodsize.LongBlocks;
import ad4j.processor.testing.LoweredFunctions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The bound by which {@link MethodPlanner} leaves out a pullback's halves without cutting the
 * record half to measure it: the pushes that end the record half stay in it however it is
 * cut ({@link LongBlocks#pushesKeptAtEnd}), each at least {@link SizeLimits#MIN_BYTES_PER_PUSH}
 * bytes of the estimate, so a record half whose pushes alone pass the limit passes it cut. Were
 * the bound above a cut's estimate, the planner would leave out halves that fit.
 */
class RecordHalfBoundTest {
  private static final String SOURCE = """
      package com.example;

      import ad4j.Differentiable;

      public final class Chains {
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
        public static double looped(double x, double y, int n) {
          for (int i = 0; i < n; i++) {
            x = x * y + Math.sin(x);
          }
          if (x > 1) {
            y = Math.cos(x) * y;
          }
          return x * y;
        }
      }
      """.formatted("""
            x = x * a + Math.sin(y);
            y = Math.cos(x) * y - y * c;
      """.repeat(40));

  private static Map<String, Function> lowered;

  private static Map<String, Function> lowered() {
    if (lowered == null) {
      lowered = LoweredFunctions.of("com.example.Chains", SOURCE);
    }
    return lowered;
  }

  private static Function recordHalf(String method) {
    MethodPrograms programs = new MethodPrograms(lowered().get(method));
    Optional<Adjoint.Split> split = Adjoint.split(programs.pullbackSource(),
        programs.pullbackSourceFlow());
    assertWithMessage("%s has halves", method).that(split.isPresent()).isTrue();
    return split.get().record();
  }

  /** The pushes right before the final return, counted from the program itself. */
  private static int trailingPushes(Function program) {
    List<Statement> statements = program.body().statements();
    assertThat(statements.get(statements.size() - 1)).isInstanceOf(Return.class);
    int count = 0;
    for (int i = statements.size() - 2; i >= 0 && statements.get(i) instanceof Push; i--) {
      count++;
    }
    return count;
  }

  @Test
  void theRecordHalfOfLongBranchesKeepsEveryPushAndEveryCutPrintsAtLeastTheirBytes() {
    Function record = recordHalf("branches");
    MethodPrograms programs = new MethodPrograms(lowered().get("branches"));
    int pushes = LongBlocks.pushesKeptAtEnd(record);
    // the branches' values the reverse sweep reads: two per statement at least
    assertThat(pushes).isAtLeast(2 * 80);
    assertThat(pushes).isEqualTo(trailingPushes(record));
    int bound = pushes * SizeLimits.MIN_BYTES_PER_PUSH;
    assertThat(PrintedSize.ofBody(record, programs.names())).isAtLeast(bound);
    for (int size : new int[] {3, 10, 40, 160, 640}) {
      Optional<LongBlocks.Cut> cut = LongBlocks.of(record, "branchesRecordPart", size);
      assertWithMessage("parts of %s", size).that(cut.isPresent()).isTrue();
      Function member = cut.get().program();
      assertWithMessage("pushes kept, parts of %s", size).that(trailingPushes(member))
          .isAtLeast(pushes);
      assertWithMessage("the member cut into parts of %s", size)
          .that(PrintedSize.ofBody(member, programs.names())).isAtLeast(bound);
    }
  }

  @Test
  void aRecordHalfThatUsesTheTapeBeforeItsEndKeepsNoPushForCertain() {
    // the loop records its iterations on the tape: parts may take the final pushes along
    Function record = recordHalf("looped");
    assertThat(trailingPushes(record)).isGreaterThan(0);
    assertThat(LongBlocks.pushesKeptAtEnd(record)).isEqualTo(0);
  }
}
