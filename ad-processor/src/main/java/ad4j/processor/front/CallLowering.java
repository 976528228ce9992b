package ad4j.processor.front;

import ad4j.processor.front.Symbols.CallTarget;
import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Expr;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * Lowers method calls: it tells what a call names (a static method, one of {@code this}, of an
 * object, of a function value, a stream pipeline, a template that takes a function) and hands
 * each to what lowers it: a {@code @Differentiable} callee ({@link CalleeResolver}), one with
 * {@code @DerivativeOf} rules ({@link RuledCalls}), one run as written ({@link InactiveCalls}),
 * a call on an object ({@link InstanceCalls}), a {@code Math} function ({@link MathCalls}).
 * Apart from {@link ExpressionLowering} because resolving a call is most of what lowering an
 * expression decides.
 */
final class CallLowering {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final Diagnostics diagnostics;
  private final CalleeResolver callees;
  private final RuledCalls ruledCalls;
  private final InactiveCalls inactiveCalls;
  private final RecordLowering records;
  private final FunctionValues functions;
  private final StreamLowering streams;
  private final ArrayLowering arrays;
  private final InstanceCalls instanceCalls;
  private final MathCalls mathCalls;
  /** The call being lowered as a statement, whose value nothing reads; null otherwise. */
  private MethodInvocationTree discarded;

  CallLowering(LoweringContext context, ExpressionLowering expressions, ObjectValues objects,
      ArrayLowering arrays) {
    this.context = context;
    this.expressions = expressions;
    this.diagnostics = context.diagnostics();
    this.callees = new CalleeResolver(context);
    this.ruledCalls = new RuledCalls(context, callees);
    this.inactiveCalls = new InactiveCalls(context);
    this.records = expressions.records();
    this.functions = expressions.functions();
    this.streams = expressions.streams();
    this.arrays = arrays;
    this.instanceCalls = new InstanceCalls(context, expressions, this, objects);
    this.mathCalls = new MathCalls(context, expressions, this);
  }

  /** Where calls of {@code @Differentiable} methods are resolved. */
  CalleeResolver callees() {
    return callees;
  }

  /** Where calls of methods with {@code @DerivativeOf} rules are lowered. */
  RuledCalls ruledCalls() {
    return ruledCalls;
  }

  /** Where calls of methods run as written are lowered. */
  InactiveCalls inactiveCalls() {
    return inactiveCalls;
  }

  /** {@link InstanceCalls#recordMethodCall}. */
  Operand recordMethodCall(TypeElement record, ExecutableElement method,
      List<Operand> arguments, MethodInvocationTree invocation, String shown) {
    return instanceCalls.recordMethodCall(record, method, arguments, invocation, shown);
  }

  /** {@link MathCalls#mathFunction}. */
  Operand mathFunction(String name, List<Operand> arguments, MethodInvocationTree at) {
    return mathCalls.mathFunction(name, arguments, at);
  }

  /** Whether {@code invocation} is a call made as a statement, whose value nothing reads. */
  boolean isDiscarded(MethodInvocationTree invocation) {
    return invocation == discarded;
  }

  Operand call(MethodInvocationTree invocation) {
    if (records.handles(invocation)) {
      return records.scalarCall(invocation); // p.x(), p.dot(q): a flattened record's
    }
    Optional<String> unchosen = records.methods().unchosen(invocation);
    if (unchosen.isPresent()) {
      unsupported(invocation, unchosen.get());
      return null;
    }
    ExpressionTree select = invocation.getMethodSelect();
    if (select instanceof MemberSelectTree member && member.getIdentifier().contentEquals("clone")
        && invocation.getArguments().isEmpty()
        && expressions.names().isArrayExpression(member.getExpression())) {
      return arrays.cloneOf(invocation, member.getExpression());
    }
    String shown = context.source().of(select)
        + (invocation.getArguments().isEmpty() ? "()" : "(...)");
    Optional<MethodInvocationTree> streamSource = streams.source(invocation);
    if (streamSource.isPresent()) {
      return streams.lower(invocation, streamSource.get()); // Arrays.stream(a).map(f).sum()
    }
    if (select instanceof MemberSelectTree member) {
      Optional<FunctionValues.Known> function = functions.known(member.getExpression());
      if (function.isPresent() && functions.recordResult(invocation).isPresent()) {
        // a value record, taken by RecordLowering where records are; here, an object
        records.locals().misused(invocation, context.source().of(invocation));
        return null;
      }
      if (function.isPresent()) {
        return functions.call(function.get(), member, invocation); // f.applyAsDouble(x)
      }
      Optional<String> unknown = functions.unknown(member.getExpression());
      if (unknown.isPresent()) {
        List<Operand> arguments = lowerAll(invocation);
        if (arguments == null) {
          return null;
        }
        if (arguments.stream().anyMatch(a -> a.isActive() || ArrayLowering.isActiveArray(a))) {
          unsupported(invocation, "call to '" + shown + "' is not differentiable: the code of "
              + unknown.get() + " is not known at compile time, and an argument carries a"
              + " derivative into it; " + FunctionValues.KNOWN_FUNCTIONS);
          return null;
        }
        return instanceCalls.unknownFunctionCall(member, invocation, shown, arguments);
      }
    }
    String name;
    CallTarget target;
    if (select instanceof IdentifierTree identifier) {
      name = identifier.getName().toString();
      target = context.symbols().resolveUnqualifiedCall(name);
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree receiver
        && receiver.getName().contentEquals(Receivers.THIS)
        && context.scopes().lookUp(Receivers.THIS) != null) {
      // this.g(x) in an instance method
      return instanceCalls.instanceCall(member, invocation, shown);
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree receiver
        && (receiver.getName().contentEquals("this")
            || receiver.getName().contentEquals("super"))) {
      String call = member.getIdentifier() + (invocation.getArguments().isEmpty() ? "()" : "(...)");
      unsupported(invocation, "call to '" + shown + "': " + (context.scopes().lookUp(
          Receivers.THIS) == null ? "the method is static and has no '" + receiver.getName()
              + "'; call '" + call + "' without it"
          : "ad4j calls an object's methods as Java dispatches them, and does not pass over an"
              + " override as 'super' does; where '"
              + context.symbols().enclosingType().getSimpleName() + "' does not override '"
              + member.getIdentifier() + "', call '" + call + "' without 'super'"));
      lowerArguments(invocation);
      return null;
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree receiver
        && records.isReceiverComponent(receiver.getName().toString())) {
      // name.length() in a value record's own code: a method of a component that carries
      // no derivative (a String, an object), not of the field javac sees
      return instanceCalls.instanceCall(member, invocation, shown);
    } else if (select instanceof MemberSelectTree member
        && isOwnInstanceField(member.getExpression())) {
      // own.cdf(x), as this.own.cdf(x)
      return instanceCalls.instanceCall(member, invocation, shown);
    } else if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())
        && inactiveCalls.receiverField(member.getExpression()).isPresent()
        && invocation.getTypeArguments().isEmpty()
        && !ruledCalls.hasInstanceRules(inactiveCalls.receiverField(member.getExpression()).get(),
            member.getIdentifier().toString())) {
      // a method of an object in a static field, without @DerivativeOf rules: runs as written
      List<Operand> arguments = lowerAll(invocation);
      return arguments == null ? null : inactiveCalls.lowerOnField(
          inactiveCalls.receiverField(member.getExpression()).get(),
          member.getIdentifier().toString(), arguments, invocation, shown,
          invocation == discarded);
    } else if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())
        && receiverVariable(member.getExpression()).isPresent()) {
      Optional<VariableElement> field = receiverField(member.getExpression());
      String method = member.getIdentifier().toString();
      if (field.isPresent() && ruledCalls.hasInstanceRules(field.get(), method)) {
        List<Operand> arguments = new ArrayList<>();
        for (ExpressionTree argument : invocation.getArguments()) {
          arguments.add(expressions.lower(argument));
        }
        return arguments.contains(null) ? null
            : ruledCalls.lowerOnReceiver(field.get(), method, arguments, invocation, shown);
      }
      if (expressions.names().startsWithLocal(member.getExpression())) {
        return instanceCalls.instanceCall(member, invocation, shown);
      }
      unsupported(invocation, "call to '" + shown + "' is not differentiable: '"
          + context.source().of(member.getExpression()) + "' is "
          + receiverVariable(member.getExpression()).get() + (context.scopes().lookUp(
              Receivers.THIS) == null ? ", and the method is static: it can call methods of"
              + " its parameters, its locals and static fields, not of instance fields"
              : " of " + context.enclosingInstance()));
      lowerArguments(invocation);
      return null;
    } else if (select instanceof MemberSelectTree member
        && expressions.names().startsWithLocal(member.getExpression())) {
      // p.q.m(): a field of a local's object
      return instanceCalls.instanceCall(member, invocation, shown);
    } else if (select instanceof MemberSelectTree member
        && Symbols.isName(member.getExpression())) {
      name = member.getIdentifier().toString();
      target = context.symbols().resolveQualifiedCall(member.getExpression());
    } else if (select instanceof MemberSelectTree member) {
      // a method of what an expression gives: T[1].length(), sb.append(a).append(b)
      return instanceCalls.instanceCall(member, invocation, shown);
    } else {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: only calls of"
          + " static methods are supported");
      lowerArguments(invocation);
      return null;
    }
    if (!invocation.getTypeArguments().isEmpty()) {
      unsupported(invocation, "call to '" + shown + "' with type arguments is not supported");
      lowerArguments(invocation);
      return null;
    }
    if (target instanceof CallTarget.Unresolved) {
      if (select instanceof MemberSelectTree member) {
        diagnostics.unresolved(invocation, "cannot find class '"
            + context.source().of(member.getExpression()) + "'");
      } else {
        diagnostics.unresolved(invocation, "cannot find method '" + name + "'");
      }
      lowerArguments(invocation);
      return null;
    }
    if (target instanceof CallTarget.MathFunction math && name.equals("random")) {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: it returns a new"
          + " random number at each call, not a function of its arguments");
      lowerArguments(invocation);
      return null;
    }
    if (target instanceof CallTarget.OtherMethod other) {
      Optional<javax.lang.model.element.ExecutableElement> template =
          functions.template(other.owner(), name, invocation.getArguments().size());
      if (template.isPresent()) {
        return functions.inline(template.get(), invocation, shown); // integrate(x -> ..., a, b)
      }
    }
    List<Operand> arguments = new ArrayList<>();
    boolean failed = false;
    for (ExpressionTree argument : invocation.getArguments()) {
      Operand operand = callArgument(argument);
      failed |= operand == null;
      arguments.add(operand);
    }
    if (failed) {
      return null;
    }
    return resolvedCall(invocation, select, name, target, arguments, shown);
  }

  /**
   * An argument of a call of a {@code @Differentiable} method: a flattened value record's
   * leaves standing in for it while the method is chosen; an array made for the call (no
   * variable names it, so only the callee could write it) carrying no derivative when its
   * elements carry none; else the value. Null after an error.
   */
  Operand callArgument(ExpressionTree argument) {
    return records.acrossCalls().isFlattened(argument) ? records.acrossCalls().placeholder(argument)
        : ExpressionLowering.withoutParentheses(argument) instanceof NewArrayTree made
            && made.getType() != null && made.getDimensions().size() <= 1
            ? arrays.newArray(made, null, true) : expressions.lower(argument);
  }

  /**
   * The call of {@code name} that {@code target} resolves, with its arguments lowered:
   * {@code select} is the tree that named it (a method reference's, when a function value
   * applies one), {@code invocation} where errors are reported.
   */
  Operand resolvedCall(MethodInvocationTree invocation, ExpressionTree select, String name,
      CallTarget target, List<Operand> arguments, String shown) {
    if (target instanceof CallTarget.Imported imported) {
      // the class of the imported method that overload resolution picks among all of them
      // javac's order: the methods of single imports, then, when none of them applies, those
      // of on-demand imports (Resolve.findFun)
      java.util.Map<javax.lang.model.element.ExecutableElement, TypeElement> methods =
          context.symbols().importedMethods(imported.single(), name);
      Optional<Overloads.Choice> choice = CalleeResolver.choice(context,
          new ArrayList<>(methods.keySet()), arguments);
      if (choice.isEmpty()) {
        methods = context.symbols().importedMethods(imported.onDemand(), name);
        choice = CalleeResolver.choice(context, new ArrayList<>(methods.keySet()), arguments);
      }
      if (choice.isEmpty()) {
        List<TypeElement> owners = new ArrayList<>(imported.single());
        owners.addAll(imported.onDemand());
        unsupported(invocation, "call to '" + shown + "' is ambiguous between the static imports"
            + " of " + owners.stream().map(t -> t.getQualifiedName().toString())
                .collect(Collectors.joining(" and ")));
        return null;
      }
      target = context.symbols().targetOf(methods.get(choice.get().method()));
    }
    if (target instanceof CallTarget.OtherMethod other) {
      Optional<Overloads.Choice> choice = CalleeResolver.choice(context,
          CalleeResolver.candidates(context, other.owner(), name), arguments);
      if (select instanceof MemberSelectTree member) {
        ResolutionLog.resolved(context, member.getExpression(), other.owner());
      }
      choice.ifPresent(c -> ResolutionLog.resolved(context, invocation, c.method()));
      boolean passesRecords = arguments.stream()
          .anyMatch(a -> context.flatRecords().recordOf(a).isPresent());
      if (passesRecords && (choice.isEmpty()
          || !CalleeResolver.isDifferentiable(choice.get().method()))) {
        for (int i = 0; i < arguments.size(); i++) {
          if (context.flatRecords().recordOf(arguments.get(i)).isPresent()) {
            records.locals().misused(invocation.getArguments().get(i),
                context.source().of(invocation.getArguments().get(i)));
          }
        }
        return null;
      }
      Optional<Operand> self = choice.isPresent() && select instanceof IdentifierTree
          && Receivers.hasReceiver(choice.get().method())
          ? expressions.names().implicitReceiver(other.owner(), invocation) : Optional.empty();
      if (self.isPresent()) {
        // g(x) in an instance method is this.g(x)
        return instanceCalls.callOnObject(self.get(), other.owner(), name, arguments,
            invocation, shown);
      }
      Optional<RuledCalls.Lowered> ruled =
          ruledCalls.lower(other.owner(), name, arguments, invocation, shown);
      if (ruled.isPresent()) {
        return ruled.get().operand();
      }
      // not ruled: a method that is not @Differentiable runs as written, if it carries no
      // derivative (else InactiveCalls reports the chain)
      Optional<javax.lang.model.element.ExecutableElement> method =
          choice.map(Overloads.Choice::method);
      Optional<BoxMathFunctions.Meaning> meaning = method.flatMap(BoxMathFunctions::of);
      if (meaning.isPresent() && arguments.stream().anyMatch(Operand::isActive)
          && arguments.stream().allMatch(a -> a.type().isNumeric())) {
        // Double.sum(a, b) is a + b, Double.max is Math.max: differentiated as those are
        NumericType type = meaning.get().type();
        Operand left = expressions.conversions().convert(arguments.get(0), type);
        Operand right = expressions.conversions().convert(arguments.get(1), type);
        return meaning.get().mathFunction().isEmpty()
            ? expressions.operators().combine(Operation.ADD, left, right, type)
            : mathCalls.mathCall(MathOwner.MATH, meaning.get().mathFunction().get(),
                List.of(left, right), invocation, shown);
      }
      if (method.isPresent() && !CalleeResolver.isDifferentiable(method.get())) {
        return inactiveCalls.lower(method.get(), other.owner(), arguments, invocation, shown,
            invocation == discarded);
      }
      if (choice.isPresent() && choice.get().variableArity()) {
        // f(a, b, c) of a @Differentiable f(double... xs): the array Java makes for the call
        arguments = variableArityArguments(choice.get().method(), arguments, invocation);
        if (arguments == null) {
          return null;
        }
      }
      Optional<Callee> callee = callees.resolve(other.owner(), name, arguments, invocation,
          shown);
      if (callee.isEmpty()) {
        return null;
      }
      Optional<Operation> asWritten = method.isPresent() && !callee.get().receiverFirst()
          ? asWritten(method.get(), other.owner(), arguments.size(), false) : Optional.empty();
      arguments = records.acrossCalls().spread(callee.get(), arguments,
          callee.get().receiverFirst() ? 1 : 0, invocation, asWritten);
      if (arguments == null) {
        return null;
      }
      if (callee.get().returnsArray()) {
        Optional<List<Operand>> carried = carriedLeaves(choice, arguments, invocation, shown);
        if (carried.isEmpty()) {
          return null;
        }
        Operand result = vectorCall(callee.get(), arguments);
        context.flatRecords().carriesCallResult(((Operand.Use) result).value(), carried.get());
        return result;
      }
      boolean active = arguments.stream().anyMatch(
          argument -> argument.isActive() || ArrayLowering.isActiveArray(argument));
      return context.emit(Operation.call(callee.get()), arguments, callee.get().resultType(),
          active);
    }
    return mathCalls.mathCall(((CallTarget.MathFunction) target).owner(), name, arguments,
        invocation, shown);
  }

  /**
   * How generated code calls {@code method}, a {@code @Differentiable} callee, as written on
   * {@code arity} arguments: a static one as {@code Owner.g(...)}; an instance method on an
   * object its caller holds ({@code receiverIsObject}) as {@code o.g(...)}, the receiver first;
   * none when generated code cannot reach it, for a receiver the caller has flattened, in a
   * checkpointed loop (which reads no record held as an object: {@code CheckpointedLoops}), and
   * for a callee whose code does not run alike twice ({@link CalleePlainCalls#in}).
   */
  Optional<Operation> asWritten(ExecutableElement method, TypeElement qualifier,
      int arity, boolean receiverIsObject) {
    if (context.insideLoop() && CheckpointedLoops.isCheckpointed(context.element())) {
      return Optional.empty();
    }
    if (!context.examining()
        && context.calleeServices().calleePlainCalls().in(method).isPresent()) {
      // its code makes calls that do not run alike (a draw, a counter): run as written where a
      // record is null and again in its members, it would run twice where the method runs it
      // once, so the record is read at the call, as before. (Not asked while a method is only
      // examined for what it calls: asking lowers its callees, whose calls would ask again.
      // CalleeResolver has asked already for every callee of a method lowered for its members.)
      return Optional.empty();
    }
    if (StaticMembers.isStatic(method)) {
      return context.javaTypes().memberReachability(method, qualifier).isPresent()
          ? Optional.empty()
          : Optional.of(Operation.plainCall(context.javaTypes().referenceTo(
              context.javaTypes().qualifyingType(method, qualifier)) + "." + method.getSimpleName(),
              arity));
    }
    return !receiverIsObject || context.reachability().ofMember(method).isPresent()
        ? Optional.empty()
        : Optional.of(Operation.instanceCall(method.getSimpleName().toString(), arity));
  }

  /**
   * The arguments of a variable arity call of a {@code @Differentiable} method: those before
   * its last parameter, then a new array of the rest, made after all are evaluated, as Java
   * makes it (JLS 15.12.4.2); null after an error.
   */
  private List<Operand> variableArityArguments(
      javax.lang.model.element.ExecutableElement method, List<Operand> arguments,
      MethodInvocationTree invocation) {
    int fixed = method.getParameters().size() - 1;
    javax.lang.model.type.TypeMirror last = method.getParameters().get(fixed).asType();
    Optional<NumericType> type = context.javaTypes().irType(last);
    if (type.isEmpty() || (type.get() != NumericType.DOUBLE_ARRAY
        && type.get() != NumericType.INT_ARRAY)) {
      unsupported(invocation, "call to '" + context.source().of(invocation.getMethodSelect())
          + "(...)' passes its variable arity parameter of type '" + last + "' element by"
          + " element, which ad4j supports for 'double...' and 'int...' only; pass an array");
      return null;
    }
    NumericType element = type.get().elementType();
    List<Operand> packed = new ArrayList<>(arguments.subList(0, fixed));
    Operand array = context.emit(Operation.newArray(element),
        List.of(Operand.Constant.of(arguments.size() - fixed)), type.get(),
        element == NumericType.DOUBLE);
    for (int k = fixed; k < arguments.size(); k++) {
      if (arrays.storeElement(array, Operand.Constant.of(k - fixed), arguments.get(k),
          invocation.getArguments().get(k)) == null) {
        return null;
      }
    }
    packed.add(array);
    return packed;
  }

  /**
   * The leaves that carry no derivative of the value record a call ({@code shown}) of the
   * {@code @Differentiable} method {@code choice} returns, none for other results: the call's
   * arguments (its {@code arguments}, flat) that the method's code returns as those leaves
   * ({@link CalleePlainCalls#carriedResult}), so that the caller holds the same objects and
   * numbers in every member without running the method again. Empty after an error at
   * {@code invocation}.
   */
  private Optional<List<Operand>> carriedLeaves(Optional<Overloads.Choice> choice,
      List<Operand> arguments, MethodInvocationTree invocation, String shown) {
    Optional<javax.lang.model.element.TypeElement> record = choice.flatMap(c ->
        ValueRecords.valueRecord(c.method().getReturnType()));
    if (record.isEmpty()
        || ValueRecords.leaves(record.get()).stream().allMatch(ValueRecords.Leaf::active)) {
      return Optional.of(List.of());
    }
    Optional<List<ValueRecords.Carried>> carried =
        context.calleeServices().calleePlainCalls().carriedResult(choice.get().method());
    String problem = null;
    if (carried.isEmpty()) {
      problem = "ad4j reads which of its parameters it returns there from its code, or from"
          + " its generated class when it was compiled earlier, and its source is not in this"
          + " compilation (or has errors) and no generated class records it (one of an earlier"
          + " ad4j, or one overload of several returning such records)";
    } else if (carried.get().stream()
        .anyMatch(c -> c.parameter() < 0 && !LITERAL.matcher(c.constant()).matches())) {
      problem = "it returns a constant there that is not a string, integer or boolean"
          + " literal ('\"made\"', '3'), which ad4j passes on besides parameters";
    }
    if (problem != null) {
      context.diagnostics().error(invocation, "call to '" + shown + "': it returns value"
          + " record '" + record.get().getSimpleName() + "', whose components that carry no"
          + " derivative callers take from the arguments or literals the method returns them"
          + " from; " + problem);
      return Optional.empty();
    }
    List<ValueRecords.Leaf> inactive = ValueRecords.leaves(record.get()).stream()
        .filter(leaf -> !leaf.active()).toList();
    List<Operand> leaves = new ArrayList<>();
    for (int i = 0; i < inactive.size(); i++) {
      ValueRecords.Carried leaf = carried.get().get(i);
      leaves.add(leaf.parameter() >= 0 ? arguments.get(leaf.parameter())
          : literal(leaf.constant(), inactive.get(i).type()));
    }
    return Optional.of(leaves);
  }

  /**
   * A literal that the code of any class may hold as it is: a string, an integer or a
   * {@code boolean}.
   */
  private static final java.util.regex.Pattern LITERAL = java.util.regex.Pattern.compile(
      "\"(?:[^\"\\\\]|\\\\.)*\"|-?[0-9]+L?|true|false");

  /** Literal {@code text} ({@link #LITERAL}) as a constant of {@code type}. */
  private static Operand literal(String text, NumericType type) {
    java.util.OptionalDouble known = text.matches("-?[0-9]+L?")
        ? java.util.OptionalDouble.of(Long.parseLong(text.replace("L", "")))
        : java.util.OptionalDouble.empty();
    return new Operand.Constant(Expr.atom(text), type, known);
  }

  /**
   * {@code h(arguments)} of a vector function: a new local array of the caller's, like
   * {@code new double[n]} (its elements may be written over); inside a loop, a new one in each
   * iteration.
   */
  Operand vectorCall(Callee callee, List<Operand> arguments) {
    return context.emit(Operation.call(callee), arguments, callee.resultType(), true);
  }

  /**
   * What a call's receiver is when it names a variable rather than a class ("a field of type
   * 'NormalDistribution'", "the local variable 'd'"): Java reads a name as a variable first.
   */
  private Optional<String> receiverVariable(ExpressionTree receiver) {
    if (receiver instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      if (context.scopes().lookUp(name) != null) {
        return Optional.of("the local variable '" + name + "'");
      }
      return context.symbols().resolveField(name).map(CallLowering::describeField);
    }
    if (receiver instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && receiverVariable(select.getExpression()).isEmpty()) {
      return context.symbols().resolveType(select.getExpression())
          .flatMap(owner -> context.symbols().fieldOf(owner, select.getIdentifier().toString()))
          .map(CallLowering::describeField);
    }
    return Optional.empty();
  }

  /** The field a call's receiver names, when it names one (and no local variable). */
  private Optional<VariableElement> receiverField(ExpressionTree receiver) {
    if (receiver instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      return context.scopes().lookUp(name) != null ? Optional.empty()
          : context.symbols().resolveField(name);
    }
    if (receiver instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && receiverVariable(select.getExpression()).isEmpty()) {
      return context.symbols().resolveType(select.getExpression())
          .flatMap(owner -> context.symbols().fieldOf(owner, select.getIdentifier().toString()));
    }
    return Optional.empty();
  }

  /**
   * Whether {@code receiver} is the simple name of an instance field of the object an instance
   * method runs on, read through its receiver as {@code this.own} would be: no local hides it,
   * and the field is the method's own class's (declared or inherited), not an enclosing
   * instance's ({@link #implicitReceiver}).
   */
  private boolean isOwnInstanceField(ExpressionTree receiver) {
    return receiver instanceof IdentifierTree identifier && records.inlinedRecord().isEmpty()
        && context.scopes().lookUp(identifier.getName().toString()) == null
        && context.ownInstanceField(identifier.getName().toString()).isPresent();
  }

  private static String describeField(VariableElement field) {
    return "a field of type '" + field.asType() + "'";
  }

  /**
   * Lowers a call made as a statement, for its effect: its value reaches nothing, so a call of
   * a method that is not {@code @Differentiable} carries no derivative whatever its arguments
   * carry, and runs as written.
   */
  void lowerForEffect(MethodInvocationTree invocation) {
    MethodInvocationTree outer = discarded;
    discarded = invocation;
    try {
      expressions.lower(invocation);
    } finally {
      discarded = outer;
    }
  }

  /** A call's arguments in order; null when one failed. */
  List<Operand> lowerAll(MethodInvocationTree invocation) {
    List<Operand> arguments = new ArrayList<>();
    boolean failed = false;
    for (ExpressionTree argument : invocation.getArguments()) {
      Operand operand = expressions.lower(argument);
      failed |= operand == null;
      arguments.add(operand);
    }
    return failed ? null : arguments;
  }

  /** Lowers a call's arguments after an error at the call, for the errors of their own. */
  private void lowerArguments(MethodInvocationTree invocation) {
    for (ExpressionTree argument : invocation.getArguments()) {
      expressions.lower(argument);
    }
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
