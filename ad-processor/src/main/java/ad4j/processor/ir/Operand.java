package ad4j.processor.ir;

import java.util.OptionalDouble;

/**
 * An argument of an instruction: a use of a value, a constant subexpression, or (only as the
 * argument of a copy) the current value of a variable.
 */
public sealed interface Operand permits Operand.Use, Operand.Constant, Operand.Read {

  NumericType type();

  /** Whether derivatives flow through this operand. */
  boolean isActive();

  /** A use of a single-assignment value. */
  record Use(Value value) implements Operand {
    @Override
    public NumericType type() {
      return value.type();
    }

    @Override
    public boolean isActive() {
      return value.isActive();
    }
  }

  /**
   * A subexpression that depends on no value of the method: literals, compile-time constants and
   * calls on them. It is kept as Java source, with all names resolved, so that it keeps Java's
   * semantics exactly ({@code (1 / 2)} stays integer division).
   *
   * @param expression the Java text, ready to be embedded in generated code
   * @param type the Java type of the expression
   * @param knownValue the value, when the expression is a plain literal or an inlined constant
   */
  record Constant(Expr expression, NumericType type, OptionalDouble knownValue)
      implements Operand {
    /** The zero of {@code type}: what a variable declared without a value starts as. */
    public static Constant zero(NumericType type) {
      return switch (type) {
        case BOOLEAN -> of(false);
        case DOUBLE -> new Constant(Expr.atom("0.0"), type, OptionalDouble.of(0));
        case FLOAT -> new Constant(Expr.atom("0.0f"), type, OptionalDouble.of(0));
        case LONG -> new Constant(Expr.atom("0L"), type, OptionalDouble.of(0));
        case INT -> new Constant(Expr.atom("0"), type, OptionalDouble.of(0));
        case CHAR, SHORT, BYTE -> new Constant(Expr.atom("0").castTo(type.keyword()), type,
            OptionalDouble.of(0));
        case DOUBLE_ARRAY, DOUBLE_MATRIX, INT_ARRAY, FLOAT_ARRAY ->
            new Constant(Expr.atom("null"), type, OptionalDouble.empty());
        case STRING, OBJECT -> new Constant(Expr.atom("null"), type, OptionalDouble.empty());
        case VOID -> throw new IllegalArgumentException("no value of type void");
      };
    }

    /** A {@code double} constant. */
    public static Constant of(double value) {
      return new Constant(Expr.number(value), NumericType.DOUBLE, OptionalDouble.of(value));
    }

    /** An {@code int} constant. */
    public static Constant of(int value) {
      return new Constant(Expr.atom(Integer.toString(value)), NumericType.INT,
          OptionalDouble.of(value));
    }

    /** Whether this is the {@code double} constant 1.0, which multiplication drops. */
    public boolean isOne() {
      return type == NumericType.DOUBLE && knownValue.isPresent()
          && Double.doubleToRawLongBits(knownValue.getAsDouble()) == Double.doubleToRawLongBits(1.0);
    }

    /** {@code true} or {@code false}. */
    public static Constant of(boolean value) {
      return new Constant(Expr.atom(Boolean.toString(value)), NumericType.BOOLEAN,
          OptionalDouble.empty());
    }

    @Override
    public boolean isActive() {
      return false;
    }
  }

  /** The current value of a variable; appears only as the argument of a copy instruction. */
  record Read(Variable variable) implements Operand {
    @Override
    public NumericType type() {
      return variable.type();
    }

    @Override
    public boolean isActive() {
      return variable.isActive();
    }
  }
}
