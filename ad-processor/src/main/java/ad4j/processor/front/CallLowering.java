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

/**
 * Lowers method calls: it tells what a call names (a static method, one of {@code this}, of an
 * object, of a function value, a stream pipeline, a template that takes a function) and hands
 * each to what lowers it: a method that a name resolves to ({@link NamedMethodCalls}, which
 * chooses among overloads and passes a {@code @Differentiable} callee's arguments through
 * {@link DifferentiableCalls}), one with {@code @DerivativeOf} rules on an object in a field
 * ({@link RuledCalls}), one run as written ({@link InactiveCalls}), a call on an object
 * ({@link InstanceCalls}); a call {@code receiver.name(...)} by what its receiver is
 * ({@link QualifiedCalls}).
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
  private final QualifiedCalls qualifiedCalls;
  /** The call being lowered as a statement, whose value nothing reads; null otherwise. */
  private MethodInvocationTree discarded;

  CallLowering(LoweringContext context, ExpressionLowering expressions, ObjectValues objects,
      ArrayLowering arrays) {
    this.context = context;
    this.expressions = expressions;
    this.diagnostics = context.diagnostics();
    this.callees = new CalleeResolver(context);
    this.ruledCalls = new RuledCalls(context, callees, arrays);
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
    this.qualifiedCalls = new QualifiedCalls(context, expressions, this, instanceCalls);
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

  /**
   * Lowers a call: the forms that are not a method's name come first (a flattened record's
   * method, an array's {@code clone()}, a stream pipeline, a call of a function value), then
   * what the method's name and receiver resolve to. Null after an error.
   */
  Operand call(MethodInvocationTree invocation) {
    Optional<RecordMethodCalls.Target> recordMethod = records.methods().target(invocation);
    if (recordMethod.isPresent() && !ruledCalls.rulesOf(recordMethod.get().method()).isEmpty()) {
      return ruledRecordMethodCall(recordMethod.get(), invocation);
    }
    if (records.handles(invocation)) {
      return records.scalarCall(invocation); // p.x(), p.dot(q): a flattened record's
    }
    Optional<String> unchosen = records.methods().unchosen(invocation);
    if (unchosen.isPresent()) {
      unsupported(invocation, unchosen.get());
      return null;
    }
    ExpressionTree select = invocation.getMethodSelect();
    if (ArrayLowering.isArrayClone(invocation, expressions.names())) {
      return arrays.cloneOf(invocation, ((MemberSelectTree) select).getExpression());
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
      if (function.isPresent()) {
        return knownFunctionCall(function.get(), member, invocation);
      }
      Optional<String> unknown = functions.definitions().unknown(member.getExpression());
      if (unknown.isPresent()) {
        return unknownFunctionCall(unknown.get(), member, invocation, shown);
      }
    }
    if (select instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      return namedCall(invocation, name, context.symbols().resolveUnqualifiedCall(name), shown);
    }
    if (select instanceof MemberSelectTree member) {
      return qualifiedCalls.call(member, invocation, shown);
    }
    unsupported(invocation, "call to '" + shown + "' is not differentiable: only calls of"
        + " static methods are supported");
    lowerArguments(invocation);
    return null;
  }

  /**
   * A call of a value record's own method that has {@code @DerivativeOf} rules, which replace
   * its code as they do any target's: a static one is lowered with its rules; an instance one
   * is an error, for its rules take the receiver as an object that carries no derivative, and
   * the receiver here is a value record whose components ad4j differentiates (inlining the
   * method's code instead would silently ignore the rules). Null after an error.
   */
  private Operand ruledRecordMethodCall(RecordMethodCalls.Target target,
      MethodInvocationTree invocation) {
    ExecutableElement method = target.method();
    String shown = context.source().of(invocation.getMethodSelect())
        + (invocation.getArguments().isEmpty() ? "()" : "(...)");
    String name = target.record().getSimpleName() + "." + method.getSimpleName();
    if (!StaticMembers.isStatic(method)) {
      unsupported(invocation, "call to '" + shown + "': '" + name + "' has @DerivativeOf"
          + " rules, which take its receiver as an object that carries no derivative, but here"
          + " the receiver is value record '" + target.record().getSimpleName() + "', whose"
          + " components ad4j differentiates, so ad4j cannot use them; remove the rules, for"
          + " ad4j to differentiate the method's code, or give the rules to a static method"
          + " that takes the components as parameters");
      lowerArguments(invocation);
      return null;
    }
    List<Operand> arguments = new ArrayList<>();
    boolean failed = false;
    for (ExpressionTree argument : invocation.getArguments()) {
      Operand operand = callArgument(argument);
      if (operand != null && context.flatRecords().recordOf(operand).isPresent()) {
        records.locals().misused(argument, context.source().of(argument));
        operand = null;
      }
      failed |= operand == null;
      arguments.add(operand);
    }
    if (failed) {
      return null;
    }
    Optional<RuledCalls.Lowered> lowered =
        ruledCalls.lower(target.record(), method.getSimpleName().toString(), arguments,
            invocation, shown);
    if (lowered.isEmpty()) {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: no method '"
          + method.getSimpleName() + "' of '" + target.record().getSimpleName() + "' that takes"
          + " these arguments has @DerivativeOf rules");
      return null;
    }
    return lowered.get().operand();
  }

  /**
   * A call of a function value whose code is known here ({@code f.applyAsDouble(x)}), its
   * code specialised at the call; null after an error when it gives a value record, which only
   * RecordLowering takes where records are (here it would be an object).
   */
  private Operand knownFunctionCall(FunctionValues.Known function, MemberSelectTree member,
      MethodInvocationTree invocation) {
    if (functions.recordResult(invocation).isPresent()) {
      records.locals().misused(invocation, context.source().of(invocation));
      return null;
    }
    return functions.call(function, member, invocation);
  }

  /**
   * A call of a function value whose code is not known at compile time ({@code unknown} says
   * whose it is): it runs as written when no argument carries a derivative, for ad4j cannot
   * differentiate code it does not see; null after an error otherwise.
   */
  private Operand unknownFunctionCall(String unknown, MemberSelectTree member,
      MethodInvocationTree invocation, String shown) {
    List<Operand> arguments = lowerAll(invocation);
    if (arguments == null) {
      return null;
    }
    if (arguments.stream().anyMatch(a -> a.isActive() || ArrayLowering.isActiveArray(a))) {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: the code of "
          + unknown + " is not known at compile time, and an argument carries a"
          + " derivative into it; " + FunctionDefinitions.KNOWN_FUNCTIONS);
      return null;
    }
    return instanceCalls.unknownFunctionCall(member, invocation, shown, arguments);
  }

  /**
   * A call of the method {@code name} resolves to ({@code target}: a {@code Math} function, a
   * method of a class, or nothing found), handed to {@link NamedMethodCalls} with its arguments,
   * or a template taking a function inlined; null after an error, when it has type arguments,
   * names nothing, or is {@code Math.random()}.
   */
  Operand namedCall(MethodInvocationTree invocation, String name, CallTarget target,
      String shown) {
    if (rejectsNamedCall(invocation, name, target, shown)) {
      lowerArguments(invocation);
      return null;
    }
    if (target instanceof CallTarget.OtherMethod other) {
      Optional<ExecutableElement> template =
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
    return namedCalls.resolvedCall(invocation, invocation.getMethodSelect(), name, target,
        arguments, shown);
  }

  /**
   * Whether a named call is one ad4j does not lower, after its error: explicit type arguments,
   * a class or method it cannot find, or {@code Math.random()}, which is no function of its
   * arguments.
   */
  private boolean rejectsNamedCall(MethodInvocationTree invocation, String name,
      CallTarget target, String shown) {
    if (!invocation.getTypeArguments().isEmpty()) {
      unsupported(invocation, "call to '" + shown + "' with type arguments is not supported");
      return true;
    }
    if (target instanceof CallTarget.Unresolved) {
      if (invocation.getMethodSelect() instanceof MemberSelectTree member) {
        diagnostics.unresolved(invocation, "cannot find class '"
            + context.source().of(member.getExpression()) + "'");
      } else {
        diagnostics.unresolved(invocation, "cannot find method '" + name + "'");
      }
      return true;
    }
    if (target instanceof CallTarget.MathFunction && name.equals("random")) {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: it returns a new"
          + " random number at each call, not a function of its arguments");
      return true;
    }
    return false;
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
  void lowerArguments(MethodInvocationTree invocation) {
    for (ExpressionTree argument : invocation.getArguments()) {
      expressions.lower(argument);
    }
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}