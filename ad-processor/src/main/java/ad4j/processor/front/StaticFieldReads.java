package ad4j.processor.front;

import ad4j.processor.ir.Expr;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.Tree;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;

/**
 * Lowers reads of static fields and class literals: a compile-time constant inlined as javac
 * inlines it, a {@code static final} table or object read by its name (or through the generated
 * class's copy of a private one), a field that is not final read once where the method reads
 * it. Apart from {@link ExpressionLowering} because what generated code may name, and how, is
 * a question of access ({@link JavaTypes#memberReachability}), not of expressions.
 */
final class StaticFieldReads {
  private final LoweringContext context;
  private final ExpressionLowering expressions;

  StaticFieldReads(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
  }

  /** {@code Owner.class}: a constant of type {@code Class<Owner>}. */
  Operand classLiteral(MemberSelectTree select) {
    Optional<TypeElement> owner = context.symbols().resolveType(select.getExpression());
    if (owner.isEmpty()) {
      context.diagnostics().unresolved(select, "cannot find class '"
          + context.source().of(select.getExpression()) + "'");
      return null;
    }
    Optional<String> unreachable = context.reachability().ofType(owner.get());
    if (unreachable.isPresent()) {
      unsupported(select, "generated code cannot name '" + context.source().of(select) + "': "
          + unreachable.get());
      return null;
    }
    TypeElement classType = context.elements().getTypeElement("java.lang.Class");
    return context.javaTypes().referenceConstant(
        context.javaTypes().referenceTo(owner.get()) + ".class",
        context.types().getDeclaredType(classType,
            context.types().erasure(owner.get().asType())));
  }

  /**
   * A {@code static final} array field, a table of coefficients: read by its name, its
   * elements carry no derivative.
   */
  private Operand tableValue(VariableElement field, TypeElement qualifier, Tree use) {
    String name = field.getSimpleName().toString();
    Optional<NumericType> type = arrayTypeOf(field.asType());
    if (!field.getModifiers().contains(Modifier.FINAL)) {
      unsupported(use, "field '" + name + "' of type '" + field.asType() + "' cannot be read:"
          + " only 'static final' arrays are supported, read as constants");
      return null;
    }
    if (type.isEmpty()) {
      return referenceField(field, qualifier, use); // long[], String[], int[][]: as written
    }
    TypeElement owner = context.javaTypes().qualifyingType(field, qualifier);
    Optional<String> unreachable = context.javaTypes().memberReachability(field, qualifier);
    Optional<Expr> copy = privateCopy(field, unreachable);
    if (copy.isPresent()) {
      return new Operand.Constant(copy.get(), type.get(), OptionalDouble.empty());
    }
    if (unreachable.isPresent()) {
      unsupported(use, "table '" + name + "' cannot be read by generated code: "
          + unreachable.get());
      return null;
    }
    return new Operand.Constant(Expr.atom(context.javaTypes().referenceTo(owner) + "." + name),
        type.get(), OptionalDouble.empty());
  }

  /**
   * A static field of a reference type (an enum constant, an object, a string, an array of
   * another type): a {@code final} one is a constant that generated code reads by its name;
   * another is read once, where the user's method reads it.
   */
  private Operand referenceField(VariableElement field, TypeElement qualifier, Tree use) {
    String name = field.getSimpleName().toString();
    if (field.getConstantValue() instanceof String text) {
      // a compile-time constant: its literal, as javac inlines it
      return new Operand.Constant(Expr.atom(context.elements().getConstantExpression(text)),
          NumericType.STRING, OptionalDouble.empty());
    }
    Optional<String> unreachable = context.javaTypes().memberReachability(field, qualifier);
    Optional<Expr> copy = privateCopy(field, unreachable);
    if (copy.isPresent()) {
      return context.javaTypes().referenceConstant(copy.get().toString(), field.asType());
    }
    if (unreachable.isPresent()) {
      unsupported(use, "field '" + name + "' carries no derivative and would be read as"
          + " written, but generated code cannot read it: " + unreachable.get());
      return null;
    }
    TypeElement owner = context.javaTypes().qualifyingType(field, qualifier);
    if (context.javaTypes().javaText(field.asType()).isEmpty()) {
      unsupported(use, "field '" + name + "' has type '" + field.asType() + "', which"
          + " generated code cannot name: " + context.javaTypes().typeProblem(field.asType()));
      return null;
    }
    Operand.Constant constant = context.javaTypes().referenceConstant(
        context.javaTypes().referenceTo(owner) + "." + name, field.asType());
    if (field.getModifiers().contains(Modifier.FINAL)) {
      return constant;
    }
    Operand value = context.emitReference(Operation.COPY, List.of(constant), field.asType())
        .orElseThrow();
    context.notedCalls().readsState(value); // a call run as written may have set it
    return value;
  }

  private static Optional<NumericType> arrayTypeOf(javax.lang.model.type.TypeMirror type) {
    if (!(type instanceof javax.lang.model.type.ArrayType array)) {
      return Optional.empty();
    }
    TypeKind element = array.getComponentType().getKind();
    if (element == TypeKind.DOUBLE) {
      return Optional.of(NumericType.DOUBLE_ARRAY);
    }
    if (element == TypeKind.INT) {
      return Optional.of(NumericType.INT_ARRAY);
    }
    if (element == TypeKind.ARRAY && ((javax.lang.model.type.ArrayType) array.getComponentType())
        .getComponentType().getKind() == TypeKind.DOUBLE) {
      return Optional.of(NumericType.DOUBLE_MATRIX);
    }
    return Optional.empty();
  }

  /** A static final field: inlined when a compile-time constant, else read by its name. */
  Operand fieldValue(VariableElement field, TypeElement qualifier, Tree use) {
    String name = field.getSimpleName().toString();
    if (!StaticMembers.isStatic(field)) {
      unsupported(use, "instance field '" + name + "' cannot be read: "
          + (context.scopes().lookUp(Receivers.THIS) == null ? "the method is static"
              : "it is a field of " + context.resolution().enclosingInstance()));
      return null;
    }
    TypeKind kind = field.asType().getKind();
    if (kind == TypeKind.ARRAY) {
      return tableValue(field, qualifier, use);
    }
    Optional<NumericType> type = ConstantText.valueType(kind);
    if (type.isEmpty() && kind == TypeKind.DECLARED) {
      return referenceField(field, qualifier, use); // an enum constant, an object, a string
    }
    if (type.isEmpty()) {
      unsupported(use, "field '" + name + "' has type '" + field.asType()
          + "': only numeric and boolean constants are supported");
      return null;
    }
    if (!field.getModifiers().contains(Modifier.FINAL)) {
      return mutableField(field, qualifier, use, type.get(),
          kind == TypeKind.CHAR || kind == TypeKind.SHORT || kind == TypeKind.BYTE ? kind : null);
    }
    TypeElement owner = (TypeElement) field.getEnclosingElement();
    Object constant = field.getConstantValue();
    if (constant != null) {
      Optional<MathOwner> math = MathOwner.named(owner.getQualifiedName().toString());
      Expr text;
      if (math.isPresent()) {
        text = Expr.atom(context.mathClassName(math.get()) + "." + name);
      } else if (constant instanceof Boolean flag) {
        text = Expr.atom(flag.toString());
      } else if (constant instanceof Short || constant instanceof Byte) {
        // with its type: a call it is passed to means f(short) or f(byte), not f(int)
        text = ConstantText.literal(constant).orElseThrow()
            .castTo(kind.toString().toLowerCase(java.util.Locale.ROOT));
      } else {
        text = ConstantText.literal(constant).orElseThrow();
      }
      OptionalDouble known = constant instanceof Boolean
          ? OptionalDouble.empty() : OptionalDouble.of(ConstantText.asDouble(constant));
      return expressions.conversions().typedAs(kind,
          new Operand.Constant(text, type.get(), known));
    }
    Optional<String> unreachable = context.javaTypes().memberReachability(field, qualifier);
    Optional<Expr> initializer = unreachable.isPresent()
        ? new PureInitializers(context).textOf(field, type.get()) : Optional.empty();
    if (initializer.isPresent()) {
      // generated code evaluates the same initializer, with the same result
      return expressions.conversions().typedAs(kind,
          new Operand.Constant(initializer.get(), type.get(), OptionalDouble.empty()));
    }
    Optional<Expr> copy = privateCopy(field, unreachable);
    if (copy.isPresent()) {
      // the generated class's copy, read from the field once
      return expressions.conversions().typedAs(kind,
          new Operand.Constant(copy.get(), type.get(), OptionalDouble.empty()));
    }
    if (unreachable.isPresent()) {
      unsupported(use, "field '" + name + "' is not a compile-time constant and generated code"
          + " cannot read it: " + unreachable.get() + ", or make the field a constant");
      return null;
    }
    return expressions.conversions().typedAs(kind, new Operand.Constant(
        Expr.atom(context.javaTypes().referenceTo(
            context.javaTypes().qualifyingType(field, qualifier)) + "." + name),
        type.get(), OptionalDouble.empty()));
  }

  /**
   * The generated class's copy of a {@code private static final} field that generated code
   * cannot read ({@code unreachable} says why), when {@link PrivateFields} can make one.
   */
  private Optional<Expr> privateCopy(VariableElement field, Optional<String> unreachable) {
    return unreachable.isPresent() ? new PrivateFields(context).read(field)
        : Optional.empty();
  }

  /**
   * A static field that is not {@code final}, read where the method reads it, as written: a
   * value of its own, which no derivative program reads again from the field (a call run as
   * written may set it in between: {@link LaunderedDependence}, {@link StateReadAgain}).
   */
  private Operand mutableField(VariableElement field, TypeElement qualifier, Tree use,
      NumericType type, TypeKind narrow) {
    String name = field.getSimpleName().toString();
    Optional<String> unreachable = context.javaTypes().memberReachability(field, qualifier);
    // a private field of a class generated code can name: through the generated class's handle
    Optional<Expr> handle = unreachable.isPresent() && narrow == null
        ? new PrivateFields(context).staticHandleRead(field) : Optional.empty();
    if ((unreachable.isPresent() && handle.isEmpty()) || narrow != null) {
      // a read of it would be an int variable in generated code, which calls f(int) where the
      // method's f(short) or f(char) is
      unsupported(use, "field '" + name + "' is not final, and generated code cannot read it"
          + (narrow != null ? " as a '" + narrow.toString().toLowerCase(java.util.Locale.ROOT)
              + "'" : ": " + unreachable.get()));
      return null;
    }
    Operand.Constant text = new Operand.Constant(handle.orElseGet(() ->
        Expr.atom(context.javaTypes().referenceTo(
            context.javaTypes().qualifyingType(field, qualifier)) + "." + name)),
        type, OptionalDouble.empty());
    Operand value = context.emit(Operation.COPY, List.of(text), type, false);
    context.notedCalls().readsState(value); // a call run as written may have set it
    return value;
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
