package ad4j.processor.derive.forward;

import ad4j.processor.analysis.Ids;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.List;

/**
 * The walk of a tangent program: the parameters' tangents, then every statement of the
 * primal in place, each active instruction followed by its tangent ({@link InstructionTangents})
 * and each store to an active variable by a store to its tangent. Apart from the rules per
 * instruction, which do not depend on the structure around them.
 */
final class TangentWalk {
  private final TangentState s;

  TangentWalk(TangentState s) {
    this.s = s;
  }

  /**
   * The tangent program of {@code function}: its parameters followed by their tangents, and
   * its body with every statement followed by its tangent's.
   */
  Function transform(Function function) {
    List<Value> parameters = new ArrayList<>(function.parameters());
    parameters.addAll(parameterTangents(function.parameters()));
    List<Statement> startingAtZero = parameterVariableTangents(function.body());
    List<Statement> body = new ArrayList<>();
    List<Statement> statements = function.body().statements();
    // a reverse-mode program's note of its forward sweep stands for the tangents' too
    if (statements.stream().anyMatch(s -> !(s instanceof Return))
        && statements.stream().noneMatch(s -> s instanceof Note note
            && Adjoint.FORWARD_NOTE.equals(note.text()))) {
      body.add(new Note(Tangent.NOTE, null));
    }
    body.addAll(startingAtZero);
    body.addAll(transform(function.body()).statements());
    return function.with(parameters, new Block(body));
  }

  /**
   * The tangent parameters, in the order of the parameters they belong to: a direction for each
   * active number, a tangent array for each array carrying derivatives, then one for each
   * output array (a gradient), for the tangents of what is written into it.
   */
  private List<Value> parameterTangents(List<Value> parameters) {
    List<Value> tangents = new ArrayList<>();
    for (Value parameter : parameters) {
      if (parameter.isActive()) {
        Value tangent = s.builder.derived(parameter, Derivative.TANGENT, NumericType.DOUBLE);
        tangents.add(tangent);
        s.tangents.put(parameter, new Operand.Use(tangent));
      } else if (parameter.isActiveArray()) {
        // an array's tangent is an array of the same shape: wDot[i] is the tangent of w[i]
        // (a double[] for a float[])
        Value tangent = s.builder.derived(parameter, Derivative.TANGENT,
            parameter.type().derivativeType());
        tangents.add(tangent);
        s.arrayTangents.put(parameter, tangent);
      }
    }
    for (Value parameter : parameters) {
      if (parameter.type() == NumericType.DOUBLE_ARRAY
          && parameter.origin() != Value.Origin.PARAMETER
          && !s.arrayTangents.containsKey(parameter)) {
        // (a vector function's seed that carries a derivative has its tangent above)
        // an output array (a gradient) gets one for the tangents of what is written into it
        Value tangent = s.builder.derived(parameter, Derivative.TANGENT, NumericType.DOUBLE_ARRAY);
        tangents.add(tangent);
        s.arrayTangents.put(parameter, tangent);
      }
    }
    return tangents;
  }

  /**
   * The tangents of the variables standing for active parameters (those the method assigns):
   * each starts as its parameter's direction; the declarations of those that start at zero,
   * which go first in the body.
   */
  private List<Statement> parameterVariableTangents(Block body) {
    List<Statement> startingAtZero = new ArrayList<>();
    for (Variable variable : Ids.parameterVariables(body)) {
      if (!variable.isActive()) {
        continue;
      }
      if (s.tangents.get(variable.parameter()) instanceof Operand.Use use) {
        s.variableTangents.put(variable,
            s.builder.derived(variable, Derivative.TANGENT, NumericType.DOUBLE, use.value()));
      } else {
        // a @NoDerivative parameter that the method assigns under control flow: the
        // parameter has no direction, so its variable's tangent starts at zero and takes
        // the tangents of what is stored into it
        Variable tangent = s.builder.derived(variable, Derivative.TANGENT, NumericType.DOUBLE, null);
        s.variableTangents.put(variable, tangent);
        startingAtZero.add(new Declare(tangent, Site.number(0.0), null));
      }
    }
    return startingAtZero;
  }

  private Block transform(Block block) {
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      transform(statement, out);
    }
    return new Block(out);
  }

  /**
   * Adds {@code statement} to {@code out} with its tangent: after it for what it computes or
   * stores, before it for a push (taken back in mirror order), in place of it for a call of a
   * pullback, its branches and loops walked.
   */
  private void transform(Statement statement, List<Statement> out) {
    if (statement instanceof Instruction instruction
        && instruction.operation().form() == Operation.Form.PULLBACK_CALL
        && !instruction.operation().isPullbackTangentCall()) {
      if (instruction.operation().isSplitCall()) {
        // the second-order code differentiates programs whose calls run the whole pullback
        throw new IllegalArgumentException("no forward mode of a split call: " + instruction);
      }
      out.addAll(s.calls.pullbackTangentCall(instruction));
    } else if (statement instanceof Instruction instruction) {
      out.add(instruction);
      if (!addValueTangent(instruction, out)) {
        addSweepTangent(instruction, out);
      }
      if (s.straightLine) {
        s.computed.record(instruction);
      }
    } else if (statement instanceof Declare declare) {
      declare(declare, out);
    } else if (statement instanceof Store store) {
      out.add(store);
      if (store.variable().isActive()) {
        out.add(new Store(s.variableTangents.get(store.variable()),
            s.instructions.tangentOf(store.value()), store.line()));
      }
    } else if (statement instanceof Return ret) {
      out.add(tangentReturn(ret));
    } else if (statement instanceof Push push) {
      push(push, out);
    } else if (statement instanceof ElementStore store) {
      elementStore(store, out);
    } else if (statement instanceof If || statement instanceof Loop) {
      out.add(statement.withNestedBlocks(this::transform));
    } else {
      out.add(statement); // jumps, throws and notes are the same in both programs
    }
  }

  /**
   * Adds the tangent of an instruction whose value is a number or array of the primal's
   * computation (a popped copy, a store through a reference, a rule's partials dotted with
   * adjoints, an active number or array); false when it is none of these, and a reverse-mode
   * program's instruction may need one ({@link #addSweepTangent}).
   */
  private boolean addValueTangent(Instruction instruction, List<Statement> out) {
    if (instruction.operation().form() == Operation.Form.POP
        && instruction.result().isActive()
        && !CallTangents.recordedWithTangent(instruction.result())) {
      // a copy of a value that carried no derivative where it was recorded: no tangent
      // was recorded with it either
      s.tangents.put(instruction.result(), Site.number(0.0));
    } else if (instruction.operation().form() == Operation.Form.STORE
        && instruction.result().isActive()) {
      s.instructions.storeTangent(instruction, out);
    } else if (s.sweepHelpers.isRuledDot(instruction)) {
      s.sweepHelpers.ruledDotTangent(instruction, out);
    } else if (instruction.result().isActive()) {
      out.addAll(s.instructions.tangentOf(instruction));
    } else if (instruction.result().isActiveArray()) {
      out.addAll(s.instructions.arrayTangentOf(instruction));
    } else {
      return false;
    }
    return true;
  }

  /**
   * Adds the tangent of an instruction of a reverse-mode program (differentiated again for
   * second order) whose result carries no derivative but holds adjoints or partials: an
   * adjoint array, the slot calls that add and seed adjoints, the arrays of partials
   * {@code @DerivativeOf} rules give, scratch and cleared adjoints. Nothing for any other.
   */
  private void addSweepTangent(Instruction instruction, List<Statement> out) {
    if (ReverseSweepTangents.isAdjointArray(instruction)) {
      // a reverse-mode program's adjoint array: its tangent holds the adjoints' tangents
      out.add(arrayTangentInstruction(instruction));
    } else if (instruction.operation().isSlotsCall(SlotsCall.ADD_INTO)
        || instruction.operation().isSlotsCall(SlotsCall.ADD_INTO_WITHIN)) {
      s.sweepHelpers.addIntoTangent(instruction, out);
    } else if (instruction.operation().isSlotsCall(SlotsCall.SEED)
        || instruction.operation().isSlotsCall(SlotsCall.SEED_WITHIN)) {
      s.sweepHelpers.seedTangent(instruction, out);
    } else if (instruction.operation().isSlotsCall(SlotsCall.ADD_SCALED)) {
      s.sweepHelpers.addScaledTangent(instruction, out);
    } else if (instruction.operation().form() == Operation.Form.USER_CALL
        && instruction.result().type() == NumericType.DOUBLE_ARRAY
        && instruction.arguments().stream().anyMatch(s.instructions::carriesTangent)) {
      // a @DerivativeOf rule's partials, with respect to an array or of a vector target,
      // computed where the target is called: their tangents (the rule's J·v) are too, so
      // that both see the arguments as the call did (see addScaledTangent)
      out.addAll(s.instructions.arrayTangentOf(instruction));
      s.arrayPartials.add(instruction.result());
    } else if (instruction.operation().form() == Operation.Form.POP
        && instruction.result().type() == NumericType.DOUBLE_ARRAY
        && s.arrayPartials.contains(instruction.result().base())) {
      // partials recorded in a loop: their tangents lie below them (see push)
      out.add(arrayTangentInstruction(instruction));
      s.arrayPartials.add(instruction.result());
    } else if (instruction.operation().isSlotsCall(SlotsCall.DISCARDED)) {
      // scratch for adjoints nobody reads: their tangents may go there too
      s.arrayTangents.put(instruction.result(), instruction.result());
    } else if (instruction.operation().isSlotsCall(SlotsCall.CLEAR)) {
      // the adjoints' tangents are cleared with the adjoints
      Value cleared = s.builder.derived(instruction.result(), Derivative.TANGENT, NumericType.INT);
      out.add(new Instruction(cleared, instruction.operation(), List.of(new Operand.Use(
          s.arrayTangents.get(((Operand.Use) instruction.arguments().get(0)).value()))),
          instruction.line()));
    }
  }

  /**
   * The same operation as {@code instruction} making its result's tangent array, which is
   * noted as that array's: a new adjoint array's, or the popped copy of partials'.
   */
  private Instruction arrayTangentInstruction(Instruction instruction) {
    Value tangent = s.builder.derived(instruction.result(), Derivative.TANGENT,
        NumericType.DOUBLE_ARRAY);
    s.arrayTangents.put(instruction.result(), tangent);
    return new Instruction(tangent, instruction.operation(), instruction.arguments(),
        instruction.line());
  }

  /**
   * Adds a declaration and, for an active variable, its tangent's, unless that tangent stays
   * zero: then the variable has none, and its reads carry no derivative.
   */
  private void declare(Declare declare, List<Statement> out) {
    out.add(declare);
    Variable variable = declare.variable();
    Operand initialTangent = variable.isActive()
        ? s.instructions.tangentOf(declare.initial()) : null;
    if (variable.isActive() && !s.zeros.staysZero(declare, initialTangent)) {
      Variable tangent = s.builder.derived(variable, Derivative.TANGENT, NumericType.DOUBLE, null);
      s.variableTangents.put(variable, tangent);
      out.add(new Declare(tangent, initialTangent, declare.line()));
    }
  }

  /**
   * The tangent program's return: the tangent of the returned number, or of a vector
   * function's array (J times the direction).
   */
  private Return tangentReturn(Return ret) {
    Operand returned = ret.value();
    if (returned != null && returned.type().isArray()) {
      return new Return(new Operand.Use(s.arrayTangents.get(((Operand.Use) returned).value())),
          ret.line());
    }
    return new Return(returned == null ? null : s.instructions.tangentOf(returned), ret.line());
  }

  /**
   * Adds a push, after the push of its tangent: they are taken back in mirror order, the value
   * first, then its tangent.
   */
  private void push(Push push, List<Statement> out) {
    if (s.instructions.isActive(push.value())) {
      out.add(new Push(s.instructions.tangentOf(push.value()), push.line()));
    } else if (push.value() instanceof Operand.Use use && s.arrayTangents.containsKey(
        use.value())) {
      // an array made in a loop, recorded by reference: its tangent array goes with it
      out.add(new Push(new Operand.Use(s.arrayTangents.get(use.value())), push.line()));
    }
    out.add(push);
  }

  /**
   * Adds a store into an array element and, when the array has a tangent, the store of the
   * value's tangent into it; an overwrite with a constant (a reverse sweep zeroing an adjoint)
   * zeroes the tangent.
   */
  private void elementStore(ElementStore store, List<Statement> out) {
    out.add(store);
    Value arrayTangent = s.arrayTangents.get(store.array());
    if (arrayTangent != null && (s.instructions.isActive(store.value()) || !store.add())) {
      out.add(new ElementStore(arrayTangent, store.index(),
          s.instructions.tangentOf(store.value()), store.add(), store.line()));
    }
  }
}
