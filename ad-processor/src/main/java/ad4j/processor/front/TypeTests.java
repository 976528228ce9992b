package ad4j.processor.front;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.BindingPatternTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.InstanceOfTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/**
 * {@code o instanceof Circle} and {@code o instanceof Circle c} on objects that carry no
 * derivative: data, records read from collections, {@code @NoDerivative} and object parameters.
 * The test is a boolean that carries no derivative ({@link Operation#typeTest}); the pattern's
 * variable holds the tested object where the test holds ({@link Operation#typePattern}: {@code
 * o instanceof Circle ? (Circle) o : null}), a local of the pattern's type like any object
 * local, so that its methods run as written ({@code c.r()}). Both run where the method runs
 * them, in every generated member alike: an object's class never changes, so a member that
 * runs them again (a reverse sweep that computes iterations anew, a callee run twice) gets the
 * same answer ({@link Operation#testsType}).
 *
 * <p>The variable is declared in the scope being lowered when the test is; Java's compiler has
 * checked that the method reads it only where the test held (the branch, the right operand of
 * {@code &&}, the rest of the block after {@code if (!(o instanceof Circle c)) return;}), and a
 * later pattern of the same name declares it anew. A test lowered in a nested block (the right
 * operand of {@code &&} or {@code ||}, a branch of {@code ?:}) binds a variable declared where
 * the statement stands, which the code after that block reads.
 *
 * <p>A value record that ad4j flattens into its numbers (a parameter that carries derivatives,
 * a record made with {@code new}) is no object, and testing its type is an error at the test,
 * as are record patterns ({@code o instanceof Circle(double r)}). A box made from a number that
 * carries a derivative is an object like any other: its dependence follows it through the test
 * into the pattern's variable, and is the laundering error where its number comes back
 * ({@link LaunderedDependence}).
 */
final class TypeTests {
  private final LoweringContext context;
  private final ExpressionLowering expressions;

  TypeTests(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
  }

  /** {@code test} lowered: its boolean, the pattern's variable declared; null after an error. */
  Operand lower(InstanceOfTree test) {
    String shown = context.source().of(test);
    Tree pattern = test.getPattern();
    VariableTree binding = pattern instanceof BindingPatternTree bound ? bound.getVariable()
        : null;
    if (pattern != null && binding == null) {
      rejected(test, "'" + shown + "' is not supported: ad4j tests the type of an object with"
          + " 'instanceof' and a type or a type pattern ('o instanceof Circle c'), not a record"
          + " pattern; bind the record and read its components with their accessors ('c.r()')");
      return null;
    }
    Tree typeTree = binding != null ? binding.getType() : test.getType();
    // as declarations resolve it, wildcards included ('List<?>')
    Optional<TypeMirror> mirror = context.javaTypes().typeMirrorOf(typeTree);
    if (mirror.isEmpty()) {
      if (!context.isLocalClass(typeTree)) { // a local class: its declaration is the error
        context.diagnostics().unresolved(typeTree, "cannot find class '"
            + context.source().of(typeTree) + "'");
      }
      rejected(test, null);
      return null;
    }
    TypeMirror type = mirror.get();
    Optional<String> problem = typeProblem(type);
    if (problem.isPresent()) {
      rejected(test, "'" + shown + "' is not supported: " + problem.get());
      return null;
    }
    String text = context.javaTypes().javaText(type).orElseThrow();
    ExpressionTree tested = test.getExpression();
    RecordLowering records = expressions.records();
    Optional<TypeElement> record = records.typeOf(tested);
    if (record.isPresent() && !records.readsAnObject(tested)
        && !records.comesFromCodeRunAsWritten(tested)) {
      rejected(test, "'" + shown + "' is not supported: '" + context.source().of(tested)
          + "' is a value of record '" + record.get().getSimpleName() + "', which ad4j"
          + " flattens into its numbers (they may carry derivatives), so there is no object"
          + " whose type it could test; its type is '" + record.get().getSimpleName() + "'"
          + " where it is written: drop the test, or test an object that carries no"
          + " derivative");
      return null;
    }
    Operand object = expressions.lower(tested);
    if (object == null) {
      rejected(test, null);
      return null;
    }
    Optional<TypeMirror> objectType = context.javaTypes().referenceTypeOf(object);
    if (!object.type().isReference() || objectType.isEmpty()
        || objectType.get().getKind() == TypeKind.NULL) {
      rejected(test, "'" + shown + "' is not supported: ad4j tests the types of objects that"
          + " carry no derivative, and '" + context.source().of(tested) + "' is "
          + (object.type().isReference() ? "'null'" : "a '" + object.type().keyword() + "'"));
      return null;
    }
    if (binding != null && object instanceof Operand.Constant) {
      // a static final object: held in a value, whose name the binding's text writes twice
      object = context.emitReference(Operation.COPY, List.of(object), objectType.get())
          .orElseThrow();
    }
    Operand answer = context.emit(Operation.typeTest(text), List.of(object),
        NumericType.BOOLEAN, false);
    context.dependences().runsAsWritten(answer, "instanceof", true);
    if (binding == null) {
      return answer;
    }
    boolean always = context.types().isAssignable(context.types().erasure(objectType.get()),
        context.types().erasure(type));
    Operand held = object; // an object of the pattern's type already: itself
    if (!always) {
      held = context.emitReference(Operation.typePattern(text), List.of(object), type)
          .orElseThrow();
      context.dependences().runsAsWritten(held, "instanceof", true);
    }
    String name = binding.getName().toString();
    Optional<String> hidden = hiddenBy(name);
    if (hidden.isPresent()) {
      rejected(test, "the pattern variable '" + name + "' has the name of " + hidden.get()
          + "; rename the pattern variable");
      return null;
    }
    declare(name, held, type, text);
    return answer;
  }

  /**
   * What a pattern variable {@code name} would hide past Java's scope of it, said for the
   * message: ad4j holds a pattern's variable in the whole block where the test stands, so after
   * the 'if', in its 'else' or the right operand of '||', a field's read
   * ({@code return r + b * scale;}) or a class's name ({@code Math.cos(a)}) would mean the
   * variable. Empty for a name that is neither, or none ('_').
   */
  private Optional<String> hiddenBy(String name) {
    if (name.isEmpty() || name.equals("_")) {
      return Optional.empty();
    }
    String scope = "': ad4j holds a pattern's variable in the block where the test stands, so ";
    String ended = " where Java's scope of the variable has ended (after the 'if', in its"
        + " 'else', the right operand of '||') would ";
    Optional<VariableElement> field = context.symbols().resolveField(name);
    if (field.isPresent()) {
      return Optional.of("the field '" + field.get().getEnclosingElement().getSimpleName() + "."
          + name + scope + "a read of '" + name + "'" + ended
          + "read the variable instead of the field");
    }
    return context.symbols().resolveSimpleType(name).map(named -> "the class '"
        + named.getQualifiedName() + scope + "'" + name + "'" + ended
        + "name the variable instead of the class");
  }

  /**
   * The names of the patterns' variables in {@code condition}, outside lambdas (whose patterns
   * are the lambda's own).
   */
  static java.util.Set<String> boundNames(ExpressionTree condition) {
    java.util.Set<String> names = new java.util.HashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitBindingPattern(BindingPatternTree pattern, Void unused) {
        names.add(pattern.getVariable().getName().toString());
        return super.visitBindingPattern(pattern, unused);
      }

      @Override
      public Void visitLambdaExpression(com.sun.source.tree.LambdaExpressionTree lambda,
          Void unused) {
        return null;
      }
    }.scan(condition, null);
    return names;
  }

  /**
   * Why generated code cannot test for {@code type} and hold an object of it; empty when it
   * can: a class, interface, enum or record that it can name, without type arguments or with
   * wildcards only ({@code List<?>}), which a test of the class alone decides.
   */
  private Optional<String> typeProblem(TypeMirror type) {
    if (!(type instanceof DeclaredType declared)) {
      return Optional.of("ad4j tests objects against classes, interfaces, enums and records,"
          + " not '" + type + "'");
    }
    boolean reifiable = declared.getTypeArguments().stream().allMatch(argument ->
        argument instanceof WildcardType wildcard && wildcard.getExtendsBound() == null
            && wildcard.getSuperBound() == null);
    if (!reifiable) {
      return Optional.of("ad4j tests an object's class, so a generic type is tested with"
          + " wildcards ('" + declared.asElement().getSimpleName() + "<?>')");
    }
    if (context.javaTypes().javaText(type).isEmpty()) {
      return Optional.of("generated code cannot name the type '" + type + "': "
          + context.javaTypes().typeProblem(type));
    }
    return Optional.empty();
  }

  /**
   * The pattern's variable {@code name}, holding {@code held} from here on. In a block nested
   * in the statement (or lambda) being lowered it is a variable declared where that stands,
   * since Java's scope of it may reach past the nested block.
   */
  private void declare(String name, Operand held, TypeMirror type, String text) {
    if (name.isEmpty() || name.equals("_")) {
      return; // an unnamed pattern variable (Java 22): nothing reads it
    }
    NumericType kind = context.javaTypes().irType(type).orElseThrow();
    LocalScopes scopes = context.scopes();
    int depth = Math.min(context.bindingDepth(), context.ir().depth());
    if (context.ir().depth() > depth) {
      scopes.declareVariableLocal(name, kind, kind == NumericType.OBJECT ? type : null, text,
          context);
      LocalScopes.Local local = scopes.lookUp(name);
      context.ir().addAtDepth(depth, new Declare(local.variable(),
          Operand.Constant.zero(kind), context.line()));
      context.bind(local, held);
      return;
    }
    if (kind == NumericType.OBJECT) {
      scopes.declareLocal(name, kind, type, text, context);
    } else {
      scopes.declareLocal(name, kind, context);
    }
    LocalScopes.Local local = scopes.lookUp(name);
    if (local.variable() != null) {
      context.ir().add(new Declare(local.variable(), held, context.line()));
    } else {
      context.bind(local, held);
    }
  }

  /**
   * After an error at {@code test} ({@code message}, or none when one is reported already):
   * the pattern's variables are known, so that their uses add no errors of their own.
   */
  private void rejected(InstanceOfTree test, String message) {
    if (message != null) {
      context.diagnostics().error(test, message);
    }
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree variable, Void unused) {
        context.scopes().declareBroken(variable.getName().toString());
        return super.visitVariable(variable, unused);
      }
    }.scan(test.getPattern(), null);
  }
}
