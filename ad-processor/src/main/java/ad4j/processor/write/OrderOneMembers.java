package ad4j.processor.write;

import ad4j.processor.emit.JavaEmitter;
import ad4j.processor.emit.JavaTypes;
import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Value;
import ad4j.processor.plan.Parted;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The order-1 members of the design contract: {@code mGradient}, {@code mValueAndGradient},
 * {@code mTangent} and {@code mPullback} (the last two a vector function's too), and the
 * private copy of a private method's value. Each prints the program its plan gives it.
 */
final class OrderOneMembers {
  private final MethodContext method;
  private final SlotText slots;
  /** The checks that an output array is none of the arrays the member reads. */
  private final OutputAliasChecks aliases;
  private final Function function;
  private final TangentChecks tangentChecks;

  OrderOneMembers(MethodContext method, SlotText slots) {
    this.method = method;
    this.slots = slots;
    this.aliases = new OutputAliasChecks(method);
    this.function = method.function();
    this.tangentChecks = new TangentChecks(method);
  }

  /**
   * {@code mGradient(params)}: a new array, filled by {@code filledBy}: {@code
   * mValueAndGradient}, or the private method of the gradient without the value.
   */
  MethodSpec gradient(String filledBy) {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String array = names.fresh("gradient");
    return method.start(function.name() + "Gradient", parameters)
        .addJavadoc("Returns the gradient of $L\nat the given point, computed in reverse mode:"
            + " a new array whose element {@code i}\nis the partial derivative with respect to"
            + " slot {@code i}.\n$L", method.link(), slots.layoutNote())
        .returns(double[].class)
        .addStatement("double[] $L = new double[$L]", array, slots.count(parameters))
        .addStatement("$L($L)", filledBy,
            String.join(", ", MethodContext.append(parameters, array)))
        .addStatement("return $L", array)
        .build();
  }

  /**
   * The private {@code mGradientInto(params, gradient)}, printed from {@code program}: the
   * gradient written into an array of zeros, without the value.
   */
  Written gradientInto(Parted program) {
    NameAllocator names = method.names();
    JavaEmitter emitter = new JavaEmitter(program.program(), names);
    List<String> all = emitter.parameterNames();
    String array = all.get(all.size() - 1);
    MethodSpec.Builder member = method.privateMethod(method.memberNames().gradientInto())
        .addJavadoc("Writes the gradient of $L into {@code $L}, whose elements\nare zeros,"
            + " for {@code $LGradient}: the program of {@code $LValueAndGradient}\nwithout"
            + " what only the value needs.\n", method.link(), array, function.name(),
            function.name());
    for (int i = 0; i < all.size() - 1; i++) {
      member.addParameter(JavaTypes.parameterType(function.parameters().get(i)), all.get(i));
    }
    member.addParameter(double[].class, array);
    return TapeBodies.withBody(member, emitter, names);
  }

  /** {@code mValueAndGradient(params, gradient)}, printed from {@code program}. */
  Written valueAndGradient(Parted program) {
    NameAllocator names = method.names();
    JavaEmitter emitter = new JavaEmitter(program.program(), names);
    List<String> all = emitter.parameterNames();
    String array = all.get(all.size() - 1);
    List<String> parameters = all.subList(0, all.size() - 1);
    return TapeBodies.withBody(valueAndGradientStart(parameters, array), emitter, names);
  }

  /**
   * {@code mValueAndGradient}'s signature, javadoc and check of the gradient's length (and,
   * where arrays add their adjoints into it, the gradient's slots set to zero), with the
   * parameters named {@code parameters} and the gradient {@code array}: all but its sweep.
   */
  MethodSpec.Builder valueAndGradientStart(List<String> parameters, String array) {
    String methodName = method.memberNames().valueAndGradient();
    MethodSpec.Builder member = method.start(methodName, parameters)
        .addJavadoc("Returns the value of $L,\nbit for bit, and writes its gradient into"
            + " {@code $L}: element {@code i} becomes\nthe partial derivative with respect to"
            + " slot {@code i}. Allocates nothing.\n$L", method.link(), array,
            slots.layoutNote())
        .addJavadoc("\n@throws IllegalArgumentException if {@code $L} has $L$L\n", array,
            slots.tooShortInWords(), aliases.javadoc(array))
        .returns(method.valueType())
        .addParameter(double[].class, array)
        .addCode(slots.lengthCheck(methodName, array, parameters))
        .addCode(aliases.array(methodName, array, parameters));
    if (function.hasActiveArrays()) {
      // arrays' elements add their adjoints into the gradient as the reverse sweep meets them
      member.addStatement("$T.fill($L, 0, $L, 0.0)", Arrays.class, array,
          slots.count(parameters));
    }
    return member;
  }

  /** {@code mTangent(params, directions...)}, printed from {@code program}. */
  Written tangent(Parted program) {
    NameAllocator names = method.names();
    JavaEmitter emitter = new JavaEmitter(program.program(), names);
    List<String> all = emitter.parameterNames();
    int primal = function.parameters().size();
    List<TypeName> tangentTypes = new ArrayList<>();
    for (Value tangentParameter : program.program().parameters().subList(primal, all.size())) {
      tangentTypes.add(JavaTypes.typeName(tangentParameter.type()));
    }
    List<String> tangentNames = all.subList(primal, all.size());
    List<String> primalNames = all.subList(0, primal);
    String methodName = method.memberNames().tangent();
    MethodSpec.Builder member = method.start(methodName, primalNames)
        .addJavadoc("Returns the directional derivative of $L\nat the given point along the"
            + " direction ($L),\ncomputed in forward mode in one sweep$L.\n", method.link(),
            String.join(", ", tangentNames.stream().map(n -> "{@code " + n + "}").toList()),
            function.returnsArray() ? ": the Jacobian times the direction" : "")
        .addJavadoc("$L", tangentChecks.throwsJavadoc(primalNames, tangentNames))
        .returns(method.derivativeType());
    for (int i = 0; i < tangentNames.size(); i++) {
      member.addParameter(tangentTypes.get(i), tangentNames.get(i));
    }
    member.addCode(tangentChecks.checks(methodName, primalNames, tangentNames));
    return TapeBodies.withBody(member, emitter, names);
  }

  /** {@code mPullback(params, seed, gradient)}, printed from {@code program}. */
  Written pullback(Parted program) {
    NameAllocator names = method.names();
    JavaEmitter emitter = new JavaEmitter(program.program(), names);
    List<String> all = emitter.parameterNames();
    int primal = function.parameters().size();
    List<String> parameters = all.subList(0, primal);
    String seed = all.get(primal);
    String array = all.get(primal + 1);
    return TapeBodies.withBody(pullbackStart(parameters, seed, array), emitter, names);
  }

  /**
   * {@code mPullback}'s signature, javadoc and check of the array's length, with the
   * parameters named {@code parameters}, the seed {@code seed} and the array {@code array}:
   * all but its sweep.
   */
  MethodSpec.Builder pullbackStart(List<String> parameters, String seed, String array) {
    String methodName = method.memberNames().pullback();
    String what = function.returnsArray()
        ? "Returns the value of $L,\nbit for bit, and adds the vector-Jacobian product"
            + " ({@code $L} times J) to {@code $L}: slot {@code i}\ngets"
            + " {@code sum over k of $L[k]} times the partial derivative of the result's"
            + " element\n{@code k} with respect to slot {@code i}. Accumulating lets callers"
            + " compose derivatives.\n$L"
        : "Returns the value of $L,\nbit for bit, and adds {@code $L} times its"
            + " partial derivative with respect to\nslot {@code i} to {@code $L[i]}."
            + " Accumulating lets callers compose derivatives (chain\nrule through an"
            + " enclosing computation). Allocates nothing.\n$L";
    Object[] whatArguments = function.returnsArray()
        ? new Object[] {method.link(), seed, array, seed, slots.layoutNote()}
        : new Object[] {method.link(), seed, array, slots.layoutNote()};
    return method.start(methodName, parameters)
        .addJavadoc(what, whatArguments)
        .addJavadoc("\n@throws IllegalArgumentException if {@code $L} has $L$L\n", array,
            slots.tooShortInWords(), aliases.javadoc(array))
        .returns(method.valueType())
        .addParameter(method.derivativeType(), seed)
        .addParameter(double[].class, array)
        .addCode(slots.lengthCheck(methodName, array, parameters))
        .addCode(aliases.array(methodName, array, parameters));
  }

  /**
   * {@code static double mValueFlat(leaves)} for a method taking value records: the user's
   * method as written, computed here over the records' leaves, which the generated code of a
   * caller calls for its value where a record made again of its leaves could hold other values
   * (its constructor changes its components, or the caller cannot see it:
   * {@code Callee.valueOverLeaves}); callers of other classes through the companion.
   */
  Written valueOverLeaves() {
    NameAllocator names = method.names();
    JavaEmitter emitter = new JavaEmitter(function, names);
    List<String> parameters = emitter.parameterNames();
    MethodSpec.Builder member = method.suppressingWarnings(MethodSpec.methodBuilder(
            function.name() + Callee.VALUE_FLAT))
        .addModifiers(Modifier.STATIC) // its javadoc is the companion's member's (addFlat)
        .returns(method.valueType());
    for (int i = 0; i < parameters.size(); i++) {
      member.addParameter(JavaTypes.parameterType(function.parameters().get(i)),
          parameters.get(i));
    }
    return TapeBodies.withBody(member, emitter, names);
  }

  /**
   * {@code private static double m(params)} for a private {@code @Differentiable} method: the
   * user's method as written, computed here, because the generated members of its callers,
   * in this class, cannot call the private method of the user's class for its value.
   */
  Written privateValue() {
    NameAllocator names = method.names();
    JavaEmitter emitter = new JavaEmitter(function, names);
    List<String> parameters = emitter.parameterNames();
    MethodSpec.Builder member = method.privateMethod(function.name())
        .addJavadoc("Returns the value of $L, bit for bit, computed here: generated code"
            + " cannot call\nthe private method.\n", method.link())
        .returns(method.valueType());
    for (int i = 0; i < parameters.size(); i++) {
      member.addParameter(JavaTypes.parameterType(function.parameters().get(i)),
          parameters.get(i));
    }
    return TapeBodies.withBody(member, emitter, names);
  }
}
