package ad4j.processor.derive.forward;

import ad4j.processor.derive.Sites;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.RuledCallee;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Partial;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The tangent of one instruction: {@code sum of partial * argumentTangent} from the rule
 * table, the tangents of arrays made and copied, and the tangent of a store into an array.
 * Apart because it is the rule application, the same whatever structure holds the
 * instruction.
 */
final class InstructionTangents {
  private final TangentState s;

  InstructionTangents(TangentState s) {
    this.s = s;
  }

  /**
   * The instructions computing the tangent of an active instruction's result, by its form: an
   * exhaustive {@code switch}, so that a new form does not compile until it says what its
   * tangent is.
   */
  List<Instruction> tangentOf(Instruction instruction) {
    Value value = instruction.result();
    Value tangent = s.builder.derived(value, Derivative.TANGENT, NumericType.DOUBLE);
    Operation operation = instruction.operation();
    List<Operand> arguments = instruction.arguments();
    return switch (operation.form()) {
      case TANGENT_CALL -> throw new IllegalArgumentException("no second derivative of a"
          + " forward-mode program with calls of other methods: " + operation);
      // recorded after the value: see Push above
      case POP -> define(tangent, Operation.POP, List.of(), instruction);
      case ELEMENT -> {
        // the tangent of w[i] is wDot[i]
        Value arrayTangent = s.arrayTangents.get(((Operand.Use) arguments.get(0)).value());
        if (arrayTangent == null) {
          throw new IllegalArgumentException("no tangent for the array of "
              + instruction.result());
        }
        yield define(tangent, Operation.ELEMENT, List.of(new Operand.Use(arrayTangent),
            arguments.get(1)), instruction);
      }
      case USER_CALL -> {
        List<Instruction> out = new ArrayList<>();
        List<Operand> callArguments = s.calls.tangentCallArguments(instruction, out);
        out.addAll(define(tangent, Operation.tangentCall(operation.callee()), callArguments,
            instruction));
        yield out;
      }
      case COPY -> arguments.get(0) instanceof Operand.Read read
          && s.variableTangents.containsKey(read.variable())
          ? define(tangent, Operation.COPY,
              List.of(new Operand.Read(s.variableTangents.get(read.variable()))), instruction)
          : byRule(instruction, tangent, site -> List.of());
      case RULED_CALL -> byRule(instruction, tangent,
          site -> arrayArgumentTerms(instruction, site));
      case INFIX, PREFIX, CAST, CALL, PULLBACK_CALL, LOCAL_CALL, TAPE_CALL, SELECT,
          WITH_DERIVATIVE_OF, LENGTH, SLOTS_CALL, NEW_ARRAY, CLONE, STORE, PLAIN_CALL ->
          byRule(instruction, tangent, site -> List.of());
    };
  }

  /**
   * {@code sum of partial * argumentTangent} from the rule table, plus the {@code arrayTerms}
   * of a call with rules for its arrays (added where the partials share no divisor).
   */
  private List<Instruction> byRule(Instruction instruction, Value tangent,
      Function<Site, List<Operand>> arrayTerms) {
    Value value = instruction.result();
    List<Operand> arguments = instruction.arguments();
    Site site = Sites.of(instruction, s.builder, s.straightLine ? s.computed : Site.Reuse.NONE);
    DerivativeRules.Rule rule = Sites.ruleFor(instruction);
    List<Partial> partials = new ArrayList<>();
    List<Operand> derivatives = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      Operand derivative = isActive(arguments.get(i)) ? tangentOf(arguments.get(i)) : null;
      if (derivative != null && !ZeroTangents.isZero(derivative)) {
        Optional<Partial> partial = rule.partial(i, site);
        if (partial.isPresent()) {
          partials.add(partial.get());
          derivatives.add(derivative);
        }
      }
    }
    Operand sharedDivisor = Sites.sharedDivisor(partials, site);
    Operand sum = null;
    if (partials.size() == 2 && partials.get(0).equals(partials.get(1))
        && derivatives.get(0).equals(derivatives.get(1))) {
      // x * x, x + x: one term twice, xDot * x * 2.0, as a person writes it (t * 2.0 is
      // t + t to the bit, and -(t * 2.0) is -t - t)
      Partial partial = sharedDivisor != null ? partials.get(0).undivided() : partials.get(0);
      Operand term = site.times(partial.applyTo(derivatives.get(0), site), Site.number(2.0));
      sum = partial.negative() ? site.negate(term) : term;
    } else {
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
    }
    if (sharedDivisor == null) {
      for (Operand term : arrayTerms.apply(site)) {
        sum = sum == null ? term : site.plus(sum, term);
      }
    }
    if (sum == null) {
      // every argument's tangent is zero, and so is this one (see ZeroTangents)
      s.tangents.put(value, Site.number(0.0));
      return List.of();
    }
    s.tangents.put(value, new Operand.Use(tangent));
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
      Value arrayTangent = s.arrayTangents.get(use.value());
      if (arrayTangent == null) {
        throw new IllegalArgumentException("no tangent for the array passed to " + call);
      }
      Operand partial = DerivativeRules.arrayPartial(ruled, i, site).orElseThrow(
          () -> new IllegalStateException("no rule for the array argument of " + call));
      terms.add(site.apply(Operation.slotsCall(SlotsCall.DOT, 2), NumericType.DOUBLE, partial,
          new Operand.Use(arrayTangent)));
    }
    return terms;
  }

  /**
   * The tangent of an array that carries derivatives, an array of the same shape: of a row
   * {@code m[i]}, {@code mDot[i]}; of {@code new double[n]}, {@code new double[n]}; of
   * {@code w.clone()}, {@code wDot.clone()} (zeros when {@code w} carries none).
   */
  List<Instruction> arrayTangentOf(Instruction instruction) {
    Value array = instruction.result();
    // a float[]'s tangent is a double[]
    Value tangent = s.builder.derived(array, Derivative.TANGENT, array.type().derivativeType());
    s.arrayTangents.put(array, tangent);
    Operation operation = instruction.operation();
    List<Operand> arguments = instruction.arguments();
    SourceLine line = instruction.line();
    return switch (operation.form()) {
      case ELEMENT -> List.of(new Instruction(tangent, Operation.ELEMENT, List.of(
          new Operand.Use(s.arrayTangents.get(((Operand.Use) arguments.get(0)).value())),
          arguments.get(1)), line));
      // new float[n]'s tangent is new double[n]; a matrix's, a matrix as it is made
      case NEW_ARRAY -> List.of(new Instruction(tangent, array.type() == NumericType.FLOAT_ARRAY
          ? Operation.newArray(NumericType.DOUBLE) : operation, arguments, line));
      // an array made in a loop taken back from the tape: its tangent array lies below it
      case POP -> List.of(new Instruction(tangent, operation, arguments, line));
      case CLONE -> {
        Value source = arguments.get(0) instanceof Operand.Use use ? use.value() : null;
        if (source != null && s.arrayTangents.containsKey(source)) {
          yield List.of(new Instruction(tangent, Operation.CLONE,
              List.of(new Operand.Use(s.arrayTangents.get(source))), line));
        }
        Value length = s.builder.derived(array, "Length", NumericType.INT);
        yield List.of(
            new Instruction(length, Operation.LENGTH, List.of(new Operand.Use(array)), line),
            new Instruction(tangent, Operation.newArray(NumericType.DOUBLE),
                List.of(new Operand.Use(length)), line));
      }
      case USER_CALL -> {
        // a vector function's tangent member returns J times the direction: the tangent array
        List<Instruction> out = new ArrayList<>();
        List<Operand> callArguments = s.calls.tangentCallArguments(instruction, out);
        out.add(new Instruction(tangent, Operation.tangentCall(operation.callee()),
            callArguments, line));
        yield out;
      }
      case RULED_CALL -> s.calls.vectorCallTangent(instruction, tangent);
      case INFIX, PREFIX, CAST, CALL, TANGENT_CALL, PULLBACK_CALL, LOCAL_CALL, TAPE_CALL, COPY,
          SELECT, WITH_DERIVATIVE_OF, LENGTH, SLOTS_CALL, STORE, PLAIN_CALL ->
          throw new IllegalArgumentException("no array tangent for " + operation);
    };
  }

  /** {@code a[i] = v}: {@code aDot[i] = vDot}; the expression's tangent is {@code vDot}. */
  void storeTangent(Instruction store, List<Statement> out) {
    List<Operand> arguments = store.arguments();
    Value array = ((Operand.Use) arguments.get(0)).value();
    Operand valueTangent = tangentOf(arguments.get(2));
    out.add(new ElementStore(s.arrayTangents.get(array), arguments.get(1), valueTangent, false,
        store.line()));
    s.tangents.put(store.result(), valueTangent);
  }

  private List<Instruction> define(Value tangent, Operation operation, List<Operand> arguments,
      Instruction instruction) {
    s.tangents.put(instruction.result(), new Operand.Use(tangent));
    return List.of(new Instruction(tangent, operation, arguments, instruction.line()));
  }

  /**
   * Whether derivatives flow through {@code operand}: an active value, or the current value of
   * an active variable (derivative programs read their adjoints so).
   */
  boolean isActive(Operand operand) {
    return operand instanceof Operand.Use use && use.isActive()
        || operand instanceof Operand.Read read && s.variableTangents.containsKey(read.variable());
  }

  /** Whether a derivative flows in through {@code operand}: a value, or an array's elements. */
  boolean carriesTangent(Operand operand) {
    return isActive(operand)
        || operand instanceof Operand.Use use && s.arrayTangents.containsKey(use.value());
  }

  Operand tangentOf(Operand operand) {
    if (operand instanceof Operand.Use use && use.isActive()) {
      return s.tangents.get(use.value());
    }
    if (operand instanceof Operand.Read read && s.variableTangents.containsKey(read.variable())) {
      return new Operand.Read(s.variableTangents.get(read.variable()));
    }
    return Site.number(0.0);
  }
}
