package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * Methods that take functions, templates: a {@code @Differentiable} method with a parameter of
 * a function type is inlined at each call, its parameters bound to the arguments and its
 * function parameters to the functions passed, so that it is differentiated for them; it gets
 * no generated members of its own. Apart from {@link FunctionValues}, which lowers the function
 * values themselves, because a template is a method, read from its source, possibly of another
 * file.
 */
final class FunctionTemplates {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final FunctionValues functions;
  private final FunctionTypes types;
  private final InlinedBodies bodies;
  /** The specialisations being inlined now, innermost last ({@link #specialisation}). */
  private final List<List<Object>> specialising = new ArrayList<>();

  FunctionTemplates(LoweringContext context, ExpressionLowering expressions,
      FunctionValues functions, FunctionTypes types, InlinedBodies bodies) {
    this.context = context;
    this.expressions = expressions;
    this.functions = functions;
    this.types = types;
    this.bodies = bodies;
  }

  /**
   * The {@code @Differentiable} method taking a function that {@code owner.name(...)} calls with
   * {@code arity} arguments: the only one of that name and arity, when it is such a method.
   */
  Optional<ExecutableElement> template(TypeElement owner, String name, int arity) {
    List<ExecutableElement> candidates = CallChoices.candidates(context, owner, name).stream()
        .filter(m -> m.getParameters().size() == arity).toList();
    if (candidates.size() != 1 || !CalleeResolver.isDifferentiable(candidates.get(0))
        || !FunctionTypes.takesFunction(candidates.get(0), context.elements())
        || candidates.get(0).isVarArgs()) {
      return Optional.empty();
    }
    return Optional.of(candidates.get(0));
  }

  /**
   * {@code method(arguments)} of a {@code @Differentiable} method taking a function: its body,
   * inlined here with its parameters bound to the arguments and its function parameters to the
   * functions passed, so that it is differentiated for them. Null after an error.
   */
  Operand inline(ExecutableElement method, MethodInvocationTree invocation, String shown) {
    TreePath path = context.trees().getPath(method);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree)
        || tree.getBody() == null
        || !(method.getEnclosingElement() instanceof TypeElement owner)) {
      reportNoSource(method, invocation, shown);
      return null;
    }
    // a method of another file: its code is read, and reported about, in its own file
    context.resolution().adopt(tree, path.getCompilationUnit());
    Optional<TypeElement> resultRecord = ValueRecords.valueRecord(method.getReturnType());
    Optional<NumericType> resultType = resultRecord.isPresent()
        ? Optional.of(NumericType.OBJECT) : types.resultType(method.getReturnType());
    if (resultType.isEmpty()) {
      unsupported(invocation, "call to '" + shown + "': '" + method.getSimpleName() + "' takes a"
          + " function and returns '" + method.getReturnType() + "'; ad4j specialises such"
          + " methods returning 'double', 'float', 'int', 'long' or 'boolean', a 'double[]' or"
          + " 'float[]' array, or a value record");
      return null;
    }
    List<Object> bound = new ArrayList<>();
    for (int i = 0; i < method.getParameters().size(); i++) {
      Object argument = bind(method, method.getParameters().get(i),
          invocation.getArguments().get(i));
      if (argument == null) {
        return null;
      }
      bound.add(argument);
    }
    List<Object> specialisation = specialisation(tree, bound);
    if (specialising.contains(specialisation)) {
      unsupported(invocation, "recursion through a function value is not supported: '"
          + method.getSimpleName() + "' takes a function and calls itself; ad4j specialises it"
          + " at each call, which a recursive one would never end");
      return null;
    }
    if (method.getModifiers().contains(javax.lang.model.element.Modifier.STATIC)
        && InlinedClassInitialization.reportIfSkipped(context, owner, invocation,
            owner.getSimpleName() + "." + method.getSimpleName() + "(...)")) {
      return null;
    }
    planInlined(tree);
    return inlinedBody(method, tree, owner, bound, specialisation, resultRecord,
        resultType.get());
  }

  /**
   * What one specialisation of the template {@code tree} is for: its tree, and for each function
   * bound to it the function's code and the code of each function value it sees (the template's
   * own function parameters, for a lambda written in a template), by name. A call inside the
   * function passed ('integrate(t -> integrate(u -> ..., 0, t), a, b)', a double integral) is
   * specialised for another function, as a C++ template is instantiated for each lambda, and
   * ends; one for a specialisation under way would be inlined into itself without end:
   * recursion. Keys are made of finitely many trees, so an endless chain of calls meets one
   * again; a lambda's code alone would not tell 't -> f.applyAsDouble(t)' for one 'f' from the
   * same lambda for another.
   */
  private static List<Object> specialisation(MethodTree tree, List<Object> bound) {
    List<Object> key = new ArrayList<>();
    key.add(tree);
    for (Object argument : bound) {
      if (argument instanceof FunctionValues.Known known) {
        key.add(FunctionValues.key(known));
      }
    }
    return key;
  }

  /**
   * The error for a call of a method taking a function whose source this compilation does not
   * have: ad4j specialises such a method at each call from its source, and no generated member
   * stands for it.
   */
  private void reportNoSource(ExecutableElement method, MethodInvocationTree invocation,
      String shown) {
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    unsupported(invocation, "call to '" + shown + "' is not supported: '"
        + method.getSimpleName() + "' takes a function, and ad4j differentiates such a method"
        + " at each call, for the function passed there, from its source, which this"
        + " compilation does not have: '" + declaring.getQualifiedName() + "' was compiled"
        + " earlier, and no generated member stands for '" + method.getSimpleName() + "';"
        + " compile its source file together with this one");
  }

  /**
   * What {@code parameter} of {@code method} is bound to for {@code argument}: a
   * {@link FunctionValues.Known} for a function, the record's value for a value record, else
   * the argument's number or array, converted to the parameter's type as Java would. Null after
   * an error.
   */
  private Object bind(ExecutableElement method, VariableElement parameter,
      ExpressionTree argument) {
    if (FunctionTypes.isFunctionType(parameter.asType(), context.elements())) {
      Optional<FunctionValues.Signature> signature = types.signature(parameter.asType());
      if (signature.isEmpty()) {
        unsupported(argument, "parameter '" + parameter.getSimpleName() + "' of '"
            + method.getSimpleName() + "' has type '" + parameter.asType() + "': ad4j"
            + " specialises functions that take 'double', 'float', 'int', 'long' or 'boolean'"
            + " values, 'double[]' or 'float[]' arrays or value records, and return such a"
            + " value");
        return null;
      }
      return functions.definitions().argument(argument, signature.get());
    }
    Optional<TypeElement> record = ValueRecords.valueRecord(parameter.asType());
    if (record.isPresent()) {
      return functions.recordArgument(argument, record.get());
    }
    return boundValue(method, parameter, argument);
  }

  /**
   * A number or an array bound to {@code parameter}: an array of the parameter's type as it is,
   * a number widened to it; an object, which the inlined body could not carry, an error. Null
   * after an error.
   */
  private Operand boundValue(ExecutableElement method, VariableElement parameter,
      ExpressionTree argument) {
    Optional<NumericType> type = context.javaTypes().irType(parameter.asType());
    Operand lowered = expressions.lower(argument);
    // a box given for a number is unboxed, as Java does: 'sumOver(f, xs.get(0))'
    Operand value = type.isPresent() && type.get().isNumeric()
        ? expressions.unboxing().number(lowered) : lowered;
    if (value == null) {
      return null;
    }
    if (type.isEmpty() || type.get().isReference()) {
      unsupported(argument, "parameter '" + parameter.getSimpleName() + "' of '"
          + method.getSimpleName() + "' has type '" + parameter.asType() + "': a method"
          + " taking a function is inlined where it is called, with numbers, arrays of"
          + " numbers and value records for its other parameters");
      return null;
    }
    if (type.get().isArray()) {
      if (value.type() != type.get()) {
        unsupported(argument, "'" + context.source().of(argument) + "' is not a '"
            + type.get().keyword() + "'");
        return null;
      }
      return value;
    }
    if (!expressions.conversions().assignable(value, type.get(), argument)) {
      return null;
    }
    return expressions.conversions().widened(value, type.get());
  }

  /**
   * Plans the variables of the inlined body, as for a method of its own; the arrays its swaps
   * exchange get variables too, for an inlined body's swaps exchange nothing and are errors.
   */
  private void planInlined(MethodTree tree) {
    context.variables().planInlined(VariablePlanner.plan(tree));
    Set<String> swapped = new HashSet<>();
    ArraySwaps.in(tree).forEach(swap -> {
      swapped.add(swap.first());
      swapped.add(swap.second());
    });
    context.variables().planInlined(swapped);
  }

  /**
   * The value of the inlined body of {@code method}, lowered in a scope of its own where its
   * parameters are {@code bound}, its names resolving in its own class {@code owner}, as the
   * innermost of the {@link #specialising} under way; where lowering was, the scopes and the
   * names are restored after it, whatever happens.
   */
  private Operand inlinedBody(ExecutableElement method, MethodTree tree, TypeElement owner,
      List<Object> bound, List<Object> specialisation, Optional<TypeElement> resultRecord,
      NumericType resultType) {
    LoweringContext.Position position = context.position();
    Deque<Map<String, LocalScopes.Local>> saved = context.scopes().enter(Map.of());
    specialising.add(specialisation);
    // its unqualified names are its own class's, which may be another class of the file
    Symbols calling = context.resolution().resolveIn(owner);
    try {
      context.scopes().push();
      for (int i = 0; i < bound.size(); i++) {
        String name = method.getParameters().get(i).getSimpleName().toString();
        if (bound.get(i) instanceof FunctionValues.Known known) {
          context.scopes().declareFunction(name, known);
        } else {
          Operand value = (Operand) bound.get(i);
          bodies.declareBound(name, value.type(), value);
        }
      }
      String withoutReturn = "method '" + method.getSimpleName() + "' can reach its end"
          + " without a 'return'";
      // none of its unqualified names is a component or a method of the receiver of a record
      // method being inlined where it is called: they are its own class's
      return expressions.records().lowerAs(null, () -> {
        if (resultRecord.isPresent()) {
          return bodies.returnedRecord(tree.getBody().getStatements(),
              method.getSimpleName().toString(), resultRecord.get(), tree, withoutReturn);
        }
        if (resultType.isArray()) {
          return bodies.returnedArray(tree.getBody().getStatements(), resultType, bound, tree,
              withoutReturn);
        }
        return bodies.returnedBy(tree.getBody().getStatements(),
            method.getSimpleName().toString(), resultType, tree, withoutReturn);
      });
    } finally {
      context.resolution().resolveAs(calling);
      specialising.remove(specialising.size() - 1);
      context.scopes().leave(saved);
      context.resume(position);
    }
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
