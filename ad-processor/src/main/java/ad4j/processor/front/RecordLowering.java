package ad4j.processor.front;

import ad4j.processor.front.RecordMethodCalls.Target;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Value;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.Tree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

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
 * methods of the same class, returned (a {@code double[]} of its leaves:
 * {@link ReturnLowering}), and taken from a {@code @Differentiable} method of the same class
 * returning one (the elements of its members' {@code double[]}), passed to and returned by a
 * function value whose code is known ({@link FunctionValues}); passed anywhere else, it is an
 * error that says so.
 *
 * <p>This class tells what is a record value and lowers one: reads of its components, a record
 * held as an object read into its leaves, a record's leaves put back into an object. The
 * variables of record parameters and locals are {@link RecordLocals}', records crossing calls
 * of {@code @Differentiable} methods {@link RecordsAcrossCalls}', calls of a record's own
 * methods {@link RecordMethodCalls}' and {@code new R(...)} {@link RecordConstruction}'s.
 */
final class RecordLowering {
  /** How deep inlined record methods may call each other: past it, recursion, an error. */
  static final int MAX_DEPTH = 16;

  /** A value record's value: its type and one operand per leaf, depth first. */
  record Tuple(TypeElement type, List<Operand> leaves) {
    Tuple {
      leaves = List.copyOf(leaves);
    }

    Tuple slice(TypeElement nested, int first, int size) {
      return new Tuple(nested, leaves.subList(first, first + size));
    }
  }

  /**
   * An inlined method of a record: its record, and its receiver (null for a static one); both
   * null for code written outside any record's method that is lowered inside one ({@link
   * #lowerAs}), whose names are not the record's.
   */
  record Frame(TypeElement record, Tuple receiver) {}

  /** The frame of code written outside the methods of records. */
  private static final Frame OUTSIDE = new Frame(null, null);

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  /** The record methods being inlined (and constructors), innermost first. */
  private final Deque<Frame> frames = new ArrayDeque<>();
  private final RecordLocals locals;
  private final RecordsAcrossCalls acrossCalls;
  private final RecordMethodCalls methods;
  private final RecordConstruction construction;
  private final RecordChoices choices;

  RecordLowering(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
    this.locals = new RecordLocals(context, this);
    this.acrossCalls = new RecordsAcrossCalls(context, expressions, this, frames);
    this.methods = new RecordMethodCalls(context, expressions, this, frames);
    this.construction = new RecordConstruction(context, expressions, this, frames);
    this.choices = new RecordChoices(context, expressions, this);
  }

  /** Record parameters and locals, one variable per leaf. */
  RecordLocals locals() {
    return locals;
  }

  /** Records passed to and returned by calls of {@code @Differentiable} methods. */
  RecordsAcrossCalls acrossCalls() {
    return acrossCalls;
  }

  /** Calls of a record's own methods. */
  RecordMethodCalls methods() {
    return methods;
  }

  /**
   * Lowers an instance method of value record {@code record} itself: its receiver's leaves are
   * {@code leaves}, read as the code of an inlined method of the record reads them.
   */
  /**
   * The inlined record method whose code is being lowered, null when none: where a lambda
   * written now takes its unqualified names ({@code x}, the receiver's component) from.
   */
  Frame frame() {
    Frame frame = frames.peek();
    return frame == null || frame.record() == null ? null : frame;
  }

  /**
   * {@code work}, lowering code written where {@code frame} was ({@link #frame}; null for code
   * written outside the methods of records: a template's body, a {@code static final}
   * function's): its unqualified names are that method's receiver's components and methods, or
   * none of a record's, whatever record method is being inlined where the code is lowered.
   */
  <T> T lowerAs(Frame frame, java.util.function.Supplier<T> work) {
    frames.push(frame == null ? OUTSIDE : frame);
    try {
      return work.get();
    } finally {
      frames.pop();
    }
  }

  void enterOwnMethod(TypeElement record, List<Value> leaves) {
    frames.push(new Frame(record, new Tuple(record,
        leaves.stream().<Operand>map(Operand.Use::new).toList())));
  }

  // ---- what is a record value --------------------------------------------------------------

  /**
   * The value record {@code expression} gives, when it gives one that is flattened: a record
   * local, {@code this} or a component in an inlined record method, {@code new R(...)}, a call
   * of a record's method returning one, a {@code ?:} or {@code switch} expression choosing
   * between them ({@link RecordChoices}). Lowers nothing.
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
    if (expression instanceof ConditionalExpressionTree choice) {
      return choices.typeOf(choice);
    }
    if (expression instanceof SwitchExpressionTree choice) {
      return choices.typeOf(choice);
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
          && context.scopes().lookUp(RecordMethodCalls.rootName(select.getExpression())) == null
          ? constant(context.symbols().resolveType(select.getExpression()).flatMap(type ->
              context.symbols().fieldOf(type, select.getIdentifier().toString())))
          : Optional.empty();
    }
    if (expression instanceof MethodInvocationTree invocation) {
      Optional<TypeElement> returned = expressions.functions().recordResult(invocation);
      if (returned.isPresent()) {
        return returned; // f.apply(p) of a known function returning a record
      }
      Optional<Target> target = methods.target(invocation);
      return target.isPresent()
          ? ValueRecords.valueRecord(target.get().method().getReturnType())
          : acrossCalls.calleeRecord(invocation);
    }
    return Optional.empty();
  }

  /**
   * The value record an instance method's field {@code name} holds, read through the method's
   * receiver ({@code damping}, {@code this.damping}): an object to the method, like a {@code
   * @NoDerivative} record, whose leaves are read through its accessors where the method reads
   * it. Not in the code of a value record's method, whose names are its components.
   */
  private Optional<TypeElement> receiverField(String name) {
    return frames.isEmpty() || frames.peek().record() == null
        ? context.resolution().ownInstanceField(name)
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
   * Whether {@code expression} gives a value record held as an object by code run as written:
   * a call that is none of a record's methods, of a {@code @Differentiable} method or of a
   * known function ({@code points.get(i)}, {@code table.get(key)}), or an element of an array
   * of records ({@code points[i]}). What such a record holds carries no derivative, and the
   * dependence analysis follows it from the call's receiver and arguments.
   */
  boolean comesFromCodeRunAsWritten(ExpressionTree expression) {
    ExpressionTree unwrapped = ExpressionLowering.withoutParentheses(expression);
    return (unwrapped instanceof MethodInvocationTree
        || unwrapped instanceof com.sun.source.tree.ArrayAccessTree)
        && typeOf(unwrapped).isEmpty();
  }

  /**
   * What ad4j takes as a value of a record, for the errors where an expression is not one
   * ({@code kinds}: the kinds the place takes, as a list).
   */
  static String valueSources(String kinds) {
    return "(" + kinds + ", a '?:' or 'switch' choosing between them)";
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
    return methods.target(invocation).isPresent();
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
        return locals.read(name, local.valueRecord(), identifier);
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
      return construction.construction(creation);
    }
    if (expression instanceof ConditionalExpressionTree choice) {
      return choices.lower(choice);
    }
    if (expression instanceof SwitchExpressionTree choice) {
      return choices.lower(choice);
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
            expressions.functions().definitions()
                .known(((MemberSelectTree) invocation.getMethodSelect()).getExpression())
                .orElseThrow(),
            (MemberSelectTree) invocation.getMethodSelect(), invocation);
        return result == null ? null : context.flatRecords().recordOf(result).orElseThrow();
      }
      if (methods.target(invocation).isEmpty()) {
        return acrossCalls.calleeResult(invocation, typeOf(invocation).orElseThrow());
      }
      Object result = methods.call(invocation);
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
  Tuple ofObject(Operand object, TypeElement record, Tree at) {
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
  Tuple component(Tuple receiver, String name) {
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
    Object result = methods.call(invocation);
    if (result instanceof Tuple) {
      error(invocation, "'" + context.source().of(invocation) + "' is a value record, which ad4j"
          + " flattens: read its components, assign it to a local or pass it to its own methods");
      return null;
    }
    return (Operand) result;
  }

  /** Whether the compiler wrote {@code member} (a record's accessor, its canonical constructor). */
  boolean isWrittenByTheCompiler(ExecutableElement member) {
    return context.trees().getPath(member) == null
        || context.elements().getOrigin(member) != javax.lang.model.util.Elements.Origin.EXPLICIT;
  }

  /** The record {@code value} is, made of its leaves as written; null after an error. */
  Operand object(Tuple value, Tree at) {
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

  private void error(Tree at, String message) {
    context.diagnostics().error(at, message);
  }

  /**
   * An error at {@code at} when generated code would read the components of {@code record}
   * ({@code use}: what it reads them of) through an accessor that computes something else
   * ({@link RecordAccessors}).
   */
  void checkAccessors(TypeElement record, Tree at, String use) {
    RecordAccessors.computed(record, context.trees(), context.elements(),
        context.classFiles())
        .ifPresent(computed -> error(at, computed.message(use)));
  }
}
