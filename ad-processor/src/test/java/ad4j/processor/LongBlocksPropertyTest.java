package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.ControlFlowPrograms;
import ad4j.processor.testing.ControlFlowPrograms.Unit;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.PropertySeeds;
import ad4j.processor.testing.RandomPrograms;
import ad4j.processor.testing.RandomPrograms.Program;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The random programs of {@link ControlFlowProgramsPropertyTest} and of
 * {@link RandomProgramsPropertyTest} with every block of the generated members (the method's
 * own, branches, loop bodies) cut into parts of three statements ({@code -Aad4j.partSize=3};
 * {@code transform/LongBlocks} cuts only long blocks otherwise): parts with branches, breaks
 * and returns left in the caller, loop counters, {@code int}s, arrays and calls handed in and
 * out must give the same values and derivatives, checked as there (values bit for bit, the
 * members against each other, the gradient against finite differences).
 */
class LongBlocksPropertyTest {
  @Provide
  Arbitrary<List<Unit>> batches() {
    return ControlFlowPrograms.units(ControlFlowProgramsPropertyTest.POINTS).list()
        .ofSize(ControlFlowProgramsPropertyTest.BATCH);
  }

  @Provide
  Arbitrary<List<Program>> straightLineBatches() {
    return RandomPrograms.programs(RandomProgramsPropertyTest.POINTS).list()
        .ofSize(RandomProgramsPropertyTest.BATCH);
  }

  @Property(tries = 10, shrinking = ShrinkingMode.BOUNDED)
  @AddLifecycleHook(PropertySeeds.Hook.class)
  void cutStraightLineProgramsGiveTheSameDerivatives(
      @ForAll("straightLineBatches") List<Program> batch) throws java.io.IOException {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=3"), "com.example.Programs",
        RandomPrograms.classSource(batch));
    String code = compiled.compilation().generatedSourceFile("com.example.ProgramsGrad")
        .orElseThrow().getCharContent(true).toString();
    // twenty methods of up to a few dozen statements: some member is cut
    assertThat(code).containsMatch("private static void \\w+Part1\\(");
    for (int i = 0; i < batch.size(); i++) {
      Program program = batch.get(i);
      CompiledFunction f = compiled.function("com.example.Programs", "m" + i, program.arity());
      RandomPrograms.Compiled interpreter = RandomPrograms.compile(program, "m" + i);
      for (double[] x : program.pointList().subList(0, RandomProgramsPropertyTest.POINTS)) {
        RandomProgramsPropertyTest.checkAt(f, interpreter, x);
      }
    }
  }

  @Property(tries = 10, shrinking = ShrinkingMode.BOUNDED)
  @AddLifecycleHook(PropertySeeds.Hook.class)
  void cutControlFlowProgramsGiveTheSameDerivatives(@ForAll("batches") List<Unit> batch)
      throws java.io.IOException {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=3"), "com.example.Flows",
        ControlFlowPrograms.classSource(batch));
    String code = compiled.compilation().generatedSourceFile("com.example.FlowsGrad")
        .orElseThrow().getCharContent(true).toString();
    // ten units of loops, branches and calls: some loop body is cut
    assertThat(code).containsMatch("private static void \\w+Part1\\(");
    for (int i = 0; i < batch.size(); i++) {
      ControlFlowProgramsPropertyTest.checkUnit(compiled, batch.get(i), i, true);
    }
  }
}
