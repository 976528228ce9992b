package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.TypeElement;

/**
 * Lowers a function's body in place: a lambda's, an anonymous class's method, a template's
 * ({@link FunctionTemplates}), with its parameters bound to the caller's values in the scope
 * the code was written in, and each {@code return} storing into a result (a number, the leaves
 * of a value record, or the array it made). Apart from {@link FunctionValues}, which decides
 * what function a call applies, because binding and returning are the same for every kind of
 * code inlined.
 */
final class InlinedBodies {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final FunctionValues functions;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;

  InlinedBodies(LoweringContext context, ExpressionLowering expressions,
      FunctionValues functions) {
    this.context = context;
    this.expressions = expressions;
    this.functions = functions;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
  }

  /**
   * {@code body}, lowered in the scope {@code function} was written in, with its parameters
   * {@code names} bound to {@code values}.
   */
  Operand withBound(FunctionValues.Known function, List<String> names, List<Operand> values,
      java.util.function.Supplier<Operand> body) {
    LoweringContext.Position position = context.position();
    java.util.Deque<Map<String, LocalScopes.Local>> saved =
        context.scopes().enter(function.captured());
    try {
      context.scopes().push();
      context.bindingsStartHere(); // a pattern in a lambda's expression is scoped in it
      for (int i = 0; i < values.size(); i++) {
        declareBound(names.get(i), function.signature().parameters().get(i), values.get(i));
        String name = names.get(i);
        if (function.signature().boxedParameters().get(i) && !name.isEmpty()
            && !name.equals("_") && context.scopes().lookUp(name) != null) {
          context.scopes().lookUp(name).markJavaBox(); // a Double in Java, a double here
        }
      }
      // its unqualified names are those of the record method it was written in, if any, not
      // those of a record method being inlined where it is applied (a template's caller's)
      return expressions.records().lowerAs(function.frame(), body);
    } finally {
      context.scopes().leave(saved);
      context.resume(position);
    }
  }

  /**
   * The value {@code body} returns, lowered here, each {@code return} storing into a variable
   * {@code name} of {@code type}; an error at {@code at}, {@code withoutReturn}, when its end
   * can be reached. Null after an error.
   */
  Operand returnedBy(List<? extends StatementTree> body, String name, NumericType type,
      Tree at, String withoutReturn) {
    Variable result = ir.variable(name, type, null);
    ir.add(new Declare(result, Operand.Constant.zero(type), context.line()));
    int errors = diagnostics.errorCount();
    Returns stores = returned -> {
      Operand value = expressions.lower(returned);
      if (value != null && expressions.conversions().assignable(value, type, returned)) {
        ir.add(new Store(result, expressions.conversions().convert(value, type), context.line()));
      }
    };
    if (lowerTail(body, stores) && diagnostics.errorCount() == errors) {
      unsupported(at, withoutReturn);
    }
    return diagnostics.errorCount() != errors ? null
        : new Operand.Use(context.readVariable(result));
  }

  /** What a {@code return} of an inlined body does with the value it returns. */
  private interface Returns {
    /** Lowers {@code returned}, the expression of a {@code return}, and keeps its value. */
    void store(ExpressionTree returned);
  }

  /**
   * The value record {@code record} that {@code body} returns, lowered here, its leaves standing
   * in for it (a placeholder); an error at {@code at}, {@code withoutReturn}, when its end can
   * be reached. A body that returns once, as its last statement, gives the leaves of the record
   * it returns as they are; one with more {@code return}s stores them into a variable per leaf
   * ({@code name} and the leaf's suffix), as {@link #returnedBy} stores a number. Null after an
   * error.
   */
  Operand returnedRecord(List<? extends StatementTree> body, String name,
      TypeElement record, Tree at, String withoutReturn) {
    if (returnsOnceAtTheEnd(body)) {
      ReturnTree last = (ReturnTree) body.get(body.size() - 1);
      if (!beforeTheReturn(body)) {
        return null;
      }
      RecordLowering.Tuple value = returnedRecord(last.getExpression(), record);
      return value == null ? null : context.flatRecords().recordPlaceholder(value);
    }
    List<ValueRecords.Leaf> leaves = ValueRecords.leaves(record);
    if (leaves.stream().anyMatch(leaf -> leaf.type().isReference() || leaf.type().isArray())) {
      unsupported(at, "value record '" + record.getSimpleName() + "' is returned by more than"
          + " one 'return' here, which ad4j supports for records of numbers and booleans only;"
          + " return once, at the end");
      return null;
    }
    List<Variable> variables = new ArrayList<>();
    for (ValueRecords.Leaf leaf : leaves) {
      Variable variable = ir.variable(name + leaf.suffix(), leaf.type(), null);
      ir.add(new Declare(variable, Operand.Constant.zero(leaf.type()), context.line()));
      variables.add(variable);
    }
    int errors = diagnostics.errorCount();
    Returns stores = returned -> {
      RecordLowering.Tuple value = returnedRecord(returned, record);
      for (int i = 0; value != null && i < variables.size(); i++) {
        ir.add(new Store(variables.get(i), value.leaves().get(i), context.line()));
      }
    };
    if (lowerTail(body, stores) && diagnostics.errorCount() == errors) {
      unsupported(at, withoutReturn);
    }
    if (diagnostics.errorCount() != errors) {
      return null;
    }
    List<Operand> values = new ArrayList<>();
    for (Variable variable : variables) {
      values.add(new Operand.Use(context.readVariable(variable)));
    }
    return context.flatRecords().recordPlaceholder(new RecordLowering.Tuple(record, values));
  }

  /** The value record {@code record} that {@code returned} gives; null after an error. */
  RecordLowering.Tuple returnedRecord(ExpressionTree returned, TypeElement record) {
    Optional<TypeElement> type = expressions.records().typeOf(returned);
    if (type.isEmpty() || !type.get().equals(record)) {
      unsupported(returned, "'" + context.source().of(returned) + "' is returned where value"
          + " record '" + record.getSimpleName() + "' is, which ad4j returns from a function"
          + " flattened: return a record made or held in the method (a local, a parameter,"
          + " 'new', a call of the record's methods)");
      return null;
    }
    return expressions.records().lower(returned);
  }

  /**
   * The array of {@code type} that {@code body}, of a method taking a function, returns,
   * lowered here: the body must return once, as its last statement, an array it made (its
   * local, a clone), never one of {@code bound}, the arguments, which the caller holds already,
   * nor one it must not write, so that the caller gets an array of its own, as from a call.
   * Null after an error.
   */
  Operand returnedArray(List<? extends StatementTree> body, NumericType type,
      List<Object> bound, MethodTree method, String withoutReturn) {
    if (!returnsOnceAtTheEnd(body)) {
      unsupported(body.isEmpty() || containsReturn(body.get(body.size() - 1)) ? method
          : body.get(body.size() - 1), body.stream().anyMatch(InlinedBodies::containsReturn)
          ? "'" + method.getName() + "' takes a function and returns '" + type.keyword() + "',"
              + " which ad4j inlines where it is called when it returns once, as its last"
              + " statement: compute the result into one local array and return it at the end"
          : withoutReturn);
      return null;
    }
    ReturnTree last = (ReturnTree) body.get(body.size() - 1);
    if (!beforeTheReturn(body)) {
      return null;
    }
    Operand value = expressions.lower(last.getExpression());
    if (value == null) {
      return null;
    }
    boolean passed = value instanceof Operand.Use use && bound.stream().anyMatch(argument ->
        argument instanceof Operand.Use given && given.value() == use.value());
    if (!(value instanceof Operand.Use use) || value.type() != type || passed
        || context.arrays().isReadOnly(use.value())) {
      String shown = context.source().of(last.getExpression());
      unsupported(last.getExpression(), "'" + shown + "' is an array that the caller of '"
          + method.getName() + "' holds already, or one it must not write, and ad4j inlines '"
          + method.getName() + "' where it is called, so the caller would get that array, not"
          + " one of its own: return an array made in the method ('" + shown + ".clone()')");
      return null;
    }
    return value;
  }

  /** Whether {@code body} holds one {@code return}, its last statement. */
  private static boolean returnsOnceAtTheEnd(List<? extends StatementTree> body) {
    return !body.isEmpty() && body.get(body.size() - 1) instanceof ReturnTree last
        && last.getExpression() != null
        && body.subList(0, body.size() - 1).stream().noneMatch(InlinedBodies::containsReturn);
  }

  /**
   * Lowers the statements of {@code body} before its final {@code return}, and starts the
   * {@code return}'s statement; false, after an error, when they cannot complete.
   */
  private boolean beforeTheReturn(List<? extends StatementTree> body) {
    ReturnTree last = (ReturnTree) body.get(body.size() - 1);
    int errors = diagnostics.errorCount();
    if (!functions.lowerStatements(body.subList(0, body.size() - 1))) {
      if (diagnostics.errorCount() == errors) {
        diagnostics.error(last, "unreachable statement");
      }
      return false;
    }
    if (diagnostics.errorCount() != errors) {
      return false;
    }
    context.startStatement(last);
    return true;
  }

  void declareBound(String name, NumericType type, Operand value) {
    if (name.isEmpty() || name.equals("_")) {
      return;
    }
    Optional<RecordLowering.Tuple> record = context.flatRecords().recordOf(value);
    if (record.isPresent()) {
      // a value record: a record local whose leaves are the argument's, as a record's own
      // inlined method binds the records passed to it
      expressions.records().locals().declareLocal(name, record.get().type(), record.get());
      return;
    }
    // an object, a stream's element: a local of its own type, whose methods are called
    javax.lang.model.type.TypeMirror object = type == NumericType.OBJECT
        ? context.javaTypes().referenceTypeOf(value).orElse(null) : null;
    context.scopes().declareLocal(name, type, object, object == null ? null
        : context.javaTypes().javaText(object).orElse("Object"), context);
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local.variable() != null) {
      ir.add(new Declare(local.variable(), value, context.line()));
    } else {
      context.bind(local, value);
    }
  }

  /**
   * The statements of a lambda's block body, each {@code return} storing into {@code result}.
   * A {@code return} may end the body, a block or a branch of an {@code if}: the statements
   * after an {@code if} whose branch returns are lowered into each branch that goes on (no
   * jump is needed to skip them), so the lambda's value is stored on every path. Returns
   * whether the end can be reached.
   */
  private boolean lowerTail(List<? extends StatementTree> body, Returns result) {
    for (int i = 0; i < body.size(); i++) {
      StatementTree statement = body.get(i);
      List<? extends StatementTree> rest = body.subList(i + 1, body.size());
      if (statement instanceof ReturnTree ret) {
        if (!rest.isEmpty()) {
          diagnostics.error(rest.get(0), "unreachable statement");
          return false;
        }
        context.startStatement(ret);
        if (ret.getExpression() == null) {
          unsupported(ret, "'return' without a value in a lambda that returns a value");
          return false;
        }
        result.store(ret.getExpression());
        return false;
      }
      if (!containsReturn(statement)) {
        if (!functions.lowerStatements(List.of(statement))) {
          if (!rest.isEmpty()) {
            diagnostics.error(rest.get(0), "unreachable statement");
          }
          return false;
        }
        continue;
      }
      if (statement instanceof BlockTree block) {
        context.scopes().push();
        boolean completes = lowerTail(block.getStatements(), result);
        context.scopes().pop();
        return completes && lowerTail(rest, result);
      }
      if (statement instanceof IfTree branch) {
        context.startStatement(branch);
        Operand condition = expressions.lower(branch.getCondition());
        if (condition != null && condition.type() != NumericType.BOOLEAN) {
          unsupported(branch.getCondition(), "the condition must be a boolean");
          condition = null;
        }
        ad4j.processor.ir.SourceLine line = context.line();
        boolean thenCompletes = branch(branch.getThenStatement(), rest, result);
        Block thenBlock = ir.closeBlock();
        boolean elseCompletes = branch(branch.getElseStatement(), rest, result);
        Block elseBlock = ir.closeBlock();
        if (condition != null) {
          ir.add(new If(ir.nextStatementId(), condition, thenBlock, elseBlock, line));
        }
        return thenCompletes || elseCompletes;
      }
      unsupported(statement, "a 'return' of a lambda or of a method taking a function inside "
          + ExpressionLowering.describe(statement) + " is not supported: ad4j inlines such code"
          + " where it is called; return at the end of the body or of the branches of an 'if',"
          + " after the loop or switch (assign the value to a local inside it)");
      return false;
    }
    return true;
  }

  /** One branch of an {@code if} in a lambda, then {@code rest}, in a new block left open. */
  private boolean branch(StatementTree statement, List<? extends StatementTree> rest,
      Returns result) {
    ir.openBlock();
    context.scopes().push();
    boolean completes = statement == null || lowerTail(List.of(statement), result);
    context.scopes().pop();
    return completes && lowerTail(rest, result);
  }

  /** Whether {@code statement} holds a {@code return} of the lambda (not of a nested one). */
  private static boolean containsReturn(StatementTree statement) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitReturn(ReturnTree tree, Void unused) {
        found[0] = true;
        return null;
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree tree, Void unused) {
        return null;
      }

      @Override
      public Void visitClass(ClassTree tree, Void unused) {
        return null;
      }
    }.scan(statement, null);
    return found[0];
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
