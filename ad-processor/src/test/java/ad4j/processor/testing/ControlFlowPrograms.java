package ad4j.processor.testing;

import ad4j.processor.testing.RandomPrograms.Eval;
import ad4j.processor.testing.RandomPrograms.Expr;
import ad4j.processor.testing.RandomPrograms.Node;
import ad4j.processor.testing.RandomPrograms.Num;
import ad4j.processor.testing.RandomPrograms.Trace;
import ad4j.processor.testing.RandomPrograms.Type;
import ad4j.processor.testing.RandomPrograms.Variable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;

/**
 * Random programs with control flow, as jqwik arbitraries (so that failures shrink), with their
 * Java source and an interpreter of Java's semantics (the second oracle). The arithmetic is that
 * of {@link RandomPrograms}: its expression generator, its well-conditioned shapes and its
 * interpreter are reused as they are (the straight-line generator and its seeds are unchanged);
 * on top of them this class adds
 *
 * <ul>
 *   <li>{@code if}/{@code else}, nested; {@code c ? a : b} with computing branches; conditions
 *       made of comparisons of {@code double} and {@code int} expressions with {@code &&},
 *       {@code ||} and {@code !}; {@code boolean} locals;
 *   <li>bounded loops: {@code for} with an {@code int} counter up to a small constant or an
 *       {@code int} parameter (three forms: up, down, {@code <=}); {@code while} and
 *       {@code do}-{@code while} guarded by an {@code int} counter that is incremented first
 *       thing in the body (so that {@code continue} cannot skip it), optionally {@code &&} a random
 *       condition; no counter is ever assigned by the body, so every program terminates after at
 *       most a few hundred iterations;
 *   <li>{@code break} and {@code continue} (to the innermost loop or, labelled, to an outer one)
 *       and {@code return}, each under a random condition (so that no statement is unreachable);
 *   <li>{@code int} locals ({@code k++}, {@code k--}, {@code k += e}, {@code k = e}, including
 *       {@code (int)} casts of doubles), {@code int} parameters (read-only, so they can bound
 *       loops), which also appear in the {@code double} expressions;
 *   <li>calls of a helper {@code hI} (generated first, itself with control flow, recursive when
 *       {@link Unit#recursive()}) from the main method {@code mI}, also inside loops; the
 *       helper's {@code int} arguments are masked with {@code & 3}, which bounds the recursion
 *       depth and the helper's loops;
 *   <li>code that may throw and whose value nothing reads: {@code int q = a / b;} with a
 *       variable divisor (where it is 0, the method and every generated member throw the same
 *       {@code ArithmeticException}, and the tape is left empty), and helper calls as
 *       statements;
 *   <li>methods that end in {@code for (;;)} left only by {@code return};
 *   <li>hostile parameter names ({@link RandomPrograms}' list: {@code Tape}, {@code java},
 *       {@code FlowsGrad}, ...).
 * </ul>
 *
 * <p>The interpreter adds to the {@link Trace}'s branch signature the outcome of every
 * comparison and the value of every {@code (int)} cast, so two points with the same signature take
 * the same path with the same trip counts, and the program is one smooth function between them
 * (as far as {@link RandomPrograms}' kinks go, which are recorded too).
 *
 * <p>The shapes of the five processor bugs it found (all fixed) can be left out, to tell a new
 * bug from an old one: see {@link #AVOID_KNOWN_BUGS} ({@code -Dad4j.knownBugs=avoid}).
 */
public final class ControlFlowPrograms {
  private ControlFlowPrograms() {}

  // ---- the abstract syntax ---------------------------------------------------------------------

  /** A condition. */
  public sealed interface Cond permits Cmp, ICmp, And, Or, Not, BVar {}

  /** {@code left op right}, op 0..5 = {@code < <= > >= == !=}; == and != only on integers. */
  public record Cmp(Expr left, int op, Expr right) implements Cond {}

  /** A comparison of two int expressions. */
  public record ICmp(IExpr left, int op, IExpr right) implements Cond {}

  public record And(Cond left, Cond right) implements Cond {}

  public record Or(Cond left, Cond right) implements Cond {}

  public record Not(Cond operand) implements Cond {}

  /** The {@code k mod n}-th boolean local ({@code true} if there is none). */
  public record BVar(int k) implements Cond {}

  /** An int expression. */
  public sealed interface IExpr permits IVar, ILit, IBin, ICast {}

  /** The {@code k mod n}-th int variable in scope (the literal 1 if there is none). */
  public record IVar(int k) implements IExpr {}

  public record ILit(int value) implements IExpr {}

  /** {@code + - *}, or {@code %} by a constant 2..5. */
  public record IBin(IExpr left, char op, IExpr right) implements IExpr {}

  /** {@code (int) e} of a double expression (dropped if e is an int already). */
  public record ICast(Expr operand) implements IExpr {}

  /** A double (numeric) expression. */
  public sealed interface DExpr permits Plain, Ternary, Combine, HelperCall {}

  /** An expression of {@link RandomPrograms}. */
  public record Plain(Expr expr) implements DExpr {}

  public record Ternary(Cond condition, DExpr ifTrue, DExpr ifFalse) implements DExpr {}

  /** {@code (a) op (b)} with op {@code + - *}. */
  public record Combine(DExpr left, char op, DExpr right) implements DExpr {}

  /**
   * A call of the helper: its double arguments are taken from {@code arguments} in turn, its
   * int arguments are {@code (count) & 3}. In the helper itself it is a recursive call where the
   * helper is recursive and it is in the returned expression, otherwise just the first argument.
   */
  public record HelperCall(List<Expr> arguments, IExpr count) implements DExpr {}

  /** A statement. */
  public sealed interface Stmt
      permits DeclD, AssignD, DeclI, UpdateI, DeclB, If, For, While, Do, Break, Continue, Return,
      DeadDivision, CallStatement, SideEffects {}

  /**
   * Assignments and increments inside expressions, on the {@code a}-th and {@code b}-th double
   * and the {@code b}-th int local (mod their numbers): form 0 {@code vA = vB = e;}, 1
   * {@code vA = (vB += e) * vB;}, 2 {@code vA += vA * (kB++);}, 3 {@code vA -= --kB * (e);}.
   */
  public record SideEffects(int a, int b, int form, DExpr value) implements Stmt {}

  /**
   * {@code int qN = a / k;} whose value nothing reads, {@code k} an int variable: it throws
   * {@code ArithmeticException} where {@code k} is 0, in the user's method and in every
   * generated member alike.
   */
  public record DeadDivision(IExpr numerator, IExpr divisor) implements Stmt {}

  /** {@code hI(...);}: a call of the helper for its effects only (nothing in the helper). */
  public record CallStatement(HelperCall call) implements Stmt {}

  /** {@code double v = e;} */
  public record DeclD(DExpr init) implements Stmt {}

  /** {@code v op e;} to the {@code target mod n}-th double variable, op {@code = += -= *=}. */
  public record AssignD(int target, String op, DExpr value) implements Stmt {}

  /** {@code int k = e;} */
  public record DeclI(IExpr init) implements Stmt {}

  /** To the {@code target mod n}-th int local: form 0 {@code k++}, 1 {@code k--}, 2 +=, 3 =. */
  public record UpdateI(int target, int form, IExpr value) implements Stmt {}

  /** {@code boolean b = c;} */
  public record DeclB(Cond init) implements Stmt {}

  /** {@code if (c) {...} else {...}}; no else when it is empty. */
  public record If(Cond condition, List<Stmt> then, List<Stmt> otherwise) implements Stmt {}

  /**
   * A counted loop; bound {@code >= 1} is a constant, otherwise the {@code -bound}-th int
   * parameter (3 if there is none); form 0 {@code i = 0; i < B; i++}, 1 {@code i = B; i > 0;
   * i--}, 2 {@code i = 1; i <= B; i++}.
   */
  public record For(int form, int bound, List<Stmt> body) implements Stmt {}

  /** {@code int w = 0; while (w < B && c) { w++; ... }} (bound as in {@link For}). */
  public record While(int bound, Optional<Cond> condition, List<Stmt> body) implements Stmt {}

  /** {@code int w = 0; do { w++; ... } while (w < B && c);} */
  public record Do(int bound, Optional<Cond> condition, List<Stmt> body) implements Stmt {}

  /** {@code if (c) { break L; }} to the {@code loop mod depth}-th enclosing loop (0 innermost). */
  public record Break(int loop, Cond condition) implements Stmt {}

  public record Continue(int loop, Cond condition) implements Stmt {}

  /** {@code if (c) { return e; }} */
  public record Return(Cond condition, DExpr value) implements Stmt {}

  /**
   * The end of a method as {@code int eN = 0; for (;;) { eN++; if (eN >= B || c) { return r; } }}:
   * a loop left only by {@code return} (bound {@code 1 + (bound mod 3)}).
   */
  public record ReturnLoop(int bound, Cond condition) {}

  /**
   * A method: its parameters' kinds in order ({@code true} for double, {@code false} for int),
   * the rotation of the parameter names, its body, and the returned expression.
   */
  public record Method(List<Boolean> kinds, int names, List<Stmt> body, DExpr result,
      Optional<ReturnLoop> returnLoop) {
    public int doubles() {
      return (int) kinds.stream().filter(k -> k).count();
    }

    public Class<?>[] parameterTypes() {
      return kinds.stream().map(k -> k ? double.class : int.class).toArray(Class<?>[]::new);
    }
  }

  /**
   * A helper {@code hI} and a main method {@code mI} that calls it; when recursive (and the
   * helper has an int parameter n), the helper starts with {@code if (n <= 0) return base;}.
   * Candidate points: doubles in [-2, 2], ints in [-1, 5].
   */
  public record Unit(Method helper, boolean recursive, Expr base, Method main,
      List<Double> doubles, List<Integer> ints) {
    /** The arguments of point {@code p} for method m (boxed Double and Integer). */
    public Object[] arguments(Method m, int p) {
      Object[] arguments = new Object[m.kinds().size()];
      int d = 0;
      int i = 0;
      for (int k = 0; k < arguments.length; k++) {
        arguments[k] = m.kinds().get(k)
            ? (Object) doubles.get((p * 4 + d++) % doubles.size())
            : (Object) ints.get((p * 2 + i++) % ints.size());
      }
      return arguments;
    }

    @Override
    public String toString() {
      Compiled[] pair = compile(this, 0);
      return "\n" + pair[0].source + pair[1].source + "at " + java.util.stream.IntStream
          .range(0, 3).mapToObj(p -> Arrays.toString(arguments(main, p))).toList();
    }
  }

  // ---- the generator ---------------------------------------------------------------------------

  static final String[] INT_PARAMETER_NAMES = {"n", "m", "count", "steps"};

  /**
   * The arbitrary behind an identity: jqwik memoizes generators by the arbitrary's equality,
   * which for combined arbitraries is structural; on these deep, shared trees that made every
   * sample cost milliseconds.
   */
  private static <T> Arbitrary<T> shared(Arbitrary<T> arbitrary) {
    return Arbitraries.lazy(() -> arbitrary);
  }

  private static Arbitrary<IExpr> intExpressions() {
    Arbitrary<IExpr> atom = Arbitraries.frequencyOf(
        Tuple.of(5, Arbitraries.integers().between(0, 40).map(IVar::new)),
        Tuple.of(3, Arbitraries.integers().between(0, 7).map(ILit::new)),
        Tuple.of(1, RandomPrograms.expressions(1).map(ICast::new)));
    atom = shared(atom);
    Arbitrary<IExpr> binary = Combinators.combine(atom, Arbitraries.of('+', '-', '+', '*', '%'),
        atom).as(IBin::new);
    return Arbitraries.frequencyOf(Tuple.of(3, atom), Tuple.of(2, binary));
  }

  private static Arbitrary<Cond> conditions(Arbitrary<IExpr> ints) {
    Arbitrary<Expr> e = shared(RandomPrograms.expressions(1));
    Arbitrary<Integer> op = Arbitraries.integers().between(0, 5);
    Arbitrary<Cond> atom = Arbitraries.frequencyOf(
        Tuple.of(5, Combinators.combine(e, op, e).as(Cmp::new)),
        Tuple.of(2, Combinators.combine(ints, op, ints).as(ICmp::new)),
        Tuple.of(1, Arbitraries.integers().between(0, 20).map(BVar::new)));
    atom = shared(atom);
    Arbitrary<Cond> level = Arbitraries.frequencyOf(Tuple.of(5, atom),
        Tuple.of(1, Combinators.combine(atom, atom).as(And::new)),
        Tuple.of(1, Combinators.combine(atom, atom).as(Or::new)),
        Tuple.of(1, atom.map(Not::new)));
    level = shared(level);
    return Arbitraries.frequencyOf(Tuple.of(4, level),
        Tuple.of(1, Combinators.combine(level, level).as(And::new)),
        Tuple.of(1, Combinators.combine(level, level).as(Or::new)));
  }

  private static Arbitrary<DExpr> doubleExpressions(Arbitrary<Expr> e, Arbitrary<Cond> c,
      Arbitrary<IExpr> ints) {
    Arbitrary<DExpr> plain = e.map(Plain::new);
    Arbitrary<DExpr> call = Combinators.combine(e.list().ofSize(2), ints).as(HelperCall::new);
    Arbitrary<DExpr> leaf = shared(Arbitraries.frequencyOf(Tuple.of(5, plain), Tuple.of(2, call)));
    Arbitrary<DExpr> ternary = shared(Combinators.combine(c, leaf, leaf).as(Ternary::new));
    Arbitrary<DExpr> combine = Combinators.combine(Arbitraries.oneOf(leaf, ternary),
        Arbitraries.of('+', '-', '*'), Arbitraries.oneOf(leaf, ternary)).as(Combine::new);
    return Arbitraries.frequencyOf(Tuple.of(6, leaf), Tuple.of(2, ternary), Tuple.of(2, combine));
  }

  /** Statements nested at most {@code depth} deep. */
  private static Arbitrary<Stmt> statements(int depth, Arbitrary<DExpr> d, Arbitrary<Cond> c,
      Arbitrary<IExpr> ints) {
    Arbitrary<Integer> index = Arbitraries.integers().between(0, 40);
    Arbitrary<Stmt> simple = shared(Arbitraries.frequencyOf(
        Tuple.of(5, d.map(DeclD::new)),
        Tuple.of(5, Combinators.combine(index, Arbitraries.of("=", "+=", "-=", "*="), d)
            .as(AssignD::new)),
        Tuple.of(2, ints.map(DeclI::new)),
        Tuple.of(3, Combinators.combine(index, Arbitraries.integers().between(0, 3), ints)
            .as(UpdateI::new)),
        Tuple.of(1, c.map(DeclB::new)),
        Tuple.of(2, Combinators.combine(Arbitraries.integers().between(0, 3), c).as(Break::new)),
        Tuple.of(2, Combinators.combine(Arbitraries.integers().between(0, 3), c)
            .as(Continue::new)),
        Tuple.of(1, Combinators.combine(c, d).as(Return::new)),
        Tuple.of(1, Combinators.combine(ints, ints).as(DeadDivision::new)),
        Tuple.of(2, Combinators.combine(index, index, Arbitraries.integers().between(0, 3), d)
            .as(SideEffects::new)),
        Tuple.of(1, Combinators.combine(RandomPrograms.expressions(1).list().ofSize(2), ints)
            .as((arguments, count) -> new CallStatement(new HelperCall(arguments, count))))));
    if (depth == 0) {
      return simple;
    }
    Arbitrary<List<Stmt>> inner = shared(shared(statements(depth - 1, d, c, ints)).list()
        .ofMinSize(1).ofMaxSize(4));
    Arbitrary<Integer> bound = Arbitraries.integers().between(-1, 4);
    Arbitrary<Stmt> ifs = Combinators.combine(c, inner,
        Arbitraries.oneOf(inner, Arbitraries.just(List.<Stmt>of()))).as(If::new);
    Arbitrary<Stmt> fors = Combinators.combine(Arbitraries.integers().between(0, 2), bound, inner)
        .as(For::new);
    Arbitrary<Stmt> whiles = Combinators.combine(bound, c.optional(), inner).as(While::new);
    Arbitrary<Stmt> dos = Combinators.combine(bound, c.optional(), inner).as(Do::new);
    return Arbitraries.frequencyOf(Tuple.of(8, simple), Tuple.of(3, ifs), Tuple.of(3, fors),
        Tuple.of(1, whiles), Tuple.of(1, dos));
  }

  private static Arbitrary<List<Boolean>> kinds(int minDoubles, int maxDoubles, int maxInts) {
    return Combinators.combine(Arbitraries.integers().between(minDoubles, maxDoubles),
            Arbitraries.integers().between(0, maxInts), Arbitraries.integers().between(0, 5))
        .as((doubles, ints, rotation) -> {
          List<Boolean> kinds = new ArrayList<>();
          for (int i = 0; i < doubles; i++) {
            kinds.add(true);
          }
          for (int i = 0; i < ints; i++) {
            kinds.add(Math.min(kinds.size(), (rotation + 2 * i) % (kinds.size() + 1)), false);
          }
          return kinds;
        });
  }

  /**
   * The expression with {@code float} literals and constants replaced by {@code double} ones of
   * the same value, casts to {@code float} by casts to {@code double}, and the first argument of
   * {@code signum copySign fma scalb abs min max} multiplied by {@code 1.0} (so that their
   * {@code float} or {@code int} overloads are not chosen): no intermediate is a {@code float}.
   */
  static Expr withoutFloats(Expr expr) {
    if (expr instanceof RandomPrograms.Lit l && l.type() == Type.FLOAT
        || expr instanceof RandomPrograms.Named n && n.type() == Type.FLOAT) {
      double value = expr instanceof RandomPrograms.Lit l ? l.value()
          : ((RandomPrograms.Named) expr).value();
      return new RandomPrograms.Lit(Double.toString(value), Type.DOUBLE, value);
    } else if (expr instanceof RandomPrograms.Unary u) {
      return new RandomPrograms.Unary(u.minus(), withoutFloats(u.operand()));
    } else if (expr instanceof RandomPrograms.Bin b) {
      return new RandomPrograms.Bin(withoutFloats(b.left()), b.op(), withoutFloats(b.right()));
    } else if (expr instanceof RandomPrograms.Cast c) {
      return new RandomPrograms.Cast(c.target() == Type.FLOAT ? Type.DOUBLE : c.target(),
          withoutFloats(c.operand()));
    } else if (expr instanceof RandomPrograms.Call c) {
      List<Expr> arguments = new ArrayList<>(c.arguments().stream()
          .map(ControlFlowPrograms::withoutFloats).toList());
      if (List.of("signum", "copySign", "fma", "scalb", "abs", "min", "max")
          .contains(c.function())) {
        arguments.set(0, new RandomPrograms.Bin(arguments.get(0), '*',
            new RandomPrograms.Lit("1.0", Type.DOUBLE, 1.0)));
      }
      return new RandomPrograms.Call(c.owner(), c.function(), arguments);
    }
    return expr;
  }

  /** Units (helper and main) with points enough for {@code pointCount} evaluations. */
  public static Arbitrary<Unit> units(int pointCount) {
    Arbitrary<Expr> e = shared(RandomPrograms.expressions(2));
    Arbitrary<IExpr> ints = shared(intExpressions());
    Arbitrary<Cond> c = shared(conditions(ints));
    Arbitrary<DExpr> d = shared(doubleExpressions(e, c, ints));
    Arbitrary<Integer> names = Arbitraries.integers().between(0,
        RandomPrograms.PARAMETER_NAMES.length - 1);
    Arbitrary<Optional<ReturnLoop>> returnLoop = Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.just(Optional.<ReturnLoop>empty())),
        Tuple.of(1, Combinators.combine(Arbitraries.integers().between(0, 2), c)
            .as((bound, condition) -> Optional.of(new ReturnLoop(bound, condition)))));
    Arbitrary<Method> helper = Combinators.combine(kinds(1, 2, 1), names,
        statements(1, d, c, ints).list().ofMaxSize(4), d, returnLoop).as(Method::new);
    Arbitrary<Method> main = Combinators.combine(kinds(1, 3, 2), names,
        statements(2, d, c, ints).list().ofMaxSize(6), d, returnLoop).as(Method::new);
    return Combinators.combine(helper, Arbitraries.of(false, false, true), e, main,
            Arbitraries.doubles().between(-2, 2).ofScale(12)
                .withDistribution(RandomDistribution.uniform()).list().ofSize(4 * pointCount),
            Arbitraries.integers().between(-1, 5).list().ofSize(2 * pointCount))
        .as(Unit::new);
  }

  // ---- rendering and interpretation ------------------------------------------------------------

  /** The source of the class {@code com.example.Flows} holding {@code h0, m0, h1, m1, ...}. */
  public static String classSource(List<Unit> units) {
    StringBuilder source = new StringBuilder(String.join("\n",
        "package com.example;",
        "",
        "import static java.lang.Math.*;",
        "import static java.lang.StrictMath.cos;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Flows {",
        "  private static final double K0 = 0.625;",
        "  static final int N1 = -3;",
        "  static final long L2 = 5L;",
        "  static final float F3 = 0.1f;",
        "  static final double R4 = Math.sqrt(2.0); // static final, not a compile-time constant",
        "  static final char C5 = 'b';",
        "",
        "  private Flows() {}",
        ""));
    for (int i = 0; i < units.size(); i++) {
      Compiled[] pair = compile(units.get(i), i);
      source.append(pair[0].source).append(pair[1].source);
    }
    return source.append("}\n").toString().replace("Programs.K0", "Flows.K0");
  }

  /** Renders unit {@code i} as {@code hI} and {@code mI}, with their interpreters. */
  public static Compiled[] compile(Unit unit, int i) {
    Compiled helper = new MethodRenderer(unit.helper(), "h" + i, null, unit.recursive(),
        unit.base()).render();
    Compiled main = new MethodRenderer(unit.main(), "m" + i, helper, false, null).render();
    return new Compiled[] {helper, main};
  }

  /** A rendered method and its interpreter. */
  public static final class Compiled {
    final String name;
    final Method method;
    String source;
    int slots;
    Exec body;
    Eval result;

    Compiled(String name, Method method) {
      this.name = name;
      this.method = method;
    }

    public String name() {
      return name;
    }

    public Method method() {
      return method;
    }

    public String source() {
      return source;
    }

    /** The method's value for the (boxed Double and Integer) arguments, as Java computes it. */
    public double evaluate(Object[] arguments, Trace trace) {
      double[] x = new double[arguments.length];
      for (int i = 0; i < x.length; i++) {
        x[i] = ((Number) arguments[i]).doubleValue();
      }
      return run(x, trace);
    }

    double run(double[] arguments, Trace trace) {
      Frame frame = new Frame(Arrays.copyOf(arguments, slots), trace);
      if (body.run(frame) == RETURN) {
        return frame.returned;
      }
      return result.eval(frame.env, trace).to(Type.DOUBLE).d();
    }
  }

  /**
   * Whether the generator steers clear of the shapes of known, open processor bugs (each has a
   * {@code @Disabled} test in {@code ControlFlowProgramsRegressionTest}); true unless
   * {@code -Dad4j.knownBugs=include}. Currently (bugs 1 and 2: an exit nested in an {@code if},
   * followed by more code, makes the generated code fail to compile): no {@code return} is
   * generated inside an {@code if} statement (at any depth, loops in between too), and no
   * {@code break} or {@code continue} inside an {@code if} statement of the innermost loop's
   * body. The exits' own guards {@code if (c) { break; }} are not counted. Bug 3 (a
   * {@code float} intermediate inside a loop is taped and read back with {@code popDouble()}
   * into a {@code float} local, which does not compile): every expression is rewritten to
   * compute in {@code double} instead of {@code float} ({@link #withoutFloats}; the straight-line
   * property test covers {@code float} arithmetic outside loops). Bug 4 (a local declared in an
   * {@code if} branch and read in a loop inside that branch is referenced by the reverse sweep
   * outside the block that declares it): a {@code double} or {@code int} local declared inside an
   * {@code if} is not used inside loops nested deeper than its declaration; the same holds for
   * locals declared after any {@code break}, {@code continue} or {@code return} of the method
   * (code after a loop with an early {@code return} is conditional too), and for variables
   * (parameters too) assigned in such places. Also, an {@code if}
   * condition that is a constant expression is replaced by {@code p == p} or {@code p != p} (p
   * the first double parameter), whichever has its value at every point used (this was a
   * suspect while bug 4 was isolated; it is kept because it does no harm). Bug 5 (an integer
   * branch of a {@code double} {@code ?:} whose text is {@code (a) op (b)} is emitted as
   * {@code (double) (a) op (b)}, so the operation is done in {@code double}): such branches are
   * parenthesized once more.
   */
  public static final boolean AVOID_KNOWN_BUGS =
      "avoid".equals(System.getProperty("ad4j.knownBugs"));

  private static final int NORMAL = 0;
  private static final int BREAK = 1;
  private static final int CONTINUE = 2;
  private static final int RETURN = 3;
  private static final long MAX_STEPS = 10_000_000;

  /** The state of one activation of the interpreter. */
  static final class Frame {
    final double[] env;
    final Trace trace;
    int label;
    double returned;
    long steps;

    Frame(double[] env, Trace trace) {
      this.env = env;
      this.trace = trace;
    }

    void tick() {
      if (++steps > MAX_STEPS) {
        throw new AssertionError("generator bug: a loop of a generated program does not stop");
      }
    }
  }

  /** A statement's interpreter: returns NORMAL, BREAK, CONTINUE or RETURN. */
  interface Exec {
    int run(Frame frame);
  }

  interface CondEval {
    boolean eval(double[] env, Trace trace);
  }

  interface IntEval {
    int eval(double[] env, Trace trace);
  }

  private record Piece(String text, Exec exec) {}

  private record CondNode(String text, int precedence, CondEval eval, boolean constant) {
    CondNode(String text, int precedence, CondEval eval) {
      this(text, precedence, eval, false);
    }
  }

  private record IntNode(String text, boolean primary, IntEval eval, boolean constant) {
    IntNode(String text, boolean primary, IntEval eval) {
      this(text, primary, eval, false);
    }
  }

  private enum Kind { DOUBLE, INT, BOOLEAN }

  /** A variable; {@code ifs} and {@code loops}: how many of them were around its declaration. */
  private record Local(String name, int slot, Kind kind, boolean assignable, int ifs, int loops) {
    Local(String name, int slot, Kind kind, boolean assignable) {
      this(name, slot, kind, assignable, 0, 0);
    }
  }

  private static final class Loop {
    final int id;
    boolean labelled;

    Loop(int id) {
      this.id = id;
    }
  }

  private static final String[] OPERATORS = {"<", "<=", ">", ">=", "==", "!="};
  private static final int OR = 1;
  private static final int AND = 2;
  private static final int RELATIONAL = 3;
  private static final int NOT = 4;

  private static final class MethodRenderer {
    private final Method method;
    private final Compiled compiled;
    private final Compiled helper;
    private final boolean recursive;
    private final Expr base;
    private final List<Local> scope = new ArrayList<>();
    /** The names of the locals declared so far, in scope or not. */
    private final java.util.Set<String> names = new java.util.LinkedHashSet<>();
    private final List<Loop> loops = new ArrayList<>();
    private int slots;
    private int counters;
    private boolean inResult;
    private int ifDepth;
    private int ifsAround;
    private boolean exitsSeen;
    /** Slots assigned in a conditional region (bug 4), with the loop depth of the assignment. */
    private final java.util.Map<Integer, Integer> tainted = new java.util.HashMap<>();
    private Local recursionCount;

    MethodRenderer(Method method, String name, Compiled helper, boolean recursive, Expr base) {
      this.method = method;
      this.compiled = new Compiled(name, method);
      this.helper = helper;
      this.recursive = recursive;
      this.base = base;
    }

    Compiled render() {
      List<String> parameters = new ArrayList<>();
      int d = 0;
      int n = 0;
      for (boolean isDouble : method.kinds()) {
        String name = isDouble
            ? RandomPrograms.PARAMETER_NAMES[(method.names() + d++)
                % RandomPrograms.PARAMETER_NAMES.length]
            : INT_PARAMETER_NAMES[n++];
        Local local = new Local(name, slots++, isDouble ? Kind.DOUBLE : Kind.INT, isDouble);
        scope.add(local);
        if (!isDouble && recursionCount == null) {
          recursionCount = local;
        }
        parameters.add((isDouble ? "double " : "int ") + name);
      }
      StringBuilder text = new StringBuilder();
      List<Exec> execs = new ArrayList<>();
      if (recursive && recursionCount != null) {
        exitsSeen = true; // bug 4
        Node value = render(base);
        int slot = recursionCount.slot;
        Eval eval = value.eval();
        text.append("    if (").append(recursionCount.name).append(" <= 0) {\n      return ")
            .append(value.text()).append(";\n    }\n");
        execs.add(frame -> {
          boolean stop = (int) frame.env[slot] <= 0;
          frame.trace.signature().add(stop ? 1.0 : 0.0);
          if (stop) {
            frame.returned = eval.eval(frame.env, frame.trace).to(Type.DOUBLE).d();
            return RETURN;
          }
          return NORMAL;
        });
      }
      Piece body = block(method.body(), "    ");
      text.append(body.text());
      execs.add(body.exec());
      if (method.returnLoop().isPresent()) {
        exitsSeen = true; // bug 4
        execs.add(returnLoop(method.returnLoop().get(), text));
        compiled.result = (env, trace) -> {
          throw new AssertionError("generator bug: the loop only ends by return");
        };
      } else {
        inResult = true;
        Node result = expression(method.result());
        text.append("    return ").append(result.text()).append(";\n");
        compiled.result = result.eval();
      }
      compiled.source = "  @Differentiable\n  static double " + compiled.name + "("
          + String.join(", ", parameters) + ") {\n" + text + "  }\n\n";
      compiled.slots = slots;
      compiled.body = sequence(execs);
      return compiled;
    }

    /**
     * {@code int eN = 0; for (;;) { eN++; if (eN >= B || c) { return r; } }}: the method ends
     * in a loop that only a {@code return} leaves; {@code eN} is in scope for c and r.
     */
    private Exec returnLoop(ReturnLoop loop, StringBuilder text) {
      Local counter = declare("e", Kind.INT, false);
      scope.add(counter);
      int bound = 1 + Math.floorMod(loop.bound(), 3);
      CondNode condition = condition(loop.condition());
      inResult = true;
      Node result = expression(method.result());
      text.append("    int ").append(counter.name).append(" = 0;\n")
          .append("    for (;;) {\n")
          .append("      ").append(counter.name).append("++;\n")
          .append("      if (").append(counter.name).append(" >= ").append(bound).append(" || ")
          .append(wrap(condition, OR)).append(") {\n")
          .append("        return ").append(result.text()).append(";\n")
          .append("      }\n")
          .append("    }\n");
      int slot = counter.slot;
      CondEval test = condition.eval();
      Eval value = result.eval();
      return frame -> {
        frame.env[slot] = 0;
        while (true) {
          frame.env[slot] += 1;
          boolean done = frame.env[slot] >= bound || test.eval(frame.env, frame.trace);
          if (done) {
            frame.returned = value.eval(frame.env, frame.trace).to(Type.DOUBLE).d();
            return RETURN;
          }
        }
      };
    }

    private static Exec sequence(List<Exec> execs) {
      Exec[] array = execs.toArray(Exec[]::new);
      return frame -> {
        for (Exec exec : array) {
          int status = exec.run(frame);
          if (status != NORMAL) {
            return status;
          }
        }
        return NORMAL;
      };
    }

    /** Statements in a nested scope (their locals go out of scope after them). */
    private Piece block(List<Stmt> statements, String indent) {
      int size = scope.size();
      StringBuilder text = new StringBuilder();
      List<Exec> execs = new ArrayList<>();
      for (Stmt statement : statements) {
        Piece piece = statement(statement, indent);
        text.append(piece.text());
        execs.add(piece.exec());
      }
      scope.subList(size, scope.size()).clear();
      return new Piece(text.toString(), sequence(execs));
    }

    private Local declare(String prefix, Kind kind, boolean assignable) {
      return new Local(name(prefix), slots++, kind, assignable,
          ifsAround + (exitsSeen ? 1 : 0), loops.size());
    }

    /**
     * A new local's name: every other one takes the name of an earlier local of its prefix that
     * is out of scope now (declared in a loop's body or a branch that ended), as Java allows,
     * so that a name means different locals in different places (a planner that went by the
     * first declaration of a name lost a later local's assignments in loops).
     */
    private String name(String prefix) {
      String name = prefix + slots;
      if (slots % 2 == 0) {
        for (String earlier : names) {
          if (earlier.startsWith(prefix)
              && scope.stream().noneMatch(local -> local.name.equals(earlier))) {
            name = earlier;
            break;
          }
        }
      }
      names.add(name);
      return name;
    }

    private List<Local> locals(Kind kind, boolean assignableOnly) {
      List<Local> all = scope.stream()
          .filter(l -> l.kind == kind && (l.assignable || !assignableOnly)).toList();
      List<Local> safe = all.stream().filter(l -> !AVOID_KNOWN_BUGS
          || !(l.ifs > 0 && loops.size() > l.loops)
              && !(tainted.containsKey(l.slot) && loops.size() > tainted.get(l.slot)))
          .toList(); // bug 4
      return safe;
    }

    private void assigned(Local target) {
      if (ifsAround > 0 || exitsSeen) {
        tainted.merge(target.slot, loops.size(), Math::min);
      }
    }

    /** Doubles twice, ints once: Var(k) picks a double two times in three. */
    private List<Variable> numericScope() {
      List<Variable> variables = new ArrayList<>();
      for (int pass = 0; pass < 2; pass++) {
        for (Local local : locals(Kind.DOUBLE, false)) {
          variables.add(new Variable(local.name, local.slot, false, Type.DOUBLE));
        }
      }
      for (Local local : locals(Kind.INT, false)) {
        variables.add(new Variable(local.name, local.slot, false, Type.INT));
      }
      if (variables.isEmpty()) { // cannot happen: a loop's counter or guard is always visible
        throw new AssertionError("generator bug: no variable in scope");
      }
      return variables;
    }

    /** {@link SideEffects}: each form executed in Java's order of evaluation. */
    private Piece sideEffects(SideEffects s, String indent) {
      List<Local> doubles = locals(Kind.DOUBLE, true);
      List<Local> ints = locals(Kind.INT, true);
      boolean needsInt = s.form() >= 2;
      if (doubles.isEmpty() || (needsInt && ints.isEmpty())) {
        return new Piece("", frame -> NORMAL);
      }
      Local a = doubles.get(Math.floorMod(s.a(), doubles.size()));
      Local b = needsInt ? ints.get(Math.floorMod(s.b(), ints.size()))
          : doubles.get(Math.floorMod(s.b(), doubles.size()));
      Node value = expression(s.value());
      Eval e = value.eval();
      assigned(a);
      assigned(b);
      int as = a.slot;
      int bs = b.slot;
      return switch (s.form()) {
        case 0 -> new Piece(indent + a.name + " = " + b.name + " = " + value.text() + ";\n",
            frame -> {
              double v = e.eval(frame.env, frame.trace).to(Type.DOUBLE).d();
              frame.env[bs] = v;
              frame.env[as] = v;
              return NORMAL;
            });
        case 1 -> new Piece(indent + a.name + " = (" + b.name + " += " + value.text() + ") * "
            + b.name + ";\n", frame -> {
              double v = frame.env[bs] + e.eval(frame.env, frame.trace).to(Type.DOUBLE).d();
              frame.env[bs] = v;
              frame.env[as] = v * v;
              // intermediates of the statement itself, as the expressions' are: a value that
              // overflows in a loop makes its derivatives NaN even where the result does not
              // read it (0 * infinity in the reverse sweep)
              frame.trace.record(Type.DOUBLE, v);
              frame.trace.record(Type.DOUBLE, v * v);
              return NORMAL;
            });
        case 2 -> new Piece(indent + a.name + " += " + a.name + " * (" + b.name + "++);\n",
            frame -> {
              double old = frame.env[as];
              int k = (int) frame.env[bs];
              frame.env[bs] = k + 1;
              frame.env[as] = old + old * k;
              frame.trace.record(Type.DOUBLE, old * k);
              frame.trace.record(Type.DOUBLE, old + old * k);
              return NORMAL;
            });
        default -> {
          // --b * (value) multiplies in the type the two promote to: an int value makes it an
          // int multiplication, which wraps around (4 * (int) expm1('b') is -4, not 8.6e9)
          Node decremented = new Node("--" + b.name, RandomPrograms.UNARY, Type.INT, false,
              (env, trace) -> {
                int k = (int) env[bs] - 1;
                env[bs] = k;
                return new Num(Type.INT, k, 0);
              });
          Eval times = RandomPrograms.binary(decremented, '*', value);
          yield new Piece(indent + a.name + " -= --" + b.name + " * (" + value.text()
              + ");\n", frame -> {
              double old = frame.env[as];
              double product = times.eval(frame.env, frame.trace).to(Type.DOUBLE).d();
              frame.env[as] = old - product;
              frame.trace.record(Type.DOUBLE, product);
              frame.trace.record(Type.DOUBLE, old - product);
              return NORMAL;
            });
        }
      };
    }

    private Piece statement(Stmt statement, String indent) {
      String inner = indent + "  ";
      if (statement instanceof DeclD s) {
        Node init = expression(s.init());
        Local v = declare("v", Kind.DOUBLE, true);
        scope.add(v);
        Eval eval = init.eval();
        return new Piece(indent + "double " + v.name + " = " + init.text() + ";\n", frame -> {
          frame.env[v.slot] = eval.eval(frame.env, frame.trace).to(Type.DOUBLE).d();
          return NORMAL;
        });
      } else if (statement instanceof AssignD s) {
        List<Local> targets = locals(Kind.DOUBLE, true);
        if (targets.isEmpty()) { // all of them hidden because of bug 4
          return new Piece("", frame -> NORMAL);
        }
        Local target = targets.get(Math.floorMod(s.target(), targets.size()));
        Node value = expression(s.value());
        assigned(target);
        String text = indent + target.name + " " + s.op() + " " + value.text() + ";\n";
        Eval eval;
        if (s.op().equals("=")) {
          eval = value.eval();
        } else {
          int slot = target.slot;
          Node current = new Node(target.name, RandomPrograms.PRIMARY, Type.DOUBLE, false,
              (env, trace) -> new Num(Type.DOUBLE, 0, env[slot]));
          eval = RandomPrograms.binary(current, s.op().charAt(0), value);
        }
        return new Piece(text, frame -> {
          frame.env[target.slot] = eval.eval(frame.env, frame.trace).to(Type.DOUBLE).d();
          return NORMAL;
        });
      } else if (statement instanceof SideEffects s) {
        return sideEffects(s, indent);
      } else if (statement instanceof DeadDivision s) {
        IntNode numerator = intExpression(s.numerator());
        // an int variable (or 1 when there is none): javac warns about a divisor that is a
        // constant zero, and an expression of constants may be one
        IntNode divisor = intExpression(s.divisor() instanceof IVar v ? v : new IVar(0));
        String name = "q" + slots++;
        IntEval n = numerator.eval();
        IntEval q = divisor.eval();
        String divisorText = divisor.primary() ? divisor.text() : "(" + divisor.text() + ")";
        String numeratorText = numerator.primary() ? numerator.text()
            : "(" + numerator.text() + ")";
        return new Piece(indent + "int " + name + " = " + numeratorText + " / "
            + divisorText + ";\n", frame -> {
              int dividend = n.eval(frame.env, frame.trace);
              int by = q.eval(frame.env, frame.trace);
              if (by == 0) {
                throw new ArithmeticException("/ by zero");
              }
              return NORMAL;
            });
      } else if (statement instanceof CallStatement s) {
        if (helper == null) {
          return new Piece("", frame -> NORMAL); // the helper calls nothing
        }
        Node call = helperCall(s.call());
        Eval eval = call.eval();
        return new Piece(indent + call.text() + ";\n", frame -> {
          eval.eval(frame.env, frame.trace);
          return NORMAL;
        });
      } else if (statement instanceof DeclI s) {
        IntNode init = intExpression(s.init());
        Local k = declare("k", Kind.INT, true);
        scope.add(k);
        return new Piece(indent + "int " + k.name + " = " + init.text() + ";\n", frame -> {
          frame.env[k.slot] = init.eval().eval(frame.env, frame.trace);
          return NORMAL;
        });
      } else if (statement instanceof UpdateI s) {
        List<Local> targets = locals(Kind.INT, true);
        if (targets.isEmpty()) {
          return new Piece("", frame -> NORMAL);
        }
        Local k = targets.get(Math.floorMod(s.target(), targets.size()));
        assigned(k);
        int slot = k.slot;
        switch (s.form()) {
          case 0, 1 -> {
            int delta = s.form() == 0 ? 1 : -1;
            return new Piece(indent + k.name + (delta > 0 ? "++" : "--") + ";\n", frame -> {
              frame.env[slot] = (int) frame.env[slot] + delta;
              return NORMAL;
            });
          }
          default -> {
            IntNode value = intExpression(s.value());
            boolean add = s.form() == 2;
            IntEval eval = value.eval();
            return new Piece(indent + k.name + (add ? " += " : " = ") + value.text() + ";\n",
                frame -> {
                  int v = eval.eval(frame.env, frame.trace);
                  frame.env[slot] = add ? (int) frame.env[slot] + v : v;
                  return NORMAL;
                });
          }
        }
      } else if (statement instanceof DeclB s) {
        CondNode init = condition(s.init());
        Local b = declare("b", Kind.BOOLEAN, false);
        scope.add(b);
        return new Piece(indent + "boolean " + b.name + " = " + init.text() + ";\n", frame -> {
          frame.env[b.slot] = init.eval().eval(frame.env, frame.trace) ? 1 : 0;
          return NORMAL;
        });
      } else if (statement instanceof If s) {
        CondNode c = condition(s.condition());
        if (AVOID_KNOWN_BUGS && c.constant()) { // bug 4
          Local p = scope.stream().filter(l -> l.kind == Kind.DOUBLE).findFirst().orElseThrow();
          boolean value = c.eval().eval(null, new Trace());
          int slot = p.slot;
          c = new CondNode(p.name + (value ? " == " : " != ") + p.name, RELATIONAL,
              (env, trace) -> (env[slot] == env[slot]) == value);
        }
        ifDepth++;
        ifsAround++;
        Piece then = block(s.then(), inner);
        Piece otherwise = s.otherwise().isEmpty() ? null : block(s.otherwise(), inner);
        ifDepth--;
        ifsAround--;
        String text = indent + "if (" + c.text() + ") {\n" + then.text() + indent + "}"
            + (otherwise == null ? "" : " else {\n" + otherwise.text() + indent + "}") + "\n";
        Exec a = then.exec();
        Exec b = otherwise == null ? frame -> NORMAL : otherwise.exec();
        CondEval test = c.eval();
        return new Piece(text, frame -> test.eval(frame.env, frame.trace)
            ? a.run(frame) : b.run(frame));
      } else if (statement instanceof For s) {
        return forLoop(s, indent);
      } else if (statement instanceof While s) {
        return guardedLoop(s.bound(), s.condition(), s.body(), false, indent);
      } else if (statement instanceof Do s) {
        return guardedLoop(s.bound(), s.condition(), s.body(), true, indent);
      } else if (statement instanceof Break s) {
        return jump(s.loop(), s.condition(), BREAK, indent);
      } else if (statement instanceof Continue s) {
        return jump(s.loop(), s.condition(), CONTINUE, indent);
      } else {
        Return s = (Return) statement;
        if (AVOID_KNOWN_BUGS && ifsAround > 0) {
          return new Piece("", frame -> NORMAL); // bugs 1 and 2
        }
        exitsSeen = true;
        CondNode c = condition(s.condition());
        Node value = expression(s.value());
        Eval eval = value.eval();
        return new Piece(indent + "if (" + c.text() + ") {\n" + inner + "return " + value.text()
            + ";\n" + indent + "}\n", frame -> {
              if (c.eval().eval(frame.env, frame.trace)) {
                frame.returned = eval.eval(frame.env, frame.trace).to(Type.DOUBLE).d();
                return RETURN;
              }
              return NORMAL;
            });
      }
    }

    private Piece jump(int loop, Cond condition, int kind, String indent) {
      if (loops.isEmpty() || AVOID_KNOWN_BUGS && ifDepth > 0) {
        return new Piece("", frame -> NORMAL); // bugs 1 and 2
      }
      exitsSeen = true;
      int depth = Math.floorMod(loop, loops.size());
      Loop target = loops.get(loops.size() - 1 - depth);
      String label = "";
      if (depth > 0) {
        target.labelled = true;
        label = " L" + target.id;
      }
      CondNode c = condition(condition);
      int id = target.id;
      return new Piece(indent + "if (" + c.text() + ") {\n" + indent + "  "
          + (kind == BREAK ? "break" : "continue") + label + ";\n" + indent + "}\n", frame -> {
            if (c.eval().eval(frame.env, frame.trace)) {
              frame.label = id;
              return kind;
            }
            return NORMAL;
          });
    }

    /** The loop's bound: a constant, or an int parameter. */
    private IntNode bound(int bound) {
      List<Local> parameters = scope.stream()
          .filter(l -> l.kind == Kind.INT && l.slot < method.kinds().size()).toList();
      if (bound >= 1 || parameters.isEmpty()) {
        int value = bound >= 1 ? bound : 3;
        return new IntNode(Integer.toString(value), true, (env, trace) -> value);
      }
      Local parameter = parameters.get(Math.floorMod(-bound, parameters.size()));
      int slot = parameter.slot;
      return new IntNode(parameter.name, true, (env, trace) -> (int) env[slot]);
    }

    /**
     * What a loop does with its body's status: true to leave the loop with {@code out[0]} as its
     * own status.
     */
    private static boolean leaves(int status, Frame frame, int id, int[] out) {
      if (status == NORMAL || status == CONTINUE && frame.label == id) {
        return false;
      }
      out[0] = status == BREAK && frame.label == id ? NORMAL : status;
      return true;
    }

    private Piece forLoop(For s, String indent) {
      IntNode bound = bound(s.bound());
      int size = scope.size();
      Loop loop = new Loop(counters++);
      loops.add(loop);
      Local counter = declare("i", Kind.INT, false);
      scope.add(counter);
      int ifs = ifDepth;
      ifDepth = 0;
      Piece body = block(s.body(), indent + "  ");
      ifDepth = ifs;
      loops.remove(loops.size() - 1);
      scope.subList(size, scope.size()).clear();
      String i = counter.name;
      String header = switch (s.form()) {
        case 0 -> "for (int " + i + " = 0; " + i + " < " + bound.text() + "; " + i + "++)";
        case 1 -> "for (int " + i + " = " + bound.text() + "; " + i + " > 0; " + i + "--)";
        default -> "for (int " + i + " = 1; " + i + " <= " + bound.text() + "; " + i + "++)";
      };
      String text = indent + (loop.labelled ? "L" + loop.id + ":\n" + indent : "") + header
          + " {\n" + body.text() + indent + "}\n";
      int slot = counter.slot;
      int form = s.form();
      IntEval limit = bound.eval();
      Exec exec = body.exec();
      int id = loop.id;
      return new Piece(text, frame -> {
        double[] env = frame.env;
        int b = limit.eval(env, frame.trace);
        env[slot] = form == 0 ? 0 : form == 1 ? b : 1;
        int[] out = new int[1];
        while (form == 0 ? (int) env[slot] < b : form == 1 ? (int) env[slot] > 0
            : (int) env[slot] <= b) {
          frame.tick();
          if (leaves(exec.run(frame), frame, id, out)) {
            return out[0];
          }
          env[slot] = (int) env[slot] + (form == 1 ? -1 : 1);
        }
        return NORMAL;
      });
    }

    private Piece guardedLoop(int boundIndex, Optional<Cond> condition, List<Stmt> statements,
        boolean isDo, String indent) {
      IntNode bound = bound(boundIndex);
      Local declared = declare("w", Kind.INT, false);
      // readable in its own loop's body: the innermost loop always has a visible int
      Local guard = new Local(declared.name, declared.slot, Kind.INT, false, declared.ifs,
          declared.loops + 1);
      CondNode extra = condition.map(this::condition).orElse(null);
      scope.add(guard); // readable in the body and after the loop
      int size = scope.size();
      Loop loop = new Loop(counters++);
      loops.add(loop);
      int ifs = ifDepth;
      ifDepth = 0;
      Piece body = block(statements, indent + "  ");
      ifDepth = ifs;
      loops.remove(loop);
      scope.subList(size, scope.size()).clear();
      String w = guard.name;
      String test = w + " < " + bound.text() + (extra == null ? ""
          : " && " + (extra.precedence() <= AND ? "(" + extra.text() + ")" : extra.text()));
      String label = loop.labelled ? "L" + loop.id + ":\n" + indent : "";
      String increment = indent + "  " + w + "++;\n";
      String text = indent + "int " + w + " = 0;\n" + indent + label
          + (isDo ? "do {\n" + increment + body.text() + indent + "} while (" + test + ");\n"
              : "while (" + test + ") {\n" + increment + body.text() + indent + "}\n");
      int slot = guard.slot;
      IntEval limit = bound.eval();
      CondEval more = extra == null ? (env, trace) -> true : extra.eval();
      Exec exec = body.exec();
      int id = loop.id;
      return new Piece(text, frame -> {
        double[] env = frame.env;
        env[slot] = 0;
        int[] out = new int[1];
        if (!isDo && !((int) env[slot] < limit.eval(env, frame.trace)
            && more.eval(env, frame.trace))) {
          return NORMAL;
        }
        do {
          frame.tick();
          env[slot] = (int) env[slot] + 1;
          if (leaves(exec.run(frame), frame, id, out)) {
            return out[0];
          }
        } while ((int) env[slot] < limit.eval(env, frame.trace) && more.eval(env, frame.trace));
        return NORMAL;
      });
    }

    // ---- expressions ----

    private Node render(Expr expr) {
      return RandomPrograms.renderExpression(AVOID_KNOWN_BUGS ? withoutFloats(expr) : expr,
          numericScope());
    }

    private Node expression(DExpr expr) {
      if (expr instanceof Plain p) {
        return render(p.expr());
      } else if (expr instanceof Ternary t) {
        CondNode c = condition(t.condition());
        Node a = expression(t.ifTrue());
        Node b = expression(t.ifFalse());
        Type type = Type.promote(a.type(), b.type());
        if (type == Type.FLOAT) { // an integer beside a float is an error unless cast
          a = roundedToFloat(a);
          b = roundedToFloat(b);
        }
        // 'c ? C5 : 3' has type char (JLS 15.25), which ad4j rejects: the generator means int
        a = charAsInt(a);
        b = charAsInt(b);
        Eval ea = a.eval();
        Eval eb = b.eval();
        CondEval ec = c.eval();
        return new Node(c.text() + " ? " + wrapTernaryBranch(a) + " : " + wrapTernaryBranch(b),
            0, type, false, (env, trace) -> (ec.eval(env, trace) ? ea : eb).eval(env, trace)
                .to(type));
      } else if (expr instanceof Combine c) {
        Node a = expression(c.left());
        Node b = expression(c.right());
        int precedence = c.op() == '*' ? RandomPrograms.MULTIPLICATIVE : RandomPrograms.ADDITIVE;
        String l = a.precedence() < precedence ? "(" + a.text() + ")" : a.text();
        String r = b.precedence() <= precedence ? "(" + b.text() + ")" : b.text();
        return new Node(l + " " + c.op() + " " + r, precedence,
            Type.promote(a.type(), b.type()), a.constant() && b.constant(),
            RandomPrograms.binary(a, c.op(), b));
      } else {
        return helperCall((HelperCall) expr);
      }
    }

    /**
     * An integer operand of a {@code float} choice cast to {@code float}: without the cast, ad4j
     * rejects the choice, since compilers disagree on its value (javac widens the integer
     * straight to {@code double} where the choice is used as one).
     */
    private static Node roundedToFloat(Node node) {
      if (!node.type().integral()) {
        return node;
      }
      Eval eval = node.eval();
      String text = node.precedence() < RandomPrograms.PRIMARY ? "(" + node.text() + ")"
          : node.text();
      return new Node("(float) " + text, RandomPrograms.UNARY, Type.FLOAT, node.constant(),
          (env, trace) -> eval.eval(env, trace).to(Type.FLOAT));
    }

    /**
     * A {@code char} operand of a choice (the constant {@code C5}, a literal {@code '\u0003'})
     * cast to {@code int}: the generator takes it for an int, and beside an int constant it
     * makes the choice a {@code char} (JLS 15.25), which ad4j rejects (seed
     * 7570215578826861319 drew {@code c ? '\u0003' : 4}).
     */
    private static Node charAsInt(Node node) {
      if (!node.text().equals("C5") && !node.text().startsWith("'")) {
        return node;
      }
      Eval eval = node.eval();
      return new Node("(int) " + node.text(), RandomPrograms.UNARY, Type.INT, node.constant(),
          eval);
    }

    private static String wrapTernaryBranch(Node node) {
      return node.precedence() == 0
          || AVOID_KNOWN_BUGS && node.type().integral() && node.precedence() < RandomPrograms.PRIMARY
          ? "(" + node.text() + ")" : node.text(); // bug 5
    }

    private Node helperCall(HelperCall call) {
      boolean self = helper == null && recursive && recursionCount != null && inResult;
      if (helper == null && !self) {
        return render(call.arguments().get(0));
      }
      Method callee = self ? method : helper.method;
      String name = self ? compiled.name : helper.name;
      List<String> texts = new ArrayList<>();
      List<Object> evals = new ArrayList<>();
      int d = 0;
      IntNode count = intExpression(call.count());
      for (boolean isDouble : callee.kinds()) {
        if (isDouble) {
          Node argument = render(call.arguments().get(d++ % call.arguments().size()));
          texts.add(argument.text());
          evals.add(argument.eval());
        } else if (self) {
          String n = recursionCount.name;
          int slot = recursionCount.slot;
          texts.add(n + " - 1");
          evals.add((IntEval) (env, trace) -> (int) env[slot] - 1);
        } else {
          texts.add((count.primary() ? count.text() : "(" + count.text() + ")") + " & 3");
          IntEval eval = count.eval();
          evals.add((IntEval) (env, trace) -> eval.eval(env, trace) & 3);
        }
      }
      Compiled target = self ? compiled : helper;
      Object[] argumentEvals = evals.toArray();
      return new Node(name + "(" + String.join(", ", texts) + ")", RandomPrograms.PRIMARY,
          Type.DOUBLE, false, (env, trace) -> {
            double[] arguments = new double[argumentEvals.length];
            for (int i = 0; i < arguments.length; i++) {
              arguments[i] = argumentEvals[i] instanceof Eval e
                  ? e.eval(env, trace).to(Type.DOUBLE).d()
                  : ((IntEval) argumentEvals[i]).eval(env, trace);
            }
            return new Num(Type.DOUBLE, 0, target.run(arguments, trace));
          });
    }

    private IntNode intExpression(IExpr expr) {
      if (expr instanceof IVar v) {
        List<Local> ints = locals(Kind.INT, false);
        if (ints.isEmpty()) {
          // a literal: javac folds it, so it counts as a constant (a divisor (1 - 1) is a
          // constant zero that javac warns about)
          return new IntNode("1", true, (env, trace) -> 1, true);
        }
        Local local = ints.get(Math.floorMod(v.k(), ints.size()));
        int slot = local.slot;
        return new IntNode(local.name, true, (env, trace) -> (int) env[slot]);
      } else if (expr instanceof ILit l) {
        int value = l.value();
        return new IntNode(Integer.toString(value), true, (env, trace) -> value, true);
      } else if (expr instanceof IBin b) {
        IntNode left = intExpression(b.left());
        if (b.op() == '%') {
          int divisor = b.right() instanceof ILit l ? 2 + Math.floorMod(l.value(), 4) : 3;
          IntEval eval = left.eval();
          return new IntNode("(" + left.text() + " % " + divisor + ")", true,
              (env, trace) -> eval.eval(env, trace) % divisor, left.constant());
        }
        IntNode right = intExpression(b.right());
        IntEval l = left.eval();
        IntEval r = right.eval();
        char op = b.op();
        return new IntNode("(" + left.text() + " " + op + " " + right.text() + ")", true,
            (env, trace) -> {
              int x = l.eval(env, trace);
              int y = r.eval(env, trace);
              return op == '+' ? x + y : op == '-' ? x - y : x * y;
            }, left.constant() && right.constant());
      } else {
        Node operand = render(((ICast) expr).operand());
        Eval eval = operand.eval();
        if (operand.type() == Type.INT) {
          return new IntNode(operand.precedence() == RandomPrograms.PRIMARY ? operand.text()
              : "(" + operand.text() + ")", true, (env, trace) -> (int) eval.eval(env, trace).l(),
              operand.constant());
        }
        String text = operand.precedence() == RandomPrograms.PRIMARY ? operand.text()
            : "(" + operand.text() + ")";
        return new IntNode("((int) " + text + ")", true, (env, trace) -> {
          int value = (int) eval.eval(env, trace).to(Type.INT).l();
          trace.signature().add((double) value);
          return value;
        }, operand.constant());
      }
    }

    private CondNode condition(Cond cond) {
      if (cond instanceof Cmp c) {
        Node left = render(c.left());
        Node right = render(c.right());
        Type type = Type.promote(left.type(), right.type());
        int op = c.op() >= 4 && !type.integral() ? c.op() - 4 : c.op();
        Eval l = left.eval();
        Eval r = right.eval();
        return new CondNode(left.text() + " " + OPERATORS[op] + " " + right.text(), RELATIONAL,
            (CondEval) (env, trace) -> {
              Num a = l.eval(env, trace).to(type);
              Num b = r.eval(env, trace).to(type);
              int compare = type.integral() ? Long.compare(a.l(), b.l()) : 2;
              boolean outcome = type.integral() ? compare(op, compare)
                  : compare(op, a.d(), b.d());
              trace.signature().add(outcome ? 1.0 : 0.0);
              return outcome;
            }, left.constant() && right.constant());
      } else if (cond instanceof ICmp c) {
        IntNode left = intExpression(c.left());
        IntNode right = intExpression(c.right());
        IntEval l = left.eval();
        IntEval r = right.eval();
        int op = c.op();
        return new CondNode(left.text() + " " + OPERATORS[op] + " " + right.text(), RELATIONAL,
            (env, trace) -> {
              boolean outcome = compare(op, Integer.compare(l.eval(env, trace),
                  r.eval(env, trace)));
              trace.signature().add(outcome ? 1.0 : 0.0);
              return outcome;
            }, left.constant() && right.constant());
      } else if (cond instanceof And a) {
        CondNode l = condition(a.left());
        CondNode r = condition(a.right());
        return new CondNode(wrap(l, AND) + " && " + wrap(r, AND), AND,
            (env, trace) -> l.eval().eval(env, trace) && r.eval().eval(env, trace),
            l.constant() && r.constant());
      } else if (cond instanceof Or o) {
        CondNode l = condition(o.left());
        CondNode r = condition(o.right());
        return new CondNode(wrap(l, OR) + " || " + wrap(r, OR), OR,
            (env, trace) -> l.eval().eval(env, trace) || r.eval().eval(env, trace),
            l.constant() && r.constant());
      } else if (cond instanceof Not n) {
        CondNode operand = condition(n.operand());
        String text = operand.precedence() == NOT ? operand.text() : "(" + operand.text() + ")";
        return new CondNode("!" + text, NOT, (env, trace) -> !operand.eval().eval(env, trace),
            operand.constant());
      } else {
        List<Local> booleans = locals(Kind.BOOLEAN, false);
        if (booleans.isEmpty()) {
          return new CondNode("true", NOT, (env, trace) -> true, true);
        }
        Local b = booleans.get(Math.floorMod(((BVar) cond).k(), booleans.size()));
        int slot = b.slot;
        return new CondNode(b.name, NOT, (env, trace) -> env[slot] != 0);
      }
    }

    private static String wrap(CondNode node, int precedence) {
      return node.precedence() < precedence ? "(" + node.text() + ")" : node.text();
    }

    private static boolean compare(int op, int compare) {
      return switch (op) {
        case 0 -> compare < 0;
        case 1 -> compare <= 0;
        case 2 -> compare > 0;
        case 3 -> compare >= 0;
        case 4 -> compare == 0;
        default -> compare != 0;
      };
    }

    private static boolean compare(int op, double a, double b) {
      return switch (op) {
        case 0 -> a < b;
        case 1 -> a <= b;
        case 2 -> a > b;
        default -> a >= b;
      };
    }
  }
}
