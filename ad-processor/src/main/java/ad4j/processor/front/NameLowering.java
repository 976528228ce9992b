package ad4j.processor.front;

import ad4j.processor.ir.Operand;
import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import java.util.Optional;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;

/**
 * Lowers names: a simple name ({@code x}, a field {@code k}, a component of the record whose
 * method is inlined) and a qualified one ({@code Holder.K}, {@code o.x}, {@code a.length}),
 * resolved in Java's order, a variable obscuring a type of the same name; and tells whether a
 * name is an array or starts with a local or a field.
 *
 * <p>Apart from {@link ExpressionLowering} because what a name means takes scopes, fields,
 * records and the method's receiver, and calls ask the same of their qualifiers.
 */
final class NameLowering {
  private final LoweringContext context;
  private final Diagnostics diagnostics;
  private final ExpressionLowering expressions;
  private final ObjectValues objects;
  private final RecordLowering records;
  private final ArrayLowering arrays;
  private final StaticFieldReads staticFields;

  NameLowering(LoweringContext context, ExpressionLowering expressions, ObjectValues objects,
      ArrayLowering arrays, StaticFieldReads staticFields) {
    this.context = context;
    this.diagnostics = context.diagnostics();
    this.expressions = expressions;
    this.objects = objects;
    this.records = expressions.records();
    this.arrays = arrays;
    this.staticFields = staticFields;
  }

  Operand identifier(IdentifierTree identifier) {
    String name = identifier.getName().toString();
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local != null && local.valueRecord() != null) {
      records.locals().misused(identifier, name);
      return null;
    }
    if (local != null && local.function() != null) {
      unsupported(identifier, "function value '" + name + "' escapes here: "
          + ExpressionLowering.FUNCTION_USES + "; call it ('" + name + "."
          + local.function().signature().name() + "(...)')"
          + ExpressionLowering.annotateTakerAdvice(context, identifier)
              .map(advice -> ", or " + advice).orElse(""));
      return null;
    }
    if (local != null) {
      ResolutionLog.local(context, identifier, name);
      return context.read(local, identifier);
    }
    Optional<TypeElement> inlined = records.inlinedRecord();
    if (inlined.isPresent()) {
      // the code of a record's method, inlined: its names are the record's
      if (records.isReceiverComponent(name)) {
        return records.receiverComponent(identifier);
      }
      if (name.equals("this")) {
        records.locals().misused(identifier, name); // the receiver, flattened
        return null;
      }
      Optional<VariableElement> own = context.symbols().fieldOf(inlined.get(), name)
          .filter(field -> StaticMembers.isStatic(field));
      if (own.isPresent()) {
        return staticFields.fieldValue(own.get(), inlined.get(), identifier);
      }
    }
    Optional<TypeElement> qualifier = context.symbols().fieldQualifier(name);
    Optional<VariableElement> field =
        qualifier.flatMap(type -> context.symbols().fieldOf(type, name));
    if (field.isPresent()) {
      ResolutionLog.resolved(context, identifier, field.get());
      Optional<Operand> receiver = StaticMembers.isStatic(field.get())
          ? Optional.empty() : implicitReceiver(qualifier.get(), identifier);
      if (receiver.isPresent()) {
        return objects.field(receiver.get(), name, identifier); // 'k' is 'this.k'
      }
      return staticFields.fieldValue(field.get(), qualifier.get(), identifier);
    }
    diagnostics.unresolved(identifier, "cannot find variable '" + name + "'");
    return null;
  }

  /**
   * The receiver of an instance method, which a member of {@code owner} named without a
   * qualifier is read through; empty in a static method, and for a member of an enclosing
   * class's instance, which the method's class does not hold.
   */
  Optional<Operand> implicitReceiver(TypeElement owner, Tree use) {
    LocalScopes.Local self = context.scopes().lookUp(Receivers.THIS);
    if (self == null || !owner.equals(context.symbols().enclosingType())) {
      return Optional.empty();
    }
    return Optional.ofNullable(context.read(self, use));
  }

  Operand memberSelect(MemberSelectTree select) {
    if (records.handles(select)) {
      return records.memberSelect(select); // o.x of a flattened record
    }
    String member = select.getIdentifier().toString();
    if (member.equals("length") && isArrayExpression(select.getExpression())) {
      return arrays.arrayLength(select);
    }
    if (select.getExpression() instanceof IdentifierTree receiver
        && receiver.getName().contentEquals("super")) {
      unsupported(select, "field '" + member + "' read through 'super' is not supported: ad4j"
          + " reads the fields of the method's object by name or through 'this'; a field"
          + " that this class hides stays out of reach");
      return null;
    }
    if (select.getExpression() instanceof MemberSelectTree qualified
        && qualified.getIdentifier().contentEquals("this")) {
      unsupported(select, "'" + context.source().of(qualified) + "' (a qualified 'this') is not"
          + " supported: read a field of the method's own object by name or through 'this'"
          + " (an enclosing instance's fields are not passed to generated code)");
      return null;
    }
    // a variable obscures a type of the same name (JLS 6.4.2): 'H.k' of a field H is H's field k
    boolean qualifierIsLocal = startsWithLocal(select.getExpression())
        || startsWithField(select.getExpression());
    if (member.equals("class") && Symbols.isName(select.getExpression()) && !qualifierIsLocal) {
      return staticFields.classLiteral(select);
    }
    if (Symbols.isName(select.getExpression()) && !qualifierIsLocal) {
      Optional<TypeElement> owner = context.symbols().resolveType(select.getExpression());
      if (owner.isPresent()) {
        Optional<VariableElement> field = context.symbols().fieldOf(owner.get(), member);
        if (field.isPresent()) {
          ResolutionLog.resolved(context, select.getExpression(), owner.get());
          ResolutionLog.resolved(context, select, field.get());
          return staticFields.fieldValue(field.get(), owner.get(), select);
        }
        unsupported(select, "cannot find field '" + member + "' in "
            + owner.get().getQualifiedName());
        return null;
      }
      diagnostics.unresolved(select, "cannot find class '"
          + context.source().of(select.getExpression()) + "'");
      return null;
    }
    // a field of an object (a parameter, a local, what a call returns): read as written
    Operand receiver = expressions.lower(select.getExpression());
    return receiver == null ? null : objects.field(receiver, member, select);
  }

  /**
   * Whether {@code expression} is a local or parameter of array type, or an element of one (a
   * row): a name that is a type ({@code Foo.length}) or anything else is not.
   */
  boolean isArrayExpression(ExpressionTree expression) {
    if (expression instanceof ParenthesizedTree parenthesized) {
      return isArrayExpression(parenthesized.getExpression());
    }
    if (expression instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      LocalScopes.Local local = context.scopes().lookUp(name);
      if (local != null) {
        return local.type().isArray() || (local.referenceType() != null
            && local.referenceType().getKind() == TypeKind.ARRAY);
      }
      return context.symbols().resolveField(name)
          .map(field -> field.asType().getKind() == TypeKind.ARRAY).orElse(false);
    }
    if (expression instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && !startsWithLocal(select.getExpression())
        && !startsWithField(select.getExpression())) {
      // a table of another class, 'Holder.P.length'
      return context.symbols().resolveType(select.getExpression())
          .flatMap(owner -> context.symbols().fieldOf(owner, select.getIdentifier().toString()))
          .map(field -> field.asType().getKind() == TypeKind.ARRAY).orElse(false);
    }
    return expression instanceof ArrayAccessTree;
  }

  /** Whether {@code expression} is a local's name, or a field or element of one's. */
  private boolean startsWithField(ExpressionTree expression) {
    if (expression instanceof IdentifierTree identifier) {
      return context.symbols().resolveField(identifier.getName().toString()).isPresent();
    }
    if (expression instanceof MemberSelectTree select) {
      return startsWithField(select.getExpression());
    }
    return false;
  }

  boolean startsWithLocal(ExpressionTree expression) {
    if (expression instanceof IdentifierTree identifier) {
      return context.scopes().lookUp(identifier.getName().toString()) != null;
    }
    if (expression instanceof MemberSelectTree select) {
      return startsWithLocal(select.getExpression());
    }
    return false;
  }

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
