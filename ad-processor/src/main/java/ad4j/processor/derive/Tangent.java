package ad4j.processor.derive;

import ad4j.processor.analysis.Ids;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.RuledCallee;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Partial;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Forward mode: the primal program with a tangent beside each active value. The result takes
 * the primal's parameters, then one tangent per active parameter ({@code xDot}), and returns
 * the result's tangent. Every statement of the primal is kept in place; an active instruction
 * is followed by its tangent, {@code sum of partial * argumentTangent}, built from the rule
 * table; a store to an active variable by a store to its tangent.
 *
 * <p>The input may itself be a derivative program: any IR function whose active values have
 * rules can be transformed, which is how second derivatives are built.
 */
public final class Tangent {
  /** The note that opens a tangent program. */
  public static final String NOTE = "forward sweep: values and tangents";

  private final IrBuilder builder;
  private final Map<Value, Operand> tangents = new HashMap<>();
  private final Map<Variable, Variable> variableTangents = new HashMap<>();
  private final Map<Value, Value> arrayTangents = new HashMap<>();
  /**
   * The arrays of partials that {@code @DerivativeOf} rules gave where their targets are
   * called (and their copies taken back from the tape), each with a tangent array in
   * {@link #arrayTangents}: the reverse sweep reads them.
   */
  private final java.util.Set<Value> arrayPartials = new java.util.HashSet<>();
  /** Math calls computed so far in straight-line code, which formulas may read again. */
  private final ForwardValues computed = new ForwardValues();
  private final boolean straightLine;

  private Tangent(Function function) {
    this.builder = new IrBuilder(Ids.next(function));
    // without branches and loops, a value computed earlier is there wherever it is read
    this.straightLine = function.body().statements().stream()
        .noneMatch(s -> s instanceof If || s instanceof Loop);
  }

  /** The tangent program of {@code function}. */
  public static Function of(Function function) {
    return new Tangent(function).transform(function);
  }

  private Function transform(Function function) {
    List<Value> parameters = new ArrayList<>(function.parameters());
    for (Value parameter : function.parameters()) {
      if (parameter.isActive()) {
        Value tangent = builder.derived(parameter, "Dot", NumericType.DOUBLE);
        parameters.add(tangent);
        tangents.put(parameter, new Operand.Use(tangent));
      } else if (parameter.isActiveArray()) {
        // an array's tangent is an array of the same shape: wDot[i] is the tangent of w[i]
        Value tangent = builder.derived(parameter, "Dot", parameter.type());
        parameters.add(tangent);
        arrayTangents.put(parameter, tangent);
      }
    }
    for (Value parameter : function.parameters()) {
      if (parameter.type() == NumericType.DOUBLE_ARRAY
          && parameter.origin() != Value.Origin.PARAMETER) {
        // an output array (a gradient) gets one for the tangents of what is written into it
        Value tangent = builder.derived(parameter, "Dot", NumericType.DOUBLE_ARRAY);
        parameters.add(tangent);
        arrayTangents.put(parameter, tangent);
      }
    }
    for (Variable variable : Ids.parameterVariables(function.body())) {
      if (variable.isActive()) {
        Value tangent = ((Operand.Use) tangents.get(variable.parameter())).value();
        variableTangents.put(variable,
            builder.derived(variable, "Dot", NumericType.DOUBLE, tangent));
      }
    }
    List<Statement> body = new ArrayList<>();
    List<Statement> statements = function.body().statements();
    // a reverse-mode program's note of its forward sweep stands for the tangents' too
    if (statements.stream().anyMatch(s -> !(s instanceof Return))
        && statements.stream().noneMatch(s -> s instanceof Note note
            && Adjoint.FORWARD_NOTE.equals(note.text()))) {
      body.add(new Note(NOTE, null));
    }
    body.addAll(transform(function.body()).statements());
    return function.with(parameters, new Block(body));
  }

  private Block transform(Block block) {
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.PULLBACK_CALL
          && !instruction.operation().isPullbackTangentCall()) {
        if (instruction.operation().isSplitCall()) {
          // the second-order code differentiates programs whose calls run the whole pullback
          throw new IllegalArgumentException("no forward mode of a split call: " + instruction);
        }
        out.addAll(pullbackTangentCall(instruction));
      } else if (statement instanceof Instruction instruction) {
        out.add(instruction);
        if (instruction.operation().form() == Operation.Form.POP
            && instruction.result().isActive() && !recordedWithTangent(instruction.result())) {
          // a copy of a value that carried no derivative where it was recorded: no tangent
          // was recorded with it either
          tangents.put(instruction.result(), Site.number(0.0));
        } else if (instruction.operation().form() == Operation.Form.STORE
            && instruction.result().isActive()) {
          storeTangent(instruction, out);
        } else if (isRuledDot(instruction)) {
          ruledDotTangent(instruction, out);
        } else if (instruction.result().isActive()) {
          out.addAll(tangentOf(instruction));
        } else if (instruction.result().isActiveArray()) {
          out.addAll(arrayTangentOf(instruction));
        } else if (isAdjointArray(instruction)) {
          // a reverse-mode program's adjoint array: its tangent holds the adjoints' tangents
          Value tangent = builder.derived(instruction.result(), "Dot", NumericType.DOUBLE_ARRAY);
          arrayTangents.put(instruction.result(), tangent);
          out.add(new Instruction(tangent, instruction.operation(), instruction.arguments(),
              instruction.line()));
        } else if (instruction.operation().form() == Operation.Form.SLOTS_CALL
            && (instruction.operation().name().equals(Adjoint.ADD_INTO)
                || instruction.operation().name().equals(Adjoint.ADD_INTO_WITHIN))) {
          addIntoTangent(instruction, out);
        } else if (instruction.operation().form() == Operation.Form.SLOTS_CALL
            && instruction.operation().name().equals(Adjoint.ADD_SCALED)) {
          addScaledTangent(instruction, out);
        } else if (instruction.operation().form() == Operation.Form.USER_CALL
            && instruction.result().type() == NumericType.DOUBLE_ARRAY
            && instruction.arguments().stream().anyMatch(this::carriesTangent)) {
          // a @DerivativeOf rule's partials, with respect to an array or of a vector target,
          // computed where the target is called: their tangents (the rule's J·v) are too, so
          // that both see the arguments as the call did (see addScaledTangent)
          out.addAll(arrayTangentOf(instruction));
          arrayPartials.add(instruction.result());
        } else if (instruction.operation().form() == Operation.Form.POP
            && instruction.result().type() == NumericType.DOUBLE_ARRAY
            && arrayPartials.contains(instruction.result().base())) {
          // partials recorded in a loop: their tangents lie below them (see Push above)
          Value tangent = builder.derived(instruction.result(), "Dot", NumericType.DOUBLE_ARRAY);
          arrayTangents.put(instruction.result(), tangent);
          arrayPartials.add(instruction.result());
          out.add(new Instruction(tangent, instruction.operation(), instruction.arguments(),
              instruction.line()));
        } else if (instruction.operation().form() == Operation.Form.SLOTS_CALL
            && instruction.operation().name().equals("discarded")) {
          // scratch for adjoints nobody reads: their tangents may go there too
          arrayTangents.put(instruction.result(), instruction.result());
        } else if (instruction.operation().form() == Operation.Form.SLOTS_CALL
            && instruction.operation().name().equals(Adjoint.CLEAR)) {
          // the adjoints' tangents are cleared with the adjoints
          Value cleared = builder.derived(instruction.result(), "Dot", NumericType.INT);
          out.add(new Instruction(cleared, instruction.operation(), List.of(new Operand.Use(
              arrayTangents.get(((Operand.Use) instruction.arguments().get(0)).value()))),
              instruction.line()));
        }
        if (straightLine) {
          computed.record(instruction);
        }
      } else if (statement instanceof Declare declare) {
        out.add(declare);
        Variable variable = declare.variable();
        if (variable.isActive()) {
          Variable tangent = builder.derived(variable, "Dot", NumericType.DOUBLE, null);
          variableTangents.put(variable, tangent);
          out.add(new Declare(tangent, tangentOf(declare.initial()), declare.line()));
        }
      } else if (statement instanceof Store store) {
        out.add(store);
        if (store.variable().isActive()) {
          out.add(new Store(variableTangents.get(store.variable()), tangentOf(store.value()),
              store.line()));
        }
      } else if (statement instanceof Return ret) {
        Operand returned = ret.value();
        if (returned != null && returned.type().isArray()) {
          // a vector function: J times the direction is the result's tangent array
          out.add(new Return(new Operand.Use(
              arrayTangents.get(((Operand.Use) returned).value())), ret.line()));
        } else {
          out.add(new Return(returned == null ? null : tangentOf(returned), ret.line()));
        }
      } else if (statement instanceof Push push) {
        if (isActive(push.value())) {
          // taken back in mirror order: the value first, then its tangent
          out.add(new Push(tangentOf(push.value()), push.line()));
        } else if (push.value() instanceof Operand.Use use && arrayTangents.containsKey(
            use.value())) {
          // an array made in a loop, recorded by reference: its tangent array goes with it
          out.add(new Push(new Operand.Use(arrayTangents.get(use.value())), push.line()));
        }
        out.add(push);
      } else if (statement instanceof ElementStore store) {
        out.add(store);
        Value arrayTangent = arrayTangents.get(store.array());
        if (arrayTangent != null && (isActive(store.value()) || !store.add())) {
          // an overwrite with a constant (a reverse sweep zeroing an adjoint) zeroes the tangent
          out.add(new ElementStore(arrayTangent, store.index(), tangentOf(store.value()),
              store.add(), store.line()));
        }
      } else if (statement instanceof If branch) {
        out.add(new If(branch.id(), branch.condition(), transform(branch.thenBlock()),
            transform(branch.elseBlock()), branch.line()));
      } else if (statement instanceof Loop loop) {
        out.add(new Loop(loop.id(), transform(loop.condition()), loop.test(), loop.testFirst(),
            transform(loop.body()), transform(loop.update()), loop.line()));
      } else {
        out.add(statement); // jumps, throws and notes are the same in both programs
      }
    }
    return new Block(out);
  }

  /** The instructions computing the tangent of an active instruction's result. */
  private List<Instruction> tangentOf(Instruction instruction) {
    Value value = instruction.result();
    Value tangent = builder.derived(value, "Dot", NumericType.DOUBLE);
    Operation operation = instruction.operation();
    List<Operand> arguments = instruction.arguments();
    if (operation.form() == Operation.Form.TANGENT_CALL) {
      throw new IllegalArgumentException("no second derivative of a forward-mode program with"
          + " calls of other methods: " + operation);
    }
    if (operation.form() == Operation.Form.POP) {
      // recorded after the value: see Push above
      return define(tangent, Operation.POP, List.of(), instruction);
    }
    if (operation.form() == Operation.Form.ELEMENT) {
      // the tangent of w[i] is wDot[i]
      Value arrayTangent = arrayTangents.get(((Operand.Use) arguments.get(0)).value());
      if (arrayTangent == null) {
        throw new IllegalArgumentException("no tangent for the array of " + instruction.result());
      }
      return define(tangent, Operation.ELEMENT, List.of(new Operand.Use(arrayTangent),
          arguments.get(1)), instruction);
    }
    if (operation.form() == Operation.Form.USER_CALL) {
      List<Instruction> out = new ArrayList<>();
      List<Operand> callArguments = tangentCallArguments(instruction, out);
      out.addAll(define(tangent, Operation.tangentCall(operation.callee()), callArguments,
          instruction));
      return out;
    }
    if (operation.form() == Operation.Form.COPY && arguments.get(0) instanceof Operand.Read read) {
      return define(tangent, Operation.COPY,
          List.of(new Operand.Read(variableTangents.get(read.variable()))), instruction);
    }
    Site site = Sites.of(instruction, builder, straightLine ? computed : Site.Reuse.NONE);
    DerivativeRules.Rule rule = Sites.ruleFor(instruction);
    List<Partial> partials = new ArrayList<>();
    List<Operand> derivatives = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      if (isActive(arguments.get(i))) {
        Optional<Partial> partial = rule.partial(i, site);
        if (partial.isPresent()) {
          partials.add(partial.get());
          derivatives.add(tangentOf(arguments.get(i)));
        }
      }
    }
    Operand sharedDivisor = Sites.sharedDivisor(partials, site);
    Operand sum = null;
    for (int i = 0; i < partials.size(); i++) {
      Partial partial = partials.get(i);
      if (sharedDivisor != null) {
        // (aDot - y * bDot) / b: one division for terms over the same divisor
        partial = partial.undivided();
      }
      Operand term = partial.applyTo(derivatives.get(i), site);
      if (sum == null) {
        sum = partial.negative() ? site.negate(term) : term;
      } else {
        sum = partial.negative() ? site.minus(sum, term) : site.plus(sum, term);
      }
    }
    if (operation.form() == Operation.Form.RULED_CALL && sharedDivisor == null) {
      for (Operand term : arrayArgumentTerms(instruction, site)) {
        sum = sum == null ? term : site.plus(sum, term);
      }
    }
    if (sum == null) {
      return define(tangent, Operation.COPY, List.of(Site.number(0.0)), instruction);
    }
    tangents.put(value, new Operand.Use(tangent));
    Operand root = sharedDivisor == null ? sum : site.over(sum, sharedDivisor);
    return Sites.define(tangent, root, site, instruction.line());
  }

  /**
   * The terms a call with {@code @DerivativeOf} rules adds to its tangent for its array
   * arguments: per array that carries derivatives, {@code Slots.dot(partial, aDot)}, the rule's
   * partials times the elements' tangents.
   */
  private List<Operand> arrayArgumentTerms(Instruction call, Site site) {
    RuledCallee ruled = call.operation().ruled();
    List<Operand> terms = new ArrayList<>();
    for (int i = 0; i < ruled.parameterTypes().size(); i++) {
      if (!(call.arguments().get(i) instanceof Operand.Use use)
          || !use.value().isActiveArray()) {
        continue;
      }
      Value arrayTangent = arrayTangents.get(use.value());
      if (arrayTangent == null) {
        throw new IllegalArgumentException("no tangent for the array passed to " + call);
      }
      Operand partial = DerivativeRules.arrayPartial(ruled, i, site).orElseThrow(
          () -> new IllegalStateException("no rule for the array argument of " + call));
      terms.add(site.apply(Operation.slotsCall("dot", 2), NumericType.DOUBLE, partial,
          new Operand.Use(arrayTangent)));
    }
    return terms;
  }

  /**
   * The tangent of an array that carries derivatives, an array of the same shape: of a row
   * {@code m[i]}, {@code mDot[i]}; of {@code new double[n]}, {@code new double[n]}; of
   * {@code w.clone()}, {@code wDot.clone()} (zeros when {@code w} carries none).
   */
  private List<Instruction> arrayTangentOf(Instruction instruction) {
    Value array = instruction.result();
    Value tangent = builder.derived(array, "Dot", array.type());
    arrayTangents.put(array, tangent);
    Operation operation = instruction.operation();
    List<Operand> arguments = instruction.arguments();
    SourceLine line = instruction.line();
    return switch (operation.form()) {
      case ELEMENT -> List.of(new Instruction(tangent, Operation.ELEMENT, List.of(
          new Operand.Use(arrayTangents.get(((Operand.Use) arguments.get(0)).value())),
          arguments.get(1)), line));
      case NEW_ARRAY -> List.of(new Instruction(tangent, operation, arguments, line));
      // an array made in a loop taken back from the tape: its tangent array lies below it
      case POP -> List.of(new Instruction(tangent, operation, arguments, line));
      case CLONE -> {
        Value source = arguments.get(0) instanceof Operand.Use use ? use.value() : null;
        if (source != null && arrayTangents.containsKey(source)) {
          yield List.of(new Instruction(tangent, Operation.CLONE,
              List.of(new Operand.Use(arrayTangents.get(source))), line));
        }
        Value length = builder.derived(array, "Length", NumericType.INT);
        yield List.of(
            new Instruction(length, Operation.LENGTH, List.of(new Operand.Use(array)), line),
            new Instruction(tangent, Operation.newArray(NumericType.DOUBLE),
                List.of(new Operand.Use(length)), line));
      }
      case USER_CALL -> {
        // a vector function's tangent member returns J times the direction: the tangent array
        List<Instruction> out = new ArrayList<>();
        List<Operand> callArguments = tangentCallArguments(instruction, out);
        out.add(new Instruction(tangent, Operation.tangentCall(operation.callee()),
            callArguments, line));
        yield out;
      }
      case RULED_CALL -> vectorCallTangent(instruction, tangent);
      default -> throw new IllegalArgumentException("no array tangent for " + operation);
    };
  }

  /**
   * The arguments of the tangent member of the callee of {@code call}: the call's own, then per
   * parameter that carries derivatives in the callee, in order, the argument's tangent: a
   * number for a {@code double}, an array of the argument's shape for an array; for an array
   * that carries no derivative here, zeros ({@code Slots.zeros}, shared, never written).
   */
  private List<Operand> tangentCallArguments(Instruction call, List<Instruction> out) {
    ad4j.processor.ir.Callee callee = call.operation().callee();
    int own = callee.parameterTypes().size();
    List<Operand> arguments = new ArrayList<>(call.arguments().subList(0, own));
    for (int i = 0; i < own; i++) {
      Operand argument = call.arguments().get(i);
      if (callee.isActiveScalar(i)) {
        arguments.add(tangentOf(argument));
      } else if (callee.isActiveArray(i)) {
        Value tangent = argument instanceof Operand.Use use ? arrayTangents.get(use.value())
            : null;
        arguments.add(tangent != null ? new Operand.Use(tangent) : zeros(argument, call, out));
      }
    }
    return arguments;
  }

  /** {@code Slots.zeros(...)} of {@code array}'s shape: the tangent of an inactive array. */
  private Operand zeros(Operand array, Instruction call, List<Instruction> out) {
    Value zeros = builder.generated("zeros", array.type(), false);
    if (array.type() == NumericType.DOUBLE_MATRIX) {
      out.add(new Instruction(zeros, Operation.slotsCall("zeros", 1), List.of(array),
          call.line()));
    } else {
      Value length = builder.generated("length", NumericType.INT, false);
      out.add(new Instruction(length, Operation.LENGTH, List.of(array), call.line()));
      out.add(new Instruction(zeros, Operation.slotsCall("zeros", 1),
          List.of(new Operand.Use(length)), call.line()));
    }
    return new Operand.Use(zeros);
  }

  /**
   * The tangent of {@code r = v(args)}, a vector target with {@code @DerivativeOf} rules:
   * {@code rDot = new double[r.length]}, then per argument that carries derivatives its rule's
   * partials times its tangent added in ({@code Slots.addScaled} for a {@code double},
   * {@code Slots.addProduct} for an array).
   */
  private List<Instruction> vectorCallTangent(Instruction call, Value tangent) {
    RuledCallee ruled = call.operation().ruled();
    Value result = call.result();
    SourceLine line = call.line();
    Value length = builder.derived(result, "Length", NumericType.INT);
    List<Instruction> out = new ArrayList<>(List.of(
        new Instruction(length, Operation.LENGTH, List.of(new Operand.Use(result)), line),
        new Instruction(tangent, Operation.newArray(NumericType.DOUBLE),
            List.of(new Operand.Use(length)), line)));
    Site site = Sites.of(call, builder, Site.Reuse.NONE);
    for (int i = 0; i < ruled.parameterTypes().size(); i++) {
      Operand argument = call.arguments().get(i);
      List<Operand> helperArguments;
      String helper;
      if (isActive(argument)) {
        helper = "addScaled";
        helperArguments = List.of(new Operand.Use(result), tangentOf(argument),
            new Operand.Use(tangent), Operand.Constant.of(0));
      } else if (argument instanceof Operand.Use use && arrayTangents.containsKey(use.value())) {
        helper = "addProduct";
        helperArguments = List.of(new Operand.Use(arrayTangents.get(use.value())),
            new Operand.Use(tangent));
      } else {
        continue;
      }
      Operand partial = DerivativeRules.vectorPartial(ruled, i, site).orElseThrow();
      List<Operand> all = new ArrayList<>();
      all.add(partial);
      all.addAll(helperArguments);
      out.addAll(site.instructionsFor(List.of(partial)));
      out.add(new Instruction(builder.derived(result, "Added", NumericType.INT),
          Operation.slotsCall(helper, all.size()), all, line));
    }
    return out;
  }

  /**
   * Whether the value taken back from the tape by a pop into {@code popped} was recorded with
   * its tangent: a reverse sweep's copy ({@code Value.Origin.DERIVED}) of a recorded value is
   * so exactly when the recorded value is active (see {@link Push} above).
   */
  private static boolean recordedWithTangent(Value popped) {
    return popped.origin() != Value.Origin.DERIVED || popped.base() == null
        || popped.base().isActive();
  }

  /**
   * A reverse sweep's {@code g}'s pullback onto the tape becomes the forward mode of that
   * pullback, which pushes each adjoint's tangent below the adjoint: the pops that follow the
   * call take back both (see the pops above). The call's arguments are g's own, then per array
   * parameter that carries derivatives in g the array its adjoints go into and the slot there,
   * then the seed (see {@code Adjoint.reverseCall}); the tangents follow in the order of
   * {@link #transform(Function)}: of each argument for a parameter that carries derivatives
   * (zeros for an array that carries none here, as in {@link #tangentCallArguments}), of the
   * seed, and of each array the adjoints go into, where g adds the adjoints' tangents. Its own
   * result, the callee's value, is read by nobody; the new call's is its tangent.
   */
  private List<Instruction> pullbackTangentCall(Instruction call) {
    ad4j.processor.ir.Callee callee = call.operation().callee();
    List<Operand> arguments = call.arguments();
    int own = callee.parameterTypes().size();
    List<Instruction> out = new ArrayList<>();
    List<Operand> callArguments = new ArrayList<>(arguments);
    for (int i = 0; i < own; i++) {
      Operand argument = arguments.get(i);
      if (callee.isActiveScalar(i)) {
        callArguments.add(tangentOf(argument));
      } else if (callee.isActiveArray(i)) {
        Value tangent = argument instanceof Operand.Use use ? arrayTangents.get(use.value())
            : null;
        callArguments.add(tangent != null ? new Operand.Use(tangent)
            : zeros(argument, call, out));
      }
    }
    int seed = arguments.size() - 1;
    callArguments.add(tangentOf(arguments.get(seed)));
    for (int target = own; target < seed; target += 2) {
      Value into = ((Operand.Use) arguments.get(target)).value();
      Value tangent = arrayTangents.get(into);
      if (tangent == null) {
        throw new IllegalArgumentException("no tangent for the adjoints " + into + " of " + call);
      }
      callArguments.add(new Operand.Use(tangent));
    }
    Value valueTangent = builder.derived(call.result(), "Dot", NumericType.DOUBLE);
    out.add(new Instruction(valueTangent, Operation.pullbackTangentCall(callee),
        callArguments, call.line()));
    return out;
  }

  /**
   * Whether {@code instruction} makes an adjoint array of a reverse-mode program
   * ({@code aBar = new double[n]}): a {@code double[]} a transform made, not the user.
   */
  private static boolean isAdjointArray(Instruction instruction) {
    Value result = instruction.result();
    return instruction.operation().form() == Operation.Form.NEW_ARRAY
        && result.type() == NumericType.DOUBLE_ARRAY
        && (result.origin() == Value.Origin.DERIVED || result.origin() == Value.Origin.GENERATED);
  }

  /**
   * {@code Slots.addInto(cBar, target, start)}, which adds adjoints into {@code target} (the
   * reverse of a {@code clone()}), is followed by the same for their tangents.
   */
  private void addIntoTangent(Instruction addInto, List<Statement> out) {
    List<Operand> arguments = addInto.arguments();
    Value from = arrayTangents.get(((Operand.Use) arguments.get(0)).value());
    Value into = arrayTangents.get(((Operand.Use) arguments.get(1)).value());
    if (from == null || into == null) {
      throw new IllegalArgumentException("no tangents for the arrays of " + addInto.result());
    }
    Value added = builder.derived(addInto.result(), "Dot", NumericType.INT);
    out.add(new Instruction(added, addInto.operation(), List.of(new Operand.Use(from),
        new Operand.Use(into), arguments.get(2)), addInto.line()));
  }

  /**
   * The reverse of a call with a {@code @DerivativeOf} rule for an array argument adds
   * {@code seed * partial[k]} at the argument's slots ({@code Slots.addScaled}); its tangent
   * adds {@code seedDot * partial[k] + seed * partialDot[k]} at the same slots of the adjoints'
   * tangents. The rule is {@code @Differentiable} at order 2 (a vector function), so
   * {@code partialDot} is its tangent member's J·v with the arguments' tangents.
   */
  private void addScaledTangent(Instruction addScaled, List<Statement> out) {
    List<Operand> arguments = addScaled.arguments();
    Value into = arrayTangents.get(((Operand.Use) arguments.get(3)).value());
    Value partial = arguments.get(0) instanceof Operand.Use use
        && arrayPartials.contains(use.value()) ? use.value() : null;
    if (into == null || partial == null) {
      throw new IllegalArgumentException("no tangents for the partials of " + addScaled);
    }
    SourceLine line = addScaled.line();
    if (isActive(arguments.get(2))) {
      Value added = builder.derived(addScaled.result(), "Dot", NumericType.INT);
      out.add(new Instruction(added, addScaled.operation(), List.of(arguments.get(0),
          arguments.get(1), tangentOf(arguments.get(2)), new Operand.Use(into),
          arguments.get(4)), line));
    }
    // the rule's J·v, computed where the partials were
    Value partialDot = arrayTangents.get(partial);
    Value added = builder.derived(addScaled.result(), "Dot", NumericType.INT);
    out.add(new Instruction(added, addScaled.operation(), List.of(new Operand.Use(partialDot),
        arguments.get(1), arguments.get(2), new Operand.Use(into), arguments.get(4)), line));
  }

  /**
   * Whether {@code instruction} is the reverse of a vector target's {@code @DerivativeOf} rule
   * for a {@code double} argument: {@code Slots.dot(partial, rBar)} (or {@code dotWithin}),
   * the rule's partials (a vector) against the adjoints of the target's result.
   */
  private boolean isRuledDot(Instruction instruction) {
    Operation operation = instruction.operation();
    return operation.form() == Operation.Form.SLOTS_CALL
        && (operation.name().equals(Adjoint.DOT) || operation.name().equals(Adjoint.DOT_WITHIN))
        && instruction.arguments().get(0) instanceof Operand.Use partial
        && arrayPartials.contains(partial.value());
  }

  /**
   * The tangent of {@code Slots.dot(partial, rBar)}: {@code Slots.dot(partialDot, rBar) +
   * Slots.dot(partial, rBarDot)}. The rule is {@code @Differentiable} at order 2 (a vector
   * function), so {@code partialDot} is its tangent member's J·v with the arguments' tangents,
   * as for {@link #addScaledTangent}; {@code rBarDot} holds the tangents of the adjoints.
   */
  private void ruledDotTangent(Instruction dot, List<Statement> out) {
    Value partial = ((Operand.Use) dot.arguments().get(0)).value();
    Operand seeds = dot.arguments().get(1);
    Value seedsDot = seeds instanceof Operand.Use use ? arrayTangents.get(use.value()) : null;
    if (seedsDot == null) {
      throw new IllegalArgumentException("no tangents for the adjoints of " + dot);
    }
    Value partialDot = arrayTangents.get(partial);
    Site site = Site.formulas(builder, dot.line());
    Operand tangent = site.plus(
        site.apply(dot.operation(), NumericType.DOUBLE, new Operand.Use(partialDot), seeds),
        site.apply(dot.operation(), NumericType.DOUBLE, dot.arguments().get(0),
            new Operand.Use(seedsDot)));
    Value value = builder.derived(dot.result(), "Dot", NumericType.DOUBLE);
    out.addAll(site.instructionsFor(List.of(tangent)));
    out.add(new Instruction(value, Operation.COPY, List.of(tangent), dot.line()));
    tangents.put(dot.result(), new Operand.Use(value));
  }

  /** {@code a[i] = v}: {@code aDot[i] = vDot}; the expression's tangent is {@code vDot}. */
  private void storeTangent(Instruction store, List<Statement> out) {
    List<Operand> arguments = store.arguments();
    Value array = ((Operand.Use) arguments.get(0)).value();
    Operand valueTangent = tangentOf(arguments.get(2));
    out.add(new ElementStore(arrayTangents.get(array), arguments.get(1), valueTangent, false,
        store.line()));
    tangents.put(store.result(), valueTangent);
  }

  private List<Instruction> define(Value tangent, Operation operation, List<Operand> arguments,
      Instruction instruction) {
    tangents.put(instruction.result(), new Operand.Use(tangent));
    return List.of(new Instruction(tangent, operation, arguments, instruction.line()));
  }

  /**
   * Whether derivatives flow through {@code operand}: an active value, or the current value of
   * an active variable (derivative programs read their adjoints so).
   */
  private boolean isActive(Operand operand) {
    return operand instanceof Operand.Use use && use.isActive()
        || operand instanceof Operand.Read read && variableTangents.containsKey(read.variable());
  }

  /** Whether a derivative flows in through {@code operand}: a value, or an array's elements. */
  private boolean carriesTangent(Operand operand) {
    return isActive(operand)
        || operand instanceof Operand.Use use && arrayTangents.containsKey(use.value());
  }

  private Operand tangentOf(Operand operand) {
    if (operand instanceof Operand.Use use && use.isActive()) {
      return tangents.get(use.value());
    }
    if (operand instanceof Operand.Read read && variableTangents.containsKey(read.variable())) {
      return new Operand.Read(variableTangents.get(read.variable()));
    }
    return Site.number(0.0);
  }
}
