package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Throw;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import java.util.ArrayList;
import java.util.List;

/**
 * The sources of the stream pipelines {@link StreamLowering} lowers: what elements
 * {@code Arrays.stream(a)}, {@code Arrays.stream(a, from, to)}, {@code DoubleStream.of(...)},
 * {@code IntStream.of(...)}, {@code IntStream.range(i, j)} and {@code rangeClosed(i, j)} go
 * over, their arguments lowered and checked, and the bounds checks the JDK makes before it
 * streams a part of an array.
 *
 * <p>Apart from {@link StreamLowering} because a source is lowered before the loop exists and
 * answers only what the loop counts over, whatever the stages and the end are.
 */
final class StreamSources {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;

  StreamSources(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
  }

  /**
   * The elements a stream goes over: an array's from index 0 to its length, a range of ints
   * ({@code array} null), values listed one by one ({@code listed}), or a collection's objects
   * ({@code iterable}, walked as {@code walk} names it).
   */
  record Elements(NumericType type, Operand array, Operand from, Operand to,
      boolean closed, List<Operand> listed, Operand iterable, IterableLoops.Walk walk) {
    Elements(NumericType type, Operand array, Operand from, Operand to, boolean closed,
        List<Operand> listed) {
      this(type, array, from, to, closed, listed, null, null);
    }
  }

  Elements elements(MethodInvocationTree source) {
    String name = StreamLowering.name(source);
    ExpressionTree receiver = ((MemberSelectTree) source.getMethodSelect()).getExpression();
    if (name.equals("stream") && source.getArguments().isEmpty()) {
      // c.stream(): Arrays.stream always takes the array
      return collection(source, receiver);
    }
    List<Operand> arguments = new ArrayList<>();
    for (ExpressionTree argument : source.getArguments()) {
      arguments.add(expressions.lower(argument));
    }
    if (arguments.contains(null)) {
      return null;
    }
    String owner = context.source().of(
        ((MemberSelectTree) source.getMethodSelect()).getExpression());
    if (name.equals("range") || name.equals("rangeClosed")) {
      if (arguments.size() != 2 || !arguments.stream().allMatch(
          a -> a.type().widensTo(NumericType.INT))) {
        unsupported(source, "'" + context.source().of(source) + "' takes two 'int' bounds");
        return null;
      }
      return new Elements(NumericType.INT, null,
          expressions.conversions().convert(arguments.get(0), NumericType.INT),
          expressions.conversions().convert(arguments.get(1), NumericType.INT),
          name.equals("rangeClosed"), null);
    }
    boolean ofArray = arguments.size() == 1 && arguments.get(0).type().isArray();
    if (name.equals("stream") || ofArray) {
      boolean ranged = name.equals("stream") && arguments.size() == 3
          && arguments.get(1).type().widensTo(NumericType.INT)
          && arguments.get(2).type().widensTo(NumericType.INT);
      if (arguments.size() != 1 && !ranged || (arguments.get(0).type() != NumericType.DOUBLE_ARRAY
          && arguments.get(0).type() != NumericType.INT_ARRAY)) {
        unsupported(source, "'" + context.source().of(source) + "' is not supported: "
            + StreamLowering.SUPPORTED + " over a 'double[]' or 'int[]'");
        return null;
      }
      Operand array = arguments.get(0);
      Operand length = context.emit(Operation.LENGTH, List.of(array), NumericType.INT, false);
      if (!ranged) {
        return new Elements(array.type().elementType(), array, Operand.Constant.of(0), length,
            false, null);
      }
      Operand from = expressions.conversions().convert(arguments.get(1), NumericType.INT);
      Operand to = expressions.conversions().convert(arguments.get(2), NumericType.INT);
      checkBounds(length, from, to);
      return new Elements(array.type().elementType(), array, from, to, false, null);
    }
    NumericType type = owner.endsWith("IntStream") ? NumericType.INT : NumericType.DOUBLE;
    List<Operand> listed = new ArrayList<>();
    for (int k = 0; k < arguments.size(); k++) {
      if (!expressions.conversions()
          .assignable(arguments.get(k), type, source.getArguments().get(k))) {
        return null;
      }
      listed.add(expressions.conversions().widened(arguments.get(k), type));
    }
    return new Elements(type, null, null, null, false, listed);
  }

  /**
   * The elements of {@code receiver.stream()}, a {@code Collection} of data: its objects, in
   * its iterator's order, as Java's sequential stream gives them. Null after an error.
   */
  private Elements collection(MethodInvocationTree source, ExpressionTree receiver) {
    Operand collection = expressions.lower(receiver);
    if (collection == null) {
      return null;
    }
    if (!context.javaTypes().isObjectOf(collection,
        context.elements().getTypeElement("java.util.Collection"))) {
      unsupported(source, "'" + context.source().of(source) + "' is not supported: "
          + StreamLowering.SUPPORTED);
      return null;
    }
    String shown = context.source().of(receiver);
    return new Elements(NumericType.OBJECT, null, null, null, false, null, collection,
        new IterableLoops.Walk(source, shown, "the stream '" + shown + ".stream()'"));
  }

  /**
   * The checks {@code Arrays.stream(a, from, to)} makes before it streams anything (the JDK's
   * {@code Spliterators.checkFromToBounds}), with the same exceptions and messages, so that
   * every generated member fails where and as the method does.
   */
  private void checkBounds(Operand length, Operand from, Operand to) {
    String exception = context.javaTypes().referenceTo(
        context.elements().getTypeElement("java.lang.ArrayIndexOutOfBoundsException"));
    throwIf(Operation.infix(">"), from, to, new Throw(exception,
        List.of("\"origin(\"", from, "\") > fence(\"", to, "\")\""), true, context.line()));
    throwIf(Operation.infix("<"), from, Operand.Constant.of(0),
        new Throw(exception, List.of(), false, List.of(from), context.line()));
    throwIf(Operation.infix(">"), to, length,
        new Throw(exception, List.of(), false, List.of(to), context.line()));
  }

  /** {@code if (left comparison right) thrown}. */
  private void throwIf(Operation comparison, Operand left, Operand right, Throw thrown) {
    Operand condition = context.emit(comparison, List.of(left, right), NumericType.BOOLEAN,
        false);
    ir.openBlock();
    ir.add(thrown);
    Block then = ir.closeBlock();
    ir.add(new If(ir.nextStatementId(), condition, then, new Block(List.of()), context.line()));
  }

  private void unsupported(com.sun.source.tree.Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
