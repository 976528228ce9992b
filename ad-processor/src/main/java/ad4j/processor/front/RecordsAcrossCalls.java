package ad4j.processor.front;

import ad4j.processor.front.RecordLowering.Frame;
import ad4j.processor.front.RecordLowering.Tuple;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Value;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * Value records crossing calls of {@code @Differentiable} methods: a record argument passed as
 * its leaves (or, for a callee run as written, as the record), and a record a callee returns
 * taken from the elements of its members' {@code double[]}. Apart from {@link RecordLowering}
 * because what crosses a call follows the callee's signature and how it is called, not the
 * record's own code.
 */
final class RecordsAcrossCalls {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final RecordLowering records;
  /** The record methods being inlined, innermost first: {@link RecordLowering}'s. */
  private final Deque<Frame> frames;

  RecordsAcrossCalls(LoweringContext context, ExpressionLowering expressions,
      RecordLowering records, Deque<Frame> frames) {
    this.context = context;
    this.expressions = expressions;
    this.records = records;
    this.frames = frames;
  }

  /**
   * The value record a call of {@code @Differentiable} methods returns ({@code step(p, v)}):
   * every method the call may choose among, named as it names them and taking as many
   * arguments, is one returning the same value record. Its members return the leaves.
   */
  Optional<TypeElement> calleeRecord(MethodInvocationTree invocation) {
    ExpressionTree select = invocation.getMethodSelect();
    String name;
    Symbols.CallTarget target;
    if (select instanceof IdentifierTree identifier) {
      name = identifier.getName().toString();
      target = context.symbols().resolveUnqualifiedCall(name);
    } else if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())
        && context.scopes().lookUp(RecordMethodCalls.rootName(member.getExpression())) == null) {
      name = member.getIdentifier().toString();
      target = context.symbols().resolveQualifiedCall(member.getExpression());
    } else {
      return Optional.empty();
    }
    if (!(target instanceof Symbols.CallTarget.OtherMethod other)) {
      return Optional.empty();
    }
    List<ExecutableElement> candidates = CallChoices.candidates(context, other.owner(), name)
        .stream().filter(m -> m.getParameters().size() == invocation.getArguments().size())
        .toList();
    Optional<TypeElement> record = candidates.isEmpty() ? Optional.empty()
        : ValueRecords.valueRecord(candidates.get(0).getReturnType());
    for (ExecutableElement candidate : candidates) {
      if (!CalleeResolver.isDifferentiable(candidate)
          || !ValueRecords.valueRecord(candidate.getReturnType()).equals(record)) {
        return Optional.empty();
      }
    }
    return record;
  }

  /**
   * A call of a {@code @Differentiable} method returning a value record ({@link #calleeRecord}):
   * the elements of the {@code double[]} of leaves its members give; null after an error.
   */
  Tuple calleeResult(MethodInvocationTree invocation, TypeElement record) {
    Operand array = expressions.lower(invocation);
    return array == null ? null : leavesOf(array, record, invocation);
  }

  /**
   * The value record {@code record} that {@code array}, the result of a call of a
   * {@code @Differentiable} method returning it, gives: the elements of its {@code double[]} of
   * leaves; null after an error.
   */
  Tuple leavesOf(Operand array, TypeElement record, MethodInvocationTree invocation) {
    Optional<Tuple> inlined = context.flatRecords().recordOf(array);
    if (inlined.isPresent()) {
      return inlined.get(); // a method taking a function, inlined (FunctionValues)
    }
    if (array.type() != NumericType.DOUBLE_ARRAY) {
      error(invocation, "'" + context.source().of(invocation) + "' is not supported yet for a"
          + " value record");
      return null;
    }
    boolean active = array instanceof Operand.Use use && use.value().isActiveArray();
    List<ValueRecords.Leaf> types = ValueRecords.leaves(record);
    // the leaves that carry no derivative: the caller's arguments the method returns them from
    List<Operand> carried = array instanceof Operand.Use use
        ? context.flatRecords().carriedByCall(use.value()).orElse(List.of()) : List.of();
    if (carried.size() != types.stream().filter(leaf -> !leaf.active()).count()) {
      error(invocation, "'" + context.source().of(invocation) + "' is not supported yet for a"
          + " value record with components that carry no derivative");
      return null;
    }
    List<Operand> leaves = new ArrayList<>();
    int element = 0;
    int passed = 0;
    for (ValueRecords.Leaf leaf : types) {
      if (!leaf.active()) {
        leaves.add(carried.get(passed++));
        continue;
      }
      Operand read = context.emit(ad4j.processor.ir.Operation.ELEMENT,
          List.of(array, Operand.Constant.of(element++)), NumericType.DOUBLE, active);
      // a float leaf: the double it was widened to, exactly
      leaves.add(expressions.conversions().convert(read, leaf.type()));
    }
    return new Tuple(record, leaves);
  }

  /**
   * Whether {@code argument} is a flattened record value ({@link RecordLowering#typeOf}), not a
   * record held as an object (a {@code @NoDerivative} one), which is passed as it is.
   */
  boolean isFlattened(ExpressionTree argument) {
    if (records.typeOf(argument).isEmpty()) {
      return false;
    }
    ExpressionTree inner = argument;
    while (inner instanceof ParenthesizedTree parenthesized) {
      inner = parenthesized.getExpression();
    }
    if (inner instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      LocalScopes.Local local = context.scopes().lookUp(name);
      if (local != null) {
        return local.valueRecord() != null;
      }
      Frame frame = frames.peek();
      // this or a component of an inlined method's receiver; else a constant, an object
      return frame != null && frame.receiver() != null && (name.equals("this")
          || ValueRecords.componentRecord(frame.record(), name).isPresent());
    }
    if (inner instanceof MemberSelectTree select) {
      // else Constants.GRAVITY, an object
      return records.typeOf(select.getExpression()).isPresent();
    }
    return true;
  }

  /** A flattened record argument's stand-in while the method is chosen; null after error. */
  Operand placeholder(ExpressionTree argument) {
    Tuple value = records.lower(argument);
    return value == null ? null : context.flatRecords().recordPlaceholder(value);
  }

  /**
   * The arguments of {@code call} of {@code callee} as its members take them: each value record
   * its members take flattened as its leaves (a record held as an object read through its
   * accessors); null after an error (a flattened record where the callee takes an object).
   * {@code receivers}: 1 when the first of {@code arguments} is the receiver, which is not among
   * the call's argument trees.
   */
  List<Operand> spread(ad4j.processor.ir.Callee callee, List<Operand> arguments,
      int receivers, MethodInvocationTree call) {
    return spread(callee, arguments, receivers, call, Optional.empty());
  }

  /**
   * As {@link #spread(ad4j.processor.ir.Callee, List, int, MethodInvocationTree)}, where
   * generated code may call the callee as written, by {@code asWritten} on {@code arguments}
   * ({@code Owner.g(...)}, {@code o.g(...)}): a record held as an object may then be null
   * where the callee does not read it ({@link ObjectRecordArguments}), when the call passes no
   * record made in the method.
   */
  List<Operand> spread(ad4j.processor.ir.Callee callee, List<Operand> arguments,
      int receivers, MethodInvocationTree call,
      Optional<ad4j.processor.ir.Operation> asWritten) {
    boolean onlyObjects = arguments.stream()
        .noneMatch(a -> context.flatRecords().recordOf(a).isPresent());
    List<ObjectRecordArguments.Pending> pending = new ArrayList<>();
    List<Operand> flat = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      Operand argument = arguments.get(i);
      int at = flat.size();
      boolean flattened = callee.records().stream().anyMatch(r -> r.first() == at);
      Optional<Tuple> tuple = context.flatRecords().recordOf(argument);
      Optional<TypeElement> record = context.javaTypes().referenceTypeOf(argument)
          .flatMap(ValueRecords::valueRecord);
      // the receiver's tree is the call's qualifier: rec of this.rec.m(x); the array a call of
      // a variable arity method makes for no arguments, v(x) of v(double x, double... r), the call
      ExpressionTree tree = i >= receivers && i - receivers < call.getArguments().size()
          ? call.getArguments().get(i - receivers) : i >= receivers ? call
          : call.getMethodSelect() instanceof MemberSelectTree select ? select.getExpression()
          : call;
      if (!flattened && tuple.isPresent()) {
        records.locals().misused(tree, context.source().of(tree));
        return null;
      } else if (!flattened) {
        flat.add(argument);
      } else if (tuple.isPresent()) {
        flat.addAll(tuple.get().leaves());
      } else if (record.isPresent() && asWritten.isPresent() && onlyObjects
          && i >= receivers && ObjectRecordArguments.zeroable(record.get())) {
        // read below, where a null record is not read
        pending.add(new ObjectRecordArguments.Pending(at, argument, record.get(), tree));
        for (int k = 0; k < ValueRecords.leaves(record.get()).size(); k++) {
          flat.add(null);
        }
      } else if (record.isPresent()) {
        Tuple read = records.ofObject(argument, record.get(), tree);
        if (read == null) {
          return null;
        }
        flat.addAll(read.leaves());
      } else {
        error(tree, "'" + context.source().of(tree) + "' is passed where '" + callee.name()
            + "' takes a value record, which ad4j passes flattened: pass a record");
        return null;
      }
    }
    if (!pending.isEmpty()) {
      List<List<Operand>> read = new ObjectRecordArguments(context).read(pending,
          asWritten.get(), arguments, records::ofObject);
      if (read == null) {
        return null;
      }
      for (int k = 0; k < pending.size(); k++) {
        List<Operand> leaves = read.get(k);
        for (int j = 0; j < leaves.size(); j++) {
          flat.set(pending.get(k).at() + j, leaves.get(j));
        }
      }
    }
    return flat;
  }

  private void error(Tree at, String message) {
    context.diagnostics().error(at, message);
  }
}
