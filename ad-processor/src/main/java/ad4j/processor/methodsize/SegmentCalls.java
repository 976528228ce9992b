package ad4j.processor.methodsize;

import ad4j.processor.analysis.Ids;
import ad4j.processor.derive.forward.Tangent;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole-method programs of a method split into {@link Segments}: each calls the segment
 * programs of the same generated class in order, and in reverse mode then the reverse segments
 * backwards, and takes the parameters' adjoints from the tape. They have the parameters of the
 * programs they stand for ({@link Adjoint#of}, {@link Tangent#of}), so callers treat both alike.
 */
public final class SegmentCalls {
  /** The sweeps of a segment, as its program names end: {@code fForward3}. */
  public static final String FORWARD = "Forward";
  public static final String REVERSE = "Reverse";
  public static final String TANGENT = "Tangent";
  /** The forward modes of a segment's forward and reverse sweeps (second order). */
  public static final String HESSIAN_FORWARD = "HessianForward";
  public static final String HESSIAN_REVERSE = "HessianReverse";

  private final Function function;
  private final Segments segments;
  private final String nameSuffix;

  /**
   * The programs calling the segments of {@code function}, whose names end with
   * {@code nameSuffix} (overloads number their segment programs apart).
   */
  public SegmentCalls(Function function, Segments segments, String nameSuffix) {
    this.function = function;
    this.segments = segments;
    this.nameSuffix = nameSuffix;
  }

  /** The name of a segment's program: {@code fForward3}, or {@code fForward3Of2}. */
  public String name(String sweep, int number) {
    return function.name() + sweep + number + nameSuffix;
  }

  /**
   * The reverse mode of the split method, with the parameters of {@link Adjoint#of} for the
   * same {@code output}: the forward segments in order, then the reverse segments backwards,
   * then the parameters' adjoints from the tape into the array (for {@link Adjoint.Output#TAPE}
   * they stay on the tape, the last on top).
   */
  public Function reverse(Adjoint.Output output) {
    IrBuilder builder = new IrBuilder(Ids.next(function));
    List<Value> parameters = new ArrayList<>(function.parameters());
    Operand seed = Site.number(1.0);
    if (output != Adjoint.Output.GRADIENT) {
      Value seedParameter = builder.generated("seed", NumericType.DOUBLE, false);
      parameters.add(seedParameter);
      seed = new Operand.Use(seedParameter);
    }
    Value array = null;
    if (output.arrayName() != null) {
      array = builder.generated(output.arrayName(), NumericType.DOUBLE_ARRAY, false);
      parameters.add(array);
    }
    List<Operand> arguments = uses(function.parameters());
    int count = segments.list().size();
    List<Statement> body = new ArrayList<>();
    Value result = builder.temporary(function.valueType(), false);
    callInOrder(FORWARD, arguments, result, builder, body);
    body.add(new Note(Adjoint.REVERSE_NOTE, null));
    List<Operand> seeded = new ArrayList<>(arguments);
    seeded.add(seed);
    body.add(call(builder.temporary(NumericType.DOUBLE, false), REVERSE, count, seeded));
    for (int k = count - 1; k >= 1; k--) {
      body.add(call(builder.temporary(NumericType.DOUBLE, false), REVERSE, k, arguments));
    }
    for (int i = function.differentiableParameters().size() - 1; i >= 0 && array != null;
        i--) {
      Value adjoint = builder.formula(NumericType.DOUBLE, false);
      body.add(new Instruction(adjoint, Operation.POP, List.of(), null));
      body.add(new ElementStore(array, i, new Operand.Use(adjoint),
          output == Adjoint.Output.PULLBACK, null));
    }
    body.add(new Return(new Operand.Use(result), null));
    return function.with(parameters, new Block(body));
  }

  /**
   * The forward mode of the split method, with the parameters of {@link Tangent#of}: the
   * tangent segments in order, the last one's value returned.
   */
  public Function tangent() {
    IrBuilder builder = new IrBuilder(Ids.next(function));
    List<Value> parameters = new ArrayList<>(function.parameters());
    for (Value parameter : function.parameters()) {
      if (parameter.isActive()) {
        parameters.add(builder.derived(parameter, Derivative.TANGENT, NumericType.DOUBLE));
      }
    }
    List<Statement> body = new ArrayList<>();
    // a formula: returned as the call itself
    Value result = builder.formula(NumericType.DOUBLE, false);
    callInOrder(TANGENT, uses(parameters), result, builder, body);
    body.add(new Return(new Operand.Use(result), null));
    return function.with(parameters, new Block(body));
  }

  /**
   * Forward over reverse for the split method, with the parameters of {@code Tangent.of(
   * Adjoint.of(function, GRADIENT))}: the user's, the gradient, the directions of the active
   * parameters, the gradient's tangent. The parameters' adjoints and their tangents come off the
   * tape into the two arrays; the directional derivative is returned. See
   * {@link #forwardOverReverse}.
   */
  public Function hessianSweep() {
    IrBuilder builder = new IrBuilder(Ids.next(function));
    List<Value> parameters = new ArrayList<>(function.parameters());
    Value gradient = builder.generated(Adjoint.Output.GRADIENT.arrayName(),
        NumericType.DOUBLE_ARRAY, false);
    parameters.add(gradient);
    List<Value> directions = directions(builder);
    parameters.addAll(directions);
    Value gradientDot = builder.derived(gradient, Derivative.TANGENT, NumericType.DOUBLE_ARRAY);
    parameters.add(gradientDot);
    List<Statement> body = new ArrayList<>();
    Value derivative = forwardOverReverse(builder, directions, Site.number(1.0),
        Site.number(0.0), body);
    // each adjoint lies on its tangent, the last parameter's on top
    for (int i = function.differentiableParameters().size() - 1; i >= 0; i--) {
      Value adjoint = builder.formula(NumericType.DOUBLE, false);
      body.add(new Instruction(adjoint, Operation.POP, List.of(), null));
      body.add(new ElementStore(gradient, i, new Operand.Use(adjoint), false, null));
      Value tangent = builder.formula(NumericType.DOUBLE, false);
      body.add(new Instruction(tangent, Operation.POP, List.of(), null));
      body.add(new ElementStore(gradientDot, i, new Operand.Use(tangent), false, null));
    }
    body.add(new Return(new Operand.Use(derivative), null));
    return function.with(parameters, new Block(body));
  }

  /**
   * The forward mode of the split method's pullback onto the tape, with the parameters of
   * {@code Tangent.of(Adjoint.withActiveSeed(function, TAPE))}: the user's, the seed, the
   * directions of the active parameters, the seed's tangent. Each parameter's adjoint stays on
   * the tape above its tangent, the last parameter's on top, for the second-order code of
   * callers; the directional derivative is returned. See {@link #forwardOverReverse}.
   */
  public Function pullbackTangent() {
    IrBuilder builder = new IrBuilder(Ids.next(function));
    List<Value> parameters = new ArrayList<>(function.parameters());
    Value seed = builder.generated("seed", NumericType.DOUBLE, true);
    parameters.add(seed);
    List<Value> directions = directions(builder);
    parameters.addAll(directions);
    Value seedDot = builder.derived(seed, Derivative.TANGENT, NumericType.DOUBLE);
    parameters.add(seedDot);
    List<Statement> body = new ArrayList<>();
    Value derivative = forwardOverReverse(builder, directions, new Operand.Use(seed),
        new Operand.Use(seedDot), body);
    body.add(new Return(new Operand.Use(derivative), null));
    return function.with(parameters, new Block(body));
  }

  /** The directions (tangents) of the active parameters, in order. */
  private List<Value> directions(IrBuilder builder) {
    List<Value> directions = new ArrayList<>();
    for (Value parameter : function.parameters()) {
      if (parameter.isActive()) {
        directions.add(builder.derived(parameter, Derivative.TANGENT, NumericType.DOUBLE));
      }
    }
    return directions;
  }

  /**
   * Adds the calls of forward over reverse to {@code body}: the forward modes of the forward
   * segments in order (values and tangents handed on and recorded together), then those of the
   * reverse segments backwards, the last one seeded with {@code seed} and {@code seedDot}
   * (adjoints and their tangents handed back); the parameters' adjoints are left on the tape
   * above their tangents. Returns the local holding the directional derivative.
   */
  private Value forwardOverReverse(IrBuilder builder, List<Value> directions, Operand seed,
      Operand seedDot, List<Statement> body) {
    List<Operand> arguments = uses(function.parameters());
    arguments.addAll(uses(directions));
    int count = segments.list().size();
    Value derivative = builder.local("derivative", NumericType.DOUBLE, false);
    callInOrder(HESSIAN_FORWARD, arguments, derivative, builder, body);
    body.add(new Note(Adjoint.REVERSE_NOTE, null));
    // the last reverse segment takes the seed after the user's parameters, its tangent last
    List<Operand> seeded = uses(function.parameters());
    seeded.add(seed);
    seeded.addAll(uses(directions));
    seeded.add(seedDot);
    body.add(call(builder.temporary(NumericType.DOUBLE, false), HESSIAN_REVERSE, count, seeded));
    for (int k = count - 1; k >= 1; k--) {
      body.add(call(builder.temporary(NumericType.DOUBLE, false), HESSIAN_REVERSE, k,
          arguments));
    }
    return derivative;
  }

  /**
   * The programs of {@code sweep} of all segments in order, under a note; the last one's value
   * is {@code result}, the others' are not read.
   */
  private void callInOrder(String sweep, List<Operand> arguments, Value result,
      IrBuilder builder, List<Statement> body) {
    int count = segments.list().size();
    body.add(new Note(Adjoint.FORWARD_NOTE + ", in " + count + " segments", null));
    for (int k = 1; k < count; k++) {
      body.add(call(builder.temporary(NumericType.DOUBLE, false), sweep, k, arguments));
    }
    body.add(call(result, sweep, count, arguments));
  }

  private Instruction call(Value result, String sweep, int number, List<Operand> arguments) {
    return new Instruction(result, Operation.localCall(name(sweep, number), arguments.size()),
        arguments, null);
  }

  private static List<Operand> uses(List<Value> values) {
    List<Operand> uses = new ArrayList<>();
    for (Value value : values) {
      uses.add(new Operand.Use(value));
    }
    return uses;
  }
}
