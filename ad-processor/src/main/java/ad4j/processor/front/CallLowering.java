package ad4j.processor.front;

import ad4j.processor.front.Symbols.CallTarget;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * Lowers method calls: it tells what a call names (a static method, one of {@code this}, of an
 * object, of a function value, a stream pipeline, a template that takes a function) and hands
 * each to what lowers it: a method that a name resolves to ({@link NamedMethodCalls}, which
 * chooses among overloads and passes a {@code @Differentiable} callee's arguments through
 * {@link DifferentiableCalls}), one with {@code @DerivativeOf} rules on an object in a field
 * ({@link RuledCalls}), one run as written ({@link InactiveCalls}), a call on an object
 * ({@link InstanceCalls}).
 * Apart from {@link ExpressionLowering} because resolving a call is most of what lowering an
 * expression decides.
 */
final class CallLowering {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final Diagnostics diagnostics;
  private final CalleeResolver callees;
  private final RuledCalls ruledCalls;
  private final InactiveCalls inactiveCalls;
  private final RecordLowering records;
  private final FunctionValues functions;
  private final StreamLowering streams;
  private final ArrayLowering arrays;
  private final InstanceCalls instanceCalls;
  private final MathCalls mathCalls;
  private final DifferentiableCalls differentiableCalls;
  private final NamedMethodCalls namedCalls;
  /** The call being lowered as a statement, whose value nothing reads; null otherwise. */
  private MethodInvocationTree discarded;

  CallLowering(LoweringContext context, ExpressionLowering expressions, ObjectValues objects,
      ArrayLowering arrays) {
    this.context = context;
    this.expressions = expressions;
    this.diagnostics = context.diagnostics();
    this.callees = new CalleeResolver(context);
    this.ruledCalls = new RuledCalls(context, callees);
    this.inactiveCalls = new InactiveCalls(context);
    this.records = expressions.records();
    this.functions = expressions.functions();
    this.streams = expressions.streams();
    this.arrays = arrays;
    this.instanceCalls = new InstanceCalls(context, expressions, this, objects);
    this.mathCalls = new MathCalls(context, expressions, this);
    this.differentiableCalls = new DifferentiableCalls(context, expressions, callees, arrays);
    this.namedCalls = new NamedMethodCalls(context, expressions, this, instanceCalls, mathCalls,
        differentiableCalls);
  }

  /** Where calls of {@code @Differentiable} methods are resolved. */
  CalleeResolver callees() {
    return callees;
  }

  /** Where calls of methods with {@code @DerivativeOf} rules are lowered. */
  RuledCalls ruledCalls() {
    return ruledCalls;
  }

  /** Where calls of methods run as written are lowered. */
  InactiveCalls inactiveCalls() {
    return inactiveCalls;
  }

  /** Where calls of methods that a name resolves to are lowered. */
  NamedMethodCalls namedCalls() {
    return namedCalls;
  }

  /** Where the arguments of a chosen {@code @Differentiable} callee are passed. */
  DifferentiableCalls differentiableCalls() {
    return differentiableCalls;
  }

  /** {@link InstanceCalls#recordMethodCall}. */
  Operand recordMethodCall(TypeElement record, ExecutableElement method,
      List<Operand> arguments, MethodInvocationTree invocation, String shown) {
    return instanceCalls.recordMethodCall(record, method, arguments, invocation, shown);
  }

  /** {@link MathCalls#mathFunction}. */
  Operand mathFunction(String name, List<Operand> arguments, MethodInvocationTree at) {
    return mathCalls.mathFunction(name, arguments, at);
  }

  /** Whether {@code invocation} is a call made as a statement, whose value nothing reads. */
  boolean isDiscarded(MethodInvocationTree invocation) {
    return invocation == discarded;
  }

  Operand call(MethodInvocationTree invocation) {
    if (records.handles(invocation)) {
      return records.scalarCall(invocation); // p.x(), p.dot(q): a flattened record's
    }
    Optional<String> unchosen = records.methods().unchosen(invocation);
    if (unchosen.isPresent()) {
      unsupported(invocation, unchosen.get());
      return null;
    }
    ExpressionTree select = invocation.getMethodSelect();
    if (select instanceof MemberSelectTree member && member.getIdentifier().contentEquals("clone")
        && invocation.getArguments().isEmpty()
        && expressions.names().isArrayExpression(member.getExpression())) {
      return arrays.cloneOf(invocation, member.getExpression());
    }
    String shown = context.source().of(select)
        + (invocation.getArguments().isEmpty() ? "()" : "(...)");
    Optional<MethodInvocationTree> streamSource = streams.source(invocation);
    if (streamSource.isPresent()) {
      return streams.lower(invocation, streamSource.get()); // Arrays.stream(a).map(f).sum()
    }
    if (select instanceof MemberSelectTree member) {
      Optional<FunctionValues.Known> function =
          functions.definitions().known(member.getExpression());
      if (function.isPresent() && functions.recordResult(invocation).isPresent()) {
        // a value record, taken by RecordLowering where records are; here, an object
        records.locals().misused(invocation, context.source().of(invocation));
        return null;
      }
      if (function.isPresent()) {
        return functions.call(function.get(), member, invocation); // f.applyAsDouble(x)
      }
      Optional<String> unknown = functions.definitions().unknown(member.getExpression());
      if (unknown.isPresent()) {
        List<Operand> arguments = lowerAll(invocation);
        if (arguments == null) {
          return null;
        }
        if (arguments.stream().anyMatch(a -> a.isActive() || ArrayLowering.isActiveArray(a))) {
          unsupported(invocation, "call to '" + shown + "' is not differentiable: the code of "
              + unknown.get() + " is not known at compile time, and an argument carries a"
              + " derivative into it; " + FunctionDefinitions.KNOWN_FUNCTIONS);
          return null;
        }
        return instanceCalls.unknownFunctionCall(member, invocation, shown, arguments);
      }
    }
    String name;
    CallTarget target;
    if (select instanceof IdentifierTree identifier) {
      name = identifier.getName().toString();
      target = context.symbols().resolveUnqualifiedCall(name);
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree receiver
        && receiver.getName().contentEquals(Receivers.THIS)
        && context.scopes().lookUp(Receivers.THIS) != null) {
      // this.g(x) in an instance method
      return instanceCalls.instanceCall(member, invocation, shown);
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree receiver
        && (receiver.getName().contentEquals("this")
            || receiver.getName().contentEquals("super"))) {
      String call = member.getIdentifier() + (invocation.getArguments().isEmpty() ? "()" : "(...)");
      unsupported(invocation, "call to '" + shown + "': " + (context.scopes().lookUp(
          Receivers.THIS) == null ? "the method is static and has no '" + receiver.getName()
              + "'; call '" + call + "' without it"
          : "ad4j calls an object's methods as Java dispatches them, and does not pass over an"
              + " override as 'super' does; where '"
              + context.symbols().enclosingType().getSimpleName() + "' does not override '"
              + member.getIdentifier() + "', call '" + call + "' without 'super'"));
      lowerArguments(invocation);
      return null;
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree receiver
        && records.isReceiverComponent(receiver.getName().toString())) {
      // name.length() in a value record's own code: a method of a component that carries
      // no derivative (a String, an object), not of the field javac sees
      return instanceCalls.instanceCall(member, invocation, shown);
    } else if (select instanceof MemberSelectTree member
        && isOwnInstanceField(member.getExpression())) {
      // own.cdf(x), as this.own.cdf(x)
      return instanceCalls.instanceCall(member, invocation, shown);
    } else if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())
        && inactiveCalls.receiverField(member.getExpression()).isPresent()
        && invocation.getTypeArguments().isEmpty()
        && !ruledCalls.hasInstanceRules(inactiveCalls.receiverField(member.getExpression()).get(),
            member.getIdentifier().toString())) {
      // a method of an object in a static field, without @DerivativeOf rules: runs as written
      List<Operand> arguments = lowerAll(invocation);
      return arguments == null ? null : inactiveCalls.lowerOnField(
          inactiveCalls.receiverField(member.getExpression()).get(),
          member.getIdentifier().toString(), arguments, invocation, shown,
          invocation == discarded);
    } else if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())
        && receiverVariable(member.getExpression()).isPresent()) {
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
      lowerArguments(invocation);
      return null;
    } else if (select instanceof MemberSelectTree member
        && expressions.names().startsWithLocal(member.getExpression())) {
      // p.q.m(): a field of a local's object
      return instanceCalls.instanceCall(member, invocation, shown);
    } else if (select instanceof MemberSelectTree member
        && Symbols.isName(member.getExpression())) {
      name = member.getIdentifier().toString();
      target = context.symbols().resolveQualifiedCall(member.getExpression());
    } else if (select instanceof MemberSelectTree member) {
      // a method of what an expression gives: T[1].length(), sb.append(a).append(b)
      return instanceCalls.instanceCall(member, invocation, shown);
    } else {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: only calls of"
          + " static methods are supported");
      lowerArguments(invocation);
      return null;
    }
    if (!invocation.getTypeArguments().isEmpty()) {
      unsupported(invocation, "call to '" + shown + "' with type arguments is not supported");
      lowerArguments(invocation);
      return null;
    }
    if (target instanceof CallTarget.Unresolved) {
      if (select instanceof MemberSelectTree member) {
        diagnostics.unresolved(invocation, "cannot find class '"
            + context.source().of(member.getExpression()) + "'");
      } else {
        diagnostics.unresolved(invocation, "cannot find method '" + name + "'");
      }
      lowerArguments(invocation);
      return null;
    }
    if (target instanceof CallTarget.MathFunction math && name.equals("random")) {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: it returns a new"
          + " random number at each call, not a function of its arguments");
      lowerArguments(invocation);
      return null;
    }
    if (target instanceof CallTarget.OtherMethod other) {
      Optional<javax.lang.model.element.ExecutableElement> template =
          functions.template(other.owner(), name, invocation.getArguments().size());
      if (template.isPresent()) {
        return functions.inline(template.get(), invocation, shown); // integrate(x -> ..., a, b)
      }
    }
    List<Operand> arguments = new ArrayList<>();
    boolean failed = false;
    for (ExpressionTree argument : invocation.getArguments()) {
      Operand operand = callArgument(argument);
      failed |= operand == null;
      arguments.add(operand);
    }
    if (failed) {
      return null;
    }
    return namedCalls.resolvedCall(invocation, select, name, target, arguments, shown);
  }

  /**
   * An argument of a call of a {@code @Differentiable} method: a flattened value record's
   * leaves standing in for it while the method is chosen; an array made for the call (no
   * variable names it, so only the callee could write it) carrying no derivative when its
   * elements carry none; else the value. Null after an error.
   */
  Operand callArgument(ExpressionTree argument) {
    return records.acrossCalls().isFlattened(argument) ? records.acrossCalls().placeholder(argument)
        : ExpressionLowering.withoutParentheses(argument) instanceof NewArrayTree made
            && made.getType() != null && made.getDimensions().size() <= 1
            ? arrays.newArray(made, null, true) : expressions.lower(argument);
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
      return context.symbols().resolveField(name).map(CallLowering::describeField);
    }
    if (receiver instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && receiverVariable(select.getExpression()).isEmpty()) {
      return context.symbols().resolveType(select.getExpression())
          .flatMap(owner -> context.symbols().fieldOf(owner, select.getIdentifier().toString()))
          .map(CallLowering::describeField);
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

  /**
   * Lowers a call made as a statement, for its effect: its value reaches nothing, so a call of
   * a method that is not {@code @Differentiable} carries no derivative whatever its arguments
   * carry, and runs as written.
   */
  void lowerForEffect(MethodInvocationTree invocation) {
    MethodInvocationTree outer = discarded;
    discarded = invocation;
    try {
      expressions.lower(invocation);
    } finally {
      discarded = outer;
    }
  }

  /** A call's arguments in order; null when one failed. */
  List<Operand> lowerAll(MethodInvocationTree invocation) {
    List<Operand> arguments = new ArrayList<>();
    boolean failed = false;
    for (ExpressionTree argument : invocation.getArguments()) {
      Operand operand = expressions.lower(argument);
      failed |= operand == null;
      arguments.add(operand);
    }
    return failed ? null : arguments;
  }

  /** Lowers a call's arguments after an error at the call, for the errors of their own. */
  private void lowerArguments(MethodInvocationTree invocation) {
    for (ExpressionTree argument : invocation.getArguments()) {
      expressions.lower(argument);
    }
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}