package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Throw;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ThrowTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;

/**
 * Lowers {@code throw new SomeException(message)} and {@code assert}, which ends in a thrown
 * {@code AssertionError}: the exception is built as written, its message of literal texts and
 * values that carry no derivative. Apart from {@link Lowering}'s statement walk because what
 * only builds a thrown exception is lowered by rules of its own: its calls are not noted as
 * calls run as written ({@link NotedCalls#lowerThrown}), since the member ends there.
 */
final class ThrowLowering {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;

  ThrowLowering(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
  }

  /**
   * {@code assert condition : detail;} as Java runs it: only when assertions are enabled for
   * the user's top-level class ({@code ad4j.runtime.internal.Assertions}; JLS 14.10: a nested
   * class's
   * assertions follow the class that encloses it at the top, as javac's code asks), the
   * condition is evaluated, and when it is false, {@code new AssertionError(detail)} is thrown.
   */
  void lowerAssert(com.sun.source.tree.AssertTree tree) {
    TypeElement userClass = context.symbols().enclosingType();
    for (Element around = userClass.getEnclosingElement();
        around != null && !(around instanceof PackageElement);
        around = around.getEnclosingElement()) {
      if (around instanceof TypeElement type) {
        userClass = type;
      }
    }
    TypeElement classType = context.elements().getTypeElement("java.lang.Class");
    Operand.Constant classLiteral = context.javaTypes().referenceConstant(
        context.javaTypes().referenceTo(userClass) + ".class",
        context.types().getDeclaredType(classType, context.types().erasure(userClass.asType())));
    Operand enabled = context.emit(
        Operation.plainCall("ad4j.runtime.internal.Assertions.enabled", 1), List.of(classLiteral), NumericType.BOOLEAN, false);
    ir.openBlock();
    Operand condition = expressions.lower(tree.getCondition());
    if (condition != null && condition.type() != NumericType.BOOLEAN) {
      unsupported(tree.getCondition(), "the condition of 'assert' must be a 'boolean'");
      condition = null;
    }
    ir.openBlock();
    Operand detail = tree.getDetail() == null ? null
        : context.notedCalls().lowerThrown(() -> expressions.lower(tree.getDetail()));
    String error = context.javaTypes()
        .referenceTo(context.elements().getTypeElement("java.lang.AssertionError"));
    if (tree.getDetail() == null) {
      ir.add(new Throw(error, List.of(), false, context.line()));
    } else if (detail != null) {
      ir.add(new Throw(error, List.of(), false, List.of(detail), context.line()));
    }
    Block failing = ir.closeBlock();
    if (condition != null) {
      Operand fails = context.emit(Operation.NOT, List.of(condition), NumericType.BOOLEAN,
          false);
      ir.add(new If(ir.nextStatementId(), fails, failing, new Block(List.of()),
          context.line()));
    }
    Block check = ir.closeBlock();
    ir.add(new If(ir.nextStatementId(), enabled, check, new Block(List.of()), context.line()));
  }

  void lowerThrow(ThrowTree tree) {
    context.notedCalls().lowerThrown(() -> {
      lowerThrownException(tree);
      return null;
    });
  }

  private void lowerThrownException(ThrowTree tree) {
    ExpressionTree thrown = tree.getExpression();
    if (!(thrown instanceof NewClassTree creation) || creation.getClassBody() != null) {
      unsupported(tree, "'throw' is supported only as 'throw new SomeException(message)'");
      return;
    }
    Optional<TypeElement> type = context.symbols().resolveType(creation.getIdentifier());
    if (type.isEmpty()) {
      diagnostics.unresolved(creation.getIdentifier(), "cannot find class '"
          + context.source().of(creation.getIdentifier()) + "'");
      return;
    }
    if (!context.javaTypes().isUncheckedException(type.get())) {
      unsupported(creation.getIdentifier(), "'throw' needs an unchecked exception class"
          + " (a RuntimeException)");
      return;
    }
    List<Object> parts = new ArrayList<>();
    boolean hasMessage = !creation.getArguments().isEmpty();
    if (hasMessage && (creation.getArguments().size() > 1
        || !isStringConcatenation(creation.getArguments().get(0)))) {
      // a cause, an enum, a message made by a call or a '?:': built as written
      lowerConstruction(creation, type.get());
      return;
    }
    Optional<String> unreachable = context.reachability().ofConstruction(type.get(), hasMessage);
    if (unreachable.isPresent()) {
      unsupported(creation.getIdentifier(), "generated code cannot create this exception: "
          + unreachable.get());
      return;
    }
    if (hasMessage && !messageParts(creation.getArguments().get(0), parts)) {
      return;
    }
    ir.add(new Throw(context.javaTypes().referenceTo(type.get()), parts, hasMessage,
        context.line()));
  }

  /**
   * {@code throw new Type(a, b, ...)} with several arguments, or one that is not a message
   * joined with '+' ({@code String.format(...)}, a cause): they carry no derivative into
   * anything and are evaluated as written, then the exception is built as written.
   */
  private void lowerConstruction(NewClassTree creation, TypeElement type) {
    List<Operand> arguments = new ArrayList<>();
    boolean failed = false;
    for (ExpressionTree argument : creation.getArguments()) {
      Operand operand = expressions.lower(argument);
      failed |= operand == null;
      arguments.add(operand);
    }
    if (failed) {
      return;
    }
    Optional<String> problem = new InactiveCalls(context).constructionProblem(
        (javax.lang.model.type.DeclaredType) type.asType(), arguments);
    if (problem.isPresent()) {
      unsupported(creation.getIdentifier(), "generated code cannot create this exception: "
          + problem.get());
      return;
    }
    ir.add(new Throw(context.javaTypes().referenceTo(type), List.of(), false, arguments,
        context.line()));
  }

  /**
   * Splits a message {@code "x = " + x} into literal texts and operands; a part that is
   * neither ({@code String.format(...)}, {@code c ? "a" : "b"}) is one operand, computed as
   * written.
   */
  private boolean messageParts(ExpressionTree message, List<Object> parts) {
    ExpressionTree expression = message;
    while (expression instanceof ParenthesizedTree parenthesized) {
      expression = parenthesized.getExpression();
    }
    if (expression.getKind() == Tree.Kind.STRING_LITERAL) {
      parts.add(context.source().of(expression));
      return true;
    }
    if (expression.getKind() == Tree.Kind.PLUS && isStringConcatenation(expression)) {
      BinaryTree concatenation = (BinaryTree) expression;
      return messageParts(concatenation.getLeftOperand(), parts)
          && messageParts(concatenation.getRightOperand(), parts);
    }
    Operand value = expressions.lower(expression);
    if (value == null) {
      return false;
    }
    parts.add(value);
    return true;
  }

  private static boolean isStringConcatenation(ExpressionTree expression) {
    if (expression.getKind() == Tree.Kind.STRING_LITERAL) {
      return true;
    }
    if (expression instanceof ParenthesizedTree parenthesized) {
      return isStringConcatenation(parenthesized.getExpression());
    }
    return expression instanceof BinaryTree binary && binary.getKind() == Tree.Kind.PLUS
        && (isStringConcatenation(binary.getLeftOperand())
            || isStringConcatenation(binary.getRightOperand()));
  }

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
