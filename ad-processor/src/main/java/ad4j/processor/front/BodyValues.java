package ad4j.processor.front;

import static ad4j.processor.front.BodyTrees.classOf;
import static ad4j.processor.front.BodyTrees.unwrapped;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.TypeElement;

/**
 * Whether a value of a body is plain (a number, a boolean, a string, a box, an array of them,
 * or code read in place) or surely a string. A JDK method given such a value, or a
 * concatenation of it, runs no code of the sources; given any other object it may call that
 * object's methods ({@code toString()}, {@code applyAsDouble}), which may change state.
 */
final class BodyValues {
  private final BodyLocals body;

  BodyValues(BodyLocals body) {
    this.body = body;
  }

  /**
   * Whether {@code value} is a number, a boolean, a string, a box, an array of such, or
   * code read in place (a lambda, a method reference): nothing whose methods a JDK method
   * could call to run code of the sources.
   */
  boolean isPlainValue(ExpressionTree value) {
    ExpressionTree v = unwrapped(value);
    if (v instanceof com.sun.source.tree.LiteralTree || v instanceof LambdaExpressionTree
        || v instanceof MemberReferenceTree || v instanceof NewArrayTree) {
      return true;
    }
    if (v instanceof TypeCastTree cast) {
      return cast.getType().getKind() == Tree.Kind.PRIMITIVE_TYPE
          || isPlainValue(cast.getExpression());
    }
    if (v instanceof com.sun.source.tree.BinaryTree binary) {
      return binary.getKind() != Tree.Kind.PLUS
          || isPlainValue(binary.getLeftOperand()) && isPlainValue(binary.getRightOperand());
    }
    if (v instanceof UnaryTree || v instanceof com.sun.source.tree.InstanceOfTree) {
      return true;
    }
    if (v instanceof com.sun.source.tree.ConditionalExpressionTree choice) {
      return isPlainValue(choice.getTrueExpression())
          && isPlainValue(choice.getFalseExpression());
    }
    if (v instanceof ArrayAccessTree element) {
      ExpressionTree array = unwrapped(element.getExpression());
      return array instanceof IdentifierTree name && body.declaredType(name).filter(type ->
          type instanceof javax.lang.model.type.ArrayType && JdkHarmlessCode.isPlainType(type))
          .isPresent();
    }
    if (v instanceof IdentifierTree name) {
      return body.declaredType(name).filter(JdkHarmlessCode::isPlainType).isPresent();
    }
    if (v instanceof MemberSelectTree select) {
      if (select.getIdentifier().contentEquals("length")) {
        return true;
      }
      Optional<List<TypeElement>> base = body.typeNamed(select.getExpression()).map(List::of)
          .or(() -> body.classesOf(select.getExpression()));
      return base.isPresent() && base.get().size() == 1
          && body.symbols.fieldOf(base.get().get(0), select.getIdentifier().toString())
              .filter(field -> JdkHarmlessCode.isPlainType(field.asType())).isPresent();
    }
    if (v instanceof MethodInvocationTree call) {
      return body.returnTypes(call).filter(all -> all.stream()
          .allMatch(JdkHarmlessCode::isPlainType)).isPresent();
    }
    return false;
  }

  /** Whether {@code value} is surely a string: a literal, or a name declared so. */
  boolean isString(ExpressionTree value) {
    ExpressionTree v = unwrapped(value);
    if (v.getKind() == Tree.Kind.STRING_LITERAL) {
      return true;
    }
    if (v instanceof com.sun.source.tree.BinaryTree binary
        && binary.getKind() == Tree.Kind.PLUS) {
      return isString(binary.getLeftOperand()) || isString(binary.getRightOperand());
    }
    return v instanceof IdentifierTree name && body.declaredType(name).flatMap(t -> classOf(t))
        .filter(t -> t.getQualifiedName().contentEquals("java.lang.String")).isPresent();
  }
}
