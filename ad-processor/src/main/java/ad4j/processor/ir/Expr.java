package ad4j.processor.ir;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Java source text of an expression, rendered with the fewest parentheses that keep its
 * structure: the text of the user's constants (which keep Java's semantics exactly, such as
 * {@code (1 / 2)} in integer arithmetic), and what the printer writes for an instruction.
 *
 * <p>The tree shape is kept as built: {@code a + (b + c)} is rendered with its parentheses, because
 * floating-point addition is not associative and generated code must compute what it says.
 */
public abstract sealed class Expr {
  /** Java operator precedences (higher binds tighter). */
  public static final int ASSIGNMENT = 1;
  static final int CONDITIONAL = 3;
  static final int EQUALITY = 9;
  static final int RELATIONAL = 10;
  static final int ADDITIVE = 12;
  static final int MULTIPLICATIVE = 13;
  static final int UNARY = 14;
  static final int PRIMARY = 16;

  public static final Expr ZERO = number(0.0);
  public static final Expr ONE = number(1.0);

  private Expr() {}

  /** The precedence of this expression's top-level operator. */
  abstract int precedence();

  abstract void render(StringBuilder out);

  /** A name, literal or call: anything that needs no parentheses. */
  public static Expr atom(String text) {
    return new Text(text, PRIMARY);
  }

  /**
   * Java source whose top-level operator has the given precedence, as found in the user's
   * code; see {@link #precedenceOf(String)} for the names.
   */
  public static Expr source(String text, int precedence) {
    return new Text(text, precedence);
  }

  /** A {@code double} literal; negative values and non-finite values are parenthesized names. */
  public static Expr number(double value) {
    return atom(doubleLiteral(value));
  }

  /** The Java text of a {@code double} constant, parenthesized when it starts with a sign. */
  public static String doubleLiteral(double value) {
    // Constant expressions rather than Double.NaN: a class Double in the user's package would
    // capture that name.
    if (Double.isNaN(value)) {
      return "(0.0 / 0.0)";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "(1.0 / 0.0)" : "(-1.0 / 0.0)";
    }
    String text = Double.toString(value);
    return text.startsWith("-") ? "(" + text + ")" : text;
  }

  /** The precedence of a binary operator symbol as Java defines it. */
  public static int precedenceOf(String operator) {
    return switch (operator) {
      case "*", "/", "%" -> MULTIPLICATIVE;
      case "+", "-" -> ADDITIVE;
      case "<<", ">>", ">>>" -> 11;
      case "<", ">", "<=", ">=" -> RELATIONAL;
      case "==", "!=" -> EQUALITY;
      case "&" -> 8;
      case "^" -> 7;
      case "|" -> 6;
      case "&&" -> 5;
      case "||" -> 4;
      default -> throw new IllegalArgumentException("not a binary operator: " + operator);
    };
  }

  /** The precedence of a prefix operator or a cast. */
  public static int unaryPrecedence() {
    return UNARY;
  }

  public Expr plus(Expr right) {
    return new Binary("+", this, right);
  }

  public Expr minus(Expr right) {
    return new Binary("-", this, right);
  }

  public Expr times(Expr right) {
    return new Binary("*", this, right);
  }

  public Expr over(Expr right) {
    return new Binary("/", this, right);
  }

  public Expr negate() {
    return new Negation(this);
  }

  public Expr isLessThan(Expr right) {
    return new Binary("<", this, right);
  }

  public Expr isGreaterThan(Expr right) {
    return new Binary(">", this, right);
  }

  public Expr isEqualTo(Expr right) {
    return new Binary("==", this, right);
  }

  /** {@code !this}. */
  public Expr not() {
    return new Text("!" + (precedence() >= UNARY ? toString() : "(" + this + ")"), UNARY);
  }

  /** {@code this ? whenTrue : whenFalse}. */
  public Expr choose(Expr whenTrue, Expr whenFalse) {
    return new Conditional(this, whenTrue, whenFalse);
  }

  /** {@code this[index]}: an array access, which binds as tightly as a name. */
  public Expr element(Expr index) {
    String array = precedence() >= PRIMARY ? toString() : "(" + this + ")";
    return new Text(array + "[" + index + "]", PRIMARY);
  }

  /** {@code this.name}: a field of an array ({@code length}). */
  public Expr member(String name) {
    String target = precedence() >= PRIMARY ? toString() : "(" + this + ")";
    return new Text(target + "." + name, PRIMARY);
  }

  /** {@code owner.name(arguments)}, where {@code owner} is a class name as it should be written. */
  public static Expr call(String owner, String name, Expr... arguments) {
    return new Call(owner + "." + name, List.of(arguments));
  }

  /** {@code name(arguments)}: a method of the class being written. */
  public static Expr localCall(String name, Expr... arguments) {
    return new Call(name, List.of(arguments));
  }

  /** A binary operator applied to two operands, keeping Java's left-to-right grouping. */
  public static Expr binary(String operator, Expr left, Expr right) {
    return new Binary(operator, left, right);
  }

  /** {@code (double) this}, parenthesizing an operand looser than a cast. */
  public Expr castToDouble() {
    return castTo("double");
  }

  /**
   * {@code (type) this}, parenthesizing an operand looser than a cast: {@code (1) / (2)} becomes
   * {@code (double) ((1) / (2))}, not {@code (double) (1) / (2)}.
   */
  public Expr castTo(String type) {
    String text = toString();
    boolean bare = precedence() >= UNARY && !text.startsWith("-") && !text.startsWith("+");
    return new Text("(" + type + ") " + (bare ? text : "(" + text + ")"), UNARY);
  }

  /**
   * This as the right operand of a string concatenation {@code "x = " + this}: parenthesized
   * when looser than {@code +}, or as loose ({@code "x = " + (a + b)}, not {@code "x = " + a + b}).
   */
  public String asOperandOfConcatenation() {
    StringBuilder out = new StringBuilder();
    renderOperand(out, this, ADDITIVE + 1);
    return out.toString();
  }

  /** Whether this is the literal 1.0, which multiplication drops. */
  public boolean isOne() {
    return this == ONE || (this instanceof Text text && text.text.equals("1.0"));
  }

  @Override
  public final String toString() {
    StringBuilder out = new StringBuilder();
    render(out);
    return out.toString();
  }

  static void renderOperand(StringBuilder out, Expr operand, int minimumPrecedence) {
    if (operand.precedence() < minimumPrecedence) {
      out.append('(');
      operand.render(out);
      out.append(')');
    } else {
      operand.render(out);
    }
  }

  private static final class Text extends Expr {
    private final String text;
    private final int precedence;

    Text(String text, int precedence) {
      this.text = text;
      this.precedence = precedence;
    }

    @Override
    int precedence() {
      return precedence;
    }

    @Override
    void render(StringBuilder out) {
      out.append(text);
    }
  }

  private static final class Binary extends Expr {
    private final String operator;
    private final Expr left;
    private final Expr right;

    Binary(String operator, Expr left, Expr right) {
      this.operator = operator;
      this.left = left;
      this.right = right;
    }

    @Override
    int precedence() {
      return precedenceOf(operator);
    }

    @Override
    void render(StringBuilder out) {
      int precedence = precedence();
      renderOperand(out, left, precedence);
      out.append(' ').append(operator).append(' ');
      // Java's binary operators group to the left: a right operand of equal precedence
      // needs parentheses to keep its grouping.
      renderOperand(out, right, precedence + 1);
    }
  }

  private static final class Negation extends Expr {
    private final Expr operand;

    Negation(Expr operand) {
      this.operand = operand;
    }

    @Override
    int precedence() {
      return UNARY;
    }

    @Override
    void render(StringBuilder out) {
      out.append('-');
      String inner = operand.toString();
      // "--x" would be a decrement and "-(-x)" must keep its parentheses.
      if (operand.precedence() < UNARY || inner.startsWith("-") || inner.startsWith("+")) {
        out.append('(').append(inner).append(')');
      } else {
        out.append(inner);
      }
    }
  }

  private static final class Call extends Expr {
    private final String function;
    private final List<Expr> arguments;

    Call(String function, List<Expr> arguments) {
      this.function = function;
      this.arguments = arguments;
    }

    @Override
    int precedence() {
      return PRIMARY;
    }

    @Override
    void render(StringBuilder out) {
      out.append(function).append('(');
      out.append(arguments.stream().map(Expr::toString).collect(Collectors.joining(", ")));
      out.append(')');
    }
  }

  private static final class Conditional extends Expr {
    private final Expr condition;
    private final Expr whenTrue;
    private final Expr whenFalse;

    Conditional(Expr condition, Expr whenTrue, Expr whenFalse) {
      this.condition = condition;
      this.whenTrue = whenTrue;
      this.whenFalse = whenFalse;
    }

    @Override
    int precedence() {
      return CONDITIONAL;
    }

    @Override
    void render(StringBuilder out) {
      renderOperand(out, condition, CONDITIONAL + 1);
      out.append(" ? ");
      renderOperand(out, whenTrue, CONDITIONAL + 1);
      out.append(" : ");
      renderOperand(out, whenFalse, CONDITIONAL);
    }
  }
}
