package ad4j.processor.ir;

/**
 * {@code if (condition) thenBlock else elseBlock}. The condition is a {@code boolean} operand
 * computed by the instructions before this statement.
 */
public record If(int id, Operand condition, Block thenBlock, Block elseBlock, SourceLine line)
    implements Statement {}
