package ad4j.processor.front;

import ad4j.processor.front.RecordLowering.Tuple;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.ConditionalExpressionTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.TypeElement;

/**
 * {@code c ? a : b} choosing a value record ({@code p ? new Vec(x, y) : v}): the record's
 * leaves, one variable each, set in a branch that evaluates only the chosen operand, as Java
 * does (the other operand's constructor checks and calls do not run). It is what the user
 * would write as {@code Vec v; if (c) v = a; else v = b;}, which {@link RecordLocals} lowers
 * the same way; a chain {@code c0 ? a : c1 ? b : d} nests, its false operand lowered in the
 * else block. Apart from {@link ConditionalLowering}, which chooses one number: a record is
 * chosen leaf by leaf.
 */
final class RecordChoices {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final RecordLowering records;
  private final IrBuilder ir;

  RecordChoices(LoweringContext context, ExpressionLowering expressions,
      RecordLowering records) {
    this.context = context;
    this.expressions = expressions;
    this.records = records;
    this.ir = context.ir();
  }

  /**
   * The value record both operands of {@code choice} give, when they give the same one; empty
   * otherwise (a {@code null} operand, or an object).
   */
  Optional<TypeElement> typeOf(ConditionalExpressionTree choice) {
    Optional<TypeElement> whenTrue = records.typeOf(choice.getTrueExpression());
    return whenTrue.isPresent() && whenTrue.equals(records.typeOf(choice.getFalseExpression()))
        ? whenTrue : Optional.empty();
  }

  /** The value of {@code choice} ({@link #typeOf} is present); null after an error. */
  Tuple lower(ConditionalExpressionTree choice) {
    TypeElement record = typeOf(choice).orElseThrow();
    Operand condition = expressions.lower(choice.getCondition());
    ir.openBlock();
    Tuple whenTrue = records.lower(choice.getTrueExpression());
    Block trueBlock = ir.closeBlock();
    ir.openBlock();
    Tuple whenFalse = records.lower(choice.getFalseExpression());
    Block falseBlock = ir.closeBlock();
    if (condition == null || whenTrue == null || whenFalse == null) {
      return null;
    }
    List<ValueRecords.Leaf> leaves = ValueRecords.leaves(record);
    List<Variable> chosen = new ArrayList<>();
    List<Statement> storesWhenTrue = new ArrayList<>(trueBlock.statements());
    List<Statement> storesWhenFalse = new ArrayList<>(falseBlock.statements());
    for (int i = 0; i < leaves.size(); i++) {
      ValueRecords.Leaf leaf = leaves.get(i);
      Variable variable = ir.variable("chosen" + leaf.suffix(), leaf.type(), null);
      if (leaf.type() == NumericType.OBJECT) {
        // a component that carries nothing, of an object type: declared with its own type
        variable.declareAs(leaf.declared(),
            context.javaTypes().javaText(leaf.declared()).orElse("Object"));
      }
      ir.add(new Declare(variable, Operand.Constant.zero(leaf.type()), context.line()));
      storesWhenTrue.add(new Store(variable, whenTrue.leaves().get(i), context.line()));
      storesWhenFalse.add(new Store(variable, whenFalse.leaves().get(i), context.line()));
      chosen.add(variable);
    }
    ir.add(new If(ir.nextStatementId(), condition, new Block(storesWhenTrue),
        new Block(storesWhenFalse), context.line()));
    return new Tuple(record, chosen.stream()
        .<Operand>map(variable -> new Operand.Use(context.readVariable(variable))).toList());
  }
}
