package ad4j.processor.front;

import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Value;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * Lowers {@code return}: the method's result (a number, an array the method made, returned once
 * as its last statement, or a value record's leaves as a vector function's {@code double[]}).
 * Apart from {@link Lowering}'s statement walk because what a method may return is decided by
 * its result type alone, which only returns read; a {@code return} inside a loop leaves the
 * loops by {@link LoopLowering}.
 */
final class ReturnLowering {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final LoopLowering loops;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  /** {@code double}, or {@code double[]} for a vector function. */
  private final NumericType resultType;
  /** The value record the method returns, if it returns one: its leaves, as a {@code double[]}. */
  private final TypeElement resultRecord;
  /** The method body's last statement: where a vector function returns. */
  private final StatementTree lastStatement;

  ReturnLowering(LoweringContext context, ExpressionLowering expressions, LoopLowering loops,
      ExecutableElement method, MethodTree tree) {
    this.context = context;
    this.expressions = expressions;
    this.loops = loops;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
    // double, float, double[] or float[] (MethodValidator)
    this.resultRecord = ValueRecords.valueRecord(method.getReturnType()).orElse(null);
    // a value record result is a vector function over its leaves (DESIGN.md, part 3)
    this.resultType = resultRecord != null ? NumericType.DOUBLE_ARRAY
        : context.javaTypes().irType(method.getReturnType()).orElse(NumericType.DOUBLE);
    this.lastStatement = tree.getBody() == null || tree.getBody().getStatements().isEmpty()
        ? null : tree.getBody().getStatements().get(tree.getBody().getStatements().size() - 1);
  }

  /** The type of the method's result in the IR. */
  NumericType resultType() {
    return resultType;
  }

  /**
   * Checks the value record {@code method} returns, if it returns one: generated members make
   * the result again of its leaves, read through its accessors.
   */
  void checkResultRecord(MethodTree method) {
  if (resultRecord != null) {
    Tree returnType = method.getReturnType() != null ? method.getReturnType() : method;
    expressions.records().checkAccessors(resultRecord, returnType,
        "the value record '" + method.getName() + "' returns");
    // generated members make the result again of its leaves, read through its accessors
    RecordAccessors.withoutSource(resultRecord, context.trees()).ifPresent(record ->
        diagnostics.error(returnType, "@Differentiable method '" + method.getName()
            + "' returns value record '" + resultRecord.getSimpleName() + "', which is"
            + (record.equals(resultRecord) ? "" : " made of '" + record.getSimpleName()
                + "', which is") + " compiled without its source here: generated members"
            + " make the result again of what its accessors give, and ad4j cannot see"
            + " whether they return the values the record was made of; return its"
            + " components as a 'double[]', or compile the record's source with this class"));
  }
  }

  void lowerReturn(ReturnTree statement) {
    if (statement.getExpression() == null) {
      unsupported(statement, "'return' without a value: the method returns 'double'");
      return;
    }
    if (resultRecord != null) {
      lowerRecordReturn(statement);
      return;
    }
    Operand value = expressions.lower(statement.getExpression());
    if (resultType.isNumeric()) {
      value = expressions.unboxing().number(value); // return xs.get(0)
    }
    if (value == null || !expressions.conversions().assignable(value, resultType,
        statement.getExpression())) {
      return;
    }
    if (resultType.isArray()) {
      if (statement != lastStatement) {
        unsupported(statement, "a method returning '" + resultType.keyword()
            + "' must return once, as its last"
            + " statement: compute the result into one local array and return it at the end");
        return;
      }
      if (!(value instanceof Operand.Use use) || context.arrays().isReadOnly(use.value())
          || context.arrays().isForeignArray(value)) {
        // a static final table is a constant operand, or a local that holds one (an array the
        // method did not make, as a field's or an object's is), not a parameter: say which
        String owner = value instanceof Operand.Constant
            ? "' is a static final table, which its class owns"
            : context.arrays().isForeignArray(value)
                ? "' holds an array this method did not make (a static final table, a field's or"
                    + " an object's), which it does not own"
                : "' is a parameter's array, which callers own";
        unsupported(statement.getExpression(), "'" + context.source().of(
            statement.getExpression()) + owner + ": return a local array ('"
            + context.source().of(statement.getExpression()) + ".clone()')");
        return;
      }
      if (context.arrays().isRow(value)) {
        // the reverse sweep keeps one adjoint for a local matrix and its rows, which the seed
        // of a row returned as it is did not reach (its partials came out zero)
        unsupported(statement.getExpression(), "'" + context.source().of(
            statement.getExpression()) + "' is a row of a local matrix, and ad4j cannot return"
            + " such an array yet: return a copy ('"
            + context.source().of(statement.getExpression()) + ".clone()')");
        return;
      }
      if (context.arrays().isWrittenAndPassedToCalls(use.value())) {
        // the reverse sweep puts back what the writes wrote over, for the call's reverse
        unsupported(statement.getExpression(), "'" + context.source().of(
            statement.getExpression()) + "' is passed to a call of a "
            + (context.arrays().isPassedToRuledCalls(use.value())
                ? "method with @DerivativeOf rules" : "@Differentiable method") + " and"
            + " written into, and ad4j cannot return such an array yet: return a copy ('"
            + context.source().of(statement.getExpression()) + ".clone()')");
        return;
      }
    }
    if (!loops.inLoop()) {
      Return result = new Return(value, context.line());
      context.dependences().givesResult(result, statement.getExpression());
      ir.add(result);
      return;
    }
    loops.returnFromLoop(value, statement.getExpression(), resultType);
  }

  /**
   * {@code return r;} of a method returning value record {@code R}: a new {@code double[]} of
   * {@code r}'s leaves, depth first, the vector function's result; the public members make the
   * record of it ({@code write/RecordAdapters}).
   */
  private void lowerRecordReturn(ReturnTree statement) {
    ExpressionTree expression = statement.getExpression();
    String shown = resultRecord.getSimpleName().toString();
    if (statement != lastStatement) {
      unsupported(statement, "a method returning value record '" + shown + "' must return"
          + " once, as its last statement: assign the result to one local '" + shown + "' and"
          + " return it at the end");
      return;
    }
    Optional<TypeElement> type = expressions.records().typeOf(expression);
    if (type.isEmpty() || !type.get().equals(resultRecord)) {
      unsupported(expression, "'" + context.source().quoted(expression) + "' cannot be returned as"
          + " value record '" + shown + "': ad4j returns values of the record made in the"
          + " method " + RecordLowering.valueSources(
          "a local, a parameter, 'new', a call of the record's methods"));
      return;
    }
    if (context.recordConstructors().changesComponents(resultRecord)
        && RecordAccessors.withoutSource(resultRecord, context.trees()).isEmpty()) {
      // (one compiled without its source is an error at the method already)
      unsupported(expression, "'" + context.source().of(expression) + "' is returned as value"
          + " record '" + shown + "', " + context.recordConstructors().changerText(resultRecord)
          + ": the generated"
          + " members make the record of the result's components and of its tangents, and would"
          + " run its code on them again; ad4j does not yet return such records");
      return;
    }
    RecordLowering.Tuple tuple = expressions.records().lower(expression);
    if (tuple == null || !ValueRecords.isReturnable(resultRecord)) {
      return; // a record with a 'double[]' component: rejected at the method already
    }
    // the leaves that carry derivatives are the vector function's value; the others the
    // record's members pass along from where they come, without running any code again
    List<ValueRecords.Leaf> types = ValueRecords.leaves(resultRecord);
    List<Operand> active = new ArrayList<>();
    List<ValueRecords.Carried> carried = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      Operand leaf = tuple.leaves().get(i);
      if (types.get(i).active()) {
        active.add(leaf);
      } else if (leaf instanceof Operand.Use use
          && use.value().origin() == Value.Origin.PARAMETER) {
        carried.add(new ValueRecords.Carried(use.value().parameterIndex(), null));
      } else if (leaf instanceof Operand.Constant constant) {
        carried.add(new ValueRecords.Carried(-1, constant.expression().toString()));
      } else {
        unsupported(expression, "component '" + String.join(".", types.get(i).path())
            + "' of value record '" + shown + "' returned by '" + context.source().of(expression)
            + "' carries no derivative and is computed in the method: ad4j returns such"
            + " components only as the method's parameters or constants hold them (the"
            + " generated members return the record without running the method's code again);"
            + " return it from a method of its own, or pass it in as a parameter");
        return;
      }
    }
    context.flatRecords().carriesResult(carried);
    Operand array = expressions.arrayOf(active, expression);
    if (array == null) {
      return;
    }
    Return result = new Return(array, context.line());
    context.dependences().givesResult(result, expression);
    ir.add(result);
  }

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
