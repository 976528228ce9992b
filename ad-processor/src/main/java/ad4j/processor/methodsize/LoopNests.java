package ad4j.processor.methodsize;

import static ad4j.processor.analysis.StatementFacts.movable;
import static ad4j.processor.analysis.StatementFacts.size;
import static ad4j.processor.analysis.StatementFacts.usesTape;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The speed policy of {@link LongBlocks#loopNestsOf}: each big loop nest of a program that
 * records on the tape gets a method of its own, though the program fits one, because HotSpot
 * then compiles each nest apart. Apart from {@link LongRuns}, which cuts what does not fit,
 * because this is a measured choice about speed, not a limit; both move statements with {@link
 * Outliner}.
 */
final class LoopNests {
  /**
   * Statements, nested ones counted, from which a loop nest gets a method of its own ({@link
   * #isLoopNest}): at about 12 bytes of bytecode per statement, past the 325 bytes up to which
   * HotSpot inlines a hot call, so that the nest's method is compiled apart, not inlined back.
   */
  private static final int NEST_SIZE = 40;

  private LoopNests() {}

  /** See {@link LongBlocks#loopNestsOf}. */
  static Optional<LongBlocks.Cut> of(Function program, String namePrefix) {
    List<Statement> statements = program.body().statements();
    if (!usesTape(statements)
        || statements.stream().filter(LoopNests::isLoopNest).count() < 2) {
      return Optional.empty();
    }
    Outliner cut = new Outliner(program, namePrefix);
    List<Statement> apart = new ArrayList<>();
    for (Statement statement : statements) {
      if (isLoopNest(statement) && movable(statement, Set.of())) {
        // the counter's declaration goes with its loop, which the part then writes as a for
        List<Statement> nest = new ArrayList<>(List.of(statement));
        if (!apart.isEmpty() && apart.get(apart.size() - 1) instanceof Declare counter
            && stepsCounter((Loop) statement, counter.variable())) {
          nest.add(0, apart.remove(apart.size() - 1));
        }
        apart.addAll(cut.outline(nest, false));
      } else {
        apart.add(statement);
      }
    }
    if (cut.parts().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new LongBlocks.Cut(program.with(program.parameters(),
        new Block(apart)), cut.parts()));
  }

  /** Whether the loop's update ends by storing into {@code counter}. */
  private static boolean stepsCounter(Loop loop, Variable counter) {
    List<Statement> update = loop.update().statements();
    return !update.isEmpty() && update.get(update.size() - 1) instanceof Store store
        && store.variable() == counter;
  }

  /**
   * Whether the statement is a loop that holds a loop, at any depth of its body, and has at
   * least {@link #NEST_SIZE} statements.
   */
  private static boolean isLoopNest(Statement statement) {
    return statement instanceof Loop loop && holdsLoop(loop.body().statements())
        && size(List.of(statement)) >= NEST_SIZE;
  }

  private static boolean holdsLoop(List<Statement> statements) {
    return statements.stream().anyMatch(s -> s instanceof Loop
        || s.nestedBlocks().stream().anyMatch(b -> holdsLoop(b.statements())));
  }
}
