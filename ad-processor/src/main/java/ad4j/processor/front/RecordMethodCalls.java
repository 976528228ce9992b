package ad4j.processor.front;

import static ad4j.processor.front.RecordLowering.MAX_DEPTH;

import ad4j.processor.front.RecordLowering.Frame;
import ad4j.processor.front.RecordLowering.Tuple;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/**
 * Calls of a value record's own methods: which method a call names (Java's choice among the
 * record's methods), and the call inlined where it is made, with its receiver's and arguments'
 * leaves bound, or run as the record's members when it cannot be. Apart from
 * {@link RecordLowering} because choosing and inlining a method reads the record's source, a
 * job of its own with its own limits (depth, what a body may hold).
 */
final class RecordMethodCalls {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final RecordLowering records;
  /** The record methods being inlined, innermost first: {@link RecordLowering}'s. */
  private final Deque<Frame> frames;

  RecordMethodCalls(LoweringContext context, ExpressionLowering expressions,
      RecordLowering records, Deque<Frame> frames) {
    this.context = context;
    this.expressions = expressions;
    this.records = records;
    this.frames = frames;
  }

  /**
   * A call of a record's method: {@code receiver.m(...)} on a flattened record, {@code m(...)}
   * in a record's own code, {@code R.m(...)} of a static one of value record {@code R}.
   */
  record Target(ExecutableElement method, TypeElement record, ExpressionTree receiver) {}

  Optional<Target> target(MethodInvocationTree invocation) {
    return site(invocation).flatMap(site -> methodOf(site.record(), site.name(),
        invocation.getArguments().size(), site.staticOnly())
        .map(m -> new Target(m, site.record(), site.receiver())));
  }

  /**
   * Where a call of a record's method looks for it: {@code name} among the methods of
   * {@code record}, the static ones only when {@code staticOnly}; {@code receiver} as in
   * {@link Target}.
   */
  private record Site(TypeElement record, String name, boolean staticOnly,
      ExpressionTree receiver) {}

  private Optional<Site> site(MethodInvocationTree invocation) {
    ExpressionTree select = invocation.getMethodSelect();
    if (select instanceof MemberSelectTree member) {
      String name = member.getIdentifier().toString();
      Optional<TypeElement> receiver = records.typeOf(member.getExpression());
      if (receiver.isPresent()) {
        return Optional.of(new Site(receiver.get(), name, false, member.getExpression()));
      }
      if (Symbols.isName(member.getExpression())
          && context.scopes().lookUp(rootName(member.getExpression())) == null) {
        return context.symbols().resolveType(member.getExpression())
            .flatMap(type -> ValueRecords.valueRecord(type.asType()))
            .map(record -> new Site(record, name, true, null));
      }
      return Optional.empty();
    }
    Frame frame = frames.peek();
    if (select instanceof IdentifierTree identifier && frame != null && frame.record() != null) {
      return Optional.of(new Site(frame.record(), identifier.getName().toString(),
          frame.receiver() == null, null));
    }
    return Optional.empty();
  }

  /**
   * Why ad4j does not take {@code invocation}, a call of one of a value record's own methods,
   * as one ({@link #methodOf}): the record has several methods of that name a call of as many
   * arguments may mean, or one of them has variable arity; empty for other calls.
   */
  Optional<String> unchosen(MethodInvocationTree invocation) {
    Optional<Site> site = site(invocation);
    int arity = invocation.getArguments().size();
    if (site.isEmpty() || target(invocation).isPresent()) {
      return Optional.empty();
    }
    TypeElement record = site.get().record();
    List<ExecutableElement> candidates = candidates(record, site.get().name(), arity,
        site.get().staticOnly());
    List<ExecutableElement> own = candidates.stream()
        .filter(m -> m.getEnclosingElement().equals(record)).toList();
    if (own.isEmpty()) {
      return Optional.empty();
    }
    String call = "call to '" + context.source().of(invocation.getMethodSelect())
        + "(...)': value record '" + record.getSimpleName() + "' ";
    Optional<ExecutableElement> variable = own.stream().filter(ExecutableElement::isVarArgs)
        .findFirst();
    if (variable.isPresent()) {
      return Optional.of(call + "declares '" + variable.get() + "', of variable arity, which"
          + " ad4j does not call yet; declare it with an array parameter instead");
    }
    String arguments = arity + " argument" + (arity == 1 ? "" : "s");
    // its own first, then those it inherits, each qualified by its type
    String named = Stream.concat(own.stream().map(ExecutableElement::toString),
            candidates.stream().filter(m -> !own.contains(m))
                .map(m -> m.getEnclosingElement().getSimpleName() + "." + m))
        .map(m -> "'" + m + "'")
        .collect(Collectors.joining(", "));
    return Optional.of(call + "has " + candidates.size() + " methods '" + site.get().name()
        + "' a call of " + arguments + " may mean (" + named + "), which javac chooses among"
        + " by the arguments' types, and ad4j does not yet; give "
        + (own.size() == 1 ? "its own" : "each") + " a name of its own");
  }

  static String rootName(ExpressionTree name) {
    ExpressionTree root = name;
    while (root instanceof MemberSelectTree select) {
      root = select.getExpression();
    }
    return root instanceof IdentifierTree identifier ? identifier.getName().toString() : "";
  }

  /**
   * The method {@code name} of {@code record} with {@code arity} parameters (static only when
   * {@code staticOnly}), or the accessor javac writes for a component: a method of no element.
   * Only when it is the one method of that name a call of {@code arity} arguments may mean:
   * javac chooses among the record's own methods and those it inherits (an interface's default
   * {@code m(int)} beside the record's {@code m(double)}) by the arguments' types, and a method
   * of variable arity by their count, which ad4j does not repeat here; such a call stays an
   * error at its record ({@link RecordLocals#misused}) rather than a call of the wrong method.
   */
  private Optional<ExecutableElement> methodOf(TypeElement record, String name, int arity,
      boolean staticOnly) {
    List<ExecutableElement> found = candidates(record, name, arity, staticOnly);
    return found.size() == 1 && !found.get(0).isVarArgs()
        && found.get(0).getEnclosingElement().equals(record)
        ? Optional.of(found.get(0)) : Optional.empty();
  }

  /**
   * The methods {@code name} of {@code record}, its own and those it inherits, that a call of
   * {@code arity} arguments may mean (static only when {@code staticOnly}).
   */
  private List<ExecutableElement> candidates(TypeElement record, String name, int arity,
      boolean staticOnly) {
    List<ExecutableElement> found = new ArrayList<>();
    for (ExecutableElement method
        : ElementFilter.methodsIn(context.elements().getAllMembers(record))) {
      int count = method.getParameters().size();
      if (method.getSimpleName().contentEquals(name)
          && (count == arity || method.isVarArgs() && arity >= count - 1)
          && (!staticOnly || StaticMembers.isStatic(method))) {
        found.add(method);
      }
    }
    return found;
  }

  /** A record's method or accessor: a {@link Tuple}, an {@link Operand}, or null after error. */
  Object call(MethodInvocationTree invocation) {
    Target target = target(invocation).orElseThrow();
    Tuple receiver = null;
    if (!StaticMembers.isStatic(target.method())) {
      receiver = target.receiver() == null ? frames.peek().receiver()
          : records.lower(target.receiver());
      if (receiver == null) {
        return null;
      }
    }
    Optional<String> read = receiver == null ? Optional.empty()
        : accessedComponent(target.record(), target.method());
    if (read.isPresent()) {
      String name = read.get();
      return ValueRecords.componentRecord(target.record(), name).isPresent()
          ? records.component(receiver, name) : receiver.leaves().get(
              ValueRecords.range(target.record(), name).orElseThrow()[0]);
    }
    if (!inlinable(target.method()) && CalleeResolver.isDifferentiable(target.method())) {
      Operand value = membersCall(target, receiver, invocation);
      Optional<TypeElement> returned = ValueRecords.valueRecord(
          target.method().getReturnType());
      // a value record: the vector function of its leaves, read as a static callee's
      return value == null || returned.isEmpty() ? value
          : records.acrossCalls().leavesOf(value, returned.get(), invocation);
    }
    List<Object> arguments = new ArrayList<>();
    List<? extends VariableElement> parameters = target.method().getParameters();
    for (int i = 0; i < invocation.getArguments().size(); i++) {
      ExpressionTree argument = invocation.getArguments().get(i);
      // a box given for a number is unboxed, as Java does: 'p.scaled(xs.get(0))'
      Object value = records.typeOf(argument).isPresent() ? records.lower(argument)
          : i < parameters.size() && parameters.get(i).asType().getKind().isPrimitive()
              ? expressions.unboxing().number(expressions.lower(argument))
              : expressions.lower(argument);
      if (value == null) {
        return null;
      }
      arguments.add(value);
    }
    return inline(target.method(), target.record(), receiver, arguments, invocation);
  }

  /**
   * Whether ad4j inlines {@code method}: its source is here, and its body is local
   * declarations and a final {@code return} of a value.
   */
  private boolean inlinable(ExecutableElement method) {
    TreePath path = context.trees().getPath(method);
    return path != null && path.getLeaf() instanceof MethodTree tree && tree.getBody() != null
        && !tree.getBody().getStatements().isEmpty()
        && notInlinable(tree.getBody().getStatements()).isEmpty();
  }

  /**
   * The first of a method's {@code statements} that ad4j does not inline: one other than a
   * local declaration before the last, or a last one other than a {@code return} of a value.
   */
  private static Optional<StatementTree> notInlinable(List<? extends StatementTree> statements) {
    for (int i = 0; i < statements.size(); i++) {
      StatementTree statement = statements.get(i);
      boolean last = i == statements.size() - 1;
      if (last ? !(statement instanceof ReturnTree ret && ret.getExpression() != null)
          : !(statement instanceof VariableTree)) {
        return Optional.of(statement);
      }
    }
    return Optional.empty();
  }

  /**
   * A call of a {@code @Differentiable} method of a value record that is not inlined (a loop,
   * a branch in its body): the members generated for it, as for a method taking the receiver
   * as its first record parameter (DESIGN.md, "Instance methods"), its value the one over the
   * leaves. A method returning a value record is a vector function over the record's leaves
   * ({@link RecordsAcrossCalls#leavesOf}).
   */
  private Operand membersCall(Target target, Tuple receiver, MethodInvocationTree invocation) {
    List<Operand> all = new ArrayList<>();
    if (receiver != null) {
      all.add(context.flatRecords().recordPlaceholder(receiver));
    }
    for (ExpressionTree argument : invocation.getArguments()) {
      Operand value = expressions.callArgument(argument); // as for a static method's call
      if (value == null) {
        return null;
      }
      all.add(value);
    }
    String shown = context.source().of(invocation.getMethodSelect())
        + (invocation.getArguments().isEmpty() ? "()" : "(...)");
    return expressions.recordMethodCall(target.record(), target.method(), all, invocation,
        shown);
  }

  /**
   * The component {@code method} reads unchanged: a record's accessor that the compiler wrote,
   * a value class's getter ({@link ValueClasses}), read as the leaves, wherever its source is.
   */
  private Optional<String> accessedComponent(TypeElement record, ExecutableElement method) {
    if (record.getKind() != ElementKind.RECORD) {
      return ValueClasses.fieldOfGetter(record, method);
    }
    return method.getParameters().isEmpty()
        && ValueRecords.range(record, method.getSimpleName().toString()).isPresent()
        && records.isWrittenByTheCompiler(method)
        ? Optional.of(method.getSimpleName().toString()) : Optional.empty();
  }

  /**
   * The value of {@code method} of {@code record} called on {@code receiver} (null for a static
   * one) with {@code arguments}: its code, lowered here with the leaves bound.
   */
  private Object inline(ExecutableElement method, TypeElement record, Tuple receiver,
      List<Object> arguments, MethodInvocationTree at) {
    String shown = record.getSimpleName() + "." + method.getSimpleName();
    TreePath path = context.trees().getPath(method);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree) || tree.getBody() == null) {
      // a record compiled separately has no source for any method: not 'the compiler writes'
      boolean recordHere = context.trees().getPath(record) != null;
      if (recordHere && record.getKind() == ElementKind.RECORD
          && records.isWrittenByTheCompiler(method)) {
        // equals, hashCode and toString of a record that does not declare them: no source
        // anywhere, and "not in this compilation" would send the user looking for one
        error(at, "call to '" + shown + "': the compiler writes '" + method.getSimpleName()
            + "' of value record '" + record.getSimpleName() + "', so ad4j has no code of it"
            + " to differentiate; use the record's components instead (compare, hash or print"
            + " them)");
        return null;
      }
      error(at, "call to '" + shown + "': ad4j inlines the methods of a value record when"
          + " their source is in this compilation, which '" + shown + "''s is not");
      return null;
    }
    if (receiver == null
        && InlinedClassInitialization.reportIfSkipped(context, record, at, shown + "(...)")) {
      return null; // a static method's call initialises its class; an object's was made
    }
    // a record of another file: its code is read, and reported about, in its own file
    context.resolution().adopt(tree, path.getCompilationUnit());
    if (frames.stream().filter(frame -> frame.record() != null).count() >= MAX_DEPTH) {
      error(at, "call to '" + shown + "': the methods of value record '"
          + record.getSimpleName() + "' call each other " + MAX_DEPTH + " deep, which ad4j"
          + " takes for recursion: ad4j inlines them, and cannot inline recursion");
      return null;
    }
    List<? extends StatementTree> statements = tree.getBody().getStatements();
    Optional<StatementTree> other = notInlinable(statements);
    if (other.isPresent()) {
      // a @Differentiable one is called through its generated members instead (call)
      error(at, "call to '" + shown + "': ad4j inlines the methods of a value record whose"
          + " body is local declarations and a final 'return', which '" + shown + "''s is"
          + " not (line " + context.source().line(other.get()) + "), and calls the members it"
          + " generates for the others, which are @Differentiable: mark '" + shown
          + "' @Differentiable");
      return null;
    }
    context.scopes().pushIsolated();
    frames.push(new Frame(record, receiver));
    // the record's code names what its class sees, not what the caller's class sees
    Symbols callers = context.resolution().resolveIn(record);
    try {
      for (int i = 0; i < arguments.size(); i++) {
        VariableElement parameter = method.getParameters().get(i);
        String name = parameter.getSimpleName().toString();
        if (arguments.get(i) instanceof Tuple tuple) {
          records.locals().declareLocal(name, tuple.type(), tuple);
        } else {
          Optional<NumericType> type = context.javaTypes().irType(parameter.asType());
          Operand value = (Operand) arguments.get(i);
          if (type.isEmpty() || type.get().isReference()
              || !expressions.conversions().assignable(value, type.get(), at)) {
            error(at, "call to '" + shown + "': ad4j inlines the methods of a value record with"
                + " parameters of primitive and value record types, not '" + parameter.asType()
                + "'");
            return null;
          }
          context.scopes().declareLocal(name, type.get(), context);
          declareOrBind(name, expressions.conversions().convert(value, type.get()));
        }
      }
      for (StatementTree statement : statements.subList(0, statements.size() - 1)) {
        if (!declare((VariableTree) statement)) {
          return null;
        }
      }
      ExpressionTree result = ((ReturnTree) statements.get(statements.size() - 1))
          .getExpression();
      Optional<TypeElement> returned = ValueRecords.valueRecord(method.getReturnType());
      if (returned.isPresent()) {
        return records.lower(result);
      }
      Optional<NumericType> type = context.javaTypes().irType(method.getReturnType());
      Operand value = expressions.lower(result);
      if (value == null || type.isEmpty() || type.get().isReference()
          || !expressions.conversions().assignable(value, type.get(), result)) {
        if (value != null) {
          error(at, "call to '" + shown + "': ad4j inlines the methods of a value record that"
              + " return primitive values or value records, not '" + method.getReturnType()
              + "'");
        }
        return null;
      }
      return expressions.conversions().convert(value, type.get());
    } finally {
      context.resolution().resolveAs(callers);
      frames.pop();
      context.scopes().pop();
    }
  }

  /** A local declaration in an inlined method: a primitive or a value record. */
  private boolean declare(VariableTree declaration) {
    String name = declaration.getName().toString();
    Optional<TypeMirror> type = context.javaTypes().typeMirrorOf(declaration.getType());
    Optional<TypeElement> record = type.flatMap(ValueRecords::valueRecord);
    if (declaration.getInitializer() == null) {
      error(declaration, "local variable '" + name + "' of an inlined record method needs an"
          + " initializer");
      return false;
    }
    if (record.isPresent()) {
      Tuple value = records.typeOf(declaration.getInitializer()).isPresent()
          ? records.lower(declaration.getInitializer()) : null;
      if (value == null) {
        return false;
      }
      records.locals().declareLocal(name, record.get(), value);
      return true;
    }
    Optional<NumericType> kind = type.flatMap(context.javaTypes()::irType);
    if (kind.isEmpty() || kind.get().isReference()) {
      error(declaration, "local variable '" + name + "' of an inlined record method has type '"
          + declaration.getType() + "': ad4j inlines record methods whose locals are primitive"
          + " values or value records");
      return false;
    }
    Operand value = expressions.lower(declaration.getInitializer());
    if (value == null || !expressions.conversions().assignable(value, kind.get(),
        declaration.getInitializer())) {
      return false;
    }
    context.scopes().declareLocal(name, kind.get(), context);
    declareOrBind(name, expressions.conversions().convert(value, kind.get()));
    return true;
  }

  /**
   * The parameter or local {@code name} of the inlined method, just declared, gets
   * {@code value}. Names that need a mutable variable are planned method-wide, so a name the
   * caller assigns in a loop ({@code s}, {@code i}) gives the inlined one a variable too, which
   * must be declared here: a store into it alone left it undeclared (no adjoint in the reverse
   * sweep, a name the generated class does not declare).
   */
  private void declareOrBind(String name, Operand value) {
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local.variable() != null) {
      context.ir().add(new Declare(local.variable(), value, context.line()));
    } else {
      context.bind(local, value);
    }
  }

  private void error(Tree at, String message) {
    context.diagnostics().error(at, message);
  }
}
