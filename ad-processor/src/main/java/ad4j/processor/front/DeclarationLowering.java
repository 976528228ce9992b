package ad4j.processor.front;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import java.util.Optional;
import java.util.function.Supplier;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;

/**
 * Lowers the declarations of locals: of the numbers and arrays ad4j computes with, of objects
 * (which carry no derivative and run as written), of value records (flattened, one local per
 * leaf, by {@link RecordLocals}) and of functions ({@link FunctionValues}). Apart from
 * {@link Lowering}'s statement walk because what a declaration makes depends on its type and
 * initializer alone, a choice of its own that no other statement shares.
 */
final class DeclarationLowering {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final ArrayCopies arrays;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  /** The body of the method being lowered. */
  private final Supplier<Tree> methodBody;

  DeclarationLowering(LoweringContext context, ExpressionLowering expressions, ArrayCopies arrays,
      Supplier<Tree> methodBody) {
    this.context = context;
    this.expressions = expressions;
    this.arrays = arrays;
    this.methodBody = methodBody;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
  }

  void lowerDeclaration(VariableTree declaration) {
    lowerDeclaration(declaration, true);
  }

  /** Whether {@code initializer} is a lambda or a method reference, in parentheses or not. */
  private static boolean isFunctionCode(ExpressionTree initializer) {
    ExpressionTree code = initializer == null ? null
        : ExpressionLowering.withoutParentheses(initializer);
    return code != null && (code.getKind() == Tree.Kind.LAMBDA_EXPRESSION
        || code.getKind() == Tree.Kind.MEMBER_REFERENCE);
  }

  /**
   * Declares again, with no value, a local that an earlier group of statements of an old-style
   * switch declared: its scope is the rest of the switch block (JLS 6.3), so a later case may
   * assign and read it. Only a local of an explicit type that was declared without error.
   */
  void declareInLaterCase(VariableTree declaration) {
    lowerDeclaration(declaration, false);
  }

  void lowerDeclaration(VariableTree declaration, boolean withInitializer) {
    String name = declaration.getName().toString();
    Tree type = declaration.getType();
    boolean inferred = type == null
        || (type instanceof IdentifierTree identifier && identifier.getName().contentEquals("var"));
    Optional<NumericType> declared = inferred ? Optional.empty() : JavaTypes.typeOf(type);
    if (!inferred && declared.isEmpty() && !(type instanceof PrimitiveTypeTree)) {
      Optional<TypeMirror> mirror = context.javaTypes().typeMirrorOf(type);
      Optional<FunctionValues.Signature> function =
          mirror.flatMap(expressions.functions()::signature);
      if (function.isPresent() && withInitializer
          && expressions.functions().definitions().holdsFunction(declaration, mirror.get())) {
        expressions.functions().definitions().declare(declaration, function.get());
        return;
      }
      if (function.isEmpty() && withInitializer && mirror.isPresent()
          && isFunctionCode(declaration.getInitializer())
          && FunctionTypes.isFunctionalInterface(mirror.get(), context.elements())) {
        // the lambda would be lowered as an object's initializer, whose error says a lambda may
        // initialise a local of a functional interface type: this is one, of another signature
        diagnostics.error(declaration.getInitializer(), "function value '" + name + "' of type '"
            + type + "' is not supported: its method is '"
            + expressions.functions().types().methodOf(mirror.get()) + "', and ad4j specialises"
            + " functions whose method takes 'double', 'float', 'int', 'long' or 'boolean'"
            + " values (boxed only in java.util.function's interfaces), value records or"
            + " 'double[]' and 'float[]' arrays, and returns such a value or a value record;"
            + " compute the value in this method, or write the function as a @Differentiable"
            + " method and call it");
        context.scopes().declareBroken(name);
        return;
      }
      lowerObjectDeclaration(declaration, name, type, withInitializer);
      return;
    }
    Optional<TypeElement> inferredRecord = inferred && declaration.getInitializer() != null
        ? expressions.records().typeOf(declaration.getInitializer()) : Optional.empty();
    if (inferredRecord.isPresent()) {
      lowerRecordDeclaration(declaration, name, inferredRecord.get(), withInitializer);
      return;
    }
    if (!inferred && declared.isEmpty()) {
      diagnostics.error(type, "local variable '" + name + "' has type '" + type
          + "': only 'double', 'float', 'int', 'long', 'boolean', 'char', 'short' and 'byte'"
          + " locals are supported");
      context.scopes().declareBroken(name);
      return;
    }
    ExpressionTree initializer = withInitializer ? declaration.getInitializer() : null;
    Operand value;
    // not a matrix: its rows are written as arrays of their own ('double[] r = m[0]; r[1] = x'),
    // which the uses of its name do not show
    boolean onlyRead = !inferred && declared.get().isArray()
        && declared.get() != NumericType.DOUBLE_MATRIX
        && (initializer instanceof NewArrayTree || initializer instanceof MethodInvocationTree)
        && arrays.isOwnLocal(declaration) && ArrayChoices.onlyRead(methodBody.get(), name, true);
    boolean neverWritten = onlyRead && initializer instanceof NewArrayTree;
    if (initializer instanceof NewArrayTree array && array.getType() == null && !inferred
        && declared.get().isArray()) {
      value = expressions.newArray(array, declared.get(), neverWritten); // double[] a = {x, y};
    } else if (initializer instanceof NewArrayTree array && neverWritten) {
      value = expressions.newArray(array, null, true); // double[] a = new double[] {x, y};
    } else if (initializer instanceof MethodInvocationTree call
        && ArrayCopies.isArraysCopy(call, context)) {
      value = arrays.lowerArraysCopy(call, onlyRead); // double[] c = Arrays.copyOf(w, n);
    } else if (initializer instanceof MethodInvocationTree call
        && ArrayLowering.isArrayClone(call, expressions.names())) {
      // double[] s = w.clone();
      value = expressions.cloneOf(call, ((MemberSelectTree) call.getMethodSelect())
          .getExpression(), onlyRead);
    } else if (!inferred && ArrayCopies.isChosenArray(declared.get())
        && ExpressionLowering.withoutParentheses(initializer)
            instanceof ConditionalExpressionTree choice) {
      value = arrays.lowerArrayChoice(name, declared.get(), choice); // double[] t = c ? u : v;
    } else {
      value = initializer == null ? null : expressions.lower(initializer);
    }
    NumericType localType;
    if (inferred) {
      if (initializer == null) {
        diagnostics.error(declaration, "'var " + name + "' needs an initializer");
        context.scopes().declareBroken(name);
        return;
      }
      if (value == null) {
        context.scopes().declareBroken(name);
        return;
      }
      localType = value.type();
      javax.lang.model.type.TypeKind narrow = expressions.conversions().narrowTypeOf(value);
      if (narrow != null) {
        // 'var c = 'a'' is a char local, as the initializer's Java type says
        localType = JavaTypes.variableType(narrow).orElseThrow();
        value = expressions.conversions().convert(value, localType);
      }
      if (localType == NumericType.OBJECT) {
        // 'var' of an object: declared as the initializer's type
        TypeMirror mirror = context.javaTypes().referenceTypeOf(value).orElseThrow();
        context.scopes().declareLocal(name, localType, mirror,
            context.javaTypes().javaText(mirror).orElseThrow(), context);
        declareOrBind(name, value);
        return;
      }
    } else {
      localType = declared.get();
    }
    if (localType.isNumeric()) {
      value = expressions.unboxing().number(value); // double v = xs.get(i)
    }
    if (value != null && !expressions.conversions().assignable(value, localType, initializer)) {
      value = null;
    }
    if (initializer != null && value == null) {
      // the initializer's error is reported already
      if (inferred) {
        context.scopes().declareBroken(name);
      } else {
        context.scopes().declareBroken(name, localType);
      }
      return;
    }
    if (value != null) {
      value = expressions.conversions().convert(value, localType);
    }
    if (name.isEmpty()) {
      return; // an unnamed variable '_' (Java 22): its initializer runs, nothing can read it
    }
    context.scopes().declareLocal(name, localType, context);
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (initializer != null && declaration.getModifiers().getFlags().contains(Modifier.FINAL)) {
      // maybe a constant variable: 'c ? 'a' : L' is a char in Java where 'L' holds a char's
      // value (ConstantExpressions)
      local.markConstantVariable();
    }
    if (local.variable() != null) {
      Operand initial = value != null ? value : Operand.Constant.zero(localType);
      ir.add(new Declare(local.variable(), initial, context.line()));
    } else if (value != null) {
      context.bind(local, value);
    }
  }

  /**
   * A local of a reference type other than the arrays ad4j computes with: an object, an enum,
   * a {@code String}, another array. It carries no derivative: its initializer runs as written,
   * and so does the code that uses it.
   */
  private void lowerObjectDeclaration(VariableTree declaration, String name, Tree type,
      boolean withInitializer) {
    Optional<TypeMirror> mirror = context.javaTypes().typeMirrorOf(type);
    if (mirror.isEmpty() && context.isLocalClass(type)) {
      context.scopes().declareBroken(name); // the class's declaration is the error
      return;
    }
    if (mirror.isEmpty()) {
      diagnostics.unresolved(type, "cannot find the type '" + type + "' of local variable '"
          + name + "'");
      context.scopes().declareBroken(name);
      lowerInitializerAfterError(declaration);
      return;
    }
    Optional<TypeElement> record = ValueRecords.valueRecord(mirror.get());
    if (record.isPresent() && !keepsObject(declaration, name, withInitializer)) {
      lowerRecordDeclaration(declaration, name, record.get(), withInitializer);
      return;
    }
    NumericType kind = context.javaTypes().irType(mirror.get()).orElse(null);
    Optional<String> text = context.javaTypes().javaText(mirror.get());
    if (kind == null || text.isEmpty()) {
      diagnostics.error(type, "local variable '" + name + "' has type '" + mirror.get()
          + "', which generated code cannot name: "
          + context.javaTypes().typeProblem(mirror.get()));
      context.scopes().declareBroken(name);
      lowerInitializerAfterError(declaration);
      return;
    }
    ExpressionTree initializer = withInitializer ? declaration.getInitializer() : null;
    // the declared type decides a diamond's type arguments: List<Double> xs = new ArrayList<>()
    Operand value = initializer == null ? null
        : ExpressionLowering.withoutParentheses(initializer) instanceof NewClassTree creation
            ? expressions.creation(creation, mirror.get()) : expressions.lower(initializer);
    if (initializer != null && (value == null
        || !expressions.conversions().assignableReference(value, mirror.get(), initializer))) {
      context.scopes().declareBroken(name);
      return;
    }
    if (name.isEmpty()) {
      return;
    }
    if (kind == NumericType.OBJECT) {
      context.scopes().declareLocal(name, kind, mirror.get(), text.get(), context);
    } else {
      context.scopes().declareLocal(name, kind, context);
    }
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local.variable() != null) {
      Operand initial = value != null ? value : Operand.Constant.zero(kind);
      ir.add(new Declare(local.variable(), initial, context.line()));
    } else if (value != null) {
      context.bind(local, value);
    }
  }

  /**
   * Whether a value record local that its declaration gives a record held as an object ({@code
   * Damping d = damping}, a field's or a {@code @NoDerivative} parameter's: {@link
   * RecordLowering#readsAnObject}; {@code Point p = points.get(i)}, one that code run as
   * written gives: {@link RecordLowering#comesFromCodeRunAsWritten}) and that its block never
   * assigns again stays that object,
   * as a {@code @NoDerivative} parameter does: its components are then read where the method
   * reads them, as Java reads them (a null record throws there, or nowhere), where a flattened
   * local would read them all at its declaration.
   */
  private boolean keepsObject(VariableTree declaration, String name, boolean withInitializer) {
    if (!withInitializer
        || !(expressions.records().readsAnObject(declaration.getInitializer())
            || expressions.records().comesFromCodeRunAsWritten(declaration.getInitializer()))) {
      return false;
    }
    com.sun.source.util.TreePath path = context.resolution().pathIn(declaration);
    Tree block = path == null || path.getParentPath() == null ? null
        : path.getParentPath().getLeaf();
    if (block == null) {
      return false;
    }
    boolean[] assigned = {false};
    new com.sun.source.util.TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(com.sun.source.tree.AssignmentTree assignment, Void unused) {
        assigned[0] |= assignment.getVariable() instanceof IdentifierTree target
            && target.getName().contentEquals(name);
        return super.visitAssignment(assignment, unused);
      }
    }.scan(block, null);
    return !assigned[0];
  }

  /**
   * A local of a value record ({@code Vec3 p = new Vec3(x, y, z)}), flattened: one local per
   * leaf ({@link RecordLowering}).
   */
  private void lowerRecordDeclaration(VariableTree declaration, String name, TypeElement record,
      boolean withInitializer) {
    ExpressionTree initializer = withInitializer ? declaration.getInitializer() : null;
    RecordLowering records = expressions.records();
    RecordLowering.Tuple value = null;
    if (initializer != null) {
      Optional<TypeElement> type = records.typeOf(initializer);
      if (type.isEmpty() || !type.get().equals(record)) {
        diagnostics.error(initializer, "'" + context.source().quoted(initializer) + "' cannot"
            + " initialize value record local '" + name + "': ad4j gives it values of its"
            + " record made in the method " + RecordLowering.valueSources(
            "a local, 'new', a call of the record's methods"));
        context.scopes().declareBroken(name);
        return;
      }
      value = records.lower(initializer);
      if (value == null) {
        context.scopes().declareBroken(name);
        return;
      }
    }
    records.locals().declareLocal(name, record, value);
  }

  private void lowerInitializerAfterError(VariableTree declaration) {
    if (declaration.getInitializer() != null) {
      expressions.lower(declaration.getInitializer());
    }
  }

  /** The local just declared as {@code name} gets {@code value}: a variable's or a bound one. */
  void declareOrBind(String name, Operand value) {
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local.variable() != null) {
      ir.add(new Declare(local.variable(), value, context.line()));
    } else {
      context.bind(local, value);
    }
  }
}
