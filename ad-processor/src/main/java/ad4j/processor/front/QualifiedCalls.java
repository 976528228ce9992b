package ad4j.processor.front;

import ad4j.processor.ir.Operand;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.VariableElement;

/**
 * Lowers a call {@code receiver.name(...)} by what its receiver is, in the order Java reads a
 * name (a variable before a class): {@code this} or {@code super}, a component or field of the
 * object the method runs on, a static field's object, a variable, a local's field, a class, or
 * what an expression gives.
 *
 * <p>Apart from {@link CallLowering}, which tells the forms of call that are no method's name
 * (records, arrays, streams, function values) and lowers a call of a class's method
 * ({@link CallLowering#namedCall}), which this hands back.
 */
final class QualifiedCalls {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final CallLowering calls;
  private final InstanceCalls instanceCalls;
  private final InactiveCalls inactiveCalls;
  private final RuledCalls ruledCalls;
  private final RecordLowering records;

  QualifiedCalls(LoweringContext context, ExpressionLowering expressions, CallLowering calls,
      InstanceCalls instanceCalls) {
    this.context = context;
    this.expressions = expressions;
    this.calls = calls;
    this.instanceCalls = instanceCalls;
    this.inactiveCalls = calls.inactiveCalls();
    this.ruledCalls = calls.ruledCalls();
    this.records = expressions.records();
  }

  /**
   * Lowers {@code member}'s call by what its receiver is, the first that holds in the order of
   * the class's comment (a class: a static method, {@link CallLowering#namedCall}). Null after
   * an error.
   */
  Operand call(MemberSelectTree member, MethodInvocationTree invocation,
      String shown) {
    ExpressionTree receiver = member.getExpression();
    if (receiver instanceof IdentifierTree name && name.getName().contentEquals(Receivers.THIS)
        && context.scopes().lookUp(Receivers.THIS) != null) {
      // this.g(x) in an instance method
      return instanceCalls.instanceCall(member, invocation, shown);
    }
    if (receiver instanceof IdentifierTree name && (name.getName().contentEquals("this")
        || name.getName().contentEquals("super"))) {
      thisOrSuperCall(name, member, invocation, shown);
      return null;
    }
    if (receiver instanceof IdentifierTree name
        && records.isReceiverComponent(name.getName().toString())) {
      // name.length() in a value record's own code: a method of a component that carries
      // no derivative (a String, an object), not of the field javac sees
      return instanceCalls.instanceCall(member, invocation, shown);
    }
    if (isOwnInstanceField(receiver)) {
      // own.cdf(x), as this.own.cdf(x)
      return instanceCalls.instanceCall(member, invocation, shown);
    }
    if (Symbols.isName(receiver) && inactiveCalls.receiverField(receiver).isPresent()
        && invocation.getTypeArguments().isEmpty()
        && !ruledCalls.hasInstanceRules(inactiveCalls.receiverField(receiver).get(),
            member.getIdentifier().toString())) {
      // a method of an object in a static field, without @DerivativeOf rules: runs as written
      List<Operand> arguments = calls.lowerAll(invocation);
      return arguments == null ? null : inactiveCalls.lowerOnField(
          inactiveCalls.receiverField(receiver).get(), member.getIdentifier().toString(),
          arguments, invocation, shown, calls.isDiscarded(invocation));
    }
    if (Symbols.isName(receiver) && receiverVariable(receiver).isPresent()) {
      return variableReceiverCall(member, invocation, shown);
    }
    if (expressions.names().startsWithLocal(receiver)) {
      // p.q.m(): a field of a local's object
      return instanceCalls.instanceCall(member, invocation, shown);
    }
    if (Symbols.isName(receiver)) {
      return calls.namedCall(invocation, member.getIdentifier().toString(),
          context.symbols().resolveQualifiedCall(receiver), shown);
    }
    // a method of what an expression gives: T[1].length(), sb.append(a).append(b)
    return instanceCalls.instanceCall(member, invocation, shown);
  }

  /**
   * The error for {@code this.m()} in a static method, which has no {@code this}, or for
   * {@code super.m()}, which ad4j does not lower: it calls an object's methods as Java
   * dispatches them, so it would call an override where {@code super} passes over it.
   */
  private void thisOrSuperCall(IdentifierTree receiver, MemberSelectTree member,
      MethodInvocationTree invocation, String shown) {
    String call = member.getIdentifier() + (invocation.getArguments().isEmpty() ? "()" : "(...)");
    unsupported(invocation, "call to '" + shown + "': " + (context.scopes().lookUp(
        Receivers.THIS) == null ? "the method is static and has no '" + receiver.getName()
            + "'; call '" + call + "' without it"
        : "ad4j calls an object's methods as Java dispatches them, and does not pass over an"
            + " override as 'super' does; where '"
            + context.symbols().enclosingType().getSimpleName() + "' does not override '"
            + member.getIdentifier() + "', call '" + call + "' without 'super'"));
    calls.lowerArguments(invocation);
  }

  /**
   * A call on a receiver that names a variable, as Java reads a name first: with
   * {@code @DerivativeOf} rules for the method on a field's object, {@link RuledCalls}'; on a
   * local (or what starts with one), a call on an object; on an instance field, an error, for
   * the field is not reachable from the method (static) or belongs to an enclosing instance.
   * Null after an error.
   */
  private Operand variableReceiverCall(MemberSelectTree member, MethodInvocationTree invocation,
      String shown) {
    Optional<VariableElement> field = receiverField(member.getExpression());
    String method = member.getIdentifier().toString();
    if (field.isPresent() && ruledCalls.hasInstanceRules(field.get(), method)) {
      List<Operand> arguments = new ArrayList<>();
      for (ExpressionTree argument : invocation.getArguments()) {
        arguments.add(expressions.lower(argument));
      }
      return arguments.contains(null) ? null
          : ruledCalls.lowerOnReceiver(field.get(), method, arguments, invocation, shown);
    }
    if (expressions.names().startsWithLocal(member.getExpression())) {
      return instanceCalls.instanceCall(member, invocation, shown);
    }
    unsupported(invocation, "call to '" + shown + "' is not differentiable: '"
        + context.source().of(member.getExpression()) + "' is "
        + receiverVariable(member.getExpression()).get() + (context.scopes().lookUp(
            Receivers.THIS) == null ? ", and the method is static: it can call methods of"
            + " its parameters, its locals and static fields, not of instance fields"
            : " of " + context.resolution().enclosingInstance()));
    calls.lowerArguments(invocation);
    return null;
  }

  /**
   * What a call's receiver is when it names a variable rather than a class ("a field of type
   * 'NormalDistribution'", "the local variable 'd'"): Java reads a name as a variable first.
   */
  private Optional<String> receiverVariable(ExpressionTree receiver) {
    if (receiver instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      if (context.scopes().lookUp(name) != null) {
        return Optional.of("the local variable '" + name + "'");
      }
      return context.symbols().resolveField(name).map(QualifiedCalls::describeField);
    }
    if (receiver instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && receiverVariable(select.getExpression()).isEmpty()) {
      return context.symbols().resolveType(select.getExpression())
          .flatMap(owner -> context.symbols().fieldOf(owner, select.getIdentifier().toString()))
          .map(QualifiedCalls::describeField);
    }
    return Optional.empty();
  }

  /** The field a call's receiver names, when it names one (and no local variable). */
  private Optional<VariableElement> receiverField(ExpressionTree receiver) {
    if (receiver instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      return context.scopes().lookUp(name) != null ? Optional.empty()
          : context.symbols().resolveField(name);
    }
    if (receiver instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && receiverVariable(select.getExpression()).isEmpty()) {
      return context.symbols().resolveType(select.getExpression())
          .flatMap(owner -> context.symbols().fieldOf(owner, select.getIdentifier().toString()));
    }
    return Optional.empty();
  }

  /**
   * Whether {@code receiver} is the simple name of an instance field of the object an instance
   * method runs on, read through its receiver as {@code this.own} would be: no local hides it,
   * and the field is the method's own class's (declared or inherited), not an enclosing
   * instance's ({@link NameLowering#implicitReceiver}).
   */
  private boolean isOwnInstanceField(ExpressionTree receiver) {
    return receiver instanceof IdentifierTree identifier && records.inlinedRecord().isEmpty()
        && context.scopes().lookUp(identifier.getName().toString()) == null
        && context.resolution().ownInstanceField(identifier.getName().toString()).isPresent();
  }

  private static String describeField(VariableElement field) {
    return "a field of type '" + field.asType() + "'";
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
