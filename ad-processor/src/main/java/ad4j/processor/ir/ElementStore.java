package ad4j.processor.ir;

/**
 * {@code array[index] = value}, or {@code array[index] += value} when {@code add}: a write into
 * an array the caller passed, such as the gradient a method fills.
 *
 * @param array a parameter of type {@code double[]}
 */
public record ElementStore(Value array, int index, Operand value, boolean add, SourceLine line)
    implements Statement {}
