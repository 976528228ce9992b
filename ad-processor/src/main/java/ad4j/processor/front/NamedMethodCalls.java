package ad4j.processor.front;

import ad4j.processor.front.Symbols.CallTarget;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.lang.model.element.TypeElement;

/**
 * Lowers a call of a method that a name resolves to ({@code g(x)}, {@code Owner.g(x)}, a
 * static import, a {@code Math} function), its arguments lowered: the method chosen among the
 * overloads as javac chooses it (a static import's among single imports first, then on-demand
 * ones), then handed to what lowers it: {@code this.g(x)} for an unqualified instance method
 * ({@link InstanceCalls}), {@code @DerivativeOf} rules ({@link RuledCalls}), {@code Double.sum}
 * and its kind as the {@code Math} functions they are, a method run as written
 * ({@link InactiveCalls}), a {@code @Differentiable} callee ({@link DifferentiableCalls}).
 *
 * <p>Apart from {@link CallLowering} because a function value's method reference names its
 * method the same way ({@link FunctionValues}), without a call tree of the shapes
 * {@link CallLowering} tells apart.
 */
final class NamedMethodCalls {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final CallLowering calls;
  private final RuledCalls ruledCalls;
  private final InactiveCalls inactiveCalls;
  private final RecordLowering records;
  private final InstanceCalls instanceCalls;
  private final MathCalls mathCalls;
  private final DifferentiableCalls differentiableCalls;

  NamedMethodCalls(LoweringContext context, ExpressionLowering expressions, CallLowering calls,
      InstanceCalls instanceCalls, MathCalls mathCalls, DifferentiableCalls differentiableCalls) {
    this.context = context;
    this.expressions = expressions;
    this.calls = calls;
    this.ruledCalls = calls.ruledCalls();
    this.inactiveCalls = calls.inactiveCalls();
    this.records = expressions.records();
    this.instanceCalls = instanceCalls;
    this.mathCalls = mathCalls;
    this.differentiableCalls = differentiableCalls;
  }

  /**
   * The call of {@code name} that {@code target} resolves, with its arguments lowered:
   * {@code select} is the tree that named it (a method reference's, when a function value
   * applies one), {@code invocation} where errors are reported.
   */
  Operand resolvedCall(MethodInvocationTree invocation, ExpressionTree select, String name,
      CallTarget target, List<Operand> arguments, String shown) {
    if (target instanceof CallTarget.Imported imported) {
      // the class of the imported method that overload resolution picks among all of them
      // javac's order: the methods of single imports, then, when none of them applies, those
      // of on-demand imports (Resolve.findFun)
      java.util.Map<javax.lang.model.element.ExecutableElement, TypeElement> methods =
          context.symbols().importedMethods(imported.single(), name);
      Optional<Overloads.Choice> choice = CallChoices.choice(context,
          new ArrayList<>(methods.keySet()), arguments);
      if (choice.isEmpty()) {
        methods = context.symbols().importedMethods(imported.onDemand(), name);
        choice = CallChoices.choice(context, new ArrayList<>(methods.keySet()), arguments);
      }
      if (choice.isEmpty()) {
        List<TypeElement> owners = new ArrayList<>(imported.single());
        owners.addAll(imported.onDemand());
        unsupported(invocation, "call to '" + shown + "' is ambiguous between the static imports"
            + " of " + owners.stream().map(t -> t.getQualifiedName().toString())
                .collect(Collectors.joining(" and ")));
        return null;
      }
      target = context.symbols().targetOf(methods.get(choice.get().method()));
    }
    if (target instanceof CallTarget.OtherMethod other) {
      Optional<Overloads.Choice> choice = CallChoices.choice(context,
          CallChoices.candidates(context, other.owner(), name), arguments);
      if (select instanceof MemberSelectTree member) {
        ResolutionLog.resolved(context, member.getExpression(), other.owner());
      }
      choice.ifPresent(c -> ResolutionLog.resolved(context, invocation, c.method()));
      boolean passesRecords = arguments.stream()
          .anyMatch(a -> context.flatRecords().recordOf(a).isPresent());
      if (passesRecords && (choice.isEmpty()
          || !CalleeResolver.isDifferentiable(choice.get().method()))) {
        for (int i = 0; i < arguments.size(); i++) {
          if (context.flatRecords().recordOf(arguments.get(i)).isPresent()) {
            records.locals().misused(invocation.getArguments().get(i),
                context.source().of(invocation.getArguments().get(i)));
          }
        }
        return null;
      }
      Optional<Operand> self = choice.isPresent() && select instanceof IdentifierTree
          && Receivers.hasReceiver(choice.get().method())
          ? expressions.names().implicitReceiver(other.owner(), invocation) : Optional.empty();
      if (self.isPresent()) {
        // g(x) in an instance method is this.g(x)
        return instanceCalls.callOnObject(self.get(), other.owner(), name, arguments,
            invocation, shown);
      }
      Optional<RuledCalls.Lowered> ruled =
          ruledCalls.lower(other.owner(), name, arguments, invocation, shown);
      if (ruled.isPresent()) {
        return ruled.get().operand();
      }
      // not ruled: a method that is not @Differentiable runs as written, if it carries no
      // derivative (else InactiveCalls reports the chain)
      Optional<javax.lang.model.element.ExecutableElement> method =
          choice.map(Overloads.Choice::method);
      Optional<BoxMathFunctions.Meaning> meaning = method.flatMap(BoxMathFunctions::of);
      if (meaning.isPresent() && arguments.stream().anyMatch(Operand::isActive)
          && arguments.stream().allMatch(a -> a.type().isNumeric())) {
        // Double.sum(a, b) is a + b, Double.max is Math.max: differentiated as those are
        NumericType type = meaning.get().type();
        Operand left = expressions.conversions().convert(arguments.get(0), type);
        Operand right = expressions.conversions().convert(arguments.get(1), type);
        return meaning.get().mathFunction().isEmpty()
            ? expressions.operators().combine(Operation.ADD, left, right, type)
            : mathCalls.mathCall(MathOwner.MATH, meaning.get().mathFunction().get(),
                List.of(left, right), invocation, shown);
      }
      if (method.isPresent() && !CalleeResolver.isDifferentiable(method.get())) {
        return inactiveCalls.lower(method.get(), other.owner(), arguments, invocation, shown,
            calls.isDiscarded(invocation));
      }
      return differentiableCalls.lower(choice, other.owner(), name, arguments, invocation,
          shown);
    }
    return mathCalls.mathCall(((CallTarget.MathFunction) target).owner(), name, arguments,
        invocation, shown);
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
