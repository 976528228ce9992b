package ad4j.processor.ir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates the values and variables of one method being lowered and collects its statements into
 * nested blocks: {@link #openBlock()} starts collecting a branch or loop body, and
 * {@link #closeBlock()} returns it.
 */
public final class IrBuilder {
  private final Deque<List<Statement>> blocks = new ArrayDeque<>();
  /**
   * Per open block, the value each variable was last read into, while no store has changed
   * it: {@code a * x - b * x} reads {@code x} once, which saves a copy and, inside loops, a
   * value on the tape. Forgotten at a store to the variable and after any nested branch or loop.
   */
  private final Deque<Map<Variable, Value>> reads = new ArrayDeque<>();
  private int nextId;
  private int nextStatementId;

  public IrBuilder() {
    this(0);
  }

  /**
   * A builder whose values and variables are numbered from {@code firstId}: transforms pass the
   * next id of the function they transform, so that old and new values never share a number.
   */
  public IrBuilder(int firstId) {
    this.nextId = firstId;
    blocks.push(new ArrayList<>());
    reads.push(new HashMap<>());
  }

  /** The value {@code variable} was read into earlier in this block, if still current. */
  public Value lastRead(Variable variable) {
    return reads.peek().get(variable);
  }

  public void rememberRead(Variable variable, Value value) {
    reads.peek().put(variable, value);
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

  /** A subexpression of a derivative formula, used once and printed inline. */
  public Value formula(NumericType type, boolean active) {
    return Value.formula(nextId++, type, active);
  }

  /**
   * A value named after {@code base} with {@code suffix}: what a transform keeps for it (its
   * slot, its length, a copy).
   */
  public Value derived(Value base, String suffix, NumericType type) {
    return Value.derived(nextId++, base, suffix, type);
  }

  /** The tangent or the adjoint of {@code base}, a value named after it. */
  public Value derived(Value base, Derivative role, NumericType type) {
    return Value.derivative(nextId++, base, role, role.suffix(), type);
  }

  /**
   * The copy of the tangent or adjoint of {@code base} that lane {@code lane} (from 0) of a
   * vector-mode sweep carries, named after it with the lane's number ({@code xDot2}).
   */
  public Value laneDerivative(Value base, Derivative role, int lane, NumericType type) {
    return Value.derivative(nextId++, base, role,
        role.suffix() + (lane == 0 ? "" : Integer.toString(lane + 1)), type);
  }

  /**
   * The tangent or the adjoint of the variable {@code base}, a variable named after it;
   * {@code parameter}, when not null, is the parameter it stands for (the tangent of a
   * parameter assigned in a loop).
   */
  public Variable derived(Variable base, Derivative role, NumericType type, Value parameter) {
    return new Variable(nextId++, role.suffix(), type, parameter, base, true, role);
  }

  /** A variable named after the value {@code base} with {@code suffix}. */
  public Variable derivedVariable(Value base, String suffix, NumericType type) {
    return new Variable(nextId++, suffix, type, null, base, true, null);
  }

  /** The tangent or the adjoint of the value {@code base}, a variable named after it. */
  public Variable derivedVariable(Value base, Derivative role, NumericType type) {
    return new Variable(nextId++, role.suffix(), type, null, base, true, role);
  }

  /** A variable of a transform's own, named {@code hint} unless the user took that name. */
  public Variable generatedVariable(String hint, NumericType type) {
    return new Variable(nextId++, hint, type, null, null, true, null);
  }

  /** A value of a transform's own, such as a parameter it adds. */
  public Value generated(String hint, NumericType type, boolean active) {
    return Value.generated(nextId++, hint, type, active);
  }

  /**
   * A new value like {@code value}, arrays whose elements carry derivatives included, for an
   * instruction that computes it again.
   */
  public Value again(Value value) {
    return Value.likeOf(nextId++, value);
  }

  /**
   * A new value like {@code value}, for a copy of the statement that defines it: an array whose
   * elements carry derivatives stays one ({@link Value#isActive} is false for arrays).
   */
  public Value copyOf(Value value) {
    return Value.computed(nextId++, value.origin(), value.nameHint(), value.type(),
        value.isActive() || value.isActiveArray());
  }

  /**
   * A new variable like {@code variable}, for a copy of the statements that declare it: named
   * after the same base ({@code tBar}), in the same role.
   */
  public Variable copyOf(Variable variable) {
    return new Variable(nextId++, variable.name(), variable.type(), variable.parameter(),
        variable.base(), variable.isGenerated(), variable.role());
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
    if (statement instanceof Store store) {
      reads.peek().remove(store.variable());
    } else if (statement instanceof Declare declare) {
      reads.peek().remove(declare.variable());
    } else if (statement instanceof If || statement instanceof Loop) {
      reads.peek().clear();
    }
  }

  /** The number of statements in the block being collected. */
  public int size() {
    return blocks.peek().size();
  }

  /** A statement of the block being collected. */
  public Statement statementAt(int index) {
    return blocks.peek().get(index);
  }

  /**
   * Replaces a statement of the block being collected by one with the same effect on what
   * earlier reads hold: a branch completed once more is known (a switch expression's case,
   * once the expression's type is).
   */
  public void replace(int index, Statement statement) {
    blocks.peek().set(index, statement);
  }

  /** Inserts a declaration into the block being collected, before the statement at index. */
  public void insertAt(int index, Declare declaration) {
    blocks.peek().add(index, declaration);
  }

  /** How many blocks are open: 1 while the method's top-level statements are collected. */
  public int depth() {
    return blocks.size();
  }

  /**
   * Appends {@code statement} to the open block at {@code depth} ({@link #depth}), whose end is
   * where the nested blocks being collected will stand: a declaration they all follow.
   */
  public void addAtDepth(int depth, Statement statement) {
    if (depth == blocks.size()) {
      add(statement);
      return;
    }
    int fromTop = blocks.size() - depth;
    java.util.Iterator<List<Statement>> open = blocks.iterator();
    java.util.Iterator<Map<Variable, Value>> openReads = reads.iterator();
    for (int i = 0; i < fromTop; i++) {
      open.next();
      openReads.next();
    }
    open.next().add(statement);
    if (statement instanceof Declare declare) {
      openReads.next().remove(declare.variable());
    }
  }

  public void openBlock() {
    blocks.push(new ArrayList<>());
    reads.push(new HashMap<>());
  }

  public Block closeBlock() {
    reads.pop();
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
