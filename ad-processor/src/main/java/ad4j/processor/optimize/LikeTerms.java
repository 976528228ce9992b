package ad4j.processor.optimize;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Value;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The monomials of one adjoint's partial ({@link CommonFactors}) that are the same product up
 * to a constant factor, collected into one term with the summed coefficient, as a person
 * collects like terms: Goldstein–Price's {@code t18 + x * 12.0}, where the forward sweep's
 * {@code t18} is {@code 12 * x}, is {@code x * 24.0}; {@code t1 + y * y * 2.0}, where {@code t1}
 * is {@code y * y}, is {@code t1 * 3.0}. Each monomial's constant factors are folded
 * into one coefficient too ({@code d * 2.0 * 2} is {@code d * 4.0}).
 *
 * <p>Products are compared by the values they multiply: a factor that the forward sweep of this
 * block computes as a product ({@code t18 = 12 * x}, {@code t1 = y * y}) stands for its
 * factors, so that {@code t1} and {@code y * y} are the same product. A collected term is
 * written with the fewest factors: those of one of its monomials, its coefficient divided by
 * the constant inside them ({@code x * 24.0}; {@code t2 * 3.0} for {@code t2 + y * t1 + y * y *
 * 2.0}, {@code t2} being {@code 2 * y * y} and {@code t1} {@code 2 * y}), or else the values
 * themselves. The rewrite is exact in real arithmetic (distributivity); a coefficient is folded
 * only when the product or sum of the constants is itself a {@code double} exactly, and a
 * zero coefficient is never made (it would turn an infinite or NaN partial into zero), so the
 * gradient changes by rounding only.
 */
final class LikeTerms {
  /** A monomial: its factors (constants folded out, unless exactly not) and its coefficient. */
  record Term(List<Operand> factors, BigDecimal coefficient) {}

  /** A monomial's factors as given, with its count and whether it is subtracted. */
  record Monomial(List<Operand> factors, int count, boolean negated) {}

  private final AdjointBlock block;

  LikeTerms(AdjointBlock block) {
    this.block = block;
  }

  /**
   * {@code monomials} as terms, like terms collected; in the order each product was first
   * met.
   */
  List<Term> collected(List<Monomial> monomials) {
    // per product: the terms met, and the sum of their coefficients over the product's values
    Map<Object, List<Expanded>> byProduct = new LinkedHashMap<>();
    List<Object> order = new ArrayList<>();
    int unique = 0;
    for (Monomial monomial : monomials) {
      Expanded expanded = expand(monomial);
      Object key = expanded.values == null ? Integer.valueOf(unique++) : expanded.values;
      if (!byProduct.containsKey(key)) {
        order.add(key);
      }
      byProduct.computeIfAbsent(key, k -> new ArrayList<>()).add(expanded);
    }
    List<Term> terms = new ArrayList<>();
    for (Object key : order) {
      List<Expanded> like = byProduct.get(key);
      Term collected = like.size() > 1 ? collect(like) : null;
      if (collected != null) {
        terms.add(collected);
      } else {
        like.forEach(expanded -> terms.add(expanded.term));
      }
    }
    return terms;
  }

  /**
   * A monomial with its constants folded ({@link #term}), and the product of its factors over
   * the values they multiply: those values counted ({@link #values}, null when a factor has
   * no such form) and the constant that the forward sweep multiplied in ({@link #inside}).
   */
  private record Expanded(Term term, Map<Object, Integer> values, BigDecimal inside,
      List<Operand> operands) {}

  private Expanded expand(Monomial monomial) {
    BigDecimal coefficient = BigDecimal.valueOf(monomial.negated() ? -monomial.count()
        : monomial.count());
    List<Operand> factors = new ArrayList<>();
    for (Operand factor : monomial.factors()) {
      BigDecimal constant = constant(factor);
      BigDecimal product = constant == null ? null : exact(coefficient.multiply(constant));
      if (product != null && product.signum() != 0) {
        coefficient = product;
      } else {
        factors.add(factor);
      }
    }
    Term term = new Term(factors, coefficient);
    Map<Object, Integer> values = new HashMap<>();
    List<Operand> operands = new ArrayList<>();
    BigDecimal inside = BigDecimal.ONE;
    for (Operand factor : factors) {
      inside = product(factor, values, operands, inside);
      if (inside == null) {
        return new Expanded(term, null, null, null);
      }
    }
    return new Expanded(term, values, inside, operands);
  }

  /**
   * Multiplies {@code factor}'s values into {@code values} and {@code operands}, through the
   * products this block computes, and returns {@code inside} times the constants met there;
   * null when a constant cannot be folded exactly.
   */
  private BigDecimal product(Operand factor, Map<Object, Integer> values, List<Operand> operands,
      BigDecimal inside) {
    Instruction product = productOf(factor);
    if (product == null) {
      values.merge(key(factor), 1, Integer::sum);
      operands.add(factor);
      return inside;
    }
    BigDecimal result = inside;
    for (Operand argument : product.arguments()) {
      BigDecimal constant = constant(argument);
      if (constant != null) {
        result = exact(result.multiply(constant));
        if (result == null || result.signum() == 0) {
          return null;
        }
      } else {
        result = product(argument, values, operands, result);
        if (result == null) {
          return null;
        }
      }
    }
    return result;
  }

  /**
   * The instruction of this block that computes {@code factor} as a product of {@code
   * double}s, when what it multiplies can be read wherever the factor can: values of their own
   * (not single-use formulas, whose use is the product's) and constants.
   */
  private Instruction productOf(Operand factor) {
    if (!(factor instanceof Operand.Use use) || use.value().origin() == Value.Origin.FORMULA
        || !block.definedAt.containsKey(use.value())) {
      return null;
    }
    Instruction instruction = (Instruction) block.statements.get(block.definedAt.get(use.value()));
    if (!instruction.operation().equals(Operation.MULTIPLY)
        || instruction.result().type() != NumericType.DOUBLE) {
      return null;
    }
    for (Operand argument : instruction.arguments()) {
      boolean readable = argument instanceof Operand.Use inner
          ? inner.value().origin() != Value.Origin.FORMULA
          : constant(argument) != null;
      if (!readable) {
        return null;
      }
    }
    return instruction;
  }

  /**
   * The terms of one product collected into one: the summed coefficient over the product's
   * values, written with the fewest factors, those of one of its monomials (the coefficient
   * divided by the constant inside them, where that is a {@code double} exactly) or the values;
   * null when the sum is not exactly a {@code double}, or zero.
   */
  private static Term collect(List<Expanded> like) {
    BigDecimal sum = BigDecimal.ZERO;
    for (Expanded expanded : like) {
      sum = sum.add(expanded.term.coefficient().multiply(expanded.inside));
    }
    BigDecimal total = exact(sum);
    if (total == null || total.signum() == 0) {
      return null;
    }
    // the fewest factors (t2 * 3.0 rather than y * (y * 6.0), where t2 = 2 * y * y), and of
    // as many, those with no constant inside (x * 24.0 rather than t18 * 2.0, t18 = 12 * x),
    // as a person writes the partial
    Term shortest = new Term(like.get(0).operands, total);
    boolean plain = true;
    for (Expanded expanded : like) {
      BigDecimal coefficient = quotient(total, expanded.inside);
      int size = expanded.term.factors().size();
      boolean plainHere = expanded.inside.compareTo(BigDecimal.ONE) == 0;
      if (coefficient != null && (size < shortest.factors().size()
          || size == shortest.factors().size() && plainHere && !plain)) {
        shortest = new Term(expanded.term.factors(), coefficient);
        plain = plainHere;
      }
    }
    return shortest;
  }

  /** {@code total / inside} when a {@code double} holds it exactly, else null. */
  private static BigDecimal quotient(BigDecimal total, BigDecimal inside) {
    try {
      return exact(total.divide(inside));
    } catch (ArithmeticException e) {
      return null; // no terminating decimal, so no double
    }
  }

  /** The value of a {@code double} or {@code int} constant, when it is a finite number. */
  private static BigDecimal constant(Operand operand) {
    if (operand instanceof Operand.Constant constant && constant.knownValue().isPresent()
        && (constant.type() == NumericType.DOUBLE || constant.type() == NumericType.INT)
        && Double.isFinite(constant.knownValue().getAsDouble())) {
      return new BigDecimal(constant.knownValue().getAsDouble());
    }
    return null;
  }

  /** {@code value} when a {@code double} holds it exactly, else null. */
  private static BigDecimal exact(BigDecimal value) {
    double rounded = value.doubleValue();
    return Double.isFinite(rounded) && new BigDecimal(rounded).compareTo(value) == 0 ? value
        : null;
  }

  /** Equal for the same value, variable or constant. */
  private static Object key(Operand operand) {
    if (operand instanceof Operand.Constant constant) {
      return List.of(constant.type(), constant.expression().toString());
    }
    return operand;
  }
}
