package ad4j.processor.ir;

import java.util.ArrayList;
import java.util.List;

/** Creates the values and collects the statements of one method being lowered. */
public final class IrBuilder {
  private final List<Statement> statements = new ArrayList<>();
  private int nextId;

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

  /** The id the next value will get: values with this id or above are newer. */
  public int nextValueId() {
    return nextId;
  }

  public void add(Statement statement) {
    statements.add(statement);
  }

  public List<Statement> statements() {
    return List.copyOf(statements);
  }
}
