package ad4j.processor.optimize;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * One row's reverse sweep with its unit seed folded in. Row {@code i} of a Jacobian seeds the
 * result's adjoints with {@code e_i}: every other element is zero, and so is all that only
 * they reach. This pass follows the zeros and ones from the seeded array through the row's
 * straight-line statements, as a careful hand would: {@code 0 · x} and {@code 0 / x} are
 * {@code 0}, {@code 1 · x}, {@code x + 0} and {@code x − 0} are {@code x}, {@code 0 − x} is
 * {@code −x}, and adding zero into a row of the Jacobian or into the seeded array is no
 * statement at all. What no longer feeds anything is removed.
 *
 * <p>{@code 0 · x = 0} holds for finite {@code x}. Where the forward sweep holds an infinity
 * or a NaN that only another element's seed multiplies, the whole pullback gives NaN in this
 * row and the folded row the partial itself: the row is the derivative of its own element, as
 * mathematics has it. Signs of zero may differ ({@code −0.0 + 0.0} is {@code 0.0}).
 */
public final class SeedFolding {
  /** What is known of each value and variable: a {@code double} constant, or an alias. */
  private final Map<Value, Operand> known = new HashMap<>();
  private final Map<Variable, Double> knownVariables = new HashMap<>();
  /**
   * The variables declared with a constant that nothing has read since, with where their
   * declarations are in the output.
   */
  private final Map<Variable, Integer> pendingDeclarations = new HashMap<>();
  private final Value seeded;
  /** The number of elements of {@link #seeded}. */
  private final int length;
  private final Value row;
  /** The seeded array's elements while each is known, or null once one is not. */
  private double[] contents;

  private SeedFolding(Value seeded, int length, Value row) {
    this.seeded = seeded;
    this.length = length;
    this.row = row;
  }

  /**
   * {@code statements} (straight-line: no branch, no loop), which clear {@code seeded}, an
   * array of {@code length} elements, and then add the seed into it, folded as above;
   * {@code row} is the row of the Jacobian the statements add into.
   */
  public static List<Statement> fold(List<Statement> statements, Value seeded, int length,
      Value row) {
    SeedFolding folding = new SeedFolding(seeded, length, row);
    List<Statement> folded = new ArrayList<>();
    for (Statement statement : statements) {
      folding.fold(statement, folded);
    }
    folded.removeIf(java.util.Objects::isNull);
    return DeadCode.withoutUnused(withoutUnreadVariables(folded));
  }

  /** Whether {@code statements} read {@code array}: not only clear it or store into it. */
  public static boolean reads(List<Statement> statements, Value array) {
    return statements.stream().anyMatch(statement -> {
      if (statement instanceof Instruction instruction && isClearing(instruction, array)) {
        return false;
      }
      List<Operand> read = statement instanceof ElementStore store
          ? List.of(store.index(), store.value()) : statement.operands();
      return read.stream().anyMatch(operand -> uses(operand, array));
    });
  }

  /** {@code statements} without the clearing of {@code array} and the stores into it. */
  public static List<Statement> withoutWrites(List<Statement> statements, Value array) {
    return statements.stream().filter(statement -> !(statement instanceof ElementStore store
        && store.array() == array)
        && !(statement instanceof Instruction instruction && isClearing(instruction, array)))
        .toList();
  }

  private static boolean isClearing(Instruction instruction, Value array) {
    return instruction.operation().form() == Operation.Form.SLOTS_CALL
        && instruction.operation().isSlotsCall(SlotsCall.CLEAR)
        && uses(instruction.arguments().get(0), array);
  }

  private static boolean uses(Operand operand, Value value) {
    return operand instanceof Operand.Use use && use.value() == value;
  }

  private void fold(Statement statement, List<Statement> out) {
    if (statement instanceof Instruction instruction) {
      foldInstruction(instruction, out);
    } else if (statement instanceof ElementStore store) {
      foldStore(store, out);
    } else if (statement instanceof Declare original) {
      Declare declare = (Declare) original.withOperands(this::map);
      remember(declare.variable(), declare.initial());
      if (knownVariables.containsKey(declare.variable())) {
        pendingDeclarations.put(declare.variable(), out.size());
      }
      out.add(declare);
    } else if (statement instanceof Store store) {
      foldStore(store, out);
    } else {
      out.add(statement);
    }
  }

  private void foldInstruction(Instruction original, List<Statement> out) {
    Instruction instruction = (Instruction) original.withOperands(this::map);
    List<Operand> arguments = instruction.arguments();
    if (isClearing(instruction, seeded)) {
      contents = new double[length];
      out.add(instruction);
      return;
    }
    if (instruction.result().type() == NumericType.DOUBLE && isZeroMinus(instruction)) {
      out.add(new Instruction(instruction.result(), Operation.NEGATE,
          List.of(arguments.get(1)), instruction.line()));
      return;
    }
    Operand folded = instruction.result().type() == NumericType.DOUBLE ? folded(instruction)
        : null;
    if (folded == null) {
      out.add(instruction);
    } else if (folded instanceof Operand.Use use
        && use.value().origin() == Value.Origin.FORMULA) {
      // a formula is written where it is read, once: keep the value, as its copy
      out.add(new Instruction(instruction.result(), Operation.COPY, List.of(folded),
          instruction.line()));
    } else {
      known.put(instruction.result(), folded);
    }
  }

  /** Whether {@code instruction} is {@code 0 − x}, which is {@code −x}. */
  private static boolean isZeroMinus(Instruction instruction) {
    List<Operand> arguments = instruction.arguments();
    return instruction.operation().equals(Operation.SUBTRACT)
        && arguments.stream().allMatch(SeedFolding::isDouble) && isZero(arguments.get(0))
        && !isZero(arguments.get(1));
  }

  /** What {@code instruction} computes, when the zeros and ones decide it; else null. */
  private Operand folded(Instruction instruction) {
    Operation operation = instruction.operation();
    List<Operand> arguments = instruction.arguments();
    if (operation.equals(Operation.COPY)) {
      // a variable read is mapped to its constant when it is known (map)
      return arguments.get(0) instanceof Operand.Read ? null : arguments.get(0);
    }
    if (operation.form() == Operation.Form.ELEMENT && arguments.size() == 2
        && uses(arguments.get(0), seeded) && contents != null) {
      OptionalDouble index = constant(arguments.get(1));
      if (index.isPresent() && index.getAsDouble() >= 0 && index.getAsDouble() < contents.length) {
        return Operand.Constant.of(contents[(int) index.getAsDouble()]);
      }
      return null;
    }
    if (arguments.size() == 2 && arguments.stream().allMatch(SeedFolding::isDouble)) {
      Operand a = arguments.get(0);
      Operand b = arguments.get(1);
      if (operation.equals(Operation.MULTIPLY)) {
        return isZero(a) || isZero(b) ? zero() : isOne(a) ? b : isOne(b) ? a : null;
      }
      if (operation.equals(Operation.DIVIDE)) {
        return isZero(a) ? zero() : null;
      }
      if (operation.equals(Operation.ADD)) {
        return isZero(a) ? b : isZero(b) ? a : null;
      }
      if (operation.equals(Operation.SUBTRACT)) {
        return isZero(b) ? a : null;
      }
      return null;
    }
    if (operation.equals(Operation.NEGATE) && isZero(arguments.get(0))) {
      return zero();
    }
    return null;
  }

  /**
   * {@code v = value}. While nothing has read {@code v} since it was declared with a constant
   * (its reads were folded), the store is the declaration: {@code double pBar = 0.0; pBar = a;
   * pBar += b;} is {@code double pBar = a; pBar += b;}, a run the adjoint sums add at once.
   */
  private void foldStore(Store store, List<Statement> out) {
    Variable variable = store.variable();
    Operand value = map(store.value());
    if (value instanceof Operand.Read read && read.variable() == variable) {
      return; // v = v + 0
    }
    remember(variable, value);
    Integer declaredAt = pendingDeclarations.remove(variable);
    if (declaredAt != null) {
      out.set(declaredAt, null);
      if (knownVariables.containsKey(variable)) {
        out.set(declaredAt, new Declare(variable, value, store.line()));
        pendingDeclarations.put(variable, declaredAt);
      } else {
        out.add(new Declare(variable, value, store.line()));
      }
      return;
    }
    out.add(new Store(variable, value, store.line()));
  }

  private void foldStore(ElementStore original, List<Statement> out) {
    ElementStore store = (ElementStore) original.withOperands(this::map);
    boolean intoSeeded = store.array() == seeded;
    if (store.add() && isZero(store.value()) && (intoSeeded || store.array() == row)) {
      return;
    }
    if (intoSeeded && contents != null) {
      OptionalDouble index = constant(store.index());
      OptionalDouble value = constant(store.value());
      if (index.isEmpty() || index.getAsDouble() < 0 || index.getAsDouble() >= contents.length
          || value.isEmpty()) {
        contents = null;
      } else {
        int at = (int) index.getAsDouble();
        contents[at] = store.add() ? contents[at] + value.getAsDouble() : value.getAsDouble();
      }
    }
    out.add(store);
  }

  private void remember(Variable variable, Operand value) {
    OptionalDouble constant = value == null ? OptionalDouble.empty() : constant(value);
    if (constant.isPresent() && variable.type() == NumericType.DOUBLE) {
      knownVariables.put(variable, constant.getAsDouble());
    } else {
      knownVariables.remove(variable);
    }
  }

  private Operand map(Operand operand) {
    if (operand instanceof Operand.Use use && known.containsKey(use.value())) {
      return known.get(use.value());
    }
    if (operand instanceof Operand.Read read && knownVariables.containsKey(read.variable())) {
      return Operand.Constant.of(knownVariables.get(read.variable()));
    }
    return operand;
  }

  private static boolean isDouble(Operand operand) {
    return operand.type() == NumericType.DOUBLE;
  }

  private static OptionalDouble constant(Operand operand) {
    return operand instanceof Operand.Constant constant ? constant.knownValue()
        : OptionalDouble.empty();
  }

  private static boolean isZero(Operand operand) {
    OptionalDouble value = constant(operand);
    return operand.type() == NumericType.DOUBLE && value.isPresent() && value.getAsDouble() == 0;
  }

  private static boolean isOne(Operand operand) {
    return operand instanceof Operand.Constant constant && constant.isOne();
  }

  private static Operand zero() {
    return Operand.Constant.of(0.0);
  }

  /** {@code statements} without the declarations of and stores into variables nothing reads. */
  private static List<Statement> withoutUnreadVariables(List<Statement> statements) {
    Set<Variable> read = new HashSet<>();
    for (Statement statement : statements) {
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Read variable) {
          read.add(variable.variable());
        }
      }
    }
    return statements.stream().filter(statement ->
        !(statement instanceof Declare declare && !read.contains(declare.variable()))
        && !(statement instanceof Store store && !read.contains(store.variable()))).toList();
  }
}
