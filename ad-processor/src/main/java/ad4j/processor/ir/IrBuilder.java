package ad4j.processor.ir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Creates the values and variables of one method being lowered and collects its statements into
 * nested blocks: {@link #openBlock()} starts collecting a branch or loop body, and
 * {@link #closeBlock()} returns it.
 */
public final class IrBuilder {
  private final Deque<List<Statement>> blocks = new ArrayDeque<>();
  private int nextId;
  private int nextStatementId;

  public IrBuilder() {
    blocks.push(new ArrayList<>());
  }

  public Value parameter(String name, NumericType type, boolean active, int index) {
    return Value.parameter(nextId++, name, type, active, index);
  }

  /** A new version of the local {@code name}. */
  public Value local(String name, NumericType type, boolean active) {
    return Value.computed(nextId++, Value.Origin.LOCAL, name, type, active);
  }

  /** A value for a subexpression; it may later take the name of the local it is assigned to. */
  public Value temporary(NumericType type, boolean active) {
    return Value.computed(nextId++, Value.Origin.TEMPORARY, "t", type, active);
  }

  /** A mutable variable; {@code parameter} is the parameter it stands for, or null. */
  public Variable variable(String name, NumericType type, Value parameter) {
    return new Variable(nextId++, name, type, parameter);
  }

  /** The id the next value will get: values with this id or above are newer. */
  public int nextValueId() {
    return nextId;
  }

  /** A number for a branch or loop, unique within the method. */
  public int nextStatementId() {
    return ++nextStatementId;
  }

  public void add(Statement statement) {
    blocks.peek().add(statement);
  }

  public void openBlock() {
    blocks.push(new ArrayList<>());
  }

  public Block closeBlock() {
    return new Block(blocks.pop());
  }

  /** The method's top-level statements. */
  public Block body() {
    if (blocks.size() != 1) {
      throw new IllegalStateException("unclosed blocks: " + (blocks.size() - 1));
    }
    return new Block(blocks.peek());
  }
}
