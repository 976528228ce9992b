package ad4j.processor.derive.forward;

import ad4j.processor.analysis.Ids;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.optimize.DeadCode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Vector mode of a tangent program: the program with {@code k} lanes of tangents, so that one
 * run carries {@code k} directions. What does not depend on the direction (the primal, and in
 * a forward-over-reverse sweep the whole first-order reverse bookkeeping) runs once; only the
 * statements that read a tangent parameter, directly or through values and variables made
 * from one, are written once per lane, each lane reading its own copies. The lanes are
 * unrolled scalars: no array is made for them, and the JIT keeps each lane in registers.
 *
 * <p>The lanes carry unit directions, as {@code mHessian} gives them: each lane the direction
 * of one slot, {@code e_s}, passed as the slot {@code s} ({@code int}). The tangents of the
 * leading {@code double} and array parameters (up to the first matrix, or array the program
 * writes into, or parameter it assigns) are not parameters: a scalar's is {@code s == start ?
 * 1.0 : 0.0}, computed once per run, where {@code start} is the parameter's slot (a constant
 * where only scalars come before it, else sums of the lengths of the arrays before it), and
 * an element {@code x[i]}'s is {@code i == s - start ? 1.0 : 0.0}, so that the run reads no
 * direction from memory and one that is never read costs nothing. A slot outside the
 * parameters ({@code -1}) is the zero direction. The parameters after those keep a tangent
 * parameter per lane, which the caller fills with the unit direction.
 *
 * <p>The result takes the gradient program's parameters but its output, the gradient, then,
 * lane after lane, the lane's slot (where some tangents are given by it) and a copy of each
 * other tangent parameter (lane 0 the tangent program's own), the tangent of the gradient
 * last. It returns nothing and writes no gradient: a Hessian reads neither the tangent of the
 * value nor the gradient, which are left out, with what only they needed (the gradient
 * program only writes into its output; one that would read from it is not covered).
 *
 * <p>Only what is plainly per lane is transformed: operators and math calls on tangents,
 * elements read from a tangent parameter, stores into a tangent parameter's elements, tangent
 * variables, tangents recorded on the tape (pushed lane after lane, taken back in the mirror
 * order; what the gradient program records is recorded once). A program that calls other
 * programs, takes checkpoints, or makes arrays that carry tangents is not (empty): its
 * tangents are not all numbers that can be copied per lane.
 */
public final class TangentLanes {
  /**
   * A sweep with lanes: its program, and how many of the function's active parameters, from
   * the first, have their lanes' tangents given by the lane's slot.
   */
  public record Sweep(Function program, int bySlot) {}

  private final int lanes;
  private final IrBuilder builder;
  /** The gradient program's pushes and pops, by identity. */
  private final Set<Statement> recorded = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Set<Value> tangentParameters = new HashSet<>();
  private final Set<Value> dependent = new HashSet<>();
  private final Set<Variable> dependentVariables = new HashSet<>();
  private final List<Map<Value, Value>> laneValues = new ArrayList<>();
  private final List<Map<Variable, Variable>> laneVariables = new ArrayList<>();
  /** The gradient program's output, only written: its stores are left out. */
  private Value unwritten;
  /** Each lane's slot, where some tangents are given by it. */
  private final List<Value> slots = new ArrayList<>();
  /**
   * The tangent parameters given by the slot, with what their parameter's first slot is: a
   * constant after the lengths of the arrays before it.
   */
  private final Map<Value, Start> bySlot = new HashMap<>();
  /** The lengths of arrays the starts read, once each. */
  private final Map<Value, Value> lengths = new HashMap<>();
  /** Per lane, a scalar tangent's value or an array tangent's index of the lane's slot. */
  private final Map<Value, List<Value>> unitValues = new HashMap<>();
  /** The statements that compute {@link #unitValues} and what they need, once per run. */
  private final List<Statement> preamble = new ArrayList<>();

  private TangentLanes(Function program, int lanes) {
    this.lanes = lanes;
    this.builder = new IrBuilder(Ids.next(program));
    for (int lane = 0; lane < lanes; lane++) {
      laneValues.add(new HashMap<>());
      laneVariables.add(new HashMap<>());
    }
  }

  /**
   * The tangent program of {@code gradient} ({@link Tangent#of}) with {@code lanes} lanes of
   * the tangents of its parameters; empty where it has what lanes do not cover.
   */
  public static Optional<Sweep> of(Function gradient, int lanes) {
    Function program = Tangent.of(gradient);
    int firstTangent = gradient.parameters().size();
    if (lanes < 1 || firstTangent >= program.parameters().size()) {
      return Optional.empty();
    }
    TangentLanes transform = new TangentLanes(program, lanes);
    // the tangent program keeps the gradient program's own pushes and pops, the same
    // statements: any other one records a tangent, once per lane
    gradient.body().walk(statement -> {
      if (statement instanceof Push || statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.POP) {
        transform.recorded.add(statement);
      }
    });
    List<Value> parameters = program.parameters();
    for (int i = firstTangent; i < parameters.size(); i++) {
      Value tangent = parameters.get(i);
      transform.tangentParameters.add(tangent);
      transform.dependent.add(tangent);
    }
    program.body().walk(statement -> {
      if (transform.isTangentPop(statement)) {
        transform.dependent.add(((Instruction) statement).result());
      }
      // a parameter the method assigns is read through its variable, not as the parameter's
      // value: that variable is the direction too. Unmarked, nothing computed from it would
      // depend on the direction, and every lane would carry lane 0's tangent
      if (statement instanceof Declare declare
          && transform.tangentParameters.contains(declare.variable().parameter())) {
        transform.dependentVariables.add(declare.variable());
      } else if (statement instanceof Store store
          && transform.tangentParameters.contains(store.variable().parameter())) {
        transform.dependentVariables.add(store.variable());
      }
    });
    transform.spread(program.body());
    Value output = parameters.get(firstTangent - 1);
    if (!transform.covered(program.body()) || !transform.onlyWritten(program.body(), output)) {
      return Optional.empty();
    }
    List<Value> laneParameters = new ArrayList<>(parameters.subList(0, firstTangent));
    transform.unwritten = laneParameters.remove(firstTangent - 1);
    int bySlot = transform.givenBySlot(program, parameters.subList(firstTangent,
        parameters.size() - 1));
    for (int lane = 0; lane < lanes; lane++) {
      if (bySlot > 0) {
        laneParameters.add(transform.slots.get(lane));
      }
      for (int i = firstTangent + bySlot; i < parameters.size(); i++) {
        laneParameters.add(transform.laneOf(parameters.get(i), lane));
      }
    }
    Block transformed = transform.transform(program.body());
    List<Statement> body = new ArrayList<>(transform.preamble);
    body.addAll(transformed.statements());
    return Optional.of(new Sweep(program.with(laneParameters,
        DeadCode.withoutDead(new Block(body))), bySlot));
  }

  /**
   * Chooses the tangents given by the lane's slot, the leading ones of {@code tangents} (the
   * parameters', in their order, which is that of the slots) that are scalars or arrays the
   * program neither writes into nor assigns, and writes what gives them per lane; returns
   * how many.
   */
  private int givenBySlot(Function program, List<Value> tangents) {
    Set<Value> excluded = new HashSet<>();
    program.body().walk(statement -> {
      if (statement instanceof ElementStore store) {
        excluded.add(store.array());
      } else if (statement instanceof Declare declare) {
        excluded.add(declare.variable().parameter());
      } else if (statement instanceof Store store) {
        excluded.add(store.variable().parameter());
      }
    });
    int count = 0;
    int constant = 0;
    List<Value> arraysBefore = new ArrayList<>();
    for (Value tangent : tangents) {
      boolean scalar = tangent.type() == NumericType.DOUBLE;
      if (!scalar && tangent.type() != NumericType.DOUBLE_ARRAY || excluded.contains(tangent)
          || tangent.base() == null) {
        break;
      }
      if (count == 0) {
        for (int lane = 0; lane < lanes; lane++) {
          slots.add(builder.generated("slot", NumericType.INT, false));
        }
      }
      bySlot.put(tangent, new Start(constant, List.copyOf(arraysBefore)));
      count++;
      if (scalar) {
        constant++;
      } else {
        arraysBefore.add(tangent.base());
      }
    }
    return count;
  }

  /** A parameter's first slot: {@code constant} after the lengths of {@code arraysBefore}. */
  private record Start(int constant, List<Value> arraysBefore) {}

  /**
   * The first slot of {@code parameter}, computed in the preamble where arrays come before
   * it.
   */
  private Operand start(Start where, Value parameter) {
    int constant = where.constant();
    if (where.arraysBefore().isEmpty()) {
      return Operand.Constant.of(constant);
    }
    Operand sum = null;
    for (Value array : where.arraysBefore()) {
      Operand length = new Operand.Use(lengths.computeIfAbsent(array, a -> {
        Value value = builder.derived(a, "Length", NumericType.INT);
        preamble.add(new Instruction(value, Operation.LENGTH, List.of(new Operand.Use(a)),
            null));
        return value;
      }));
      sum = sum == null ? length : sumOf(sum, length);
    }
    if (constant > 0) {
      sum = sumOf(sum, Operand.Constant.of(constant));
    }
    Value start = builder.derived(parameter, "Start", NumericType.INT);
    preamble.add(new Instruction(start, Operation.COPY, List.of(sum), null));
    return new Operand.Use(start);
  }

  private Operand sumOf(Operand a, Operand b) {
    Value sum = builder.formula(NumericType.INT, false);
    preamble.add(new Instruction(sum, Operation.ADD, List.of(a, b), null));
    return new Operand.Use(sum);
  }

  /**
   * Per lane, what gives the tangent {@code tangent} in that lane: a scalar's value, {@code
   * slot == start ? 1.0 : 0.0}, or the index in an array of the lane's slot, {@code slot -
   * start}; written into the preamble when first asked for.
   */
  private List<Value> unitValues(Value tangent) {
    return unitValues.computeIfAbsent(tangent, t -> {
      Operand start = start(bySlot.get(t), t.base());
      List<Value> values = new ArrayList<>();
      for (int lane = 0; lane < lanes; lane++) {
        Operand slot = new Operand.Use(slots.get(lane));
        String suffix = lane == 0 ? "" : Integer.toString(lane + 1);
        if (t.type() == NumericType.DOUBLE) {
          Value value = builder.laneDerivative(t.base(), Derivative.TANGENT, lane,
              NumericType.DOUBLE);
          preamble.add(unit(value, slot, start, null, null));
          values.add(value);
        } else if (start instanceof Operand.Constant constant
            && constant.knownValue().orElse(-1) == 0) {
          values.add(slots.get(lane));
        } else {
          Value index = builder.derived(t.base(), "Unit" + suffix, NumericType.INT);
          preamble.add(new Instruction(index, Operation.SUBTRACT, List.of(slot, start), null));
          values.add(index);
        }
      }
      return values;
    });
  }

  /** {@code result = a == b ? 1.0 : 0.0}, with its condition before it in the preamble. */
  private Instruction unit(Value result, Operand a, Operand b, List<Statement> out,
      SourceLine line) {
    Value equal = builder.formula(NumericType.BOOLEAN, false);
    (out == null ? preamble : out).add(new Instruction(equal, Operation.infix("=="),
        List.of(a, b), line));
    return new Instruction(result, Operation.SELECT, List.of(new Operand.Use(equal),
        Operand.Constant.of(1.0), Operand.Constant.zero(NumericType.DOUBLE)), line);
  }

  /**
   * Whether {@code program} only stores into {@code array}: no instruction reads it, and it is
   * passed nowhere.
   */
  private boolean onlyWritten(Block program, Value array) {
    boolean[] read = {false};
    program.walk(statement -> {
      List<Operand> operands = statement instanceof ElementStore store && store.array() == array
          ? List.of(store.index(), store.value()) : statement.operands();
      if (operands.stream().anyMatch(o -> o instanceof Operand.Use use && use.value() == array)) {
        read[0] = true;
      }
    });
    return !read[0];
  }

  /** Whether {@code statement} takes a tangent back from the tape. */
  private boolean isTangentPop(Statement statement) {
    return statement instanceof Instruction instruction
        && instruction.operation().form() == Operation.Form.POP
        && !recorded.contains(statement);
  }

  /** Whether {@code statement} records a tangent on the tape. */
  private boolean isTangentPush(Statement statement) {
    return statement instanceof Push && !recorded.contains(statement);
  }

  // --- which values and variables depend on the direction

  /** Marks, to a fixed point, what is computed from a tangent parameter. */
  private void spread(Block body) {
    int size;
    do {
      size = dependent.size() + dependentVariables.size();
      body.walk(statement -> {
        boolean reads = statement.operands().stream().anyMatch(this::isDependent);
        if (statement instanceof Instruction instruction && reads) {
          dependent.add(instruction.result());
        } else if (statement instanceof Declare declare && reads) {
          dependentVariables.add(declare.variable());
        } else if (statement instanceof Store store && reads) {
          dependentVariables.add(store.variable());
        }
      });
    } while (dependent.size() + dependentVariables.size() > size);
  }

  private boolean isDependent(Operand operand) {
    return operand instanceof Operand.Use use && dependent.contains(use.value())
        || operand instanceof Operand.Read read && dependentVariables.contains(read.variable());
  }

  /** Whether every statement that depends on the direction is one lanes copy plainly. */
  private boolean covered(Block body) {
    boolean[] covered = {true};
    body.walk(statement -> {
      if (!coveredStatement(statement)) {
        covered[0] = false;
      }
    });
    return covered[0];
  }

  private boolean coveredStatement(Statement statement) {
    if (statement instanceof Instruction instruction) {
      Operation.Family family = instruction.operation().form().family();
      if (family == Operation.Family.TAPE && instruction.operation().form() != Operation.Form.POP
          || family == Operation.Family.GENERATED_CALL
          || family == Operation.Family.DIFFERENTIATED_CALL) {
        return false; // callees' own tangents and checkpoints are not per lane
      }
      if (!dependent.contains(instruction.result())) {
        return true;
      }
      if (instruction.result().type() == NumericType.DOUBLE_ARRAY) {
        // a row of a matrix parameter's tangent
        return isElementOfTangent(instruction, NumericType.DOUBLE_MATRIX);
      }
      if (!instruction.result().type().isFloatingPoint()) {
        return false;
      }
      return switch (family) {
        case OPERATOR, MATH_CALL -> true;
        case TAPE -> isTangentPop(instruction); // a tangent, taken back per lane
        case ARRAY -> isElementOfTangent(instruction, NumericType.DOUBLE_ARRAY);
        default -> false;
      };
    } else if (statement instanceof Declare || statement instanceof Store) {
      Variable variable = statement instanceof Declare declare ? declare.variable()
          : ((Store) statement).variable();
      // a tangent variable that stands for a parameter starts from the lane's parameter
      return !dependentVariables.contains(variable) || variable.parameter() == null;
    } else if (statement instanceof ElementStore store) {
      if (!dependent.contains(store.array())) {
        return !isDependent(store.value());
      }
      return tangentParameters.contains(store.array()) && !isDependent(store.index());
    } else if (statement instanceof Return) {
      return true;
    } else if (statement instanceof Push push) {
      // a tangent recorded per lane, a number; what the gradient program records, once
      return isTangentPush(push) ? !push.value().type().isArray()
          && push.value().type().isFloatingPoint() : !isDependent(push.value());
    }
    // branches' conditions, loops' tests, throws: never a tangent
    return statement.operands().stream().noneMatch(this::isDependent);
  }

  /**
   * Whether {@code instruction} reads an element of a tangent array of type {@code type} (a
   * parameter's, or a row of a matrix parameter's) at an index that is the same in every
   * lane. No other array depends on the direction: every other instruction that would make
   * one is not covered.
   */
  private boolean isElementOfTangent(Instruction instruction, NumericType type) {
    return instruction.operation().form() == Operation.Form.ELEMENT
        && instruction.arguments().get(0) instanceof Operand.Use array
        && array.value().type() == type && dependent.contains(array.value())
        && instruction.arguments().stream().skip(1).noneMatch(this::isDependent);
  }

  // --- the program with lanes

  private Value laneOf(Value value, int lane) {
    if (bySlot.containsKey(value) && value.type() == NumericType.DOUBLE) {
      return unitValues(value).get(lane);
    }
    if (lane == 0 || !dependent.contains(value)) {
      return value;
    }
    // a tangent's copy named by its lane (xDot, xDot2, ...), whatever order prints them
    return laneValues.get(lane).computeIfAbsent(value, v -> v.origin() == Value.Origin.DERIVED
        && v.base() != null && Derivative.TANGENT.suffix().equals(v.nameHint())
        ? builder.laneDerivative(v.base(), Derivative.TANGENT, lane, v.type())
        : builder.again(v));
  }

  private Variable laneOf(Variable variable, int lane) {
    if (lane == 0 || !dependentVariables.contains(variable)) {
      return variable;
    }
    return laneVariables.get(lane).computeIfAbsent(variable, builder::copyOf);
  }

  private Operand laneOf(Operand operand, int lane) {
    if (operand instanceof Operand.Use use) {
      return new Operand.Use(laneOf(use.value(), lane));
    } else if (operand instanceof Operand.Read read) {
      return new Operand.Read(laneOf(read.variable(), lane));
    }
    return operand;
  }

  private Block transform(Block block) {
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (isTangentPop(statement)) {
        // pushed lane after lane: taken back in the mirror order
        Instruction pop = (Instruction) statement;
        for (int lane = lanes - 1; lane >= 0; lane--) {
          out.add(new Instruction(laneOf(pop.result(), lane), pop.operation(), List.of(),
              pop.line()));
        }
      } else if (isTangentPush(statement)) {
        Push push = (Push) statement;
        for (int lane = 0; lane < lanes; lane++) {
          out.add(new Push(laneOf(push.value(), lane), push.line()));
        }
      } else if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.ELEMENT
          && instruction.arguments().get(0) instanceof Operand.Use array
          && bySlot.containsKey(array.value())) {
        // the element's tangent in the lane: 1 at the lane's slot, else 0
        List<Value> indices = unitValues(array.value());
        for (int lane = 0; lane < lanes; lane++) {
          out.add(unit(laneOf(instruction.result(), lane), instruction.arguments().get(1),
              new Operand.Use(indices.get(lane)), out, instruction.line()));
        }
      } else if (statement instanceof Instruction instruction
          && dependent.contains(instruction.result())) {
        for (int lane = 0; lane < lanes; lane++) {
          int l = lane;
          out.add(new Instruction(laneOf(instruction.result(), l), instruction.operation(),
              instruction.arguments().stream().map(a -> laneOf(a, l)).toList(),
              instruction.line()));
        }
      } else if (statement instanceof Declare declare
          && dependentVariables.contains(declare.variable())) {
        for (int lane = 0; lane < lanes; lane++) {
          out.add(new Declare(laneOf(declare.variable(), lane),
              laneOf(declare.initial(), lane), declare.line()));
        }
      } else if (statement instanceof Store store
          && dependentVariables.contains(store.variable())) {
        for (int lane = 0; lane < lanes; lane++) {
          out.add(new Store(laneOf(store.variable(), lane), laneOf(store.value(), lane),
              store.line()));
        }
      } else if (statement instanceof ElementStore store
          && dependent.contains(store.array())) {
        for (int lane = 0; lane < lanes; lane++) {
          out.add(new ElementStore(laneOf(store.array(), lane), store.index(),
              laneOf(store.value(), lane), store.add(), store.line()));
        }
      } else if (statement instanceof ElementStore store && store.array() == unwritten) {
        continue; // the gradient: a Hessian does not read it
      } else if (statement instanceof Return ret) {
        // the value's tangent is not read: what only it needs goes with it
        out.add(new Return(null, ret.line()));
      } else if (statement instanceof If || statement instanceof Loop) {
        out.add(statement.withNestedBlocks(this::transform));
      } else {
        out.add(statement);
      }
    }
    return new Block(out);
  }
}
