package ad4j.processor.rules;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The place a derivative rule is applied, and the builder of its formulas: the operands of the
 * instruction being differentiated (as the derivative program refers to them), its result, and
 * the operations a formula may use. Each operation becomes an IR instruction whose result is a
 * {@link Value.Origin#FORMULA} value, so that a derivative program is an IR program like any
 * other and can be differentiated again.
 *
 * <p>A rule may build more than its caller keeps (a divisor two partials share is built twice);
 * {@link #instructionsFor} returns only the instructions the kept operands need, in order.
 */
public final class Site {
  /**
   * The values the derivative program already holds: a formula that calls {@code Math.cos(t)}
   * reads the forward sweep's {@code cos(t)} instead of calling it again.
   */
  public interface Reuse {
    Reuse NONE = (operation, arguments) -> Optional.empty();

    /** The value already computed as {@code operation(arguments)}, if any. */
    Optional<Operand> computed(Operation operation, List<Operand> arguments);
  }

  /**
   * An argument of the operation being differentiated.
   *
   * @param operand the argument as the derivative program refers to it, with its own type
   * @param knownValue its value, when known at compile time
   */
  public record Argument(Operand operand, OptionalDouble knownValue) {}

  private final List<Argument> arguments;
  private final Operand result;
  private final MathOwner owner;
  private final IrBuilder values;
  private final SourceLine line;
  private final Reuse reuse;
  private final Map<Value, Instruction> built = new IdentityHashMap<>();
  private final List<Instruction> order = new ArrayList<>();

  /**
   * @param arguments the instruction's arguments
   * @param result its result
   * @param owner the class whose functions the formulas call ({@code Math} or {@code StrictMath})
   * @param values creates the formula values
   * @param line the user's statement, for the instructions built here
   * @param reuse values already computed that formulas may read
   */
  public Site(List<Argument> arguments, Operand result, MathOwner owner, IrBuilder values,
      SourceLine line, Reuse reuse) {
    this.arguments = List.copyOf(arguments);
    this.result = result;
    this.owner = owner;
    this.values = values;
    this.line = line;
    this.reuse = reuse;
  }

  /** A site with no operation, for building formulas such as sums of adjoints. */
  public static Site formulas(IrBuilder values, SourceLine line) {
    return new Site(List.of(), null, MathOwner.MATH, values, line, Reuse.NONE);
  }

  /** The argument converted to {@code double}, for arithmetic in formulas. */
  public Operand arg(int index) {
    Operand operand = arguments.get(index).operand();
    if (operand.type() == NumericType.DOUBLE || operand.type() == NumericType.BOOLEAN) {
      return operand;
    }
    // c * c must not be evaluated in int arithmetic, which could overflow.
    if (operand instanceof Operand.Constant constant && constant.knownValue().isPresent()) {
      return Operand.Constant.of(constant.knownValue().getAsDouble());
    }
    return add(Operation.cast(NumericType.DOUBLE), NumericType.DOUBLE, operand);
  }

  /** The argument with its own type, for calls that need it ({@code scalb}). */
  public Operand original(int index) {
    return arguments.get(index).operand();
  }

  /** The argument's value, when known at compile time. */
  public OptionalDouble known(int index) {
    return arguments.get(index).knownValue();
  }

  /** The primal result, already computed: formulas that read it recompute nothing. */
  public Operand result() {
    return result;
  }

  // ---- the operations formulas are built from ----------------------------------------------

  public static Operand number(double value) {
    return Operand.Constant.of(value);
  }

  /** {@code owner.function(arguments)}, or the value the program already holds for it. */
  public Operand call(String function, Operand... callArguments) {
    Operation operation = Operation.call(owner, function, callArguments.length);
    List<Operand> list = List.of(callArguments);
    if (list.stream().noneMatch(this::isFormula)) {
      Optional<Operand> computed = reuse.computed(operation, list);
      if (computed.isPresent()) {
        return computed.get();
      }
    }
    return add(operation, NumericType.DOUBLE, callArguments);
  }

  public Operand plus(Operand a, Operand b) {
    return add(Operation.ADD, NumericType.DOUBLE, a, b);
  }

  public Operand minus(Operand a, Operand b) {
    return add(Operation.SUBTRACT, NumericType.DOUBLE, a, b);
  }

  public Operand times(Operand a, Operand b) {
    return add(Operation.MULTIPLY, NumericType.DOUBLE, a, b);
  }

  public Operand over(Operand a, Operand b) {
    return add(Operation.DIVIDE, NumericType.DOUBLE, a, b);
  }

  public Operand negate(Operand a) {
    return add(Operation.NEGATE, NumericType.DOUBLE, a);
  }

  public Operand isLessThan(Operand a, Operand b) {
    return add(Operation.infix("<"), NumericType.BOOLEAN, a, b);
  }

  public Operand isGreaterThan(Operand a, Operand b) {
    return add(Operation.infix(">"), NumericType.BOOLEAN, a, b);
  }

  public Operand isEqualTo(Operand a, Operand b) {
    return add(Operation.infix("=="), NumericType.BOOLEAN, a, b);
  }

  public Operand not(Operand a) {
    return add(Operation.NOT, NumericType.BOOLEAN, a);
  }

  /** {@code condition ? whenTrue : whenFalse}. */
  public Operand choose(Operand condition, Operand whenTrue, Operand whenFalse) {
    return add(Operation.SELECT, whenTrue.type(), condition, whenTrue, whenFalse);
  }

  /** The user's statement the formulas built here belong to. */
  public SourceLine line() {
    return line;
  }

  /** {@code operation(operands)} with a result of {@code type}: any other operation. */
  public Operand apply(Operation operation, NumericType type, Operand... operands) {
    return add(operation, type, operands);
  }

  private Operand add(Operation operation, NumericType type, Operand... operands) {
    // Active as the front end decides for the user's instructions: when a derivative can flow
    // from an argument to the result, so that the formula can be differentiated again.
    boolean active = false;
    for (int i = 0; i < operands.length; i++) {
      int index = i;
      active |= operands[i].isActive() && DerivativeRules.forOperation(operation)
          .map(rule -> rule.carriesDerivative(index)).orElse(true);
    }
    Value value = values.formula(type, active && type.isFloatingPoint());
    Instruction instruction = new Instruction(value, operation, List.of(operands), line);
    built.put(value, instruction);
    order.add(instruction);
    return new Operand.Use(value);
  }

  // ---- what callers do with the formulas ---------------------------------------------------

  /** Whether {@code operand} is a formula built here. */
  public boolean isFormula(Operand operand) {
    return operand instanceof Operand.Use use && built.containsKey(use.value());
  }

  /**
   * Whether two operands compute the same: the same value or constant, or formulas of the
   * same operations on the same operands ({@code a * a + b * b} built twice).
   */
  public boolean same(Operand a, Operand b) {
    if (a instanceof Operand.Constant ca && b instanceof Operand.Constant cb) {
      return ca.type() == cb.type()
          && ca.expression().toString().equals(cb.expression().toString());
    }
    if (!(a instanceof Operand.Use ua) || !(b instanceof Operand.Use ub)) {
      return a.equals(b);
    }
    if (ua.value() == ub.value()) {
      return true;
    }
    Instruction ia = built.get(ua.value());
    Instruction ib = built.get(ub.value());
    if (ia == null || ib == null || !ia.operation().equals(ib.operation())) {
      return false;
    }
    for (int i = 0; i < ia.arguments().size(); i++) {
      if (!same(ia.arguments().get(i), ib.arguments().get(i))) {
        return false;
      }
    }
    return true;
  }

  /** The instructions built here that {@code roots} need, in the order they were built. */
  public List<Instruction> instructionsFor(Collection<Operand> roots) {
    Set<Value> needed = new HashSet<>();
    List<Operand> work = new ArrayList<>(roots);
    while (!work.isEmpty()) {
      Operand operand = work.remove(work.size() - 1);
      if (operand instanceof Operand.Use use && built.containsKey(use.value())
          && needed.add(use.value())) {
        work.addAll(built.get(use.value()).arguments());
      }
    }
    return order.stream().filter(i -> needed.contains(i.result())).toList();
  }
}
