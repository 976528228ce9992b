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
 * <p>The result takes the gradient program's parameters but its output, the gradient, then,
 * lane after lane, a copy of each tangent parameter (lane 0 the tangent program's own). It
 * returns nothing and writes no gradient: a Hessian reads neither the tangent of the value nor
 * the gradient, which are left out, with what only they needed (the gradient program only
 * writes into its output; one that would read from it is not covered).
 *
 * <p>Only what is plainly per lane is transformed: operators and math calls on tangents,
 * elements read from a tangent parameter, stores into a tangent parameter's elements, tangent
 * variables, tangents recorded on the tape (pushed lane after lane, taken back in the mirror
 * order; what the gradient program records is recorded once). A program that calls other
 * programs, takes checkpoints, or makes arrays that carry tangents is not (empty): its
 * tangents are not all numbers that can be copied per lane.
 */
public final class TangentLanes {
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
  public static Optional<Function> of(Function gradient, int lanes) {
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
    for (int lane = 0; lane < lanes; lane++) {
      for (int i = firstTangent; i < parameters.size(); i++) {
        laneParameters.add(transform.laneOf(parameters.get(i), lane));
      }
    }
    Block body = DeadCode.withoutDead(transform.transform(program.body()));
    return Optional.of(program.with(laneParameters, body));
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
    if (lane == 0 || !dependent.contains(value)) {
      return value;
    }
    // a tangent's copy named by its lane (xDot, xDot2, ...), whatever order prints them
    return laneValues.get(lane).computeIfAbsent(value, v -> v.origin() == Value.Origin.DERIVED
        && v.base() != null && Derivative.TANGENT.suffix().equals(v.nameHint())
        ? builder.derived(v.base(), Derivative.TANGENT.suffix() + (lane + 1), v.type())
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
      } else if (statement instanceof If branch) {
        out.add(new If(branch.id(), branch.condition(), transform(branch.thenBlock()),
            transform(branch.elseBlock()), branch.line()));
      } else if (statement instanceof Loop loop) {
        out.add(new Loop(loop.id(), transform(loop.condition()), loop.test(), loop.testFirst(),
            transform(loop.body()), transform(loop.update()), loop.line()));
      } else {
        out.add(statement);
      }
    }
    return new Block(out);
  }
}
