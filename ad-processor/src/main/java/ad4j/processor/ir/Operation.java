package ad4j.processor.ir;

import java.util.Objects;

/**
 * What an instruction computes: an arithmetic operator, a call of a {@code Math} or
 * {@code StrictMath} function, or a copy of a constant into a local.
 */
public final class Operation {
  /** How the operation is written in Java. */
  public enum Form {
    /** {@code a op b}. */
    INFIX,
    /** {@code -a}. */
    PREFIX,
    /** {@code Owner.name(a, ...)}. */
    CALL,
    /** {@code a}: a local initialised from a constant. */
    COPY
  }

  public static final Operation ADD = new Operation(Form.INFIX, "+", 2, null);
  public static final Operation SUBTRACT = new Operation(Form.INFIX, "-", 2, null);
  public static final Operation MULTIPLY = new Operation(Form.INFIX, "*", 2, null);
  public static final Operation DIVIDE = new Operation(Form.INFIX, "/", 2, null);
  public static final Operation REMAINDER = new Operation(Form.INFIX, "%", 2, null);
  public static final Operation NEGATE = new Operation(Form.PREFIX, "-", 1, null);
  public static final Operation COPY = new Operation(Form.COPY, "copy", 1, null);

  private final Form form;
  private final String name;
  private final int arity;
  private final MathOwner owner;

  private Operation(Form form, String name, int arity, MathOwner owner) {
    this.form = form;
    this.name = name;
    this.arity = arity;
    this.owner = owner;
  }

  /** A call of {@code owner.name} with {@code arity} arguments. */
  public static Operation call(MathOwner owner, String name, int arity) {
    return new Operation(Form.CALL, name, arity, Objects.requireNonNull(owner));
  }

  public Form form() {
    return form;
  }

  /** The operator symbol, or the function's simple name. */
  public String name() {
    return name;
  }

  public int arity() {
    return arity;
  }

  /** The class of a called function; {@code null} for operators. */
  public MathOwner owner() {
    return owner;
  }

  /** The key of this operation's entry in the table of derivative rules. */
  public String ruleKey() {
    return switch (form) {
      case INFIX -> name;
      case PREFIX -> "unary" + name;
      case CALL -> name + "/" + arity;
      case COPY -> "copy";
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Operation that
        && form == that.form
        && name.equals(that.name)
        && arity == that.arity
        && owner == that.owner;
  }

  @Override
  public int hashCode() {
    return Objects.hash(form, name, arity, owner);
  }

  @Override
  public String toString() {
    return form == Form.CALL ? owner.simpleName() + "." + name + "/" + arity : name;
  }
}
