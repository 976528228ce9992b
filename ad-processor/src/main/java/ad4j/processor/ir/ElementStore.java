package ad4j.processor.ir;

/**
 * {@code array[index] = value}, or {@code array[index] += value} when {@code add}: a write into
 * an array the caller passed, such as the gradient a method fills.
 *
 * @param array a parameter of type {@code double[]}
 * @param index an {@code int}: a constant slot, or one computed at run time (arrays' slots)
 */
public record ElementStore(Value array, Operand index, Operand value, boolean add,
    SourceLine line) implements Statement {
  /** A store at a slot known when the code is generated. */
  public ElementStore(Value array, int index, Operand value, boolean add, SourceLine line) {
    this(array, Operand.Constant.of(index), value, add, line);
  }
}
