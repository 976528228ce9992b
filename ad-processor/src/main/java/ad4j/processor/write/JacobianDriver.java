package ad4j.processor.write;

import ad4j.processor.emit.JavaTypes;
import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Function;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import java.util.List;

/**
 * {@code private static void fJacobianInto(params, int p, double[][] jacobian, int n)}, the
 * driver loop of a vector function's Jacobian members: p reverse sweeps, one per row, seeded
 * with a unit vector (after one forward sweep, or p whole pullbacks: {@link RowSweeps}); or,
 * when there are fewer slots than rows and the method has {@code mTangent}, n forward sweeps,
 * one per column, along a unit direction.
 */
final class JacobianDriver {
  private final MethodContext method;
  private final JacobianChecks checks;
  private final Function function;

  JacobianDriver(MethodContext method, JacobianChecks checks) {
    this.method = method;
    this.checks = checks;
    this.function = method.function();
  }

  /** The names of the driver's parameters and locals that the variants' code reads. */
  record Names(List<String> parameters, String rows, String jacobian, String count, String i,
      String seed) {}

  /** {@code fJacobianInto}, with what {@code sweeps} runs when there are no more rows than slots. */
  MethodSpec jacobianInto(RowSweeps sweeps) {
    NameAllocator names = method.names();
    List<String> parameters = method.userParameterNames(names);
    String rows = names.fresh("rows");
    String jacobian = names.fresh("jacobian");
    String count = names.fresh("slots");
    String i = names.fresh("i");
    String seed = names.fresh("seed");
    String slot = names.fresh("slot");
    String column = names.fresh("column");
    MethodSpec.Builder into = method.privateMethod(method.memberNames().jacobianInto())
        .addJavadoc("Overwrites the first {@code $L} rows of {@code $L} with the Jacobian of"
            + " $L.\n", rows, jacobian, method.link());
    for (int k = 0; k < parameters.size(); k++) {
      into.addParameter(JavaTypes.parameterType(function.parameters().get(k)),
          parameters.get(k));
    }
    into.addParameter(int.class, rows).addParameter(double[][].class, jacobian)
        .addParameter(int.class, count);
    CodeBlock.Builder code = CodeBlock.builder();
    Names named = new Names(parameters, rows, jacobian, count, i, seed);
    sweeps.beforeRowChecks(named, code);
    code.beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, rows, i)
        .add(checks.rowLength(jacobian, i, count))
        .endControlFlow()
        // mJacobian's own matrix passes; mValueAndJacobian's caller's may repeat a row
        .add(new OutputAliasChecks(method).distinctRows(function.name() + "ValueAndJacobian",
            jacobian, rows, count));
    sweeps.afterRowChecks(named, code);
    if (!sweeps.columnsWhenWider()) {
      return into.addCode(code.build()).build();
    }
    code.add("// one forward sweep per slot: column j is the tangent along the unit"
        + " direction e_j\n");
    List<String> directions = UnitDirections.declare(function, parameters, names, code);
    // a value record result: the tangent that returns the leaves ({@link RecordAdapters})
    String call = function.name() + "Tangent" + method.flatSuffix() + "(" + String.join(", ",
        MethodContext.appendAll(parameters, directions)) + ")";
    CodeBlock columnStore = CodeBlock.builder()
        .add("{\n$>") // a block of its own: one column variable per sweep
        .addStatement("double[] $L = $L", column, call)
        .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, rows, i)
        .addStatement("$L[$L][$L] = $L[$L]", jacobian, i, slot, column, i)
        .endControlFlow()
        .addStatement("$L++", slot)
        .add("$<}\n")
        .build();
    code.addStatement("int $L = 0", slot);
    UnitDirections.each(function, parameters, directions, names, columnStore, code);
    return into.addCode(code.build()).build();
  }
}
