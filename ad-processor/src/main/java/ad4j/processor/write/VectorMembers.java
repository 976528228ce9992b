package ad4j.processor.write;

import ad4j.processor.emit.JavaEmitter;
import ad4j.processor.emit.JavaTypes;
import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Function;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.Arrays;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The Jacobian members of a vector function (DESIGN.md, "Vector result"): {@code mJacobian},
 * {@code mValueAndJacobian}, and their private helpers, the value ({@code fValue}), the rows
 * after one forward sweep ({@code fJacobianRows}) and the checks that clear the rows for them
 * ({@code fPrepareRows}); the driver loop is {@link JacobianDriver}'s.
 */
final class VectorMembers {
  private final MethodContext method;
  private final SlotText slots;
  /** The checks that an output array is none of the arrays the member reads. */
  private final OutputAliasChecks aliases;
  private final JacobianChecks checks;
  private final Function function;

  VectorMembers(MethodContext method, SlotText slots, JacobianChecks checks) {
    this.method = method;
    this.slots = slots;
    this.aliases = new OutputAliasChecks(method);
    this.checks = checks;
    this.function = method.function();
  }

  /**
   * {@code mJacobian(params)} where the method fixes its result's length and the rows follow
   * one forward sweep: the matrix is made first, and one forward sweep gives the value and the
   * rows together (forward mode still needs the value).
   */
  MethodSpec jacobianAfterRows(int resultLength) {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String value = names.fresh("value");
    String jacobian = names.fresh("jacobian");
    String count = names.fresh("slots");
    String row = names.fresh("row");
    return jacobianStart(parameters)
        .addStatement("int $L = $L", count, slots.count(parameters))
        .addCode(UnitDirections.newMatrix(jacobian, Integer.toString(resultLength), count, row))
        .addStatement("$T $L = $L", method.valueType(), value,
            checks.rowsCall(parameters, jacobian, count, true))
        .beginControlFlow("if ($L.length > $L)", value, count)
        .addStatement("$L", checks.intoCall(parameters, value + ".length", jacobian, count))
        .endControlFlow()
        .addStatement("return $L", jacobian)
        .build();
  }

  /** {@code mJacobian(params)}: the value first, for its length, then the matrix filled. */
  MethodSpec jacobianAfterValue() {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String value = names.fresh("value");
    String jacobian = names.fresh("jacobian");
    String count = names.fresh("slots");
    String row = names.fresh("row");
    return jacobianStart(parameters)
        .addStatement("$T $L = $L($L)", method.valueType(), value, method.memberNames().primal(),
            String.join(", ", parameters))
        .addStatement("int $L = $L", count, slots.count(parameters))
        .addCode(UnitDirections.newMatrix(jacobian, value + ".length", count, row))
        .addStatement("$L", checks.intoCall(parameters, value + ".length", jacobian, count))
        .addStatement("return $L", jacobian)
        .build();
  }

  /** {@code public static double[][] fJacobian(params)}, its javadoc, no body yet. */
  private MethodSpec.Builder jacobianStart(List<String> parameters) {
    return method.start(function.name() + "Jacobian", parameters)
        .addJavadoc("Returns the Jacobian of $L\nat the given point: a new matrix whose"
            + " element {@code [i][j]} is the partial derivative\nof the result's element"
            + " {@code i} with respect to slot {@code j}. Computed by one reverse sweep per\n"
            + "element of the result or one forward sweep per slot, whichever is fewer.\n$L",
            method.link(), slots.layoutNote())
        .returns(double[][].class);
  }

  /**
   * {@code fJacobian} holding the sweeps itself ({@code program}): the matrix made, then one
   * forward sweep and the rows' reverse sweeps into it; the value, which this member does not
   * return, is not made, and no call stands between the sweeps and the matrix.
   */
  MethodSpec jacobianWithTheSweeps(Function program, int resultLength) {
    NameAllocator names = method.names();
    JavaEmitter emitter = new JavaEmitter(program, names);
    List<String> parameters = emitter.parameterNames();
    List<String> userParameters = parameters.subList(0, parameters.size() - 2);
    String jacobian = parameters.get(parameters.size() - 2);
    String count = parameters.get(parameters.size() - 1);
    String row = names.fresh("row");
    return jacobianStart(userParameters)
        .addStatement("int $L = $L", count, slots.count(userParameters))
        .addCode(UnitDirections.newMatrix(jacobian, Integer.toString(resultLength), count, row))
        .addCode(emitter.body())
        .addStatement("return $L", jacobian)
        .build();
  }

  /**
   * {@code mValueAndJacobian(params, jacobian)} where the rows follow one forward sweep: the
   * reverse sweeps share it; forward mode needs the value first.
   */
  MethodSpec valueAndJacobianAfterRows() {
    ValueAndJacobian member = valueAndJacobianStart();
    return member.builder()
        .addStatement("int $L = $L", member.count(), slots.count(member.parameters()))
        .addStatement("$T $L = $L", method.valueType(), member.value(),
            checks.rowsCall(member.parameters(), member.jacobian(), member.count(), false))
        .beginControlFlow("if ($L.length > $L)", member.value(), member.count())
        .addCode(checks.rowCount(member.jacobian(), member.value() + ".length"))
        .addStatement("$L", member.into())
        .endControlFlow()
        .addStatement("return $L", member.value())
        .build();
  }

  /** {@code mValueAndJacobian(params, jacobian)}: the value, then the matrix filled. */
  MethodSpec valueAndJacobianAfterValue() {
    ValueAndJacobian member = valueAndJacobianStart();
    return member.builder()
        .addStatement("$T $L = $L($L)", method.valueType(), member.value(),
            method.memberNames().primal(),
            String.join(", ", member.parameters()))
        .addStatement("int $L = $L", member.count(), slots.count(member.parameters()))
        .addCode(checks.rowCount(member.jacobian(), member.value() + ".length"))
        .addStatement("$L", member.into())
        .addStatement("return $L", member.value())
        .build();
  }

  /** {@code mValueAndJacobian} with its signature and javadoc, its names and its driver call. */
  private record ValueAndJacobian(MethodSpec.Builder builder, List<String> parameters,
      String jacobian, String value, String count, String into) {}

  private ValueAndJacobian valueAndJacobianStart() {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String jacobian = names.fresh("jacobian");
    String value = names.fresh("value");
    String count = names.fresh("slots");
    String methodName = function.name() + "ValueAndJacobian";
    MethodSpec.Builder member = method.start(methodName, parameters)
        .addJavadoc("Returns the value of $L,\nbit for bit (a new array, as the method returns"
            + " it), and overwrites {@code $L[i][j]} with the partial\nderivative of the"
            + " result's element {@code i} with respect to slot {@code j}.\n$L",
            method.link(), jacobian, slots.layoutNote())
        .addJavadoc("\n@throws IllegalArgumentException if {@code $L} has fewer rows than the"
            + " result has elements,\nor a row is shorter than the number of slots$L,\nor if"
            + " two of those rows are one array\n", jacobian, aliases.javadoc(jacobian))
        .returns(method.valueType())
        .addParameter(double[][].class, jacobian)
        .addCode(aliases.matrix(methodName, jacobian, parameters, null));
    return new ValueAndJacobian(member, parameters, jacobian, value, count,
        checks.intoCall(parameters, value + ".length", jacobian, count));
  }

  /** {@code private static double[] fValue(params)}: the user's computation, for the value. */
  MethodSpec primalValue() {
    NameAllocator names = method.names();
    JavaEmitter emitter = new JavaEmitter(function, names);
    List<String> parameters = emitter.parameterNames();
    MethodSpec.Builder member = method.privateMethod(method.memberNames().primal())
        .addJavadoc("The value of $L, as it computes it.\n", method.link())
        .returns(method.valueType());
    for (int i = 0; i < parameters.size(); i++) {
      member.addParameter(JavaTypes.parameterType(function.parameters().get(i)),
          parameters.get(i));
    }
    return member.addCode(emitter.body()).build();
  }

  /**
   * {@code private static double[] fJacobianRows(params, double[][] jacobian, int slots,
   * boolean cleared)}: {@code rows}, one forward sweep and then one reverse sweep per row.
   */
  Written jacobianRows(Function rows) {
    NameAllocator names = method.names();
    JavaEmitter emitter = new JavaEmitter(rows, names);
    List<String> parameters = emitter.parameterNames();
    MethodSpec.Builder member = method.privateMethod(method.memberNames().jacobianRows())
        .addJavadoc("Returns the value of $L, bit for bit; when the result has no more"
            + " elements than\n{@code $L}, overwrites its first rows of {@code $L} with the"
            + " Jacobian: one forward sweep,\nthen one reverse sweep per row. With more"
            + " elements it leaves {@code $L} alone. {@code $L}: the caller has just\nmade"
            + " the rows, all zeros, and they need no checks and no clearing.\n", method.link(),
            parameters.get(parameters.size() - 2), parameters.get(parameters.size() - 3),
            parameters.get(parameters.size() - 3), parameters.get(parameters.size() - 1))
        .returns(method.valueType());
    for (int i = 0; i < parameters.size(); i++) {
      member.addParameter(JavaTypes.parameterType(rows.parameters().get(i)),
          parameters.get(i));
    }
    return TapeBodies.withBody(member, emitter, names);
  }

  /**
   * {@code private static void fPrepareRows(double[][] jacobian, int rows, int slots)}: the
   * argument checks of {@code fValueAndJacobian} on the matrix, which {@code fJacobianRows}
   * can make only once it knows the number of rows, and the rows cleared for the sweeps to
   * add into: every row checked before any is cleared, so that a short row throws with the
   * caller's matrix as it was.
   */
  MethodSpec prepareRows() {
    NameAllocator names = method.names();
    method.userParameterNames(names);
    String jacobian = names.fresh("jacobian");
    String rows = names.fresh("rows");
    String count = names.fresh("slots");
    String i = names.fresh("i");
    return MethodSpec.methodBuilder(method.memberNames().prepareRows())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .addJavadoc("Checks that {@code $L} has {@code $L} distinct rows of at least {@code $L}"
            + " elements, and clears them.\n", jacobian, rows, count)
        .addParameter(double[][].class, jacobian)
        .addParameter(int.class, rows)
        .addParameter(int.class, count)
        .addCode(checks.rowCount(jacobian, rows))
        .addCode(CodeBlock.builder()
            .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, rows, i)
            .add(checks.rowLength(jacobian, i, count))
            .endControlFlow()
            .add(aliases.distinctRows(function.name() + "ValueAndJacobian", jacobian, rows,
                count))
            .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, rows, i)
            .addStatement("$T.fill($L[$L], 0, $L, 0.0)", Arrays.class, jacobian, i, count)
            .endControlFlow()
            .build())
        .build();
  }
}
