package ad4j.processor.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;

/**
 * Random straight-line programs over the whole language ad4j accepts, as jqwik arbitraries (so
 * that failures shrink), together with their Java source and an independent interpreter that
 * mirrors Java's semantics (binary numeric promotion, {@code int}/{@code long}/{@code float}
 * constant arithmetic, overload resolution of {@code Math.abs(int)}, {@code Math.signum(float)}
 * ...), including assignments and increments inside expressions ({@link Effect}, in Java's
 * evaluation order) and code that carries no derivative and runs as written ({@link Inactive}:
 * strings, a static helper, an enum switch, a record, a {@code StringBuilder}).
 *
 * <h2>Well-conditioned by construction</h2>
 *
 * Functions with a restricted domain only ever receive arguments that are inside it whatever
 * their subexpression {@code e} is: {@code log}, {@code log10}, {@code sqrt}, {@code cbrt},
 * the divisor of {@code /} {@code %} {@code /=} {@code %=} and {@code IEEEremainder}, the base of
 * {@code pow(b, e)}, the second argument of {@code atan2} and {@code hypot} get a
 * <em>positive</em> shape ({@code 1.5 + sin(e)}, {@code 1 + e * e}, {@code 2 + cos(e)},
 * {@code exp(tanh(e))}, or a positive constant), all at least 0.25 away from 0; {@code asin},
 * {@code acos}, {@code tan} and {@code log1p} get a <em>unit</em> shape ({@code 0.5 * tanh(e)},
 * {@code 0.9 * sin(e)}, {@code 0.5 * cos(e)}), at most 0.9 in magnitude. {@code pow(e, c)}
 * with a free base only has integer exponents. Magnitudes are not bounded by construction
 * ({@code exp}, products and reassignments grow): the interpreter records the largest
 * intermediate, and the property test does not use points where it exceeds a stated cap.
 *
 * <h2>Kinks and jumps</h2>
 *
 * The interpreter records a <em>branch signature</em> for every evaluation: which side of its
 * kink each {@code abs}, {@code min}, {@code max}, {@code copySign} is on, the value of every
 * {@code floor ceil rint signum}, and the integer quotient of every {@code %} and
 * {@code IEEEremainder}. Where two points have the same signature, the program is one smooth
 * (analytic) function on the segment between them as far as the tested ops go.
 */
public final class RandomPrograms {
  private RandomPrograms() {}

  /** Java's numeric types as far as programs use them ({@code char} is promoted to int). */
  public enum Type {
    INT("int", int.class), LONG("long", long.class), FLOAT("float", float.class),
    DOUBLE("double", double.class);

    final String keyword;
    final Class<?> javaClass;

    Type(String keyword, Class<?> javaClass) {
      this.keyword = keyword;
      this.javaClass = javaClass;
    }

    boolean integral() {
      return this == INT || this == LONG;
    }

    static Type promote(Type a, Type b) {
      return a.ordinal() >= b.ordinal() ? a : b;
    }
  }

  // ---- the abstract syntax ---------------------------------------------------------------------

  /** An expression. */
  public sealed interface Expr permits Var, Lit, Named, Unary, Bin, Cast, Call, Effect,
      Inactive {}

  /** The {@code k mod n}-th of the n variables in scope (parameters first, then locals). */
  public record Var(int k) implements Expr {}

  /** A literal, with its Java type and value. */
  public record Lit(String text, Type type, double value) implements Expr {}

  /** A named constant: a field of the class, {@code Math.PI}, ... */
  public record Named(String text, Type type, double value) implements Expr {}

  /** Unary {@code -} or {@code +}. */
  public record Unary(boolean minus, Expr operand) implements Expr {}

  /** A binary operator {@code + - * / %}. */
  public record Bin(Expr left, char op, Expr right) implements Expr {}

  /** A cast; rendered only where it is a real conversion of a constant (no lint warnings). */
  public record Cast(Type target, Expr operand) implements Expr {}

  /** A call; owner is {@code "Math"}, {@code "StrictMath"} or {@code ""} (static import). */
  public record Call(String owner, String function, List<Expr> arguments) implements Expr {}

  /**
   * An assignment used as an expression, on the {@code target mod n}-th assignable variable:
   * {@code (v = e)}, {@code (v += e)}, {@code (v -= e)}, {@code (v *= e)} or, ignoring
   * {@code value}, {@code ++v}, {@code v++}, {@code --v}, {@code v--} ({@code op} is the
   * operator, with {@code "pre"} or {@code "post"} for increments).
   */
  public record Effect(int target, String op, Expr value) implements Expr {}

  /**
   * An {@code int} that code carrying no derivative computes from {@code k = Math.round(e)}, run
   * as written in every generated member: kind 0 the length of the string {@code "k" + k}, 1
   * and 5 a static helper over a {@code long} and a {@code boolean}, 2 a {@code switch} on an
   * enum constant, 3 a method of a record, 4 a {@code StringBuilder}'s length (see
   * {@link #HELPERS}).
   */
  public record Inactive(int kind, Expr operand) implements Expr {}

  /** A statement. */
  public sealed interface Stmt permits Decl, Assign, Block, Empty {}

  /**
   * A declaration of a fresh local: form 0 {@code double v = e;}, 1 {@code final double v = e;},
   * 2 {@code var v = e;}, 3 {@code double v; v = e;}, 4 {@code double v = e, w = e2;} (e2 may use
   * v).
   */
  public record Decl(int form, Expr init, Expr second) implements Stmt {}

  /** {@code target op= value} to the {@code target mod n}-th assignable variable. */
  public record Assign(int target, String op, Expr value) implements Stmt {}

  /** A nested block; its locals go out of scope after it. */
  public record Block(List<Stmt> body) implements Stmt {}

  /** The empty statement {@code ;}. */
  public record Empty() implements Stmt {}

  /**
   * A method of {@code arity} parameters (names from a pool that includes names the generated
   * code uses itself, rotated by {@code names}), its body, the returned expression, and
   * candidate points (the first {@code arity} coordinates are one point, and so on).
   */
  public record Program(int arity, int names, List<Stmt> body, Expr result, List<Double> points) {
    public List<double[]> pointList() {
      List<double[]> list = new ArrayList<>();
      for (int start = 0; start + arity <= points.size(); start += arity) {
        double[] x = new double[arity];
        for (int i = 0; i < arity; i++) {
          x[i] = points.get(start + i);
        }
        list.add(x);
      }
      return list;
    }

    /** The method's source, as a standalone method named {@code m}. */
    @Override
    public String toString() {
      return "\n" + compile(this, "m").source + "at " + pointList().stream()
          .map(Arrays::toString).toList();
    }
  }

  // ---- the generator ---------------------------------------------------------------------------

  /**
   * Parameter names, hostile ones included: names of generated locals, and names that
   * generated code writes as qualifiers (the tape's class and package, java.lang's, the
   * generated classes of the two property tests).
   */
  static final String[] PARAMETER_NAMES = {"x", "y", "z", "gradient", "seed", "adjoints",
      "result", "t1", "xBar", "w", "Tape", "ad4j", "java", "Double", "FlowsGrad",
      "ProgramsGrad"};

  private static final List<Lit> LITERALS = List.of(
      lit("2", Type.INT, 2), lit("3", Type.INT, 3), lit("7", Type.INT, 7), lit("1", Type.INT, 1),
      lit("2L", Type.LONG, 2), lit("5L", Type.LONG, 5), lit("0.5f", Type.FLOAT, 0.5f),
      lit("0.1f", Type.FLOAT, 0.1f), lit("2.5F", Type.FLOAT, 2.5f), lit("1e-1", Type.DOUBLE, 0.1),
      lit("0x1p-2", Type.DOUBLE, 0.25), lit("0x1.8p1", Type.DOUBLE, 3.0),
      lit("1_0.5e-1", Type.DOUBLE, 1.05), lit("1_000", Type.INT, 1000), lit(".75", Type.DOUBLE, .75),
      lit("2.", Type.DOUBLE, 2.), lit("1.5d", Type.DOUBLE, 1.5), lit("0b101", Type.INT, 5),
      lit("017", Type.INT, 15), lit("'\\u0003'", Type.INT, 3), lit("'a'", Type.INT, 97),
      lit("0.0", Type.DOUBLE, 0.0), lit("1E0", Type.DOUBLE, 1.0), lit("0.3", Type.DOUBLE, 0.3),
      lit("1.25", Type.DOUBLE, 1.25), lit("4", Type.INT, 4));

  private static final List<Lit> INTEGER_LITERALS = List.of(
      lit("1", Type.INT, 1), lit("2", Type.INT, 2), lit("3", Type.INT, 3), lit("7", Type.INT, 7),
      lit("9", Type.INT, 9), lit("4L", Type.LONG, 4), lit("-7", Type.INT, -7),
      lit("0", Type.INT, 0));

  /** Fields of the generated class (see {@link #classSource}), and constants of Math. */
  private static final List<Named> NAMED = List.of(
      new Named("K0", Type.DOUBLE, 0.625), new Named("N1", Type.INT, -3),
      new Named("L2", Type.LONG, 5), new Named("F3", Type.FLOAT, 0.1f),
      new Named("R4", Type.DOUBLE, Math.sqrt(2.0)), new Named("C5", Type.INT, 'b'),
      new Named("Programs.K0", Type.DOUBLE, 0.625), new Named("Math.PI", Type.DOUBLE, Math.PI),
      new Named("Math.E", Type.DOUBLE, Math.E), new Named("StrictMath.PI", Type.DOUBLE, Math.PI),
      new Named("PI", Type.DOUBLE, Math.PI));

  private static final String FIELDS = String.join("\n",
      "  private static final double K0 = 0.625;",
      "  static final int N1 = -3;",
      "  static final long L2 = 5L;",
      "  static final float F3 = 0.1f;",
      "  static final double R4 = Math.sqrt(2.0); // static final, but not a compile-time constant",
      "  static final char C5 = 'b';");

  /**
   * Members of the class {@code Programs} that {@link Inactive} expressions use: a static helper
   * that is not {@code @Differentiable}, an enum and a record.
   */
  public static final String HELPERS = String.join("\n",
      "  static int bucket(long k, boolean wide) {",
      "    return wide ? (int) (k % 3) : (int) Math.abs(k % 5);",
      "  }",
      "  enum Mode {",
      "    UP, DOWN, FLAT;",
      "    static Mode of(long k) { return values()[(int) Math.floorMod(k, 3L)]; }",
      "  }",
      "  record Cell(long index, int width) {",
      "    int scaled() { return (int) (index % 4) * width; }",
      "  }");

  private static final List<Expr> POSITIVE_CONSTANTS = List.of(
      lit("2", Type.INT, 2), lit("0.5f", Type.FLOAT, 0.5f), lit("0x1p-2", Type.DOUBLE, 0.25),
      lit("3L", Type.LONG, 3), lit("'\\u0003'", Type.INT, 3), NAMED.get(0), NAMED.get(4),
      NAMED.get(7), lit("1.75", Type.DOUBLE, 1.75));

  private static final List<String> OWNERS = List.of("Math", "Math", "StrictMath", "");

  private static Lit lit(String text, Type type, double value) {
    return new Lit(text, type, value);
  }

  private static Call call(String owner, String function, Expr... arguments) {
    return new Call(owner, function, List.of(arguments));
  }

  private static Expr number(String text) {
    return lit(text, Type.DOUBLE, Double.parseDouble(text));
  }

  /** Expressions of nesting depth at most {@code depth}. */
  public static Arbitrary<Expr> expressions(int depth) {
    return expressions(depth, false);
  }

  /**
   * Expressions of nesting depth at most {@code depth}; with {@code effects}, also assignments
   * and increments inside them and {@link Inactive} code (in the straight-line programs, whose
   * variables are all {@code double}s).
   */
  static Arbitrary<Expr> expressions(int depth, boolean effects) {
    Arbitrary<Expr> result = leaves();
    for (int d = 1; d <= depth; d++) {
      result = level(result);
      if (effects) {
        result = withEffects(result);
      }
    }
    return result;
  }

  /** {@code sub}, or now and then an assignment, an increment or inactive code around it. */
  private static Arbitrary<Expr> withEffects(Arbitrary<Expr> nested) {
    // jqwik hashes an arbitrary through everything it is built of, at each generation: the
    // three uses of one level below, hashed three times at each level, cost 3^depth. A lazy
    // arbitrary is hashed by identity and stops that.
    Arbitrary<Expr> sub = Arbitraries.lazy(() -> nested);
    Arbitrary<Expr> assignment = Combinators.combine(Arbitraries.integers().between(0, 40),
        Arbitraries.of("=", "+=", "-=", "*=", "++pre", "++post", "--pre", "--post"), sub)
        .as(Effect::new);
    Arbitrary<Expr> inactive = Combinators.combine(Arbitraries.integers().between(0, 5), sub)
        .as(Inactive::new);
    return Arbitraries.frequencyOf(Tuple.of(14, sub), Tuple.of(1, assignment),
        Tuple.of(1, inactive));
  }

  private static Arbitrary<Expr> leaves() {
    Arbitrary<Expr> vars = Arbitraries.integers().between(0, 40).map(Var::new);
    Arbitrary<Expr> literals = Arbitraries.of(LITERALS).map(l -> l);
    Arbitrary<Expr> named = Arbitraries.of(NAMED).map(n -> n);
    Arbitrary<Expr> integerArithmetic = Combinators.combine(Arbitraries.of(INTEGER_LITERALS),
        Arbitraries.of('/', '%', '*', '-', '+'), Arbitraries.of(INTEGER_LITERALS))
        .as((a, op, b) -> new Bin(a, op, b));
    return Arbitraries.frequencyOf(Tuple.of(12, vars), Tuple.of(3, literals), Tuple.of(1, named),
        Tuple.of(2, integerArithmetic));
  }

  private static Arbitrary<Expr> level(Arbitrary<Expr> sub) {
    Arbitrary<String> owner = Arbitraries.of(OWNERS);
    Arbitrary<Expr> positive = positive(sub);
    Arbitrary<Expr> unit = unit(sub);
    Arbitrary<Expr> arithmetic = Combinators.combine(sub, Arbitraries.of('+', '-', '*'), sub)
        .as(Bin::new);
    Arbitrary<Expr> division = Combinators.combine(sub, Arbitraries.of('/', '%'), positive)
        .as(Bin::new);
    Arbitrary<Expr> unary = Combinators.combine(Arbitraries.of(true, true, false), sub)
        .as(Unary::new);
    Arbitrary<Expr> cast = Combinators.combine(Arbitraries.of(Type.values()), sub).as(Cast::new);
    Arbitrary<Expr> free1 = Combinators.combine(owner, Arbitraries.of("sin", "cos", "atan",
        "tanh", "sinh", "cosh", "exp", "expm1", "toRadians", "toDegrees", "abs", "floor", "ceil",
        "rint", "signum"), sub).as((o, f, e) -> call(o, f, e));
    Arbitrary<Expr> free2 = Combinators.combine(owner, Arbitraries.of("min", "max", "copySign"),
        sub, sub).as((o, f, a, b) -> call(o, f, a, b));
    Arbitrary<Expr> fma = Combinators.combine(owner, sub, sub, sub)
        .as((o, a, b, c) -> call(o, "fma", a, b, c));
    Arbitrary<Expr> scalb = Combinators.combine(owner, sub, Arbitraries.integers().between(-2, 3))
        .as((o, a, k) -> call(o, "scalb", a, lit(Integer.toString(k), Type.INT, k)));
    Arbitrary<Expr> integerPower = Combinators.combine(owner, sub, Arbitraries.of(
            lit("2", Type.INT, 2), lit("3", Type.INT, 3), lit("0", Type.INT, 0),
            lit("1.0", Type.DOUBLE, 1), lit("4L", Type.LONG, 4), lit("2.0", Type.DOUBLE, 2)))
        .as((o, a, c) -> call(o, "pow", a, c));
    Arbitrary<Expr> onPositive = Combinators.combine(owner,
        Arbitraries.of("log", "log10", "sqrt", "cbrt"), positive).as((o, f, e) -> call(o, f, e));
    Arbitrary<Expr> negativeCbrt = Combinators.combine(owner, positive)
        .as((o, e) -> call(o, "cbrt", new Unary(true, e)));
    Arbitrary<Expr> onUnit = Combinators.combine(owner,
        Arbitraries.of("asin", "acos", "tan", "log1p"), unit).as((o, f, e) -> call(o, f, e));
    Arbitrary<Expr> secondPositive = Combinators.combine(owner,
        Arbitraries.of("atan2", "hypot", "IEEEremainder", "pow"), sub, positive)
        .as((o, f, a, p) -> f.equals("pow") ? call(o, f, p, a) : call(o, f, a, p));
    Arbitrary<Expr> firstPositive = Combinators.combine(owner, positive, sub)
        .as((o, p, a) -> call(o, "atan2", p, a));
    Arbitrary<Expr> constantPower = Combinators.combine(owner, positive, Arbitraries.of(
            number("0.5"), number("-1.5"), number("2.5"), lit("1", Type.INT, 1),
            lit("0", Type.INT, 0), lit("-2", Type.INT, -2), lit("0.5f", Type.FLOAT, 0.5f)))
        .as((o, p, c) -> call(o, "pow", p, c));
    // calls that carry no derivative, which ad4j runs as written: Math.round and
    // Math.getExponent have no derivative rule and an integer result (a class other than Math
    // could be hidden by a parameter of the hostile names, such as 'Double')
    Arbitrary<Expr> inactive = Combinators.combine(owner, Arbitraries.of("round", "getExponent"),
        sub).as((o, f, e) -> call(o, f, e));
    Arbitrary<Expr> calls = Arbitraries.frequencyOf(Tuple.of(6, free1), Tuple.of(2, free2),
        Tuple.of(2, inactive),
        Tuple.of(1, fma), Tuple.of(1, scalb), Tuple.of(1, integerPower), Tuple.of(3, onPositive),
        Tuple.of(1, negativeCbrt), Tuple.of(2, onUnit), Tuple.of(2, secondPositive),
        Tuple.of(1, firstPositive), Tuple.of(1, constantPower));
    return Arbitraries.frequencyOf(Tuple.of(3, sub), Tuple.of(6, arithmetic),
        Tuple.of(2, division), Tuple.of(1, unary), Tuple.of(1, cast), Tuple.of(6, calls));
  }

  /** Shapes at least 0.25 away from 0, positive, whatever e is (or NaN when e is). */
  private static Arbitrary<Expr> positive(Arbitrary<Expr> sub) {
    return Arbitraries.frequencyOf(
        Tuple.of(2, sub.map(e -> new Bin(number("1.5"), '+', call("Math", "sin", e)))),
        Tuple.of(2, sub.map(e -> new Bin(lit("1", Type.INT, 1), '+', new Bin(e, '*', e)))),
        Tuple.of(1, sub.map(e -> new Bin(lit("2", Type.INT, 2), '+', call("", "cos", e)))),
        Tuple.of(1, sub.map(e -> call("StrictMath", "exp", call("Math", "tanh", e)))),
        Tuple.of(2, Arbitraries.of(POSITIVE_CONSTANTS)));
  }

  /** Shapes of magnitude at most 0.9. */
  private static Arbitrary<Expr> unit(Arbitrary<Expr> sub) {
    return Arbitraries.oneOf(
        sub.map(e -> new Bin(number("0.5"), '*', call("Math", "tanh", e))),
        sub.map(e -> new Bin(number("0.9"), '*', call("Math", "sin", e))),
        sub.map(e -> new Bin(number("0.5"), '*', call("StrictMath", "cos", e))));
  }

  /** Statements; {@code depth} is the depth of their expressions. */
  public static Arbitrary<Stmt> statements(int depth) {
    Arbitrary<Expr> expression = expressions(depth, true);
    Arbitrary<Stmt> declaration = Combinators.combine(Arbitraries.integers().between(0, 4),
        expression, expressions(depth - 1, true)).as(Decl::new);
    Arbitrary<Stmt> assignment = Combinators.combine(Arbitraries.integers().between(0, 40),
        Arbitraries.of("=", "+=", "-=", "*="), expression).as(Assign::new);
    Arbitrary<Stmt> division = Combinators.combine(Arbitraries.integers().between(0, 40),
        Arbitraries.of("/=", "%="), positive(expressions(depth - 1, true))).as(Assign::new);
    Arbitrary<Stmt> simple = Arbitraries.frequencyOf(Tuple.of(5, declaration),
        Tuple.of(4, assignment), Tuple.of(1, division), Tuple.of(1, Arbitraries.just(new Empty())));
    Arbitrary<Stmt> block = simple.list().ofMinSize(1).ofMaxSize(3).map(Block::new);
    return Arbitraries.frequencyOf(Tuple.of(12, simple), Tuple.of(1, block));
  }

  /** Programs of 1 to 4 parameters, up to 8 statements, with {@code pointCount} points. */
  public static Arbitrary<Program> programs(int pointCount) {
    return Combinators.combine(Arbitraries.integers().between(1, 4),
            Arbitraries.integers().between(0, PARAMETER_NAMES.length - 1),
            statements(2).list().ofMaxSize(8), expressions(3, true),
            Arbitraries.doubles().between(-2, 2).ofScale(12)
                .withDistribution(RandomDistribution.uniform()).list().ofSize(4 * pointCount))
        .as(Program::new);
  }

  // ---- rendering and interpretation ------------------------------------------------------------

  /** What one evaluation saw. */
  public static final class Trace {
    double largest;
    boolean nonFinite;
    final List<Double> signature = new ArrayList<>();

    /** The largest magnitude of any double intermediate (infinity if one was NaN). */
    public double largestMagnitude() {
      return nonFinite ? Double.POSITIVE_INFINITY : largest;
    }

    /** Which piece of every non-smooth operation the evaluation was in. */
    public List<Double> signature() {
      return signature;
    }

    void record(Type type, double value) {
      if (type == Type.DOUBLE || type == Type.FLOAT) {
        if (!Double.isFinite(value)) {
          nonFinite = true;
        } else {
          largest = Math.max(largest, Math.abs(value));
        }
      }
    }
  }

  /** A value of one of the four types: integral ones in {@code l}, others in {@code d}. */
  record Num(Type type, long l, double d) {
    static Num of(Type type, double value) {
      return switch (type) {
        case INT -> new Num(type, (int) value, 0);
        case LONG -> new Num(type, (long) value, 0);
        case FLOAT -> new Num(type, 0, (float) value);
        case DOUBLE -> new Num(type, 0, value);
      };
    }

    double asDouble() {
      return type.integral() ? (double) l : d;
    }

    Num to(Type target) {
      if (target == type) {
        return this;
      }
      return switch (target) {
        case INT -> new Num(target, type.integral() ? (int) l : (int) d, 0);
        case LONG -> new Num(target, type.integral() ? l : (long) d, 0);
        case FLOAT -> new Num(target, 0, type.integral() ? (float) l : (float) d);
        case DOUBLE -> new Num(target, 0, asDouble());
      };
    }

    Object boxed() {
      return switch (type) {
        case INT -> (int) l;
        case LONG -> l;
        case FLOAT -> (float) d;
        case DOUBLE -> d;
      };
    }
  }

  interface Eval {
    Num eval(double[] env, Trace trace);
  }

  /** A rendered expression: its text, precedence, type, whether constant, and evaluator. */
  record Node(String text, int precedence, Type type, boolean constant, Eval eval) {}

  static final int ADDITIVE = 1;
  static final int MULTIPLICATIVE = 2;
  static final int UNARY = 3;
  static final int PRIMARY = 4;

  /** A compiled program: the method's source and an interpreter of it. */
  public static final class Compiled {
    final String source;
    final int slots;
    final List<int[]> targets = new ArrayList<>();
    final List<Eval> steps = new ArrayList<>();
    Eval result;

    Compiled(String source, int slots) {
      this.source = source;
      this.slots = slots;
    }

    public String source() {
      return source;
    }

    /** The method's value at x, as Java computes it; the trace records what it saw. */
    public double evaluate(double[] x, Trace trace) {
      double[] env = Arrays.copyOf(x, slots);
      for (int i = 0; i < steps.size(); i++) {
        env[targets.get(i)[0]] = steps.get(i).eval(env, trace).asDouble();
      }
      return result.eval(env, trace).asDouble();
    }
  }

  /** The source of the class {@code com.example.Programs} holding {@code m0, m1, ...}. */
  public static String classSource(List<Program> programs) {
    StringBuilder source = new StringBuilder(String.join("\n",
        "package com.example;",
        "",
        "import static java.lang.Math.*;",
        "import static java.lang.StrictMath.cos;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Programs {",
        FIELDS,
        HELPERS,
        "",
        "  private Programs() {}",
        ""));
    for (int i = 0; i < programs.size(); i++) {
      source.append(compile(programs.get(i), "m" + i).source);
    }
    return source.append("}\n").toString();
  }

  /** Renders a program as a method {@code name}, and builds its interpreter. */
  public static Compiled compile(Program program, String name) {
    return new Renderer(program).render(name);
  }

  /**
   * A variable in scope: its name, its slot in the interpreter's environment, and its type
   * ({@code double} in straight-line programs; {@link ControlFlowPrograms} also puts {@code int}
   * variables in scope, whose values the environment holds exactly).
   */
  static final class Variable {
    final String name;
    final int slot;
    final boolean isFinal;
    final Type type;

    Variable(String name, int slot, boolean isFinal) {
      this(name, slot, isFinal, Type.DOUBLE);
    }

    Variable(String name, int slot, boolean isFinal, Type type) {
      this.name = name;
      this.slot = slot;
      this.isFinal = isFinal;
      this.type = type;
    }
  }

  /**
   * Renders an expression over the given scope ({@link Var}{@code (k)} is the {@code k mod n}-th
   * of its variables) and builds its interpreter; for {@link ControlFlowPrograms}.
   */
  static Node renderExpression(Expr expr, List<Variable> scope) {
    Renderer renderer = new Renderer(null);
    renderer.scope.addAll(scope);
    return renderer.expression(expr);
  }

  /** The interpreter of {@code left op right} ({@code + - * / %}) with Java's promotions. */
  static Eval binary(Node left, char op, Node right) {
    return Renderer.binaryEval(left, op, right);
  }

  private static final class Renderer {
    private final Program program;
    private final List<Variable> scope = new ArrayList<>();
    private final StringBuilder body = new StringBuilder();
    private final List<int[]> targets = new ArrayList<>();
    private final List<Eval> steps = new ArrayList<>();
    private int locals;

    Renderer(Program program) {
      this.program = program;
    }

    Compiled render(String name) {
      List<String> parameters = new ArrayList<>();
      for (int i = 0; i < program.arity(); i++) {
        String parameter = PARAMETER_NAMES[(program.names() + i) % PARAMETER_NAMES.length];
        scope.add(new Variable(parameter, i, false));
        parameters.add("double " + parameter);
      }
      for (Stmt statement : program.body()) {
        statement(statement, "    ");
      }
      Node result = expression(program.result());
      String source = "  @Differentiable\n  static double " + name + "("
          + String.join(", ", parameters) + ") {\n" + body + "    return " + result.text()
          + ";\n  }\n\n";
      Compiled compiled = new Compiled(source, program.arity() + locals);
      compiled.targets.addAll(targets);
      compiled.steps.addAll(steps);
      compiled.result = result.eval();
      return compiled;
    }

    private Variable declare(boolean isFinal) {
      Variable variable = new Variable("v" + locals, program.arity() + locals, isFinal);
      locals++;
      return variable;
    }

    private void step(Variable target, Eval eval) {
      targets.add(new int[] {target.slot});
      steps.add(eval);
    }

    private static Eval toDouble(Node node) {
      Eval eval = node.eval();
      return (env, trace) -> eval.eval(env, trace).to(Type.DOUBLE);
    }

    private void statement(Stmt statement, String indent) {
      if (statement instanceof Decl d) {
        Node init = expression(d.init());
        Variable v = declare(d.form() == 1);
        switch (d.form()) {
          case 0, 1 -> body.append(indent).append(d.form() == 1 ? "final " : "")
              .append("double ").append(v.name).append(" = ").append(init.text()).append(";\n");
          case 2 -> body.append(indent).append(init.type() == Type.DOUBLE ? "var " : "double ")
              .append(v.name).append(" = ").append(init.text()).append(";\n");
          case 3 -> body.append(indent).append("double ").append(v.name).append(";\n")
              .append(indent).append(v.name).append(" = ").append(init.text()).append(";\n");
          default -> {
            scope.add(v);
            step(v, toDouble(init));
            Node second = expression(d.second());
            Variable w = declare(false);
            body.append(indent).append("double ").append(v.name).append(" = ")
                .append(init.text()).append(", ").append(w.name).append(" = ")
                .append(second.text()).append(";\n");
            scope.add(w);
            step(w, toDouble(second));
            return;
          }
        }
        scope.add(v);
        step(v, toDouble(init));
      } else if (statement instanceof Assign a) {
        List<Variable> assignable = scope.stream().filter(v -> !v.isFinal).toList();
        Variable target = assignable.get(Math.floorMod(a.target(), assignable.size()));
        Node value = expression(a.value());
        body.append(indent).append(target.name).append(' ').append(a.op()).append(' ')
            .append(value.text()).append(";\n");
        if (a.op().equals("=")) {
          step(target, toDouble(value));
        } else {
          char op = a.op().charAt(0);
          Node current = new Node(target.name, PRIMARY, Type.DOUBLE, false,
              variableEval(target.slot));
          Eval combined = binaryEval(current, op, value);
          step(target, (env, trace) -> combined.eval(env, trace).to(Type.DOUBLE));
        }
      } else if (statement instanceof Block b) {
        int size = scope.size();
        body.append(indent).append("{\n");
        for (Stmt inner : b.body()) {
          statement(inner, indent + "  ");
        }
        body.append(indent).append("}\n");
        scope.subList(size, scope.size()).clear();
      } else {
        body.append(indent).append(";\n");
      }
    }

    private static Eval variableEval(int slot) {
      return (env, trace) -> new Num(Type.DOUBLE, 0, env[slot]);
    }

    private static Node constant(String text, int precedence, Type type, double value) {
      Num num = Num.of(type, value);
      return new Node(text, precedence, type, true, (env, trace) -> num);
    }

    private Node expression(Expr expr) {
      if (expr instanceof Var v) {
        Variable variable = scope.get(Math.floorMod(v.k(), scope.size()));
        if (variable.type != Type.DOUBLE) {
          Type type = variable.type;
          int slot = variable.slot;
          return new Node(variable.name, PRIMARY, type, false,
              (env, trace) -> Num.of(type, env[slot]));
        }
        return new Node(variable.name, PRIMARY, Type.DOUBLE, false, variableEval(variable.slot));
      } else if (expr instanceof Lit l) {
        return constant(l.text(), l.text().startsWith("-") ? UNARY : PRIMARY, l.type(),
            l.value());
      } else if (expr instanceof Named n) {
        return constant(n.text(), PRIMARY, n.type(), n.value());
      } else if (expr instanceof Unary u) {
        Node operand = expression(u.operand());
        String text = operand.precedence() < UNARY || operand.text().startsWith("-")
            || operand.text().startsWith("+") ? "(" + operand.text() + ")" : operand.text();
        Type type = operand.type();
        Eval eval = operand.eval();
        Eval result = !u.minus() ? eval : (env, trace) -> {
          Num n = eval.eval(env, trace);
          return switch (n.type()) {
            case INT -> new Num(Type.INT, -(int) n.l(), 0);
            case LONG -> new Num(Type.LONG, -n.l(), 0);
            case FLOAT -> new Num(Type.FLOAT, 0, -(float) n.d());
            case DOUBLE -> new Num(Type.DOUBLE, 0, -n.d());
          };
        };
        return new Node((u.minus() ? "-" : "+") + text, UNARY, type, operand.constant(),
            result);
      } else if (expr instanceof Bin b) {
        Node left = expression(b.left());
        Node right = expression(b.right());
        char op = b.op();
        if ((op == '/' || op == '%') && right.constant()
            && right.eval().eval(null, new Trace()).asDouble() == 0) {
          op = '+'; // no division by a constant zero (javac warns about it for integers)
        }
        int precedence = op == '+' || op == '-' ? ADDITIVE : MULTIPLICATIVE;
        String l = left.precedence() < precedence ? "(" + left.text() + ")" : left.text();
        String r = right.precedence() <= precedence ? "(" + right.text() + ")" : right.text();
        return new Node(l + " " + op + " " + r, precedence,
            Type.promote(left.type(), right.type()), left.constant() && right.constant(),
            binaryEval(left, op, right));
      } else if (expr instanceof Effect e) {
        return effect(e);
      } else if (expr instanceof Inactive i) {
        return inactive(i);
      } else if (expr instanceof Cast c) {
        Node operand = expression(c.operand());
        if (!operand.constant() || operand.type() == c.target()) {
          return operand;
        }
        String text = operand.precedence() < PRIMARY ? "(" + operand.text() + ")"
            : operand.text();
        Eval eval = operand.eval();
        return new Node("(" + c.target().keyword + ") " + text, UNARY, c.target(), true,
            (env, trace) -> eval.eval(env, trace).to(c.target()));
      } else {
        return call((Call) expr);
      }
    }

    /**
     * An assignment or increment inside an expression, of a {@code double} variable: the
     * interpreter writes the environment where Java evaluates it, and its value is the value
     * stored (the old one for a postfix increment).
     */
    private Node effect(Effect effect) {
      List<Variable> assignable = scope.stream()
          .filter(v -> !v.isFinal && v.type == Type.DOUBLE).toList();
      Variable target = assignable.get(Math.floorMod(effect.target(), assignable.size()));
      int slot = target.slot;
      if (effect.op().startsWith("++") || effect.op().startsWith("--")) {
        double step = effect.op().startsWith("++") ? 1 : -1;
        boolean postfix = effect.op().endsWith("post");
        String symbol = effect.op().substring(0, 2);
        return new Node(postfix ? target.name + symbol : symbol + target.name,
            postfix ? PRIMARY : UNARY, Type.DOUBLE, false, (env, trace) -> {
              double old = env[slot];
              env[slot] = old + step;
              trace.record(Type.DOUBLE, env[slot]);
              return new Num(Type.DOUBLE, 0, postfix ? old : env[slot]);
            });
      }
      Node value = expression(effect.value());
      Eval stored;
      if (effect.op().equals("=")) {
        stored = toDouble(value);
      } else {
        Node current = new Node(target.name, PRIMARY, Type.DOUBLE, false, variableEval(slot));
        stored = binaryEval(current, effect.op().charAt(0), value);
      }
      return new Node("(" + target.name + " " + effect.op() + " " + value.text() + ")", PRIMARY,
          Type.DOUBLE, false, (env, trace) -> {
            Num result = stored.eval(env, trace).to(Type.DOUBLE);
            env[slot] = result.d();
            return result;
          });
    }

    /**
     * Code that carries no derivative, from {@code k = Math.round(e)} (whose value the trace's
     * signature holds, so that the int is constant between points of one signature).
     */
    private Node inactive(Inactive inactive) {
      Node k = call(new Call("Math", "round", List.of(inactive.operand())));
      Eval round = k.eval();
      String text = switch (inactive.kind()) {
        case 0 -> "(\"k\" + " + k.text() + ").length()";
        case 1, 5 -> "bucket(" + k.text() + ", " + (inactive.kind() == 1) + ")";
        case 2 -> "(switch (Mode.of(" + k.text() + ")) { case UP -> 2; case DOWN -> -1;"
            + " default -> 0; })";
        case 3 -> "new Cell(" + k.text() + ", 3).scaled()";
        case 4 -> "new StringBuilder(\"s\").append(" + k.text() + ").append(\"!\").length()";
        default -> throw new IllegalArgumentException("kind " + inactive.kind());
      };
      int kind = inactive.kind();
      return new Node(text, PRIMARY, Type.INT, false, (env, trace) -> {
        long value = round.eval(env, trace).l();
        int result = switch (kind) {
          case 0 -> ("k" + value).length();
          case 1 -> (int) (value % 3);
          case 5 -> (int) Math.abs(value % 5);
          case 2 -> new int[] {2, -1, 0}[(int) Math.floorMod(value, 3L)];
          case 3 -> (int) (value % 4) * 3;
          case 4 -> ("s" + value + "!").length();
          default -> throw new IllegalArgumentException("kind " + kind);
        };
        return new Num(Type.INT, result, 0);
      });
    }

    private static Eval binaryEval(Node left, char op, Node right) {
      Type type = Type.promote(left.type(), right.type());
      Eval l = left.eval();
      Eval r = right.eval();
      return (env, trace) -> {
        Num a = l.eval(env, trace).to(type);
        Num b = r.eval(env, trace).to(type);
        Num result = switch (type) {
          case INT -> {
            int x = (int) a.l();
            int y = (int) b.l();
            yield new Num(type, switch (op) {
              case '+' -> x + y;
              case '-' -> x - y;
              case '*' -> x * y;
              case '/' -> x / y;
              default -> x % y;
            }, 0);
          }
          case LONG -> {
            long x = a.l();
            long y = b.l();
            yield new Num(type, switch (op) {
              case '+' -> x + y;
              case '-' -> x - y;
              case '*' -> x * y;
              case '/' -> x / y;
              default -> x % y;
            }, 0);
          }
          case FLOAT -> {
            float x = (float) a.d();
            float y = (float) b.d();
            yield new Num(type, 0, switch (op) {
              case '+' -> x + y;
              case '-' -> x - y;
              case '*' -> x * y;
              case '/' -> x / y;
              default -> x % y;
            });
          }
          case DOUBLE -> {
            double x = a.d();
            double y = b.d();
            double z = switch (op) {
              case '+' -> x + y;
              case '-' -> x - y;
              case '*' -> x * y;
              case '/' -> x / y;
              default -> x % y;
            };
            if (op == '%') {
              trace.signature.add(Math.rint((x - z) / y)); // the integer quotient
            }
            yield new Num(type, 0, z);
          }
        };
        trace.record(result.type(), result.type().integral() ? 0 : result.d());
        return result;
      };
    }

    private Node call(Call call) {
      List<Node> arguments = call.arguments().stream().map(this::expression).toList();
      String function = call.function();
      // Overload resolution as javac does it for these arguments.
      Type[] parameters = new Type[arguments.size()];
      Type widest = arguments.stream().map(Node::type).reduce(Type.INT, Type::promote);
      switch (function) {
        case "abs" -> parameters[0] = arguments.get(0).type();
        case "min", "max" -> Arrays.fill(parameters, widest);
        case "signum", "copySign", "fma" ->
            Arrays.fill(parameters, widest == Type.DOUBLE ? Type.DOUBLE : Type.FLOAT);
        case "scalb" -> {
          parameters[0] = arguments.get(0).type() == Type.DOUBLE ? Type.DOUBLE : Type.FLOAT;
          parameters[1] = Type.INT;
        }
        // round(float) and getExponent(float) are the more specific: they take int, long and
        // float arguments
        case "round", "getExponent" ->
            parameters[0] = arguments.get(0).type() == Type.DOUBLE ? Type.DOUBLE : Type.FLOAT;
        default -> Arrays.fill(parameters, Type.DOUBLE);
      }
      Type returnType = function.equals("round")
          ? (parameters[0] == Type.DOUBLE ? Type.LONG : Type.INT)
          : function.equals("getExponent") ? Type.INT
          : function.equals("scalb") ? parameters[0]
          : Arrays.asList("abs", "min", "max", "signum", "copySign", "fma").contains(function)
              ? parameters[0] : Type.DOUBLE;
      boolean strict = call.owner().equals("StrictMath")
          || call.owner().isEmpty() && function.equals("cos");
      Method method;
      try {
        method = (strict ? StrictMath.class : Math.class).getMethod(function,
            Arrays.stream(parameters).map(t -> t.javaClass).toArray(Class<?>[]::new));
      } catch (NoSuchMethodException e) {
        throw new AssertionError(e);
      }
      List<Eval> evals = arguments.stream().map(Node::eval).toList();
      Eval eval = (env, trace) -> {
        Num[] values = new Num[evals.size()];
        Object[] boxed = new Object[evals.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = evals.get(i).eval(env, trace).to(parameters[i]);
          boxed[i] = values[i].boxed();
        }
        Object out;
        try {
          out = method.invoke(null, boxed);
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw new AssertionError(e);
        }
        Num result = Num.of(returnType, ((Number) out).doubleValue());
        if (returnType.integral()) {
          result = new Num(returnType, ((Number) out).longValue(), 0);
        }
        double a = values[0].asDouble();
        switch (function) {
          case "abs" -> trace.signature.add(Math.signum(a));
          case "min", "max" ->
              trace.signature.add((double) Double.compare(a, values[1].asDouble()));
          case "floor", "ceil", "rint", "signum", "round", "getExponent" ->
              trace.signature.add(result.asDouble());
          case "copySign" -> {
            trace.signature.add(Math.signum(a));
            trace.signature.add(Math.copySign(1.0, values[1].asDouble()));
          }
          case "IEEEremainder" ->
              trace.signature.add(Math.rint((a - result.d()) / values[1].asDouble()));
          default -> { }
        }
        trace.record(result.type(), result.type().integral() ? 0 : result.d());
        return result;
      };
      String owner = call.owner().isEmpty() ? "" : call.owner() + ".";
      String text = owner + function + "(" + String.join(", ",
          arguments.stream().map(Node::text).toList()) + ")";
      return new Node(text, PRIMARY, returnType,
          arguments.stream().allMatch(Node::constant), eval);
    }
  }

  static String format(double[] x) {
    StringBuilder s = new StringBuilder();
    for (double v : x) {
      s.append(s.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s", v));
    }
    return s.toString();
  }
}
