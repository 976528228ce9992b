package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.ControlFlowPrograms;
import ad4j.processor.testing.ControlFlowPrograms.Unit;
import ad4j.processor.testing.InProcessCompiler;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * The random control-flow programs of {@link ControlFlowProgramsPropertyTest} with every loop
 * body of the generated members cut into parts of three statements ({@code
 * -Aad4j.loopPartSize=3}; {@code transform/LoopBodies} cuts only long bodies otherwise): parts
 * with branches, breaks and returns left in the caller, loop counters, {@code int}s, arrays and
 * calls handed in and out must give the same values and derivatives, checked as there (values
 * bit for bit, the members against each other, the gradient against finite differences).
 */
class LoopBodiesPropertyTest {
  @Provide
  Arbitrary<List<Unit>> batches() {
    return ControlFlowPrograms.units(ControlFlowProgramsPropertyTest.POINTS).list()
        .ofSize(ControlFlowProgramsPropertyTest.BATCH);
  }

  @Property(tries = 10, shrinking = ShrinkingMode.BOUNDED)
  void cutLoopBodiesGiveTheSameDerivatives(@ForAll("batches") List<Unit> batch)
      throws java.io.IOException {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror", "-Aad4j.loopPartSize=3"), "com.example.Flows",
        ControlFlowPrograms.classSource(batch));
    String code = compiled.compilation().generatedSourceFile("com.example.FlowsGrad")
        .orElseThrow().getCharContent(true).toString();
    // ten units of loops, branches and calls: some loop body is cut
    assertThat(code).containsMatch("private static void \\w+Part1\\(");
    for (int i = 0; i < batch.size(); i++) {
      ControlFlowProgramsPropertyTest.checkUnit(compiled, batch.get(i), i);
    }
  }
}
