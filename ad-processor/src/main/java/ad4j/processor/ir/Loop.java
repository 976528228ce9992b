package ad4j.processor.ir;

/**
 * A loop: {@code while}, {@code do} and {@code for} all become this. Each iteration evaluates
 * {@code condition} (instructions ending in the boolean {@code test}; before the body, or after
 * it for {@code do}), runs {@code body}, then {@code update}. {@code break} and {@code continue}
 * in the body are {@link Jump}s naming this loop's id.
 *
 * @param id a number unique within the method
 * @param condition instructions computing {@code test}; empty when there is no test
 * @param test the loop continues while this is true; null for {@code for (;;)}
 * @param testFirst false for {@code do ... while}
 * @param body the statements of one iteration
 * @param update a {@code for} loop's update statements, run after the body and on continue
 */
public record Loop(int id, Block condition, Operand test, boolean testFirst, Block body,
    Block update, SourceLine line) implements Statement {}
