package ad4j.processor.front;

import ad4j.processor.ir.Callee;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * Lowers calls on objects: {@code receiver.name(arguments)} differentiated where the method is
 * an instance {@code @Differentiable} one (a value record's taking its receiver flattened), by
 * its rules where it has {@code @DerivativeOf} rules and a derivative flows in, else run as
 * written ({@link ObjectValues}); and calls of function values whose code is not known. Apart
 * from {@link CallLowering}, which tells what a call names, because here the receiver is a
 * value.
 */
final class InstanceCalls {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final CallLowering calls;
  private final ObjectValues objects;
  private final RecordLowering records;

  InstanceCalls(LoweringContext context, ExpressionLowering expressions, CallLowering calls,
      ObjectValues objects) {
    this.context = context;
    this.expressions = expressions;
    this.calls = calls;
    this.objects = objects;
    this.records = expressions.records();
  }

  /**
   * A call of a function value whose code is not known, with arguments that carry no
   * derivative: it runs as written, as a call on an object in a field or a local does.
   */
  Operand unknownFunctionCall(MemberSelectTree member, MethodInvocationTree invocation,
      String shown, List<Operand> arguments) {
    Optional<VariableElement> field = calls.inactiveCalls().receiverField(member.getExpression());
    boolean ownField = member.getExpression() instanceof IdentifierTree name
        && context.resolution().ownInstanceField(name.getName().toString()).isPresent();
    if (field.isPresent() && !ownField) {
      // a static field's object, or a field the method cannot reach (the error says which)
      return calls.inactiveCalls().lowerOnField(field.get(), member.getIdentifier().toString(),
          arguments, invocation, shown, calls.isDiscarded(invocation));
    }
    Operand receiver = expressions.lower(member.getExpression());
    return receiver == null ? null : objects.call(receiver, member.getIdentifier().toString(),
        arguments, invocation, shown, calls.isDiscarded(invocation));
  }

  /** {@code receiver.name(arguments)} on an object or a string, run as written. */
  Operand instanceCall(MemberSelectTree member, MethodInvocationTree invocation,
      String shown) {
    boolean isDiscarded = calls.isDiscarded(invocation);
    Operand receiver = expressions.lower(member.getExpression());
    List<Operand> arguments = calls.lowerAll(invocation);
    if (receiver == null || arguments == null) {
      return null;
    }
    if (!invocation.getTypeArguments().isEmpty()) {
      unsupported(invocation, "call to '" + shown + "' with type arguments is not supported");
      return null;
    }
    if (receiver.type().isArray() && member.getIdentifier().contentEquals("clone")
        && arguments.isEmpty()) {
      return expressions.cloneOf(invocation, receiver); // 'rows.get(0).clone()'
    }
    if (!receiver.type().isReference()) {
      unsupported(invocation, "call to '" + shown + "': '"
          + context.source().of(member.getExpression()) + "' has type '"
          + receiver.type().keyword() + "', which has no methods");
      return null;
    }
    String name = member.getIdentifier().toString();
    Optional<javax.lang.model.type.TypeMirror> type = context.javaTypes().referenceTypeOf(receiver);
    if (type.isPresent() && type.get() instanceof javax.lang.model.type.DeclaredType declared) {
      return callOnObject(receiver, (TypeElement) declared.asElement(), name, arguments,
          invocation, shown);
    }
    return objects.call(receiver, name, arguments, invocation, shown, isDiscarded);
  }

  /**
   * {@code receiver.name(arguments)} on an object of {@code type}: differentiated when the
   * method is an instance {@code @Differentiable} one, by its rules when it has
   * {@code @DerivativeOf} rules and a derivative flows in, else run as written.
   */
  Operand callOnObject(Operand receiver, TypeElement type, String name,
      List<Operand> arguments, MethodInvocationTree invocation, String shown) {
    ExecutableElement method = context.javaTypes().referenceTypeOf(receiver)
        .filter(mirror -> mirror instanceof javax.lang.model.type.DeclaredType)
        .map(mirror -> CallChoices.chooseOn(context,
            (javax.lang.model.type.DeclaredType) mirror, name, arguments))
        .orElse(null);
    if (method != null && Receivers.hasReceiver(method)
        && CalleeResolver.isDifferentiable(method)) {
      List<Operand> all = new ArrayList<>();
      all.add(receiver);
      all.addAll(arguments);
      Optional<TypeElement> record = Receivers.valueRecordReceiver(method);
      if (record.isPresent()) {
        // a value record's method on one held as an object (a field's): its members take
        // the receiver flattened, read here from the object
        return recordMethodCall(record.get(), method, all, invocation, shown);
      }
      Optional<Callee> callee = calls.callees().resolveOnReceiver(type, method, all, invocation,
          shown);
      if (callee.isEmpty()) {
        return null;
      }
      // the value records it takes, flattened
      List<Operand> flat = records.acrossCalls().spread(callee.get(), all, 1, invocation,
          calls.differentiableCalls().asWritten(method, type, all.size(), true));
      if (flat == null) {
        return null;
      }
      return differentiableCall(callee.get(), flat, NumericType.DOUBLE);
    }
    if (calls.ruledCalls().hasInstanceRules(type, name)
        && arguments.stream().anyMatch(a -> a.isActive() || ArrayLowering.isActiveArray(a))) {
      // a method with @DerivativeOf rules, on an object of this method's
      return calls.ruledCalls().lowerOnObject(receiver, type, name, arguments, invocation, shown,
          receiverText(invocation));
    }
    return objects.call(receiver, name, arguments, invocation, shown,
        calls.isDiscarded(invocation));
  }

  /**
   * A call of {@code @Differentiable} method {@code method} of value record {@code record} that
   * {@link RecordLowering} does not inline: its generated members, which take an instance
   * method's receiver first, flattened as they take a record parameter. {@code arguments}: the
   * receiver (of an instance method), then the arguments, records standing in placeholders.
   */
  Operand recordMethodCall(TypeElement record, ExecutableElement method,
      List<Operand> arguments, MethodInvocationTree invocation, String shown) {
    Optional<Callee> callee = calls.callees().resolveOnReceiver(record, method, arguments,
        invocation, shown);
    if (callee.isEmpty()) {
      return null;
    }
    boolean receiver = Receivers.hasReceiver(method);
    List<Operand> flat = records.acrossCalls().spread(callee.get(), arguments, receiver ? 1 : 0,
        invocation, calls.differentiableCalls().asWritten(method, record, arguments.size(),
            receiver && context.flatRecords().recordOf(arguments.get(0)).isEmpty()));
    if (flat == null) {
      return null;
    }
    return differentiableCall(callee.get(), flat, callee.get().resultType());
  }

  /** The call of {@code callee}'s members on {@code flat}; a scalar result is of {@code type}. */
  private Operand differentiableCall(Callee callee, List<Operand> flat, NumericType type) {
    if (callee.returnsArray()) {
      return calls.differentiableCalls().vectorCall(callee, flat);
    }
    boolean active = flat.stream().anyMatch(a -> a.isActive() || ArrayLowering.isActiveArray(a));
    return context.emit(Operation.call(callee), flat, type, active);
  }

  /** The receiver a call names: {@code p} of {@code p.g(x)}, {@code this} of {@code g(x)}. */
  private String receiverText(MethodInvocationTree invocation) {
    return invocation.getMethodSelect() instanceof MemberSelectTree member
        ? context.source().of(member.getExpression()) : Receivers.THIS;
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
