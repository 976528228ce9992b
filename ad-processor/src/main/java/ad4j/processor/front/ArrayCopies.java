package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Lowers what copies and fills arrays element by element: {@code Arrays.fill},
 * {@code System.arraycopy}, {@code Arrays.copyOf} and {@code copyOfRange} of a local array, and
 * {@code double[] t = c ? u : v}, a copy of the chosen array ({@link ArrayChoices} says when
 * that computes what Java's alias does). Each becomes a loop of element reads and writes, after
 * the checks that throw what the library throws, so that the elements carry the derivatives of
 * those they copy. Apart from {@link Lowering}, which lowers statements, because these are the
 * library's code written out, and the rules of which arrays they may write.
 */
final class ArrayCopies {
  /** Lowers a counted loop: {@code test} before each iteration, then {@code body}, {@code step}. */
  interface CountedLoops {
    void lower(Supplier<Operand> test, Runnable body, Runnable step);
  }

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final IrBuilder ir;
  private final CountedLoops loops;
  /** The body of the method being lowered, where every use of its locals' names is seen. */
  private final Supplier<Tree> methodBody;

  ArrayCopies(LoweringContext context, ExpressionLowering expressions, CountedLoops loops,
      Supplier<Tree> methodBody) {
    this.context = context;
    this.expressions = expressions;
    this.ir = context.ir();
    this.loops = loops;
    this.methodBody = methodBody;
  }

  /**
   * {@code Arrays.fill(a, v)}, {@code Arrays.fill(a, from, to, v)} and
   * {@code System.arraycopy(src, srcPos, dest, destPos, length)} into a local array: lowered to
   * a loop of element writes, after a range check that throws as the library does (before
   * anything is written). Returns false when the call is neither.
   */
  boolean lowerArrayLibraryCall(MethodInvocationTree call) {
    if (!(call.getMethodSelect() instanceof MemberSelectTree select)) {
      return false;
    }
    String name = select.getIdentifier().toString();
    String owner = context.symbols().resolveType(select.getExpression())
        .map(type -> type.getQualifiedName().toString()).orElse("");
    List<? extends ExpressionTree> arguments = call.getArguments();
    if (owner.equals("java.util.Arrays") && name.equals("fill")
        && (arguments.size() == 2 || arguments.size() == 4)) {
      lowerFill(call, arguments);
      return true;
    }
    if (owner.equals("java.lang.System") && name.equals("arraycopy") && arguments.size() == 5) {
      lowerArrayCopy(call, arguments);
      return true;
    }
    return false;
  }

  private void lowerFill(MethodInvocationTree call, List<? extends ExpressionTree> arguments) {
    List<Operand> lowered = new ArrayList<>();
    for (ExpressionTree argument : arguments) {
      lowered.add(expressions.lower(argument));
    }
    if (lowered.contains(null)) {
      return;
    }
    Operand array = writableArray(arguments.get(0), lowered.get(0));
    if (array == null) {
      return;
    }
    Operand length = context.emit(Operation.LENGTH, List.of(array), NumericType.INT, false);
    Operand from = Operand.Constant.of(0);
    Operand to = length;
    if (arguments.size() == 4) {
      from = lowered.get(1);
      to = lowered.get(2);
      context.emit(Operation.slotsCall(SlotsCall.CHECK_FILL, 3), List.of(length, from, to),
          NumericType.INT, false);
    }
    NumericType element = array.type().elementType();
    Operand value = lowered.get(arguments.size() - 1);
    if (!expressions.conversions()
        .assignable(value, element, arguments.get(arguments.size() - 1))) {
      return;
    }
    Operand filled = expressions.conversions().convert(value, element);
    if (losesDerivatives(array, element, filled.isActive(), call, arguments.get(0))) {
      return;
    }
    Operand last = to;
    writeLoop(from, last, position -> context.emit(Operation.STORE,
        List.of(array, position, filled), element, isActive(array, element)));
  }

  /**
   * How the JVM's message names the elements of an array of {@code type} that
   * {@code System.arraycopy} rejects ({@code double[4]}; a matrix's rows: {@code object
   * array[4]}), a string constant for {@code Slots.checkCopy}.
   */
  private static Operand copiedElements(NumericType type) {
    String name = type == NumericType.DOUBLE_MATRIX ? "object array" : type.elementType().keyword();
    return new Operand.Constant(ad4j.processor.ir.Expr.atom("\"" + name + "\""),
        NumericType.STRING, java.util.OptionalDouble.empty());
  }

  private void lowerArrayCopy(MethodInvocationTree call, List<? extends ExpressionTree> arguments) {
    List<Operand> lowered = new ArrayList<>();
    for (ExpressionTree argument : arguments) {
      lowered.add(expressions.lower(argument));
    }
    if (lowered.contains(null)) {
      return;
    }
    Operand source = lowered.get(0);
    Operand target = writableArray(arguments.get(2), lowered.get(2));
    if (target == null) {
      return;
    }
    if (!source.type().isArray() || source.type() != target.type()) {
      unsupported(arguments.get(0), "System.arraycopy from '" + source.type().keyword()
          + "' to '" + target.type().keyword() + "': the arrays must have the same type");
      return;
    }
    if (source.equals(target)) {
      unsupported(call, "System.arraycopy within one array is not supported: copy from a"
          + " clone of it ('" + context.source().of(arguments.get(0)) + ".clone()')");
      return;
    }
    Operand sourceStart = lowered.get(1);
    Operand targetStart = lowered.get(3);
    Operand count = lowered.get(4);
    Operand sourceLength = context.emit(Operation.LENGTH, List.of(source), NumericType.INT,
        false);
    Operand targetLength = context.emit(Operation.LENGTH, List.of(target), NumericType.INT,
        false);
    context.emit(Operation.slotsCall(SlotsCall.CHECK_COPY, 6),
        List.of(copiedElements(target.type()), sourceLength, sourceStart, targetLength,
            targetStart, count), NumericType.INT, false);
    NumericType element = target.type().elementType();
    boolean sourceActive = source instanceof Operand.Use use && use.value().isActiveArray();
    if (losesDerivatives(target, element, sourceActive && element.isFloatingPoint(), call,
        arguments.get(2))) {
      return;
    }
    // Two rows of a local matrix (m[i] and m[j], or locals holding them) may be one array,
    // which the library copies as if through a temporary array: there elements go from the
    // last down where the target starts after the source, so that none is read after it was
    // written. Other arrays are distinct (one array is the error above).
    boolean mayOverlap = context.arrays().isRow(source) && context.arrays().isRow(target);
    Operand backward = mayOverlap ? context.emit(Operation.infix("<"),
        List.of(sourceStart, targetStart), NumericType.BOOLEAN, false) : null;
    Operand last = mayOverlap ? context.emit(Operation.SUBTRACT,
        List.of(count, Operand.Constant.of(1)), NumericType.INT, false) : null;
    writeLoop(Operand.Constant.of(0), count, k -> {
      Operand offset = !mayOverlap ? k : context.emit(Operation.SELECT, List.of(backward,
          context.emit(Operation.SUBTRACT, List.of(last, k), NumericType.INT, false), k),
          NumericType.INT, false);
      Operand from = context.emit(Operation.ADD, List.of(sourceStart, offset), NumericType.INT,
          false);
      Operand read = context.emit(Operation.ELEMENT, List.of(source, from), element,
          sourceActive && element.isFloatingPoint());
      Operand to = context.emit(Operation.ADD, List.of(targetStart, offset), NumericType.INT,
          false);
      return context.emit(Operation.STORE, List.of(target, to, read), element,
          isActive(target, element));
    });
  }

  /**
   * Whether {@code call} is {@code Arrays.copyOf(a, n)} or {@code Arrays.copyOfRange(a, i, j)},
   * as {@link #lowerArraysCopy} lowers it where it initialises a local.
   */
  static boolean isArraysCopy(MethodInvocationTree call, LoweringContext context) {
    if (!(call.getMethodSelect() instanceof MemberSelectTree select)) {
      return false;
    }
    String name = select.getIdentifier().toString();
    return (name.equals("copyOf") && call.getArguments().size() == 2
            || name.equals("copyOfRange") && call.getArguments().size() == 3)
        && context.symbols().resolveType(select.getExpression())
            .map(type -> type.getQualifiedName().contentEquals("java.util.Arrays"))
            .orElse(false);
  }

  /**
   * {@code Arrays.copyOf(a, n)} and {@code Arrays.copyOfRange(a, from, to)} of a
   * {@code double[]} or {@code int[]}: a new array, written by a loop of element copies, so its
   * elements carry the derivatives of those they copy (as {@code clone()} does). The checks
   * throw what the library throws: {@code new double[n]} a {@code NegativeArraySizeException},
   * {@code from > to} an {@code IllegalArgumentException}, a start past the end what
   * {@code System.arraycopy} throws. With {@code onlyRead} (the local the copy initialises is
   * only read: {@link ArrayChoices#onlyRead}), the copy of an array that carries no derivative
   * carries none either, as {@link ArrayLowering#cloneOf} decides for a clone. Null after an
   * error.
   */
  Operand lowerArraysCopy(MethodInvocationTree call, boolean onlyRead) {
    List<Operand> lowered = new ArrayList<>();
    for (ExpressionTree argument : call.getArguments()) {
      lowered.add(expressions.lower(argument));
    }
    if (lowered.contains(null)) {
      return null;
    }
    Operand source = lowered.get(0);
    if (source.type() != NumericType.DOUBLE_ARRAY && source.type() != NumericType.INT_ARRAY
        && source.type() != NumericType.FLOAT_ARRAY) {
      unsupported(call.getArguments().get(0), "'" + context.source().of(call) + "' copies a '"
          + source.type().keyword() + "': ad4j copies 'double[]', 'float[]' and 'int[]'"
          + " arrays");
      return null;
    }
    for (int i = 1; i < lowered.size(); i++) {
      if (!lowered.get(i).type().widensTo(NumericType.INT)) {
        unsupported(call.getArguments().get(i), "'" + context.source().of(
            call.getArguments().get(i)) + "' is not an 'int'");
        return null;
      }
    }
    boolean range = lowered.size() == 3;
    Operand from = range ? lowered.get(1) : Operand.Constant.of(0);
    Operand length = range
        ? context.emit(Operation.slotsCall(SlotsCall.CHECK_RANGE, 2), List.of(from, lowered.get(2)),
            NumericType.INT, false)
        : lowered.get(1);
    NumericType element = source.type().elementType();
    Operand copy = context.emit(Operation.newArray(element), List.of(length), source.type(),
        element.isFloatingPoint() && (!onlyRead || isActive(source, element)));
    Operand sourceLength = context.emit(Operation.LENGTH, List.of(source), NumericType.INT,
        false);
    Operand left = range ? context.emit(Operation.SUBTRACT, List.of(sourceLength, from),
        NumericType.INT, false) : sourceLength;
    String min = context.mathClassName(ad4j.processor.ir.MathOwner.MATH) + ".min";
    Operand count = context.emit(Operation.plainCall(min, 2), List.of(left, length),
        NumericType.INT, false);
    context.dependences().roundsAsWritten(count, min); // a function of its arguments
    if (range) {
      context.emit(Operation.slotsCall(SlotsCall.CHECK_COPY, 6),
          List.of(copiedElements(source.type()), sourceLength, from, length,
              Operand.Constant.of(0), count), NumericType.INT, false);
    }
    boolean sourceActive = source instanceof Operand.Use use && use.value().isActiveArray();
    writeLoop(Operand.Constant.of(0), count, k -> {
      Operand at = range ? context.emit(Operation.ADD, List.of(from, k), NumericType.INT, false)
          : k;
      Operand read = context.emit(Operation.ELEMENT, List.of(source, at), element,
          sourceActive && element.isFloatingPoint());
      return context.emit(Operation.STORE, List.of(copy, k, read), element,
          isActive(copy, element));
    });
    return copy;
  }

  /**
   * Whether {@code tree} is in the body of the method being lowered, where
   * {@link ArrayChoices#onlyRead} sees every use of its locals' names; not in the body of a
   * method or a field's lambda that is inlined into it (FunctionValues).
   */
  boolean isOwnLocal(Tree tree) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void scan(Tree node, Void unused) {
        if (node == tree) {
          found[0] = true;
        }
        return found[0] ? null : super.scan(node, unused);
      }
    }.scan(methodBody.get(), null);
    return found[0];
  }

  static boolean isChosenArray(NumericType type) {
    return type == NumericType.DOUBLE_ARRAY || type == NumericType.FLOAT_ARRAY
        || type == NumericType.INT_ARRAY;
  }

  /**
   * {@code double[] t = c ? u : v} of two array variables: a new array of the chosen one's
   * length, written by a loop of element copies from it, so its elements carry the derivatives
   * of those they copy ({@link ArrayChoices} says why a copy computes what Java's alias does,
   * and when). Only the chosen array is read, as Java does. Null after an error.
   */
  Operand lowerArrayChoice(String name, NumericType type,
      ConditionalExpressionTree choice) {
    ExpressionTree whenTrue = ExpressionLowering.withoutParentheses(choice.getTrueExpression());
    ExpressionTree whenFalse = ExpressionLowering.withoutParentheses(choice.getFalseExpression());
    String problem = null;
    if (!isOwnLocal(choice)) {
      problem = "ad4j makes '" + name + "' a copy of the chosen array where it can check"
          + " that this computes the same, in a @Differentiable method's own body, not in a"
          + " method or lambda it inlines from elsewhere";
    } else if (!(whenTrue instanceof IdentifierTree first)
        || !(whenFalse instanceof IdentifierTree second)) {
      problem = "both operands must be array variables or parameters (declare a local for"
          + " each other array)";
    } else {
      // the arrays copied from may be checked against null before the choice
      long choiceStart = context.source().start(choice);
      for (String read : List.of(name, first.getName().toString(),
          second.getName().toString())) {
        boolean onlyRead = read.equals(name) ? ArrayChoices.onlyRead(methodBody.get(), read, false)
            : ArrayChoices.onlyReadOrComparedWithNull(methodBody.get(), read,
                use -> context.source().start(use) < choiceStart);
        if (!onlyRead) {
          problem = "ad4j makes '" + name + "' a copy of the chosen array, which computes the"
              + " same only while '" + read + "' is only read (indexed, its length, iterated or"
              + " copied from); here it is also used otherwise (assigned, written into, compared,"
              + " passed to a method or returned)";
          break;
        }
      }
    }
    if (problem != null) {
      unsupported(choice, "'?:' choosing between arrays for '" + name + "' is not supported"
          + " here: " + problem);
      return null;
    }
    Operand condition = expressions.lower(choice.getCondition());
    Operand first = expressions.lower(whenTrue);
    Operand second = expressions.lower(whenFalse);
    if (condition == null || first == null || second == null) {
      return null;
    }
    if (condition.type() != NumericType.BOOLEAN) {
      unsupported(choice.getCondition(), "the condition of '?:' must be a boolean");
      return null;
    }
    for (Operand arm : List.of(first, second)) {
      if (arm.type() != type) {
        unsupported(choice, "'?:' choosing between arrays for '" + name + "': both operands"
            + " must be '" + type.keyword() + "' arrays");
        return null;
      }
    }
    if (!copiesOwnArrays(name, choice, List.of((IdentifierTree) whenTrue,
        (IdentifierTree) whenFalse), List.of(first, second))) {
      return null;
    }
    Variable length = ir.variable("length", NumericType.INT, null);
    ir.add(new Declare(length, Operand.Constant.of(0), context.line()));
    ir.add(new If(ir.nextStatementId(), condition, lengthOf(first, length),
        lengthOf(second, length), context.line()));
    NumericType element = type.elementType();
    boolean active = element.isFloatingPoint()
        && (isActive(first, element) || isActive(second, element));
    Operand copy = context.emit(Operation.newArray(element),
        List.of(new Operand.Use(context.readVariable(length))), type, active);
    ir.add(new If(ir.nextStatementId(), condition, copyInto(copy, first),
        copyInto(copy, second), context.line()));
    return copy;
  }

  /**
   * Whether the copy that {@link #lowerArrayChoice} makes for {@code name} keeps computing what
   * Java's alias computes after the choice, where each array chosen from, only read by name
   * ({@link ArrayChoices#onlyRead}), can still be written through another name: an error at
   * {@code choice} when an operand was bound to an array that other code names
   * ({@link ArrayChoices#ownsItsArray}) or returned by a call run as written. A parameter's or
   * a field's array is noted for {@link #rejectChoicesWrittenLater}: only a call run as
   * written could write it.
   */
  private boolean copiesOwnArrays(String name, ConditionalExpressionTree choice,
      List<IdentifierTree> operands, List<Operand> arrays) {
    for (int i = 0; i < operands.size(); i++) {
      String operand = operands.get(i).getName().toString();
      List<VariableTree> declarations = ArrayChoices.declarations(methodBody.get(), operand);
      if (declarations.isEmpty() || context.scopes().lookUp(operand) == null) {
        // a parameter (never written by the method) or a field
        choicesFromOutside.add(new ChoiceFromOutside(choice, name, operand,
            context.source().start(choice), context.loops().around()));
        continue;
      }
      for (VariableTree declaration : declarations) {
        if (!ArrayChoices.ownsItsArray(declaration)
            || context.arrays().isForeignArray(arrays.get(i))) {
          String declared = context.source().of(declaration).replaceFirst(";$", "");
          unsupported(choice, choiceCopies(name) + "'" + operand + "' names an array that"
              + " other code may name and write too (declared as '" + declared + "', line "
              + context.source().line(declaration) + "); choose between arrays that the"
              + " method makes ('new', 'clone()', 'Arrays.copyOf') or its parameters");
          return false;
        }
      }
    }
    return true;
  }

  private static String choiceCopies(String name) {
    return "'?:' choosing between arrays for '" + name + "' is not supported here: ad4j makes '"
        + name + "' a copy of the chosen array, which computes the same only while nothing"
        + " writes that array after the choice; ";
  }

  /** A choice between arrays that copies from a parameter's or a field's array. */
  private record ChoiceFromOutside(ConditionalExpressionTree at, String name, String operand,
      long start, List<Integer> loops) {}

  /** This method's {@link ChoiceFromOutside}s, in the order of lowering. */
  private final List<ChoiceFromOutside> choicesFromOutside = new ArrayList<>();

  /**
   * Reports each choice between arrays that copies from a parameter's or a field's array where
   * a call run as written may run after it (later in the method, or in a loop around both):
   * such a call may write that array, which Java's alias would see and the copy does not.
   */
  void rejectChoicesWrittenLater() {
    for (ChoiceFromOutside choice : choicesFromOutside) {
      for (NotedCalls.CallRunAsWritten call : context.notedCalls().callsRunAsWritten()) {
        boolean sharedLoop = call.loops().stream().anyMatch(choice.loops()::contains);
        if (call.start() < 0 || call.start() > choice.start() || sharedLoop) {
          unsupported(choice.at(), choiceCopies(choice.name()) + "'" + choice.operand()
              + "' is an array the method did not make, and '" + call.shown() + "'"
              + (call.line() > 0 ? " (line " + call.line() + ")" : "") + ", after the"
              + " choice, runs as written and may write it; copy it into a local array"
              + " first ('" + choice.operand() + ".clone()') and choose that one, or make the"
              + " call before the choice");
          break;
        }
      }
    }
  }

  /** A block storing {@code array.length} into {@code length}. */
  private Block lengthOf(Operand array, Variable length) {
    ir.openBlock();
    Operand read = context.emit(Operation.LENGTH, List.of(array), NumericType.INT, false);
    ir.add(new Store(length, read, context.line()));
    return ir.closeBlock();
  }

  /** A block copying every element of {@code source} into {@code copy}, as long. */
  private Block copyInto(Operand copy, Operand source) {
    ir.openBlock();
    NumericType element = copy.type().elementType();
    boolean sourceActive = isActive(source, element);
    Operand count = context.emit(Operation.LENGTH, List.of(source), NumericType.INT, false);
    writeLoop(Operand.Constant.of(0), count, k -> {
      Operand read = context.emit(Operation.ELEMENT, List.of(source, k), element, sourceActive);
      return context.emit(Operation.STORE, List.of(copy, k, read), element,
          isActive(copy, element));
    });
    return ir.closeBlock();
  }

  /** {@code for (int k = from; k < to; k++) write(k)}. */
  void writeLoop(Operand from, Operand to, java.util.function.Function<Operand, Operand>
      write) {
    Variable index = ir.variable("index", NumericType.INT, null);
    ir.add(new Declare(index, from, context.line()));
    Supplier<Operand> test = () -> context.emit(Operation.infix("<"),
        List.of(new Operand.Use(context.readVariable(index)), to), NumericType.BOOLEAN, false);
    Runnable body = () -> write.apply(new Operand.Use(context.readVariable(index)));
    Runnable step = () -> {
      Operand next = context.emit(Operation.ADD,
          List.of(new Operand.Use(context.readVariable(index)), Operand.Constant.of(1)),
          NumericType.INT, false);
      ir.add(new Store(index, next, context.line()));
    };
    loops.lower(test, body, step);
  }

  static boolean isActive(Operand array, NumericType element) {
    return element.isFloatingPoint() && array instanceof Operand.Use use
        && use.value().isActiveArray();
  }

  /**
   * Whether a library call's write into {@code array} is an error, reported at {@code call}:
   * values that carry derivatives written into an array this method did not make (a field's,
   * or one reached through an object or returned by a call run as written), which carries none,
   * so that the elements read back would have lost them; or any write into such an array where
   * members of the method would run it more than once per call ({@link RepeatedRuns}).
   */
  private boolean losesDerivatives(Operand array, NumericType element, boolean writesActive,
      MethodInvocationTree call, ExpressionTree arrayTree) {
    String shown = context.source().of(arrayTree);
    if (!writesActive && context.arrays().isForeignArray(array)) {
      String written = context.source().of(call);
      return new RepeatedRuns(context).rejectOwnWrite(call, "'" + written + "'", written, shown);
    }
    if (!writesActive || isActive(array, element)) {
      return false;
    }
    unsupported(call, "'" + context.source().of(call) + "' writes values that carry"
        + " derivatives into '" + shown + "', an array that this method did not make (a field's"
        + " array, or one reached through an object or returned by a call run as written), which"
        + " carries no derivative; copy it into a local array first ('" + shown + ".clone()')"
        + " and write there");
    return true;
  }

  /** The array a library call writes into: a local array, not a parameter or a table. */
  private Operand writableArray(ExpressionTree tree, Operand array) {
    if (!array.type().isArray() || array.type() == NumericType.DOUBLE_MATRIX
        || !(array instanceof Operand.Use use) || context.arrays().isReadOnly(use.value())) {
      unsupported(tree, "write into '" + context.source().of(tree) + "' is not supported: only"
          + " local 'double[]' and 'int[]' arrays can be written; copy it into a local array"
          + " first ('" + context.source().of(tree) + ".clone()')");
      return null;
    }
    Optional<String> alias = context.arrays().possibleAlias(array);
    if (alias.isPresent()) {
      unsupported(tree, ArrayLowering.aliasedWrite("'" + context.source().of(tree) + "'",
          alias.get(), context.source().of(tree)));
      return null;
    }
    return array;
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
