package ad4j.processor.rules;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.RuledCallee;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;

/**
 * The table of derivative rules: one entry per operation, giving the partial derivative of the
 * result with respect to each argument. Tangents ({@code sum of partial * argumentDot}) and
 * adjoint contributions ({@code argumentBar += resultBar * partial}) are both derived from it, so
 * no derivative formula lives anywhere else. Adding a function means adding one entry here.
 *
 * <p>Each partial is built from IR operations on the primal's values (a {@link Site}), not from
 * Java text, so that a derivative program can itself be differentiated. Formulas may use the
 * arguments and the result (the primal value, already computed by the forward sweep, so the
 * reverse sweep recomputes nothing). Choices at points where the derivative
 * does not exist are documented per entry and in the README.
 */
public final class DerivativeRules {

  /** How to differentiate one operation. */
  public interface Rule {
    /**
     * The partial derivative with respect to argument {@code index}, or empty when it is zero
     * everywhere.
     */
    Optional<Partial> partial(int index, Site site);

    /**
     * Whether the derivative is zero almost everywhere (floor, signum, ...): the result then
     * carries no derivative at all, and is treated as a constant.
     */
    default boolean isPiecewiseConstant() {
      return false;
    }

    /**
     * Whether derivatives can flow from argument {@code index} to the result; false when the
     * partial is zero everywhere (the sign argument of copySign), so that a result depending
     * only through such arguments is treated as a constant.
     */
    default boolean carriesDerivative(int index) {
      return !isPiecewiseConstant();
    }
  }

  private static final Map<String, Rule> TABLE = new LinkedHashMap<>();

  private static final Operand ZERO = Site.number(0.0);
  private static final Operand ONE = Site.number(1.0);
  private static final Operand HALF = Site.number(0.5);
  private static final Operand TWO = Site.number(2.0);
  private static final Operand THREE = Site.number(3.0);
  private static final Rule PIECEWISE_CONSTANT = new Rule() {
    @Override
    public Optional<Partial> partial(int index, Site site) {
      return Optional.empty();
    }

    @Override
    public boolean isPiecewiseConstant() {
      return true;
    }
  };

  static {
    // Operators.
    operator("+", (i, s) -> Partial.ONE);
    operator("-", (i, s) -> i == 0 ? Partial.ONE : Partial.MINUS_ONE);
    operator("*", (i, s) -> Partial.times(s.arg(1 - i)));
    // d(a/b)/da = 1/b; d(a/b)/db = -(a/b)/b, which reuses the quotient.
    operator("/", (i, s) -> i == 0
        ? Partial.over(s.arg(1))
        : Partial.times(s.result()).dividedBy(s.arg(1)).negated());
    // a % b = a - b * q with q = (a - y) / b an integer: da = 1, db = -q.
    operator("%", (i, s) -> i == 0 ? Partial.ONE : quotientPartial(s));
    entry("unary-", (i, s) -> Partial.MINUS_ONE);
    // A constant copied into a local: never active, so never differentiated.
    entry("copy", (i, s) -> Partial.ONE);
    // (float) x and (double) f: the rounding to float is taken as the identity, derivative 1,
    // as for any rounded operation (x * y rounds too); the value keeps Java's float rounding.
    entry("cast to floating point", (i, s) -> Partial.ONE);

    // Trigonometric functions.
    function("sin", 1, (i, s) -> Partial.times(s.call("cos", s.arg(0))));
    function("cos", 1, (i, s) -> Partial.times(s.call("sin", s.arg(0))).negated());
    function("tan", 1, (i, s) -> Partial.times(s.plus(ONE, s.times(s.result(), s.result()))));
    // asin' = 1 / sqrt(1 - x²) and acos' its opposite, with 1 - x² as (1 - x) * (1 + x):
    // 1 - x * x cancels near |x| = 1, where x * x has rounded away what 1 - x² is made of
    // (1 / sqrt(1 - x * x) is 8192.0 at x = 1 - 2^-27, for 8192.0000153).
    function("asin", 1, (i, s) -> Partial.over(s.call("sqrt", oneMinusSquareOf(s, s.arg(0)))));
    function("acos", 1,
        (i, s) -> Partial.over(s.call("sqrt", oneMinusSquareOf(s, s.arg(0)))).negated());
    function("atan", 1, (i, s) -> Partial.over(s.plus(ONE, s.times(s.arg(0), s.arg(0)))));
    // atan2(a, b): da = b / (a² + b²), db = -a / (a² + b²); NaN at the origin, where atan2 jumps.
    // Computed on the arguments scaled by m = max(|a|, |b|), as v / (u² + v²) / m with u = a / m
    // and v = b / m, so that the squares neither underflow nor overflow where the partials are
    // numbers (a² + b² is 0 for a = b = 1e-170, whose partials are 5e169, and infinite for
    // 1e200, whose partials are 5e-201). Each partial builds its own formulas, the scale
    // divides inside the factor: the reverse sweep emits a shared divisor's formulas once and
    // each factor's again, so a factor may not use the divisor's formula values.
    function("atan2", 2, (i, s) -> {
      Operand scale = s.call("max", s.call("abs", s.arg(0)), s.call("abs", s.arg(1)));
      Operand u = s.over(s.arg(0), scale);
      Operand v = s.over(s.arg(1), scale);
      Operand scaledSquares = s.plus(s.times(u, u), s.times(v, v));
      Partial partial = Partial.times(s.over(s.over(i == 0 ? v : u, scaledSquares), scale));
      return i == 0 ? partial : partial.negated();
    });
    function("toRadians", 1, (i, s) -> Partial.times(Site.number(Math.toRadians(1.0))));
    function("toDegrees", 1, (i, s) -> Partial.times(Site.number(Math.toDegrees(1.0))));

    // Hyperbolic functions.
    function("sinh", 1, (i, s) -> Partial.times(s.call("cosh", s.arg(0))));
    function("cosh", 1, (i, s) -> Partial.times(s.call("sinh", s.arg(0))));
    function("tanh", 1, (i, s) -> Partial.times(oneMinusSquare(s, s.result())));
    // Inverse hyperbolic functions (FastMath only): asinh' = 1 / sqrt(x² + 1),
    // acosh' = 1 / sqrt(x² - 1) (infinite at 1), atanh' = 1 / (1 - x²). The first two without
    // squaring x, which overflows past 1.3e154 where the partials are numbers (1e-200 at 1e200,
    // where 1 / sqrt(x * x + 1) gave 0): as 1 / hypot(x, 1), and as 1 / (sqrt(|x| - 1) *
    // sqrt(|x| + 1)), which is 1 / sqrt(x² - 1) without its cancellation near 1, NaN for
    // |x| < 1 as before. atanh' = 1 / ((1 - x) * (1 + x)), without the cancellation of asin's.
    function("asinh", 1, (i, s) -> Partial.over(s.call("hypot", s.arg(0), ONE)));
    function("acosh", 1, (i, s) -> {
      Operand magnitude = s.call("abs", s.arg(0));
      return Partial.over(s.times(s.call("sqrt", s.minus(magnitude, ONE)),
          s.call("sqrt", s.plus(magnitude, ONE))));
    });
    function("atanh", 1, (i, s) -> Partial.over(oneMinusSquareOf(s, s.arg(0))));

    // Exponentials and logarithms.
    function("exp", 1, (i, s) -> Partial.times(s.result()));
    // expm1' = exp(x), not expm1(x) + 1, which cancels for x below about -1 (the reason
    // expm1 exists): it is 0 at x = -40 where the partial is 4.2e-18, and off by 30 % at -37.
    function("expm1", 1, (i, s) -> Partial.times(s.call("exp", s.arg(0))));
    function("log", 1, (i, s) -> Partial.over(s.arg(0)));
    function("log10", 1,
        (i, s) -> Partial.over(s.times(s.arg(0), Site.number(Math.log(10.0)))));
    function("log1p", 1, (i, s) -> Partial.over(s.plus(ONE, s.arg(0))));

    // Powers and roots. sqrt and cbrt have an infinite derivative at 0, as in JAX and PyTorch.
    function("sqrt", 1, (i, s) -> Partial.over(s.times(TWO, s.result())));
    function("cbrt", 1,
        (i, s) -> Partial.over(s.times(s.times(THREE, s.result()), s.result())));
    functionWithZeros("pow", 2,
        (i, s) -> i == 0 ? powerBasePartial(s) : powerExponentPartial(s));
    // hypot(a, b): da = a / y, db = b / y; 0 at the origin (a subgradient of the norm).
    function("hypot", 2, (i, s) -> Partial.times(s.choose(s.isEqualTo(s.result(), ZERO), ZERO,
        s.over(s.arg(i), s.result()))));
    functionWithZeros("fma", 3, (i, s) -> i == 2 ? Optional.of(Partial.ONE)
        : Optional.of(Partial.times(s.arg(1 - i))));
    functionWithZeros("scalb", 2, (i, s) -> i == 0
        ? Optional.of(Partial.times(s.call("scalb", ONE, s.original(1))))
        : Optional.empty(), 1);

    // Kinks. abs'(0) = 0; at a tie min and max give each argument half, as JAX does; with a
    // NaN argument (no argument wins, loses or ties) both partials are NaN, as the value is.
    function("abs", 1, (i, s) -> Partial.times(s.call("signum", s.arg(0))));
    function("min", 2, (i, s) -> Partial.times(tieSplit(s,
        s.isLessThan(s.arg(i), s.arg(1 - i)), s.isEqualTo(s.arg(0), s.arg(1)),
        s.isLessThan(s.arg(1 - i), s.arg(i)))));
    function("max", 2, (i, s) -> Partial.times(tieSplit(s,
        s.isGreaterThan(s.arg(i), s.arg(1 - i)), s.isEqualTo(s.arg(0), s.arg(1)),
        s.isGreaterThan(s.arg(1 - i), s.arg(i)))));
    // clamp(v, lo, hi) = min(hi, max(v, lo)), as the JDK (21 and later) computes it: the
    // partials of that composition, each tie split as min's and max's are.
    function("clamp", 3, (i, s) -> Partial.times(clampPartial(i, s)));
    // copySign(a, b) = |a| * sign(b): da = signum(a) * sign(b) (0 at a = 0), db = 0.
    functionWithZeros("copySign", 2, (i, s) -> i == 0
        ? Optional.of(Partial.times(
            s.times(s.call("signum", s.arg(0)), s.call("copySign", ONE, s.arg(1)))))
        : Optional.empty(), 1);
    // IEEEremainder(a, b) = a - b * n with n = rint(a / b): da = 1, db = -n.
    functionWithZeros("IEEEremainder", 2,
        (i, s) -> i == 0 ? Optional.of(Partial.ONE) : Optional.of(quotientPartial(s)));

    // Neighbours: nextUp(x), nextDown(x) and nextAfter(x, d) are x moved by one ulp, a
    // rounding taken as the identity as (float) x is (derivative 1); the direction d only
    // chooses the neighbour (derivative 0).
    function("nextUp", 1, (i, s) -> Partial.ONE);
    function("nextDown", 1, (i, s) -> Partial.ONE);
    functionWithZeros("nextAfter", 2,
        (i, s) -> i == 0 ? Optional.of(Partial.ONE) : Optional.empty(), 1);

    // Piecewise-constant functions: derivative zero wherever it exists (ulp(x) is constant
    // between powers of two).
    for (String name : List.of("floor", "ceil", "rint", "signum", "ulp")) {
      TABLE.put(name + "/1", PIECEWISE_CONSTANT);
    }
    // c ? a : b passes the derivative to the chosen operand only.
    TABLE.put("?:", new Rule() {
      @Override
      public Optional<Partial> partial(int index, Site site) {
        return switch (index) {
          case 1 -> Optional.of(Partial.onlyWhen(site.arg(0)));
          case 2 -> Optional.of(Partial.onlyWhen(site.not(site.arg(0))));
          default -> Optional.empty();
        };
      }

      @Override
      public boolean carriesDerivative(int index) {
        return index > 0;
      }
    });
    // a with the derivative of b: d/db = 1, and nothing flows to a.
    TABLE.put("with derivative of", new Rule() {
      @Override
      public Optional<Partial> partial(int index, Site site) {
        return index == 1 ? Optional.of(Partial.ONE) : Optional.empty();
      }

      @Override
      public boolean carriesDerivative(int index) {
        return index == 1;
      }
    });
    // Comparisons, logic, integer bit operations and casts to integral types carry no
    // derivative: their results are constant between the points where they jump.
    for (String key : List.of("<", ">", "<=", ">=", "==", "!=", "&", "|", "^", "<<", ">>",
        ">>>", "&&", "||", "unary!", "unary~", "cast")) {
      TABLE.put(key, PIECEWISE_CONSTANT);
    }
  }

  private DerivativeRules() {}

  /** The rule for an operation, if it is differentiable. */
  public static Optional<Rule> forOperation(Operation operation) {
    if (operation.form() == Operation.Form.RULED_CALL) {
      // A rule itself has no rules: differentiating it (a second derivative) is not supported
      // yet, and must fail rather than take its derivative as zero.
      return operation.ruled().partials().isEmpty()
          ? Optional.empty() : Optional.of(userSupplied(operation.ruled()));
    }
    return Optional.ofNullable(TABLE.get(operation.ruleKey()));
  }

  /**
   * The rule of a call of a method whose partials the user supplies with {@code @DerivativeOf}:
   * the partial with respect to argument i is the value the user's rule for parameter i gave
   * where the call is (the call's argument {@link RuledCallee#partialArgument}), computed there
   * so that it sees the arguments and the receiver as the call did. A parameter without a rule
   * carries no derivative (the front end rejects a call passing one there), and neither do the
   * partials themselves.
   */
  private static Rule userSupplied(RuledCallee target) {
    return new Rule() {
      @Override
      public Optional<Partial> partial(int index, Site site) {
        if (!target.partials().containsKey(index)
            || target.parameterTypes().get(index).isArray()) {
          return Optional.empty(); // an array's partials are arrays: see arrayPartial
        }
        return Optional.of(Partial.times(site.original(target.partialArgument(index))));
      }

      @Override
      public boolean carriesDerivative(int index) {
        return target.partials().containsKey(index);
      }
    };
  }

  /**
   * The partial derivatives of a call of a method with {@code @DerivativeOf} rules with respect
   * to the elements of its array argument {@code index} ({@code double[]} or
   * {@code double[][]}): the array of the argument's shape that the user's rule for that
   * parameter returned where the call is (DESIGN.md, "@DerivativeOf"). The reverse sweep adds
   * the adjoint times each element into the argument's slots, the forward sweep takes the dot
   * product with the argument's tangent. Empty when the parameter has no rule.
   */
  public static Optional<Operand> arrayPartial(RuledCallee target, int index, Site site) {
    NumericType type = target.parameterTypes().get(index);
    if (!target.partials().containsKey(index) || !type.isArray()) {
      return Optional.empty();
    }
    return Optional.of(site.original(target.partialArgument(index)));
  }

  /**
   * For a call of a vector target (returning {@code double[]}) with {@code @DerivativeOf}
   * rules, the partial derivatives of the result's elements with respect to argument
   * {@code index}: what the user's rule returned where the call is, a {@code double[]}
   * (element k: of the result's element k) for a {@code double} parameter and a
   * {@code double[][]} ({@code [k][j]}: with respect to the argument's element j) for a
   * {@code double[]} one. Empty when the parameter has no rule.
   */
  public static Optional<Operand> vectorPartial(RuledCallee target, int index, Site site) {
    if (!target.partials().containsKey(index)) {
      return Optional.empty();
    }
    return Optional.of(site.original(target.partialArgument(index)));
  }

  /** Whether a {@code Math} or {@code StrictMath} function with this arity has a rule. */
  public static boolean isDifferentiableFunction(String name, int arity) {
    return TABLE.containsKey(name + "/" + arity);
  }

  /** The names of all differentiable functions, sorted, for diagnostics. */
  public static Set<String> differentiableFunctionNames() {
    Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    for (String key : TABLE.keySet()) {
      int slash = key.indexOf('/');
      if (slash > 0) {
        names.add(key.substring(0, slash));
      }
    }
    return Collections.unmodifiableSet(names);
  }

  /** The arity of the named function with a rule, or -1. */
  public static int arityOf(String name) {
    for (String key : TABLE.keySet()) {
      if (key.startsWith(name + "/")) {
        return Integer.parseInt(key.substring(name.length() + 1));
      }
    }
    return -1;
  }

  // ---- helpers for the entries above -------------------------------------------------------

  private interface TotalRule {
    Partial partial(int index, Site site);
  }

  private interface OptionalRule {
    Optional<Partial> partial(int index, Site site);
  }

  private static void operator(String symbol, TotalRule rule) {
    entry(symbol, rule);
  }

  private static void entry(String key, TotalRule rule) {
    TABLE.put(key, (index, site) -> Optional.of(rule.partial(index, site)));
  }

  private static void function(String name, int arity, TotalRule rule) {
    entry(name + "/" + arity, rule);
  }

  /**
   * A function some of whose arguments never carry a derivative ({@code noDerivative} lists
   * their indices).
   */
  private static void functionWithZeros(String name, int arity, OptionalRule rule,
      int... noDerivative) {
    TABLE.put(name + "/" + arity, new Rule() {
      @Override
      public Optional<Partial> partial(int index, Site site) {
        return rule.partial(index, site);
      }

      @Override
      public boolean carriesDerivative(int index) {
        for (int i : noDerivative) {
          if (i == index) {
            return false;
          }
        }
        return true;
      }
    });
  }

  private static Operand oneMinusSquare(Site s, Operand x) {
    return s.minus(ONE, s.times(x, x));
  }

  /**
   * {@code 1 - x²} of an argument, as {@code (1 - x) * (1 + x)}: near |x| = 1, {@code 1 - x}
   * (or {@code 1 + x}) is exact, where {@code 1 - x * x} loses up to 28 bits to the rounding of
   * {@code x * x}.
   */
  private static Operand oneMinusSquareOf(Site s, Operand x) {
    return s.times(s.minus(ONE, x), s.plus(ONE, x));
  }

  /** {@code -rint((a - y) / b)}: minus the integer quotient of a remainder operation. */
  private static Partial quotientPartial(Site s) {
    Operand quotient = s.call("rint", s.over(s.minus(s.arg(0), s.result()), s.arg(1)));
    return Partial.times(quotient).negated();
  }

  /** {@code wins ? 1 : tie ? 0.5 : loses ? 0 : NaN}. */
  private static Operand tieSplit(Site s, Operand wins, Operand tie, Operand loses) {
    return s.choose(wins, ONE,
        s.choose(tie, HALF, s.choose(loses, ZERO, Site.number(Double.NaN))));
  }

  /**
   * The partial of {@code clamp(v, lo, hi) = min(hi, m)}, {@code m = max(v, lo)}, with respect
   * to argument {@code i}: {@code dmin/dhi} for {@code hi}, else {@code dmin/dm * dm/dv} (or
   * {@code dm/dlo}).
   */
  private static Operand clampPartial(int i, Site s) {
    Operand value = s.arg(0);
    Operand low = s.arg(1);
    Operand high = s.arg(2);
    Operand inner = s.call("max", value, low);
    Operand atHigh = s.isEqualTo(inner, high);
    if (i == 2) {
      return tieSplit(s, s.isLessThan(high, inner), atHigh, s.isLessThan(inner, high));
    }
    Operand throughMin = tieSplit(s, s.isLessThan(inner, high), atHigh,
        s.isLessThan(high, inner));
    Operand mine = s.arg(i);
    Operand other = s.arg(1 - i);
    return s.times(throughMin, tieSplit(s, s.isGreaterThan(mine, other),
        s.isEqualTo(value, low), s.isGreaterThan(other, mine)));
  }

  /**
   * d(a^b)/da = b * a^(b-1). With an exponent known at compile time the formula is specialised
   * (b = 2 gives {@code 2.0 * a}); it never contains log(a), so it is finite for a <= 0 and
   * d/da a³ at a = 0 is 0. An exponent of 0 gives 0, not 0 * a^-1.
   */
  private static Optional<Partial> powerBasePartial(Site s) {
    Operand base = s.arg(0);
    OptionalDouble known = s.known(1);
    if (known.isPresent()) {
      double exponent = known.getAsDouble();
      if (exponent == 0.0) {
        return Optional.empty();
      }
      if (exponent == 1.0) {
        return Optional.of(Partial.ONE);
      }
      if (exponent == 2.0) {
        return Optional.of(Partial.times(s.times(TWO, base)));
      }
      Operand power = s.call("pow", base, Site.number(exponent - 1.0));
      return Optional.of(Partial.times(s.times(Site.number(exponent), power)));
    }
    // Each use of an argument is its own operand: an int exponent is converted at each.
    // At b = 0 the partial is b / a (a^b is 1 there), not the constant 0: its value is 0 as
    // well, but its derivative with respect to b is 1 / a, the mixed second derivative, which a
    // constant would drop at order 2. Only at a = b = 0, where b / a is 0 / 0, is it 0.
    Operand test = s.isEqualTo(s.arg(1), ZERO);
    Operand atZeroExponent =
        s.choose(s.isEqualTo(s.arg(0), ZERO), ZERO, s.over(s.arg(1), s.arg(0)));
    Operand general = s.times(s.arg(1), s.call("pow", base, s.minus(s.arg(1), ONE)));
    return Optional.of(Partial.times(s.choose(test, atZeroExponent, general)));
  }

  /**
   * d(a^b)/db = a^b * log(a). At a = 0 this is taken as 0 (the limit from b > 0) rather than
   * 0 * -infinity; for a < 0 it is NaN, since a^b is not defined for b near a non-integer.
   */
  private static Optional<Partial> powerExponentPartial(Site s) {
    OptionalDouble base = s.known(0);
    if (base.isPresent() && base.getAsDouble() > 0) {
      // A constant base: its logarithm is computed once, here, not at every call.
      Operand logBase = Site.number(Math.log(base.getAsDouble()));
      return Optional.of(Partial.times(s.times(s.result(), logBase)));
    }
    Operand test = s.isEqualTo(s.arg(0), ZERO);
    Operand general = s.times(s.result(), s.call("log", s.arg(0)));
    return Optional.of(Partial.times(s.choose(test, ZERO, general)));
  }
}
