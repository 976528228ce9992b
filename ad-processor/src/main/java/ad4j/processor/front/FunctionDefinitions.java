package ad4j.processor.front;

import ad4j.processor.front.FunctionValues.Known;
import ad4j.processor.front.FunctionValues.Signature;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;

/**
 * Which function a local, a field or an argument holds, for {@link FunctionValues} to apply:
 * the code of a lambda, a static method reference, an anonymous or named class written where
 * the value is made, or of a {@code static final} field of the method's class initialised with
 * one, with the names it sees there; and, for messages, which names hold a function whose code
 * ad4j does not know. Anything else given as a function is an error at it, since ad4j must see
 * the code.
 *
 * <p>Apart from {@link FunctionValues} because finding a function's code is done once where a
 * local is declared or an operation is given a function, while applying it is done at every
 * call, with the arguments bound.
 */
final class FunctionDefinitions {
  private final LoweringContext context;
  private final Diagnostics diagnostics;
  private final FunctionTypes types;
  private final FunctionImplementations implementations;
  /** The record method being inlined where a function is written: {@link RecordLowering#frame}. */
  private final java.util.function.Supplier<RecordLowering.Frame> frames;

  FunctionDefinitions(LoweringContext context, FunctionTypes types,
      FunctionImplementations implementations,
      java.util.function.Supplier<RecordLowering.Frame> frames) {
    this.frames = frames;
    this.context = context;
    this.diagnostics = context.diagnostics();
    this.types = types;
    this.implementations = implementations;
  }

  /**
   * Whether the local {@code declaration} of {@code type} holds a function value: its type is a
   * function type, or it is initialised with a lambda or a method reference. A local of another
   * interface with one method ({@code Distribution d = new Normal(0, 1)}) is an object.
   */
  boolean holdsFunction(VariableTree declaration, TypeMirror type) {
    if (FunctionTypes.isFunctionType(type, context.elements())) {
      return true;
    }
    ExpressionTree code = declaration.getInitializer();
    while (code != null && code.getKind() == Tree.Kind.PARENTHESIZED) {
      code = ((com.sun.source.tree.ParenthesizedTree) code).getExpression();
    }
    return code != null && (code.getKind() == Tree.Kind.LAMBDA_EXPRESSION
        || code.getKind() == Tree.Kind.MEMBER_REFERENCE);
  }

  /**
   * Declares the local {@code declaration} of a functional interface type: it holds
   * the function its initializer gives, a lambda, a method reference or another local holding a
   * function. Anything else is an error at the initializer, since ad4j must see the code.
   */
  void declare(VariableTree declaration, Signature signature) {
    String name = declaration.getName().toString();
    ExpressionTree initializer = declaration.getInitializer();
    if (initializer == null) {
      unsupported(declaration, "function value '" + name + "' must be initialised where it is"
          + " declared, with a lambda or a method reference, so that ad4j knows its code");
      context.scopes().declareBroken(name);
      return;
    }
    Optional<Known> known = definition(initializer, signature);
    if (known.isEmpty()) {
      context.scopes().declareBroken(name);
      return;
    }
    context.scopes().declareFunction(name, known.get());
  }

  /** The function {@code initializer} gives; empty after an error. */
  private Optional<Known> definition(ExpressionTree initializer, Signature signature) {
    ExpressionTree code = initializer;
    while (code.getKind() == Tree.Kind.PARENTHESIZED) {
      code = ((com.sun.source.tree.ParenthesizedTree) code).getExpression();
    }
    if (code.getKind() == Tree.Kind.LAMBDA_EXPRESSION) {
      if (!checkBoxedComparisons((LambdaExpressionTree) code, signature)) {
        return Optional.empty();
      }
      return Optional.of(new Known(code, context.scopes().visible(), signature,
          context.symbols(), frames.get()));
    }
    if (code.getKind() == Tree.Kind.MEMBER_REFERENCE) {
      return isStaticReferenceShape((MemberReferenceTree) code)
          ? Optional.of(new Known(code, Map.of(), signature, context.symbols()))
          : Optional.empty();
    }
    if (code instanceof NewClassTree creation && creation.getClassBody() != null) {
      return implementations.implementation(creation, signature) == null ? Optional.empty()
          : Optional.of(new Known(code, context.scopes().visible(), signature,
              context.symbols(), frames.get()));
    }
    TypeElement created = code instanceof NewClassTree creation
        && creation.getArguments().isEmpty() ? implementations.createdType(creation) : null;
    if (created != null && created.getKind() == ElementKind.CLASS) {
      // new C() of a class of the file: its method's names are C's
      InlinedClassInitialization.reportIfSkipped(context, created, code,
          "new " + created.getSimpleName() + "()");
      return implementations.namedImplementation((NewClassTree) code, created, signature)
          == null ? Optional.empty()
          : Optional.of(new Known(code, Map.of(), signature,
              context.resolution().symbolsIn(created)));
    }
    Optional<Known> named = known(code);
    if (named.isPresent() && named.get().signature().parameters().equals(signature.parameters())
        && named.get().signature().records().equals(signature.records())
        && named.get().signature().result() == signature.result()
        && java.util.Objects.equals(named.get().signature().resultRecord(),
            signature.resultRecord())) {
      return named;
    }
    unsupported(initializer, "the code of '" + context.source().of(initializer) + "' is not"
        + " known at compile time: " + KNOWN_FUNCTIONS);
    return Optional.empty();
  }

  /**
   * The function given as {@code argument} to an operation that applies it as
   * {@code signature} (a stream's {@code map}): a lambda or a method reference written there,
   * or a name of a known function. Null after an error.
   */
  Known argument(ExpressionTree argument, Signature signature) {
    Optional<Known> known = definition(argument, signature);
    return known.orElse(null);
  }

  /** What ad4j can specialise, for messages. */
  static final String KNOWN_FUNCTIONS = "ad4j differentiates a function value by its code,"
      + " so it must be a lambda or a method reference written in this method (held in a local),"
      + " or a 'static final' field of this class initialised with one";

  /**
   * With boxed parameters ({@code BiFunction<Double, Double, Double>}), {@code a == b}
   * compares objects, which the specialised code, over {@code double} values, cannot do: an
   * error at the comparison.
   */
  private boolean checkBoxedComparisons(LambdaExpressionTree lambda, Signature signature) {
    if (!signature.boxed()) {
      return true;
    }
    Set<String> parameters = new HashSet<>();
    lambda.getParameters().forEach(p -> parameters.add(p.getName().toString()));
    boolean[] ok = {true};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitBinary(BinaryTree tree, Void unused) {
        if ((tree.getKind() == Tree.Kind.EQUAL_TO || tree.getKind() == Tree.Kind.NOT_EQUAL_TO)
            && (isParameter(tree.getLeftOperand()) || isParameter(tree.getRightOperand()))) {
          // not 'equals' or 'doubleValue()': the specialised parameters are doubles, which
          // have no methods (an error at the call)
          unsupported(tree, "'" + context.source().of(tree) + "' compares boxed values of a"
              + " function over boxes by reference: ad4j specialises it over 'double' values;"
              + " use the primitive interface ('DoubleUnaryOperator', 'DoubleBinaryOperator'),"
              + " whose '" + (tree.getKind() == Tree.Kind.EQUAL_TO ? "==" : "!=")
              + "' compares the numbers");
          ok[0] = false;
        }
        return super.visitBinary(tree, unused);
      }

      // '(p) == (q)' and 'c ? p : q' are the parameter's box as well
      private boolean isParameter(ExpressionTree operand) {
        ExpressionTree unwrapped = ExpressionLowering.withoutParentheses(operand);
        if (unwrapped instanceof ConditionalExpressionTree choice) {
          return isParameter(choice.getTrueExpression())
              || isParameter(choice.getFalseExpression());
        }
        return unwrapped instanceof IdentifierTree identifier
            && parameters.contains(identifier.getName().toString());
      }
    }.scan(lambda.getBody(), null);
    return ok[0];
  }

  /**
   * The function {@code receiver} names: a local holding one, or a {@code static final} field
   * of the method's class initialised with a lambda or a method reference. Empty when it names
   * no such thing (other fields and parameters of functional types are {@link #unknown}).
   */
  Optional<Known> known(ExpressionTree receiver) {
    if (receiver instanceof IdentifierTree identifier) {
      LocalScopes.Local local = context.scopes().lookUp(identifier.getName().toString());
      if (local != null) {
        return Optional.ofNullable(local.function());
      }
    }
    return context.resolution().fieldNamed(receiver).flatMap(this::fieldFunction);
  }

  /**
   * Whether {@code receiver} names a parameter, local or field of a functional interface type
   * whose code ad4j does not know here, and what it is, for messages.
   */
  Optional<String> unknown(ExpressionTree receiver) {
    if (known(receiver).isPresent()) {
      return Optional.empty();
    }
    if (receiver instanceof IdentifierTree identifier) {
      LocalScopes.Local local = context.scopes().lookUp(identifier.getName().toString());
      if (local != null) {
        boolean parameter = context.element().getParameters().stream()
            .anyMatch(p -> p.getSimpleName().contentEquals(identifier.getName()));
        return local.referenceType() != null
            && FunctionTypes.isFunctionType(local.referenceType(), context.elements())
            ? Optional.of((parameter ? "parameter '" : "local '") + identifier.getName() + "'")
            : Optional.empty();
      }
    }
    return context.resolution().fieldNamed(receiver)
        .filter(field -> FunctionTypes.isFunctionType(field.asType(), context.elements()))
        .map(field -> "field '" + field.getSimpleName() + "'");
  }

  /** A {@code static final} field of the method's class holding a lambda or a reference. */
  private Optional<Known> fieldFunction(VariableElement field) {
    if (!StaticMembers.isStatic(field)
        || !field.getModifiers().contains(Modifier.FINAL)) {
      return Optional.empty();
    }
    Optional<Signature> signature = types.signature(field.asType());
    TreePath path = context.trees().getPath(field);
    if (signature.isEmpty() || path == null
        || !(path.getLeaf() instanceof VariableTree declaration)
        || declaration.getInitializer() == null) {
      return Optional.empty();
    }
    ExpressionTree code = declaration.getInitializer();
    while (code.getKind() == Tree.Kind.PARENTHESIZED) {
      code = ((com.sun.source.tree.ParenthesizedTree) code).getExpression();
    }
    if (code.getKind() != Tree.Kind.LAMBDA_EXPRESSION
        && code.getKind() != Tree.Kind.MEMBER_REFERENCE) {
      return Optional.empty();
    }
    // the field's class must be the method's, or the class of a method taking a function
    // whose code is lowered here (of another file, maybe), so that the names in the code mean
    // at the call what they mean where it is written
    Element owner = field.getEnclosingElement();
    Symbols own = context.resolution().ownSymbols();
    Symbols home = owner.equals(own.enclosingType()) ? own
        : owner.equals(context.symbols().enclosingType()) ? context.symbols() : null;
    if (home == null) {
      return Optional.empty();
    }
    context.resolution().adopt(declaration, path.getCompilationUnit());
    return Optional.of(new Known(code, Map.of(), signature.get(), home));
  }

  /**
   * Whether {@code reference} has the shape of a reference to a static method,
   * {@code Owner::name} with a class name; else an error at it.
   */
  boolean isStaticReferenceShape(MemberReferenceTree reference) {
    if (reference.getMode() != MemberReferenceTree.ReferenceMode.INVOKE
        || !Symbols.isName(reference.getQualifierExpression())
        || (reference.getQualifierExpression() instanceof IdentifierTree first
            && (context.scopes().lookUp(first.getName().toString()) != null
                || context.symbols().resolveField(first.getName().toString()).isPresent()))) {
      unsupported(reference, "method reference '" + context.source().of(reference) + "' is not"
          + " supported: ad4j specialises references to static methods ('Math::sin',"
          + " 'MyClass::f'); write a lambda instead");
      return false;
    }
    return true;
  }

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
