package ad4j.processor.front;

import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import java.util.Optional;

/**
 * Where Java holds a box that ad4j holds as its number: the parameters of a function over boxes
 * ({@code t} of {@code Function<Double, Double> f = t -> ...}) and what a call of such a
 * function returns ({@code f.apply(x)}, {@code s.get()} of a {@code Supplier<Double>}). ad4j
 * specialises such a function over numbers, which is exact for arithmetic, where Java unboxes;
 * but where Java uses the object, the number is another thing: {@code ==} between two boxes
 * compares objects ({@link OperatorLowering}), and a method chosen among overloads may be one
 * taking an object where the number would choose one taking a number ({@link CallChoices}).
 *
 * <p>Apart from {@link FunctionDefinitions} because operators and the choice of overloads ask
 * it with the trees of the code being lowered, whatever lowers the call.
 */
final class JavaBoxes {
  private JavaBoxes() {}

  /**
   * Whether {@code expression} is, in Java, such a box: a parameter of a function over boxes, a
   * call of a known function whose result is a box, in parentheses, or a branch of a {@code ?:}
   * (either branch: a {@code ?:} of a box and a number is a number in Java, which this takes
   * for a box, erring towards errors).
   */
  static boolean isBoxInJava(LoweringContext context, ExpressionTree expression) {
    ExpressionTree unwrapped = ExpressionLowering.withoutParentheses(expression);
    if (unwrapped instanceof ConditionalExpressionTree choice) {
      return isBoxInJava(context, choice.getTrueExpression())
          || isBoxInJava(context, choice.getFalseExpression());
    }
    if (unwrapped instanceof IdentifierTree identifier) {
      LocalScopes.Local local = context.scopes().lookUp(identifier.getName().toString());
      return local != null && local.isJavaBox();
    }
    if (!(unwrapped instanceof MethodInvocationTree call)
        || !(call.getMethodSelect() instanceof MemberSelectTree select)) {
      return false;
    }
    return signatureOf(context, select.getExpression())
        .filter(signature -> signature.boxedResult()
            && signature.name().contentEquals(select.getIdentifier()))
        .isPresent();
  }

  /**
   * The signature of the function {@code receiver} names: a local holding a known function, or
   * a field of a functional interface type.
   */
  private static Optional<FunctionValues.Signature> signatureOf(LoweringContext context,
      ExpressionTree receiver) {
    if (receiver instanceof IdentifierTree identifier) {
      LocalScopes.Local local = context.scopes().lookUp(identifier.getName().toString());
      if (local != null) {
        return Optional.ofNullable(local.function()).map(FunctionValues.Known::signature);
      }
    }
    return context.resolution().fieldNamed(receiver)
        .flatMap(field -> new FunctionTypes(context).signature(field.asType()));
  }
}
