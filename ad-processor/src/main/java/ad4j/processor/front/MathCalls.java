package ad4j.processor.front;

import ad4j.processor.ir.Expr;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.rules.DerivativeRules;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;

/**
 * Lowers calls of {@code Math}, {@code StrictMath} and {@code FastMath} functions: the overload
 * Java chooses, a constant where every argument is one, a user's {@code @DerivativeOf} rule
 * where one applies, the function's derivative rule ({@link DerivativeRules}), or run as
 * written where no derivative flows. Apart from {@link CallLowering} because these functions
 * are the derivative rules' own.
 */
final class MathCalls {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final CallLowering calls;

  MathCalls(LoweringContext context, ExpressionLowering expressions, CallLowering calls) {
    this.context = context;
    this.expressions = expressions;
    this.calls = calls;
  }

  /** {@code Math.name(arguments)}, for a call that lowering makes ({@code max()} of a stream). */
  Operand mathFunction(String name, List<Operand> arguments, MethodInvocationTree at) {
    return mathCall(MathOwner.MATH, name, arguments, at, "Math." + name + "(...)");
  }

  Operand mathCall(MathOwner owner, String name, List<Operand> given,
      MethodInvocationTree invocation, String shown) {
    // Math's functions take primitives: a box is unboxed (Math.exp(xs.get(i)))
    List<Operand> arguments = given.stream().map(expressions.unboxing()::number).toList();
    List<NumericType> argumentTypes = arguments.stream().map(Operand::type).toList();
    // a reference left after unboxing (a String, a Short) fits no Math function
    Optional<javax.lang.model.element.ExecutableElement> chosen =
        argumentTypes.contains(NumericType.BOOLEAN)
            || argumentTypes.stream().anyMatch(NumericType::isReference)
        ? Optional.empty()
        : CallChoices.choice(context, context.symbols().mathMethods(owner, name), arguments)
            .map(Overloads.Choice::method);
    chosen.ifPresent(method -> ResolutionLog.resolved(context, invocation, method));
    Optional<NumericType> resultType =
        chosen.flatMap(method -> ConstantText.numericType(method.getReturnType().getKind()));
    if (resultType.isEmpty()) {
      unsupported(invocation, "no " + owner.simpleName() + "." + name + " takes ("
          + argumentTypes.stream().map(NumericType::keyword).collect(Collectors.joining(", "))
          + ")");
      return null;
    }
    if (arguments.stream().allMatch(a -> a instanceof Operand.Constant) && !mayThrow(name)) {
      Expr[] texts = arguments.stream().map(a -> ((Operand.Constant) a).expression())
          .toArray(Expr[]::new);
      return new Operand.Constant(Expr.call(context.mathClassName(owner), name, texts),
          resultType.get(), OptionalDouble.empty());
    }
    if (arguments.stream().anyMatch(Operand::isActive)) {
      // a user's @DerivativeOf rule that this call sees replaces the built-in derivative (a
      // straight-through estimator for floor)
      javax.lang.model.element.TypeElement type =
          context.elements().getTypeElement(owner.qualifiedName());
      Optional<RuledCalls.Lowered> ruled = type == null ? Optional.empty()
          : calls.ruledCalls().lower(type, name, arguments, invocation, shown);
      if (ruled.isPresent()) {
        return ruled.get().operand();
      }
      Optional<ExecutableElement> ruledOverload = ruledOverload(owner, name, chosen.get());
      if (ruledOverload.isPresent()) {
        // Math.abs(f) of a float chooses abs(float), for which no rule can be written: taking
        // the built-in derivative would silently ignore the rule the user wrote for abs
        unsupported(invocation, "call to '" + shown + "' calls '" + signature(owner,
            chosen.get()) + "', and the @DerivativeOf rules this call sees are for '"
            + signature(owner, ruledOverload.get()) + "', which ad4j uses for calls of that"
            + " method only (a rule cannot take a 'float'); pass 'double' arguments, as in '"
            + owner.simpleName() + "." + name + "((double) ...)', to use the rules");
        return context.notDifferentiableResult(resultType.get());
      }
    }
    if (!DerivativeRules.isDifferentiableFunction(name, arguments.size())) {
      Optional<Operand> inactive = calls.inactiveCalls().lowerMath(context.mathClassName(owner),
          name, arguments, resultType.get(), calls.isDiscarded(invocation));
      if (inactive.isPresent()) {
        return inactive.get();
      }
      // the functions that this class declares with a rule's arity: FastMath's inverse
      // hyperbolic functions are no advice for a call of Math, nor its log(base, x) one of log
      unsupported(invocation, "call to '" + shown + "' is not differentiable: ad4j has no"
          + " derivative rule for " + owner.simpleName() + "." + name + "; differentiable"
          + " functions of " + owner.simpleName() + " are " + String.join(", ",
              DerivativeRules.differentiableFunctionNames().stream()
                  .filter(function -> context.symbols().mathMethods(owner, function).stream()
                      .anyMatch(method -> DerivativeRules.isDifferentiableFunction(function,
                          method.getParameters().size())))
                  .toList()));
      return context.notDifferentiableResult(resultType.get());
    }
    context.mathClassName(owner); // generated code names it
    Operation operation = Operation.call(owner, name, arguments.size());
    return expressions.operators().combineAll(operation, asParameters(chosen.get(), arguments),
        resultType.get());
  }

  /**
   * Whether the function {@code name} may throw for some arguments: 'Math.floorDiv(3, 0)',
   * 'Math.addExact(Integer.MAX_VALUE, 1)', 'Math.clamp(v, 2.0, 1.0)'. Of constants, it is not a
   * constant's text, written only where its value is used, but a call, which runs where the
   * user's method calls it, and throws there, even when nothing uses its value.
   */
  private static boolean mayThrow(String name) {
    return name.endsWith("Exact") || List.of("floorDiv", "floorMod", "ceilDiv", "ceilMod",
        "clamp").contains(name);
  }

  /**
   * Another overload of the function {@code name} than {@code chosen} that has
   * {@code @DerivativeOf} rules the call sees, if one has.
   */
  private Optional<ExecutableElement> ruledOverload(MathOwner owner, String name,
      ExecutableElement chosen) {
    return context.symbols().mathMethods(owner, name).stream()
        .filter(method -> !method.equals(chosen)
            && !calls.ruledCalls().rulesOf(method).isEmpty())
        .findFirst();
  }

  /** {@code Math.abs(float)}: a function of {@code owner} with its parameter types. */
  private static String signature(MathOwner owner, ExecutableElement method) {
    return owner.simpleName() + "." + method.getSimpleName() + "(" + method.getParameters()
        .stream().map(p -> p.asType().toString()).collect(Collectors.joining(", ")) + ")";
  }

  /**
   * The arguments as the chosen overload takes them where it takes a {@code float}: an
   * {@code int} or {@code long} rounded to {@code float} ({@code Math.fma(f, n, g)}), so that the
   * partials read the number the function is given.
   */
  private List<Operand> asParameters(ExecutableElement method, List<Operand> arguments) {
    List<Operand> converted = new ArrayList<>(arguments);
    for (int i = 0; i < converted.size() && i < method.getParameters().size(); i++) {
      if (method.getParameters().get(i).asType().getKind() == TypeKind.FLOAT) {
        converted.set(i, expressions.conversions().asFloatOperand(converted.get(i)));
      }
    }
    return converted;
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
