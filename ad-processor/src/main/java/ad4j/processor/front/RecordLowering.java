package ad4j.processor.front;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Value;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/**
 * Value records flattened into their primitive leaves ({@link ValueRecords}), in the front
 * end, so that every later stage sees scalars only and generated code makes no record the user's
 * code does not: a record parameter is one parameter per leaf, a record local one local per leaf
 * ({@code Vec3 p} is {@code pX, pY, pZ}), {@code new Vec3(a, b, c)} is its arguments,
 * {@code p.x()} (and {@code x} or {@code o.x} in the record's own code) a leaf, and a call of the
 * record's own methods is their code, inlined where it is called with its receiver's and
 * arguments' leaves bound ({@code p.add(v.scale(dt))}).
 *
 * <p>Built so far: records of the components {@link ValueRecords} takes, with the canonical
 * constructor javac writes or a compact one that only checks the components (run as written
 * where the record is made); their methods inlined when their source is in the same
 * file and their body is local declarations and a final {@code return}. A record value is read
 * through its accessors, assigned, passed to its own methods and to {@code @Differentiable}
 * methods of the same class, returned (a {@code double[]} of its leaves: {@code Lowering}), and
 * taken from a {@code @Differentiable} method of the same class returning one (the elements of
 * its members' {@code double[]}), passed to and returned by a function value whose code is known
 * ({@link FunctionValues}); passed anywhere else, it is an error that says so.
 */
final class RecordLowering {
  /** How deep inlined record methods may call each other: past it, recursion, an error. */
  private static final int MAX_DEPTH = 16;

  /** A value record's value: its type and one operand per leaf, depth first. */
  record Tuple(TypeElement type, List<Operand> leaves) {
    Tuple {
      leaves = List.copyOf(leaves);
    }

    Tuple slice(TypeElement nested, int first, int size) {
      return new Tuple(nested, leaves.subList(first, first + size));
    }
  }

  /** An inlined method of a record: its record, and its receiver (null for a static one). */
  private record Frame(TypeElement record, Tuple receiver) {}

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final Deque<Frame> frames = new ArrayDeque<>();
  /** How many constructors that compute components are being lowered, one inside another. */
  private int constructors;

  RecordLowering(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
  }

  /**
   * Lowers an instance method of value record {@code record} itself: its receiver's leaves are
   * {@code leaves}, read as the code of an inlined method of the record reads them.
   */
  void enterOwnMethod(TypeElement record, List<Value> leaves) {
    frames.push(new Frame(record, new Tuple(record,
        leaves.stream().<Operand>map(Operand.Use::new).toList())));
  }

  // ---- what is a record value --------------------------------------------------------------

  /**
   * The value record {@code expression} gives, when it gives one that is flattened: a record
   * local, {@code this} or a component in an inlined record method, {@code new R(...)}, a call
   * of a record's method returning one. Lowers nothing.
   */
  Optional<TypeElement> typeOf(ExpressionTree expression) {
    if (expression instanceof ParenthesizedTree parenthesized) {
      return typeOf(parenthesized.getExpression());
    }
    if (expression instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      LocalScopes.Local local = context.scopes().lookUp(name);
      if (local != null && local.valueRecord() == null && local.referenceType() != null) {
        return ValueRecords.valueRecord(local.referenceType()); // @NoDerivative: an object
      }
      if (local != null) {
        return Optional.ofNullable(local.valueRecord());
      }
      Frame frame = frames.peek();
      if (frame != null && frame.receiver() != null) {
        if (name.equals("this")) {
          return Optional.of(frame.record());
        }
        Optional<TypeElement> component = ValueRecords.componentRecord(frame.record(), name);
        if (component.isPresent()) {
          return component;
        }
      }
      return constant(context.symbols().resolveField(name)).or(() -> receiverField(name));
    }
    if (expression instanceof NewClassTree creation && creation.getClassBody() == null) {
      return context.javaTypes().typeMirrorOf(creation.getIdentifier())
          .flatMap(ValueRecords::valueRecord);
    }
    if (expression instanceof MemberSelectTree select) {
      Optional<TypeElement> owner = typeOf(select.getExpression());
      if (owner.isPresent()) {
        return ValueRecords.componentRecord(owner.get(), select.getIdentifier().toString());
      }
      Optional<String> field = thisField(select);
      if (field.isPresent()) {
        return field.flatMap(this::receiverField); // this.damping
      }
      return Symbols.isName(select.getExpression())
          && context.scopes().lookUp(rootName(select.getExpression())) == null
          ? constant(context.symbols().resolveType(select.getExpression()).flatMap(type ->
              context.symbols().fieldOf(type, select.getIdentifier().toString())))
          : Optional.empty();
    }
    if (expression instanceof MethodInvocationTree invocation) {
      Optional<TypeElement> returned = expressions.functions().recordResult(invocation);
      if (returned.isPresent()) {
        return returned; // f.apply(p) of a known function returning a record
      }
      Optional<Target> target = target(invocation);
      return target.isPresent()
          ? ValueRecords.valueRecord(target.get().method().getReturnType())
          : calleeRecord(invocation);
    }
    return Optional.empty();
  }

  /**
   * The value record a call of {@code @Differentiable} methods returns ({@code step(p, v)}):
   * every method the call may choose among, named as it names them and taking as many
   * arguments, is one returning the same value record. Its members return the leaves.
   */
  private Optional<TypeElement> calleeRecord(MethodInvocationTree invocation) {
    ExpressionTree select = invocation.getMethodSelect();
    String name;
    Symbols.CallTarget target;
    if (select instanceof IdentifierTree identifier) {
      name = identifier.getName().toString();
      target = context.symbols().resolveUnqualifiedCall(name);
    } else if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())
        && context.scopes().lookUp(rootName(member.getExpression())) == null) {
      name = member.getIdentifier().toString();
      target = context.symbols().resolveQualifiedCall(member.getExpression());
    } else {
      return Optional.empty();
    }
    if (!(target instanceof Symbols.CallTarget.OtherMethod other)) {
      return Optional.empty();
    }
    List<ExecutableElement> candidates = CalleeResolver.candidates(context, other.owner(), name)
        .stream().filter(m -> m.getParameters().size() == invocation.getArguments().size())
        .toList();
    Optional<TypeElement> record = candidates.isEmpty() ? Optional.empty()
        : ValueRecords.valueRecord(candidates.get(0).getReturnType());
    for (ExecutableElement candidate : candidates) {
      if (!CalleeResolver.isDifferentiable(candidate)
          || !ValueRecords.valueRecord(candidate.getReturnType()).equals(record)) {
        return Optional.empty();
      }
    }
    return record;
  }

  /**
   * A call of a {@code @Differentiable} method returning a value record ({@link #calleeRecord}):
   * the elements of the {@code double[]} of leaves its members give; null after an error.
   */
  private Tuple calleeResult(MethodInvocationTree invocation, TypeElement record) {
    Operand array = expressions.lower(invocation);
    return array == null ? null : leavesOf(array, record, invocation);
  }

  /**
   * The value record {@code record} that {@code array}, the result of a call of a
   * {@code @Differentiable} method returning it, gives: the elements of its {@code double[]} of
   * leaves; null after an error.
   */
  private Tuple leavesOf(Operand array, TypeElement record, MethodInvocationTree invocation) {
    Optional<Tuple> inlined = context.flatRecords().recordOf(array);
    if (inlined.isPresent()) {
      return inlined.get(); // a method taking a function, inlined (FunctionValues)
    }
    if (array.type() != NumericType.DOUBLE_ARRAY) {
      error(invocation, "'" + context.source().of(invocation) + "' is not supported yet for a"
          + " value record");
      return null;
    }
    boolean active = array instanceof Operand.Use use && use.value().isActiveArray();
    List<ValueRecords.Leaf> types = ValueRecords.leaves(record);
    // the leaves that carry no derivative: the caller's arguments the method returns them from
    List<Operand> carried = array instanceof Operand.Use use
        ? context.flatRecords().carriedByCall(use.value()).orElse(List.of()) : List.of();
    if (carried.size() != types.stream().filter(leaf -> !leaf.active()).count()) {
      error(invocation, "'" + context.source().of(invocation) + "' is not supported yet for a"
          + " value record with components that carry no derivative");
      return null;
    }
    List<Operand> leaves = new ArrayList<>();
    int element = 0;
    int passed = 0;
    for (ValueRecords.Leaf leaf : types) {
      if (!leaf.active()) {
        leaves.add(carried.get(passed++));
        continue;
      }
      Operand read = context.emit(ad4j.processor.ir.Operation.ELEMENT,
          List.of(array, Operand.Constant.of(element++)), NumericType.DOUBLE, active);
      // a float leaf: the double it was widened to, exactly
      leaves.add(expressions.convert(read, leaf.type()));
    }
    return new Tuple(record, leaves);
  }

  /**
   * The value record an instance method's field {@code name} holds, read through the method's
   * receiver ({@code damping}, {@code this.damping}): an object to the method, like a {@code
   * @NoDerivative} record, whose leaves are read through its accessors where the method reads
   * it. Not in the code of a value record's method, whose names are its components.
   */
  private Optional<TypeElement> receiverField(String name) {
    return frames.isEmpty() ? context.ownInstanceField(name)
        .flatMap(field -> ValueRecords.valueRecord(field.asType())) : Optional.empty();
  }

  /** The field {@code this.name} names, when {@code select} is {@code this.name}. */
  private static Optional<String> thisField(MemberSelectTree select) {
    return select.getExpression() instanceof IdentifierTree self
        && self.getName().contentEquals(Receivers.THIS)
        ? Optional.of(select.getIdentifier().toString()) : Optional.empty();
  }

  /**
   * Whether {@code expression} reads a value record held as an object: a {@code @NoDerivative}
   * record parameter or local, or a record in a field of the method's receiver ({@link
   * #receiverField}); not a record made in the method, nor a constant.
   */
  boolean readsAnObject(ExpressionTree expression) {
    if (expression instanceof ParenthesizedTree parenthesized) {
      return readsAnObject(parenthesized.getExpression());
    }
    if (expression instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      LocalScopes.Local local = context.scopes().lookUp(name);
      return local != null ? local.valueRecord() == null && local.referenceType() != null
          : receiverField(name).isPresent();
    }
    return expression instanceof MemberSelectTree select
        && thisField(select).flatMap(this::receiverField).isPresent();
  }

  /**
   * The value record of {@code field} when it is a {@code static final} constant of one
   * ({@code static final Vec3 GRAVITY}): read as a constant, through its accessors.
   */
  private static Optional<TypeElement> constant(Optional<VariableElement> field) {
    return field.filter(f -> f.getModifiers().contains(Modifier.FINAL) && StaticMembers.isStatic(f))
        .flatMap(f -> ValueRecords.valueRecord(f.asType()));
  }

  /** Whether {@code invocation} calls a method or accessor of a flattened record. */
  boolean handles(MethodInvocationTree invocation) {
    return target(invocation).isPresent();
  }

  /** Whether {@code select} reads a component of a flattened record ({@code o.x}). */
  boolean handles(MemberSelectTree select) {
    return typeOf(select.getExpression()).isPresent();
  }

  /** Whether {@code name}, unqualified, is a component of the inlined method's receiver. */
  boolean isReceiverComponent(String name) {
    Frame frame = frames.peek();
    return frame != null && frame.receiver() != null && context.scopes().lookUp(name) == null
        && ValueRecords.range(frame.record(), name).isPresent();
  }

  /** The record of the inlined method whose code is being lowered, if one is. */
  Optional<TypeElement> inlinedRecord() {
    return Optional.ofNullable(frames.peek()).map(Frame::record);
  }

  /**
   * A call of a record's method: {@code receiver.m(...)} on a flattened record, {@code m(...)}
   * in a record's own code, {@code R.m(...)} of a static one of value record {@code R}.
   */
  private record Target(ExecutableElement method, TypeElement record, ExpressionTree receiver) {}

  private Optional<Target> target(MethodInvocationTree invocation) {
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
      Optional<TypeElement> receiver = typeOf(member.getExpression());
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
    if (select instanceof IdentifierTree identifier && frame != null) {
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

  private static String rootName(ExpressionTree name) {
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
   * error at its record ({@link #misused}) rather than a call of the wrong method.
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

  // ---- lowering ----------------------------------------------------------------------------

  /** The value of a record expression ({@link #typeOf} is present); null after an error. */
  Tuple lower(ExpressionTree expression) {
    if (expression instanceof ParenthesizedTree parenthesized) {
      return lower(parenthesized.getExpression());
    }
    if (expression instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      LocalScopes.Local local = context.scopes().lookUp(name);
      if (local != null && local.valueRecord() == null) {
        Operand object = context.read(local, identifier);
        return object == null ? null
            : ofObject(object, typeOf(identifier).orElseThrow(), identifier);
      }
      if (local != null) {
        return read(name, local.valueRecord(), identifier);
      }
      Frame frame = frames.peek();
      if (frame != null && name.equals("this")) {
        return frame.receiver();
      }
      if (frame != null && frame.receiver() != null
          && ValueRecords.componentRecord(frame.record(), name).isPresent()) {
        return component(frame.receiver(), name);
      }
      return constantValue(identifier);
    }
    if (expression instanceof NewClassTree creation) {
      return construction(creation);
    }
    if (expression instanceof MemberSelectTree select) {
      if (typeOf(select.getExpression()).isEmpty()) {
        return constantValue(select); // Constants.GRAVITY
      }
      Tuple owner = lower(select.getExpression());
      return owner == null ? null : component(owner, select.getIdentifier().toString());
    }
    if (expression instanceof MethodInvocationTree invocation) {
      if (expressions.functions().recordResult(invocation).isPresent()) {
        Operand result = expressions.functions().call(
            expressions.functions().known(((MemberSelectTree) invocation.getMethodSelect())
                .getExpression()).orElseThrow(),
            (MemberSelectTree) invocation.getMethodSelect(), invocation);
        return result == null ? null : context.flatRecords().recordOf(result).orElseThrow();
      }
      if (target(invocation).isEmpty()) {
        return calleeResult(invocation, typeOf(invocation).orElseThrow());
      }
      Object result = call(invocation);
      return result instanceof Tuple tuple ? tuple : null;
    }
    error(expression, "'" + context.source().of(expression) + "' is not supported yet for a"
        + " value record");
    return null;
  }

  /**
   * A record that carries no derivative ({@code @NoDerivative Vec3 g}), an object: its leaves
   * read through its accessors, as written, where the method reads them; null when generated
   * code cannot name an object component's type.
   */
  private Tuple ofObject(Operand object, TypeElement record, Tree at) {
    checkAccessors(record, at, "'" + context.source().of(at) + "'");
    List<Operand> leaves = new ArrayList<>();
    for (ValueRecords.Leaf leaf : ValueRecords.leaves(record)) {
      Operand value = object;
      TypeElement owner = record;
      for (int k = 0; k < leaf.path().size(); k++) {
        String accessor = leaf.getters().get(k);
        Optional<TypeElement> nested = ValueRecords.componentRecord(owner, leaf.path().get(k));
        ad4j.processor.ir.Operation read = ad4j.processor.ir.Operation.instanceCall(accessor, 1);
        String shown = owner.getSimpleName() + "." + accessor;
        if (nested.isPresent()) {
          value = context.emitReference(read, List.of(value), nested.get().asType())
              .orElseThrow();
          owner = nested.get();
        } else if (leaf.type() == NumericType.OBJECT) {
          value = context.emitReference(read, List.of(value), leaf.declared()).orElse(null);
          if (value == null) {
            return null;
          }
        } else {
          value = context.emit(read, List.of(value), leaf.type(), false);
        }
        // a record's accessor gives what its constructor was given, each time
        context.dependences().runsAsWritten(value, shown, true);
      }
      leaves.add(value);
    }
    return new Tuple(record, leaves);
  }

  /** A {@code static final} value record constant, read as written, through its accessors. */
  private Tuple constantValue(ExpressionTree constant) {
    Operand object = expressions.lower(constant);
    return object == null ? null : ofObject(object, typeOf(constant).orElseThrow(), constant);
  }

  /** {@code receiver.name}: a component, a leaf or a nested record. */
  private Tuple component(Tuple receiver, String name) {
    int[] range = ValueRecords.range(receiver.type(), name).orElseThrow();
    TypeElement nested = ValueRecords.componentRecord(receiver.type(), name).orElseThrow();
    return receiver.slice(nested, range[0], range[1]);
  }

  /** {@code o.x} or {@code x} of a {@code double} component. */
  Operand scalarComponent(Tuple receiver, String name, Tree at) {
    int[] range = ValueRecords.range(receiver.type(), name).orElseThrow();
    if (ValueRecords.componentRecord(receiver.type(), name).isPresent()) {
      error(at, "'" + context.source().of(at) + "' is a value record, which ad4j flattens: read"
          + " its components");
      return null;
    }
    return receiver.leaves().get(range[0]);
  }

  /** {@code o.x} in a record's own code, or {@code p.pos.x}. */
  Operand memberSelect(MemberSelectTree select) {
    Tuple owner = lower(select.getExpression());
    return owner == null ? null
        : scalarComponent(owner, select.getIdentifier().toString(), select);
  }

  /** {@code x}, unqualified, in a record's own code: the receiver's component. */
  Operand receiverComponent(IdentifierTree identifier) {
    return scalarComponent(frames.peek().receiver(), identifier.getName().toString(),
        identifier);
  }

  /** A call that {@link #handles}, whose result is not a record: its value; null after error. */
  Operand scalarCall(MethodInvocationTree invocation) {
    Object result = call(invocation);
    if (result instanceof Tuple) {
      error(invocation, "'" + context.source().of(invocation) + "' is a value record, which ad4j"
          + " flattens: read its components, assign it to a local or pass it to its own methods");
      return null;
    }
    return (Operand) result;
  }

  /** A record's method or accessor: a {@link Tuple}, an {@link Operand}, or null after error. */
  private Object call(MethodInvocationTree invocation) {
    Target target = target(invocation).orElseThrow();
    Tuple receiver = null;
    if (!StaticMembers.isStatic(target.method())) {
      receiver = target.receiver() == null ? frames.peek().receiver() : lower(target.receiver());
      if (receiver == null) {
        return null;
      }
    }
    Optional<String> read = receiver == null ? Optional.empty()
        : accessedComponent(target.record(), target.method());
    if (read.isPresent()) {
      String name = read.get();
      return ValueRecords.componentRecord(target.record(), name).isPresent()
          ? component(receiver, name) : receiver.leaves().get(
              ValueRecords.range(target.record(), name).orElseThrow()[0]);
    }
    if (!inlinable(target.method()) && CalleeResolver.isDifferentiable(target.method())) {
      Operand value = membersCall(target, receiver, invocation);
      Optional<TypeElement> returned = ValueRecords.valueRecord(
          target.method().getReturnType());
      // a value record: the vector function of its leaves, read as a static callee's
      return value == null || returned.isEmpty() ? value
          : leavesOf(value, returned.get(), invocation);
    }
    List<Object> arguments = new ArrayList<>();
    for (ExpressionTree argument : invocation.getArguments()) {
      Object value = typeOf(argument).isPresent() ? lower(argument) : expressions.lower(argument);
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
   * ({@link #leavesOf}).
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
        && isWrittenByTheCompiler(method)
        ? Optional.of(method.getSimpleName().toString()) : Optional.empty();
  }

  /** Whether the compiler wrote {@code member} (a record's accessor, its canonical constructor). */
  private boolean isWrittenByTheCompiler(ExecutableElement member) {
    return context.trees().getPath(member) == null
        || context.elements().getOrigin(member) != javax.lang.model.util.Elements.Origin.EXPLICIT;
  }

  /**
   * {@code new R(a, ...)}: the arguments, as its leaves; a compact constructor that only checks
   * them ({@link RecordConstructors#checksOnly}) runs as written on them, where the record is made.
   */
  private Tuple construction(NewClassTree creation) {
    TypeElement record = typeOf(creation).orElseThrow();
    if (context.trees().getPath(record) == null) {
      // a class file does not tell the accessors and constructor javac wrote from others
      error(creation, "'new " + record.getSimpleName() + "(...)': record '"
          + record.getSimpleName() + "' is compiled without its source here, and ad4j cannot"
          + " see whether its constructor keeps the values it is given and its accessors return"
          + " them, which it would take them for; make the record where the method is called"
          + " and pass it in, or compile the record's source with this class");
      return null;
    }
    ExecutableElement checks = null;
    MethodTree transform = null;
    for (ExecutableElement constructor :
        ElementFilter.constructorsIn(record.getEnclosedElements())) {
      // a value class's one constructor only copies its arguments into the fields
      if (isWrittenByTheCompiler(constructor) || record.getKind() != ElementKind.RECORD) {
        continue;
      }
      Optional<MethodTree> compact = context.recordConstructors().compact(constructor);
      if (!context.recordConstructors().checksOnly(constructor) && compact.isPresent()) {
        // it computes the components of its arguments: differentiated like a helper
        transform = compact.get();
        continue;
      }
      if (!context.recordConstructors().checksOnly(constructor)
          && isCanonical(record, constructor)) {
        error(creation, "'new " + record.getSimpleName() + "(...)': record '"
            + record.getSimpleName() + "' declares a canonical constructor that is not a"
            + " compact one, and ad4j does not yet flatten records whose constructors set"
            + " their fields themselves; write it as a compact constructor ('"
            + record.getSimpleName() + " { ... }'), which assigns the components");
        return null;
      }
      if (!context.recordConstructors().checksOnly(constructor)) {
        error(creation, "'new " + record.getSimpleName() + "(...)': record '"
            + record.getSimpleName() + "' declares a constructor besides its canonical one ('"
            + record.getSimpleName() + "(" + constructor.getParameters().stream()
                .map(p -> p.asType().toString()).collect(Collectors.joining(", "))
            + ")'), and ad4j does not yet flatten records with such constructors; make the"
            + " record with a static method of it instead ('static " + record.getSimpleName()
            + " of(...) { return new " + record.getSimpleName() + "(...); }')");
        return null;
      }
      checks = constructor;
    }
    List<ValueRecords.Component> components = ValueRecords.components(record);
    if (creation.getArguments().size() != components.size()) {
      error(creation, "'new " + record.getSimpleName() + "(...)' needs " + components.size()
          + " arguments");
      return null;
    }
    List<Operand> leaves = new ArrayList<>();
    for (int i = 0; i < components.size(); i++) {
      ExpressionTree argument = creation.getArguments().get(i);
      Optional<TypeElement> nested =
          ValueRecords.valueRecord(components.get(i).type());
      if (nested.isPresent()) {
        Tuple part = typeOf(argument).isPresent() ? lower(argument) : null;
        if (part == null) {
          if (typeOf(argument).isEmpty()) {
            error(argument, "'" + context.source().of(argument) + "' is not supported yet as"
                + " a component of value record '" + record.getSimpleName() + "'");
          }
          return null;
        }
        leaves.addAll(part.leaves());
      } else {
        Operand value = scalar(expressions.lower(argument), ValueRecords.leafType(
            components.get(i).type()).orElseThrow(), argument);
        if (value == null) {
          return null;
        }
        leaves.add(value);
      }
    }
    Tuple made = new Tuple(record, leaves);
    if (checks != null && runChecks(made, checks, creation) == null) {
      return null;
    }
    return transform == null ? made : transformed(made, transform, creation);
  }

  /**
   * The record that compact constructor {@code constructor} makes of {@code arguments}: its
   * body lowered like a helper's, statement by statement (branches, checks that throw and
   * loops as anywhere in the method), in an isolated scope where its parameters (named as the
   * components) hold the arguments' leaves; the components are what they hold at its end, as
   * Java assigns the fields after the body. Null after an error.
   */
  private Tuple transformed(Tuple arguments, MethodTree constructor, NewClassTree at) {
    TypeElement record = arguments.type();
    String shown = "new " + record.getSimpleName() + "(...)";
    if (constructors >= MAX_DEPTH) {
      error(at, "'" + shown + "': the constructor of value record '" + record.getSimpleName()
          + "' makes records " + MAX_DEPTH + " deep, which ad4j takes for recursion");
      return null;
    }
    constructors++;
    // a component or local assigned in a branch or loop of the body needs a variable
    context.planInlined(VariablePlanner.plan(constructor, ValueRecords.components(record)
        .stream().map(ValueRecords.Component::name).toList()));
    LoweringContext.Position position = context.position();
    context.scopes().pushIsolated();
    // its code calls the record's static methods unqualified, as a static method's does
    frames.push(new Frame(record, null));
    Symbols callers = context.resolveIn(record);
    try {
      List<ValueRecords.Component> components = ValueRecords.components(record);
      int next = 0;
      for (ValueRecords.Component component : components) {
        Optional<TypeElement> nested = ValueRecords.valueRecord(component.type());
        if (nested.isPresent()) {
          int size = ValueRecords.leaves(nested.get()).size();
          declareLocal(component.name(), nested.get(),
              arguments.slice(nested.get(), next, size));
          next += size;
        } else {
          NumericType type = ValueRecords.leafType(component.type()).orElseThrow();
          context.scopes().declareLocal(component.name(), type, context);
          LocalScopes.Local local = context.scopes().lookUp(component.name());
          Operand value = arguments.leaves().get(next++);
          if (local.variable() != null) {
            context.ir().add(new Declare(local.variable(), value, context.line()));
          } else {
            context.bind(local, value);
          }
        }
      }
      int errors = context.diagnostics().errorCount();
      boolean completes = expressions.functions().lowerStatements(
          constructor.getBody().getStatements());
      if (context.diagnostics().errorCount() > errors) {
        return null;
      }
      if (!completes) {
        error(at, "'" + shown + "': the constructor of value record '" + record.getSimpleName()
            + "' always throws");
        return null;
      }
      context.resume(position);
      List<Operand> leaves = new ArrayList<>();
      for (ValueRecords.Component component : components) {
        Optional<TypeElement> nested = ValueRecords.valueRecord(component.type());
        if (nested.isPresent()) {
          Tuple part = read(component.name(), nested.get(), at);
          if (part == null) {
            return null;
          }
          leaves.addAll(part.leaves());
        } else {
          Operand leaf = context.read(context.scopes().lookUp(component.name()), at);
          if (leaf == null) {
            return null;
          }
          leaves.add(leaf);
        }
      }
      return new Tuple(record, leaves);
    } finally {
      context.resolveAs(callers);
      frames.pop();
      context.scopes().pop();
      context.resume(position);
      constructors--;
    }
  }

  /**
   * Runs the checks of {@code value}'s compact constructor {@code constructor} on its leaves:
   * generated code makes the record as written ({@code new V(a, b);}, its value unused), which
   * throws where the user's code would. Null after an error.
   */
  private Operand runChecks(Tuple value, ExecutableElement constructor, Tree at) {
    Operand made = object(value, at);
    if (made == null) {
      return null;
    }
    String shown = "new " + value.type().getSimpleName();
    context.dependences().runsAsWritten(made, shown, true);
    if (!context.calleeServices().readOnlyMethods().test(constructor)
        && new RepeatedRuns(context).rejectOwnCall(at, shown + "(...)")) {
      return null;
    }
    return made;
  }

  /** The record {@code value} is, made of its leaves as written; null after an error. */
  private Operand object(Tuple value, Tree at) {
    Optional<String> text = context.javaTypes().javaText(value.type().asType());
    if (text.isEmpty()) {
      error(at, "'" + context.source().of(at) + "': generated code cannot name value record '"
          + value.type().getSimpleName() + "': "
          + context.javaTypes().typeProblem(value.type().asType()));
      return null;
    }
    List<Operand> arguments = new ArrayList<>();
    int next = 0;
    for (ValueRecords.Component component : ValueRecords.components(value.type())) {
      Optional<TypeElement> nested = ValueRecords.valueRecord(component.type());
      if (nested.isPresent()) {
        int size = ValueRecords.leaves(nested.get()).size();
        Operand part = object(value.slice(nested.get(), next, size), at);
        if (part == null) {
          return null;
        }
        arguments.add(part);
        next += size;
      } else {
        arguments.add(value.leaves().get(next++));
      }
    }
    return context.emitReference(ad4j.processor.ir.Operation.construction(text.get(),
        arguments.size()), arguments, value.type().asType()).orElse(null);
  }

  /** {@code value} as a component of {@code type}; null after an error. */
  private Operand scalar(Operand value, NumericType type, Tree at) {
    if (value == null || !expressions.assignable(value, type, at)) {
      return null;
    }
    return expressions.convert(value, type);
  }

  // ---- passing records to @Differentiable methods ------------------------------------------

  /**
   * Whether {@code argument} is a flattened record value ({@link #typeOf}), not a record held
   * as an object (a {@code @NoDerivative} one), which is passed as it is.
   */
  boolean isFlattened(ExpressionTree argument) {
    if (typeOf(argument).isEmpty()) {
      return false;
    }
    ExpressionTree inner = argument;
    while (inner instanceof ParenthesizedTree parenthesized) {
      inner = parenthesized.getExpression();
    }
    if (inner instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      LocalScopes.Local local = context.scopes().lookUp(name);
      if (local != null) {
        return local.valueRecord() != null;
      }
      Frame frame = frames.peek();
      // this or a component of an inlined method's receiver; else a constant, an object
      return frame != null && frame.receiver() != null && (name.equals("this")
          || ValueRecords.componentRecord(frame.record(), name).isPresent());
    }
    if (inner instanceof MemberSelectTree select) {
      return typeOf(select.getExpression()).isPresent(); // else Constants.GRAVITY, an object
    }
    return true;
  }

  /** A flattened record argument's stand-in while the method is chosen; null after error. */
  Operand placeholder(ExpressionTree argument) {
    Tuple value = lower(argument);
    return value == null ? null : context.flatRecords().recordPlaceholder(value);
  }

  /**
   * The arguments of {@code call} of {@code callee} as its members take them: each value record
   * its members take flattened as its leaves (a record held as an object read through its
   * accessors); null after an error (a flattened record where the callee takes an object).
   * {@code receivers}: 1 when the first of {@code arguments} is the receiver, which is not among
   * the call's argument trees.
   */
  List<Operand> spread(ad4j.processor.ir.Callee callee, List<Operand> arguments,
      int receivers, MethodInvocationTree call) {
    return spread(callee, arguments, receivers, call, Optional.empty());
  }

  /**
   * As {@link #spread(ad4j.processor.ir.Callee, List, int, MethodInvocationTree)}, where
   * generated code may call the callee as written, by {@code asWritten} on {@code arguments}
   * ({@code Owner.g(...)}, {@code o.g(...)}): a record held as an object may then be null
   * where the callee does not read it ({@link ObjectRecordArguments}), when the call passes no
   * record made in the method.
   */
  List<Operand> spread(ad4j.processor.ir.Callee callee, List<Operand> arguments,
      int receivers, MethodInvocationTree call,
      Optional<ad4j.processor.ir.Operation> asWritten) {
    boolean onlyObjects = arguments.stream()
        .noneMatch(a -> context.flatRecords().recordOf(a).isPresent());
    List<ObjectRecordArguments.Pending> pending = new ArrayList<>();
    List<Operand> flat = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      Operand argument = arguments.get(i);
      int at = flat.size();
      boolean flattened = callee.records().stream().anyMatch(r -> r.first() == at);
      Optional<Tuple> tuple = context.flatRecords().recordOf(argument);
      Optional<TypeElement> record = context.javaTypes().referenceTypeOf(argument)
          .flatMap(ValueRecords::valueRecord);
      // the receiver's tree is the call's qualifier: rec of this.rec.m(x)
      ExpressionTree tree = i >= receivers ? call.getArguments().get(i - receivers)
          : call.getMethodSelect() instanceof MemberSelectTree select ? select.getExpression()
          : call;
      if (!flattened && tuple.isPresent()) {
        misused(tree, context.source().of(tree));
        return null;
      } else if (!flattened) {
        flat.add(argument);
      } else if (tuple.isPresent()) {
        flat.addAll(tuple.get().leaves());
      } else if (record.isPresent() && asWritten.isPresent() && onlyObjects
          && i >= receivers && ObjectRecordArguments.zeroable(record.get())) {
        // read below, where a null record is not read
        pending.add(new ObjectRecordArguments.Pending(at, argument, record.get(), tree));
        for (int k = 0; k < ValueRecords.leaves(record.get()).size(); k++) {
          flat.add(null);
        }
      } else if (record.isPresent()) {
        Tuple read = ofObject(argument, record.get(), tree);
        if (read == null) {
          return null;
        }
        flat.addAll(read.leaves());
      } else {
        error(tree, "'" + context.source().of(tree) + "' is passed where '" + callee.name()
            + "' takes a value record, which ad4j passes flattened: pass a record");
        return null;
      }
    }
    if (!pending.isEmpty()) {
      List<List<Operand>> read = new ObjectRecordArguments(context).read(pending,
          asWritten.get(), arguments, this::ofObject);
      if (read == null) {
        return null;
      }
      for (int k = 0; k < pending.size(); k++) {
        List<Operand> leaves = read.get(k);
        for (int j = 0; j < leaves.size(); j++) {
          flat.set(pending.get(k).at() + j, leaves.get(j));
        }
      }
    }
    return flat;
  }

  // ---- inlining ------------------------------------------------------------------------------

  /**
   * The value of {@code method} of {@code record} called on {@code receiver} (null for a static
   * one) with {@code arguments}: its code, lowered here with the leaves bound.
   */
  private Object inline(ExecutableElement method, TypeElement record, Tuple receiver,
      List<Object> arguments, MethodInvocationTree at) {
    String shown = record.getSimpleName() + "." + method.getSimpleName();
    TreePath path = context.trees().getPath(method);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree) || tree.getBody() == null) {
      error(at, "call to '" + shown + "': ad4j inlines the methods of a value record when"
          + " their source is in this compilation, which '" + shown + "''s is not");
      return null;
    }
    // a record of another file: its code is read, and reported about, in its own file
    context.adopt(tree, path.getCompilationUnit());
    if (frames.size() >= MAX_DEPTH) {
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
    Symbols callers = context.resolveIn(record);
    try {
      for (int i = 0; i < arguments.size(); i++) {
        VariableElement parameter = method.getParameters().get(i);
        String name = parameter.getSimpleName().toString();
        if (arguments.get(i) instanceof Tuple tuple) {
          declareLocal(name, tuple.type(), tuple);
        } else {
          Optional<NumericType> type = context.javaTypes().irType(parameter.asType());
          Operand value = (Operand) arguments.get(i);
          if (type.isEmpty() || type.get().isReference()
              || !expressions.assignable(value, type.get(), at)) {
            error(at, "call to '" + shown + "': ad4j inlines the methods of a value record with"
                + " parameters of primitive and value record types, not '" + parameter.asType()
                + "'");
            return null;
          }
          context.scopes().declareLocal(name, type.get(), context);
          context.bind(context.scopes().lookUp(name), expressions.convert(value, type.get()));
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
        return lower(result);
      }
      Optional<NumericType> type = context.javaTypes().irType(method.getReturnType());
      Operand value = expressions.lower(result);
      if (value == null || type.isEmpty() || type.get().isReference()
          || !expressions.assignable(value, type.get(), result)) {
        if (value != null) {
          error(at, "call to '" + shown + "': ad4j inlines the methods of a value record that"
              + " return primitive values or value records, not '" + method.getReturnType()
              + "'");
        }
        return null;
      }
      return expressions.convert(value, type.get());
    } finally {
      context.resolveAs(callers);
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
      Tuple value = typeOf(declaration.getInitializer()).isPresent()
          ? lower(declaration.getInitializer()) : null;
      if (value == null) {
        return false;
      }
      declareLocal(name, record.get(), value);
      return true;
    }
    Optional<NumericType> kind = type.flatMap(context.javaTypes()::irType);
    if (kind.isEmpty() || kind.get().isReference() || type.get().getKind() == TypeKind.CHAR) {
      error(declaration, "local variable '" + name + "' of an inlined record method has type '"
          + declaration.getType() + "': ad4j inlines record methods whose locals are primitive"
          + " values or value records");
      return false;
    }
    Operand value = expressions.lower(declaration.getInitializer());
    if (value == null || !expressions.assignable(value, kind.get(),
        declaration.getInitializer())) {
      return false;
    }
    context.scopes().declareLocal(name, kind.get(), context);
    context.bind(context.scopes().lookUp(name), expressions.convert(value, kind.get()));
    return true;
  }

  // ---- record locals -----------------------------------------------------------------------

  /** The names generated code gives the leaves of record local or parameter {@code name}. */
  static List<String> leafNames(String name, TypeElement record) {
    return ValueRecords.leaves(record).stream().map(leaf -> name + leaf.suffix()).toList();
  }

  /** Declares record local {@code name} holding {@code value} (null: not yet assigned). */
  void declareLocal(String name, TypeElement record, Tuple value) {
    List<LocalScopes.Local> leaves = context.scopes().declareRecord(name, record,
        leafNames(name, record), null, context);
    for (int i = 0; i < leaves.size(); i++) {
      LocalScopes.Local leaf = leaves.get(i);
      if (leaf.variable() != null) {
        Operand initial = value != null ? value.leaves().get(i)
            : Operand.Constant.zero(leaf.variable().type());
        context.ir().add(new Declare(leaf.variable(), initial, context.line()));
      } else if (value != null) {
        context.bind(leaf, value.leaves().get(i));
      }
    }
  }

  /**
   * The names of the flat parameters of record parameter {@code name}: {@link #leafNames}, each
   * made distinct from {@code taken} (the method's own names and earlier leaves', to which it is
   * added) with a number, so that no name of generated code or of the user's coincides with a
   * parameter's, and the members that take the records pass each leaf where it belongs
   * ({@code write/RecordAdapters} finds the leaves by these names).
   */
  static List<String> parameterLeafNames(String name, TypeElement record,
      java.util.Set<String> taken) {
    List<String> names = new ArrayList<>();
    for (String leaf : leafNames(name, record)) {
      String unique = leaf;
      for (int k = 2; clashes(unique, taken); k++) {
        unique = leaf + k;
      }
      taken.add(unique);
      names.add(unique);
    }
    return names;
  }

  /**
   * Whether leaf name {@code leaf}, or its tangent's name ({@code leafDot}), is a name of
   * {@code taken} or a tangent's of one.
   */
  private static boolean clashes(String leaf, java.util.Set<String> taken) {
    String dot = "Dot";
    return taken.contains(leaf) || taken.contains(leaf + dot)
        || leaf.endsWith(dot) && taken.contains(leaf.substring(0, leaf.length() - dot.length()));
  }

  /** Declares the flattened record parameter {@code name}, whose leaves are {@code values}. */
  void declareParameter(String name, TypeElement record, List<Value> values) {
    context.scopes().declareRecord(name, record,
        values.stream().map(Value::nameHint).toList(), values, context);
  }


  /** The current value of record local {@code name}. */
  private Tuple read(String name, TypeElement record, Tree use) {
    List<Operand> leaves = new ArrayList<>();
    int count = ValueRecords.leaves(record).size();
    for (int i = 0; i < count; i++) {
      Operand leaf = context.read(context.scopes().lookUp(LocalScopes.leafKey(name, i)), use);
      if (leaf == null) {
        return null;
      }
      leaves.add(leaf);
    }
    return new Tuple(record, leaves);
  }

  /** {@code p = value} of record local {@code p}. */
  void assign(AssignmentTree assignment, String assignedName, LocalScopes.Local target) {
    TypeElement record = target.valueRecord();
    ExpressionTree expression = assignment.getExpression();
    Optional<TypeElement> type = typeOf(expression);
    if (type.isEmpty() || !type.get().equals(record)) {
      error(expression, "'" + context.source().of(expression) + "' cannot be assigned to value"
          + " record local '" + assignedName + "': ad4j assigns it values of its record made"
          + " in the method (a local, 'new', a call of the record's methods)");
      return;
    }
    Tuple value = lower(expression);
    if (value == null) {
      return;
    }
    List<LocalScopes.Local> leaves = new ArrayList<>();
    for (int i = 0; i < value.leaves().size(); i++) {
      leaves.add(context.scopes().lookUp(LocalScopes.leafKey(assignedName, i)));
    }
    for (int i = 0; i < leaves.size(); i++) {
      context.bind(leaves.get(i), value.leaves().get(i));
    }
  }

  /** The error for a record value used where ad4j does not take one. */
  void misused(Tree at, String name) {
    error(at, "'" + name + "' is a value record, which ad4j flattens into its components:"
        + " read them through its accessors, assign it, or pass it to its own methods; passing"
        + " it elsewhere (to other methods, as an object) is not supported yet");
  }

  /** Whether {@code constructor} takes the components of {@code record}, in their order. */
  private boolean isCanonical(TypeElement record, ExecutableElement constructor) {
    List<ValueRecords.Component> components = ValueRecords.components(record);
    if (constructor.getParameters().size() != components.size()) {
      return false;
    }
    for (int i = 0; i < components.size(); i++) {
      if (!context.types().isSameType(constructor.getParameters().get(i).asType(),
          components.get(i).type())) {
        return false;
      }
    }
    return true;
  }

  private void error(Tree at, String message) {
    context.diagnostics().error(at, message);
  }

  /**
   * An error at {@code at} when generated code would read the components of {@code record}
   * ({@code use}: what it reads them of) through an accessor that computes something else
   * ({@link RecordAccessors}).
   */
  void checkAccessors(TypeElement record, Tree at, String use) {
    RecordAccessors.computed(record, context.trees(), context.elements())
        .ifPresent(computed -> error(at, computed.message(use)));
  }

}
