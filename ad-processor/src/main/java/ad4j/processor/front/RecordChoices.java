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
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.SwitchExpressionTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.TypeElement;

/**
 * {@code c ? a : b} and {@code switch} expressions choosing a value record ({@code p ? new
 * Vec(x, y) : v}): the record's leaves, one variable each, set in a branch that evaluates only
 * the chosen operand or case, as Java does (the other operands' constructor checks and calls
 * do not run). It is what the user would write as {@code Vec v; if (c) v = a; else v = b;},
 * which {@link RecordLocals} lowers the same way; a chain {@code c0 ? a : c1 ? b : d} nests,
 * its false operand lowered in the else block, and a switch's cases are {@link
 * SwitchLowering}'s, each storing its record's leaves. Apart from {@link ConditionalLowering},
 * which chooses one number: a record is chosen leaf by leaf.
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
    if (choosesAnArray(choice, record)) {
      return null;
    }
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
    List<Variable> chosen = leafVariables(record);
    List<Statement> storesWhenTrue = new ArrayList<>(trueBlock.statements());
    List<Statement> storesWhenFalse = new ArrayList<>(falseBlock.statements());
    for (int i = 0; i < chosen.size(); i++) {
      Variable variable = chosen.get(i);
      ir.add(new Declare(variable, Operand.Constant.zero(variable.type()), context.line()));
      storesWhenTrue.add(new Store(variable, whenTrue.leaves().get(i), context.line()));
      storesWhenFalse.add(new Store(variable, whenFalse.leaves().get(i), context.line()));
    }
    ir.add(new If(ir.nextStatementId(), condition, new Block(storesWhenTrue),
        new Block(storesWhenFalse), context.line()));
    return read(record, chosen);
  }

  /**
   * The value record the cases of {@code choice} yield: the one every case whose value has a
   * type here yields, when there is one. A case may yield a local its own block declares,
   * which has none until its case is lowered ({@link #lower} checks it then).
   */
  Optional<TypeElement> typeOf(SwitchExpressionTree choice) {
    Optional<TypeElement> found = Optional.empty();
    List<ExpressionTree> values = new ArrayList<>();
    for (ExpressionTree yielded : expressions.switches().yielded(choice)) {
      chosenOperands(yielded, values);
    }
    for (ExpressionTree value : values) {
      Optional<TypeElement> type = records.typeOf(value);
      if (type.isEmpty() && !isUndeclaredName(value)) {
        return Optional.empty(); // null, an object: not a value record
      }
      if (type.isPresent() && found.isPresent() && !type.equals(found)) {
        return Optional.empty();
      }
      found = found.or(() -> type);
    }
    return found;
  }

  /**
   * The operands {@code yielded} may give, into {@code operands}: both operands of a {@code
   * ?:} (of nested ones too), else {@code yielded} itself. A case's {@code c ? w : new Vec(...)}
   * may choose a local its block declares, which has no type before its case is lowered.
   */
  private static void chosenOperands(ExpressionTree yielded, List<ExpressionTree> operands) {
    if (ExpressionLowering.withoutParentheses(yielded)
        instanceof ConditionalExpressionTree conditional) {
      chosenOperands(conditional.getTrueExpression(), operands);
      chosenOperands(conditional.getFalseExpression(), operands);
    } else {
      operands.add(yielded);
    }
  }

  /**
   * The value of {@code choice} ({@link #typeOf} is present), its cases lowered as those of a
   * switch expression yielding a number are, each storing the leaves of the record it yields;
   * null after an error.
   */
  Tuple lower(SwitchExpressionTree choice) {
    TypeElement record = typeOf(choice).orElseThrow();
    if (choosesAnArray(choice, record)) {
      return null;
    }
    List<Variable> chosen = leafVariables(record);
    boolean lowered = expressions.switches().expressionInto(choice, chosen, yielded -> {
      Optional<TypeElement> type = records.typeOf(yielded);
      Tuple value = type.isPresent() ? records.lower(yielded) : null;
      if (value != null && value.type().equals(record)) {
        return value.leaves();
      }
      if (value != null || type.isEmpty()) { // not after an error lowering it
        context.diagnostics().error(yielded, "'" + context.source().of(yielded) + "' is"
            + " yielded where this 'switch' chooses a value record '"
            + record.getSimpleName() + "': every case must yield one");
      }
      return null;
    });
    return lowered ? read(record, chosen) : null;
  }

  /**
   * The first leaf of {@code record} that is a {@code double[]}, whose elements carry
   * derivatives: ad4j binds an array variable to one array at each point of the code, so such a
   * leaf cannot be a variable set in branches, as a choice's or a record local's assigned in a
   * branch or loop would be (its derivatives were lost: the elements' reached nothing).
   */
  static Optional<ValueRecords.Leaf> arrayLeaf(TypeElement record) {
    return ValueRecords.leaves(record).stream()
        .filter(leaf -> leaf.type() == NumericType.DOUBLE_ARRAY).findFirst();
  }

  /** Reports {@code choice} when {@code record} has an {@link #arrayLeaf}. */
  private boolean choosesAnArray(ExpressionTree choice, TypeElement record) {
    Optional<ValueRecords.Leaf> array = arrayLeaf(record);
    array.ifPresent(leaf -> context.diagnostics().error(choice, "a '?:' or 'switch' cannot"
        + " choose value record '" + record.getSimpleName() + "', whose component '"
        + leaf.accessors() + "' is a 'double[]': a differentiable method binds an array to one"
        + " array at each point of the code; choose the components instead (the array's elements"
        + " one by one into a new array) and make one record of them"));
    return array.isPresent();
  }

  /**
   * Whether {@code expression} is a simple name no local, field or constant has here, or a
   * call of a method of one ({@code w.scaled(2)}): a local its case declares, typed when the
   * case is lowered.
   */
  private boolean isUndeclaredName(ExpressionTree expression) {
    ExpressionTree bare = ExpressionLowering.withoutParentheses(expression);
    if (bare instanceof MethodInvocationTree call
        && call.getMethodSelect() instanceof MemberSelectTree select) {
      return isUndeclaredName(select.getExpression());
    }
    return bare instanceof IdentifierTree name
        && context.scopes().lookUp(name.getName().toString()) == null
        && context.symbols().resolveField(name.getName().toString()).isEmpty();
  }

  /** One variable per leaf of {@code record}, not yet declared. */
  private List<Variable> leafVariables(TypeElement record) {
    List<Variable> variables = new ArrayList<>();
    for (ValueRecords.Leaf leaf : ValueRecords.leaves(record)) {
      Variable variable = ir.variable("chosen" + leaf.suffix(), leaf.type(), null);
      if (leaf.type() == NumericType.OBJECT) {
        // a component that carries nothing, of an object type: declared with its own type
        variable.declareAs(leaf.declared(),
            context.javaTypes().javaText(leaf.declared()).orElse("Object"));
      }
      variables.add(variable);
    }
    return variables;
  }

  private Tuple read(TypeElement record, List<Variable> chosen) {
    return new Tuple(record, chosen.stream()
        .<Operand>map(variable -> new Operand.Use(context.readVariable(variable))).toList());
  }
}
