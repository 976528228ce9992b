package ad4j.processor.front;

import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Expr;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * Lowers a call of a {@code @Differentiable} method once it is chosen: how its arguments are
 * passed (the array of a variable arity call, value records spread into their leaves, the
 * leaves of a value record it returns that callers take from the arguments), how generated code
 * calls it as written where a record is read at the call, and the call of a vector function.
 *
 * <p>Apart from {@link CallLowering} and {@link NamedMethodCalls}, which tell what a call names
 * and which method it chooses, because passing arguments to a callee's generated members is the
 * same whichever way the call named it: by name, on {@code this} or on an object
 * ({@link InstanceCalls}).
 */
final class DifferentiableCalls {
  private final LoweringContext context;
  private final CalleeResolver callees;
  private final RecordLowering records;
  private final ArrayLowering arrays;

  DifferentiableCalls(LoweringContext context, ExpressionLowering expressions,
      CalleeResolver callees, ArrayLowering arrays) {
    this.context = context;
    this.callees = callees;
    this.records = expressions.records();
    this.arrays = arrays;
  }

  /**
   * The call of the {@code @Differentiable} method {@code name} of {@code owner} (the overload
   * {@code choice}, when one applies) on {@code arguments}: a variable arity call's array made,
   * the callee resolved, value records spread into their leaves, a value record result's leaves
   * that carry no derivative taken from the arguments. Null after an error.
   */
  Operand lower(Optional<Overloads.Choice> choice, TypeElement owner, String name,
      List<Operand> arguments, MethodInvocationTree invocation, String shown) {
    Optional<javax.lang.model.element.ExecutableElement> method =
        choice.map(Overloads.Choice::method);
    if (choice.isPresent() && choice.get().variableArity()) {
      // f(a, b, c) of a @Differentiable f(double... xs): the array Java makes for the call;
      // for a @NoDerivative one it carries derivatives only where an element does, so that
      // constants pass
      List<? extends javax.lang.model.element.VariableElement> parameters =
          choice.get().method().getParameters();
      arguments = arrays.variableArityArguments(choice.get().method(), arguments, invocation,
          !ActiveParameters.isActive(parameters.get(parameters.size() - 1)));
      if (arguments == null) {
        return null;
      }
    }
    Optional<Callee> callee = callees.resolve(owner, name, arguments, invocation, shown);
    if (callee.isEmpty()) {
      return null;
    }
    Optional<Operation> asWritten = method.isPresent() && !callee.get().receiverFirst()
        ? asWritten(method.get(), owner, arguments.size(), false) : Optional.empty();
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
    if (context.loops().inside() && CheckpointedLoops.isCheckpointed(context.element())) {
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

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
