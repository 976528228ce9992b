package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Value;
import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.type.TypeKind;

/**
 * Lowers what makes, reads and writes arrays: {@code a[i]}, {@code new double[n]},
 * {@code new double[] {a, b}} and {@code {a, b}}, {@code new double[][] {...}},
 * {@code new Object[] {...}}, {@code a.clone()}, {@code a.length}, and the element an assignment
 * writes ({@link ArrayTarget}). Apart from {@link ExpressionLowering}, which dispatches on the
 * kind of expression, because arrays follow rules of their own here: which arrays carry
 * derivatives, which may be written, and where they are made.
 */
final class ArrayLowering {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final ObjectValues objects;

  ArrayLowering(LoweringContext context, ExpressionLowering expressions, ObjectValues objects) {
    this.context = context;
    this.expressions = expressions;
    this.objects = objects;
  }

  /**
   * {@code array[index] = value} of an array lowering made ({@code index} a constant where Java
   * makes the array: a variable arity call's); null after an error at {@code at}.
   */
  Operand storeElement(Operand array, Operand index, Operand value, Tree at) {
    return new ArrayTarget(array, index, null).store(value, at);
  }

  /**
   * The arguments of a variable arity call ({@code f(a, b, c)} of {@code f(double... xs)}) as
   * the method takes them: those before its last parameter, then a new array of the rest, made
   * after all are evaluated, as Java makes it (JLS 15.12.4.2); null after an error. For a
   * {@code @Differentiable} callee, whose array of doubles carries derivatives, and for a
   * target with {@code @DerivativeOf} rules, whose rule for the array takes the same array and
   * which needs no rule for it when no element carries a derivative ({@code elementsDecide}).
   */
  List<Operand> variableArityArguments(javax.lang.model.element.ExecutableElement method,
      List<Operand> arguments, MethodInvocationTree invocation, boolean elementsDecide) {
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
    boolean active = element == NumericType.DOUBLE && (!elementsDecide
        || arguments.subList(fixed, arguments.size()).stream().anyMatch(Operand::isActive));
    Operand array = context.emit(Operation.newArray(element),
        List.of(Operand.Constant.of(arguments.size() - fixed)), type.get(), active);
    for (int k = fixed; k < arguments.size(); k++) {
      if (storeElement(array, Operand.Constant.of(k - fixed), arguments.get(k),
          invocation.getArguments().get(k)) == null) {
        return null;
      }
    }
    packed.add(array);
    return packed;
  }

  /**
   * {@code a[i]}: an element of an array parameter, or a row of a matrix. What is read from an
   * array that carries derivatives carries them too.
   */
  Operand element(ArrayAccessTree access) {
    Operand array = expressions.lower(access.getExpression());
    Operand index = expressions.unboxing().number(expressions.lower(access.getIndex()));
    if (array == null || index == null) {
      return null;
    }
    if (!array.type().isArray() && !objects.isOtherArray(array)) {
      unsupported(access, "'" + context.source().of(access.getExpression()) + "' is not an"
          + " array: it has type '" + array.type().keyword() + "'");
      return null;
    }
    if (!index.type().widensTo(NumericType.INT)) {
      unsupported(access.getIndex(), "array index '" + context.source().of(access.getIndex())
          + "' has type '" + index.type().keyword() + "': an index must be an 'int'");
      return null;
    }
    if (objects.isOtherArray(array)) {
      return objects.element(array, index, access); // long[], int[][], String[]: as written
    }
    boolean active = array instanceof Operand.Use use && use.value().isActiveArray();
    NumericType element = array.type().elementType();
    Operand read = context.emit(Operation.ELEMENT, List.of(array, index), element, active);
    if (element.isArray() && array instanceof Operand.Use matrix
        && context.arrays().isReadOnly(matrix.value())) {
      context.arrays().markReadOnly(((Operand.Use) read).value());
    }
    return read;
  }

  /** An element about to be written: the array and the index, each evaluated once. */
  final class ArrayTarget {
    private final Operand array;
    private final Operand index;
    private final ArrayAccessTree access;

    ArrayTarget(Operand array, Operand index, ArrayAccessTree access) {
      this.array = array;
      this.index = index;
      this.access = access;
    }

    /** The element's current value. */
    Operand read() {
      boolean active = ((Operand.Use) array).value().isActiveArray();
      return context.emit(Operation.ELEMENT, List.of(array, index), array.type().elementType(),
          active);
    }

    /**
     * {@code a[i] = value}, converted to the element type; the expression's value is the value
     * stored. {@code valueTree} is where a type error is reported, null when none can occur.
     */
    Operand store(Operand given, Tree valueTree) {
      NumericType element = array.type().elementType();
      Operand value = expressions.unboxing().number(given); // {xs.get(0), y}
      if (!expressions.conversions()
          .assignable(value, element, valueTree == null ? access : valueTree)) {
        return null;
      }
      Operand stored = expressions.conversions().convert(value, element);
      boolean active = element.isFloatingPoint()
          && ((Operand.Use) array).value().isActiveArray();
      if (context.arrays().isForeignArray(array) && !stored.isActive() && access != null
          && new RepeatedRuns(context).rejectOwnWrite(access, "the write into '"
              + context.source().of(access) + "'", context.source().of(access) + " = ...",
              context.source().of(access.getExpression()))) {
        return null;
      }
      if (!active && stored.isActive()
          && (context.arrays().isForeignArray(array) || !context.diagnostics().hasErrors())) {
        // an array this method did not make (a field's, or one reached through an object or
        // returned by a call run as written) carries no derivative: the element read back
        // would have lost the value's, silently. Another array that carries none stands for
        // one whose making was an error already: no second error for it
        Tree at = access != null ? access : valueTree;
        String shownArray = access != null ? context.source().of(access.getExpression())
            : "the array";
        String what = valueTree != null ? "'" + context.source().of(valueTree) + "'"
            : "the value stored";
        unsupported(at, what + " carries a derivative into '" + (access != null
                ? context.source().of(access) : shownArray) + "', an element of an array that"
            + " this method did not make (a field's array, or one reached through an object or"
            + " returned by a call run as written), which carries no derivative; copy it into a"
            + " local array first ('" + shownArray + ".clone()') and write there");
        return null;
      }
      return context.emit(Operation.STORE, List.of(array, index, stored), element, active);
    }
  }

  /**
   * The element {@code a[i]} an assignment writes: {@code a} must be a local array of one
   * dimension, not a parameter (which a differentiable method only reads) or a row of one.
   */
  ArrayTarget arrayTarget(ArrayAccessTree access) {
    Operand array = expressions.lower(access.getExpression());
    Operand index = expressions.unboxing().number(expressions.lower(access.getIndex()));
    if (array == null || index == null) {
      return null;
    }
    if (array.type() == NumericType.DOUBLE_MATRIX) {
      unsupported(access, "write into '" + context.source().of(access) + "' is not supported: a"
          + " matrix keeps the rows it was made with; write their elements ('"
          + context.source().of(access) + "[j] = ...')");
      return null;
    }
    if (!array.type().isArray() || !(array instanceof Operand.Use use)) {
      unsupported(access, "write into '" + context.source().of(access.getExpression())
          + "' is not supported: only elements of local 'double[]' and 'int[]' arrays can be"
          + " assigned");
      return null;
    }
    if (context.arrays().isReadOnly(use.value())) {
      unsupported(access, "write into array '" + context.source().of(access.getExpression())
          + "' is not supported: a differentiable method reads its array parameters and never"
          + " writes into them; copy it into a local array first ('"
          + context.source().of(access.getExpression()) + ".clone()')");
      return null;
    }
    Optional<String> alias = context.arrays().possibleAlias(array);
    if (alias.isPresent()) {
      unsupported(access, aliasedWrite("'" + context.source().of(access) + "'", alias.get(),
          context.source().of(access.getExpression())));
      return null;
    }
    if (!index.type().widensTo(NumericType.INT)) {
      unsupported(access.getIndex(), "array index '" + context.source().of(access.getIndex())
          + "' has type '" + index.type().keyword() + "': an index must be an 'int'");
      return null;
    }
    return new ArrayTarget(array, index, access);
  }

  /**
   * The error for a write into an array that a call run as written returned after it was given
   * one that carries derivatives ({@link MethodArrays#possibleAlias}): the array may be that
   * one, whose derivatives would not see the write.
   */
  static String aliasedWrite(String write, String why, String shownArray) {
    return "write into " + write + " is not supported: " + why + ", whose derivatives would"
        + " not see a write through '" + shownArray + "'; write into that array by its own name,"
        + " or into a copy ('" + shownArray + ".clone()')";
  }

  /**
   * {@code new Object[] {a, b}}, {@code new String[] {...}}: an array of objects, made as
   * written, to pass to a call run as written or an exception ({@code MessageFormat.format(p,
   * new Object[] {x, n})}, {@code logger.log(level, p, new Object[] {x, n})}); it carries no
   * derivative. Numbers that carry one go into it boxed, as into a call's {@code Object...}
   * parameter: {@link LaunderedDependence} follows the array and rejects what comes back from
   * it, or from the calls it is given to, into the result. An array that carries derivatives
   * may be an element only where it builds a thrown exception (the member ends there): code run
   * as written could write into it. Null after an error.
   */
  private Operand objectArray(NewArrayTree creation, javax.lang.model.type.TypeMirror component) {
    String shown = context.source().of(creation);
    List<Operand> elements = new ArrayList<>();
    for (ExpressionTree initializer : creation.getInitializers()) {
      Operand element = expressions.lower(initializer);
      if (element == null) {
        return null;
      }
      if (!context.notedCalls().buildingThrown() && isActiveArray(element)) {
        unsupported(initializer, "'" + context.source().of(initializer) + "' is an array that"
            + " carries derivatives, put into '" + shown + "', which ad4j cannot differentiate:"
            + " code run as written could write into it through the array of objects (it may"
            + " hold such arrays only to build a thrown exception); pass its elements instead");
        return null;
      }
      elements.add(element);
    }
    Optional<String> text = context.javaTypes().javaText(component);
    javax.lang.model.type.TypeMirror arrayType = context.types().getArrayType(component);
    Optional<Operand> made = text.isEmpty() ? Optional.empty() : context.emitReference(
        Operation.arrayCreation(text.get(), elements.size()), elements, arrayType);
    if (made.isEmpty()) {
      unsupported(creation, "'" + shown + "': generated code cannot name its type: "
          + context.javaTypes().typeProblem(component));
      return null;
    }
    return made.get();
  }

  /**
   * For a size {@code w.length}, {@code w} a local or parameter array bound to one array for
   * the whole method (no variable of its own), that array.
   */
  private Optional<Value> lengthOfBoundArray(ExpressionTree size) {
    if (size instanceof com.sun.source.tree.MemberSelectTree select
        && select.getIdentifier().contentEquals("length")
        && select.getExpression() instanceof com.sun.source.tree.IdentifierTree name) {
      LocalScopes.Local local = context.scopes().lookUp(name.getName().toString());
      if (local != null && !local.isBroken() && local.type().isArray()
          && local.variable() == null && local.value() != null) {
        return Optional.of(local.value());
      }
    }
    return Optional.empty();
  }

  /**
   * {@code new double[] {a, b}}, {@code new double[n]}, or {@code {a, b}} declared as a
   * {@code declared} local: a local array of one dimension (a matrix by {@link #newMatrix}, an
   * array of objects by {@link #objectArray}). With {@code neverWritten} (the array is bound to
   * a local that is only read: {@link ArrayChoices#onlyRead}, or made as a call's argument), an
   * array whose elements all carry no derivative carries none either, so that it may go to a
   * {@code @NoDerivative} parameter or a call's argument that needs no rule
   * ({@code double[] c = {1.0, 2.0}}).
   */
  Operand newArray(NewArrayTree creation, NumericType declared, boolean neverWritten) {
    Optional<javax.lang.model.type.TypeMirror> component = creation.getType() == null
        ? Optional.empty() : context.javaTypes().typeMirrorOf(creation.getType());
    if (component.isPresent()
        && component.get().getKind() == javax.lang.model.type.TypeKind.DECLARED
        && creation.getDimensions().isEmpty()) {
      return objectArray(creation, component.get());
    }
    NumericType type = declared;
    if (creation.getType() != null) {
      type = creation.getDimensions().size() > 1 ? NumericType.DOUBLE_MATRIX
          : JavaTypes.typeOf(creation.getType()).map(ArrayLowering::arrayOf).orElse(null);
    }
    if (type == NumericType.DOUBLE_MATRIX && isDoubles(creation.getType())
        || type == null && isMatrixOfDoubles(creation.getType())
        || declared == NumericType.DOUBLE_MATRIX) {
      return newMatrix(creation, neverWritten);
    }
    if (type == null || type == NumericType.DOUBLE_MATRIX
        || (creation.getType() instanceof com.sun.source.tree.ArrayTypeTree)) {
      unsupported(creation, "array creation '" + context.source().of(creation) + "' is not"
          + " supported: local arrays are 'double[]', 'float[]' or 'int[]' of one dimension");
      return null;
    }
    List<? extends ExpressionTree> initializers =
        creation.getInitializers() == null ? List.of() : creation.getInitializers();
    Operand length;
    if (creation.getDimensions().isEmpty()) {
      length = Operand.Constant.of(initializers.size());
    } else {
      length = expressions.unboxing().number(expressions.lower(creation.getDimensions().get(0)));
      if (length == null) {
        return null;
      }
      if (!length.type().widensTo(NumericType.INT)) {
        unsupported(creation.getDimensions().get(0), "array size '"
            + context.source().of(creation.getDimensions().get(0)) + "' has type '"
            + length.type().keyword() + "': a size must be an 'int'");
        return null;
      }
    }
    NumericType element = type.elementType();
    List<Operand> values = new ArrayList<>();
    if (neverWritten) {
      // the elements first, to know whether any carries a derivative (Java's order of
      // evaluation is the same: the array is made before its elements are stored)
      for (ExpressionTree initializer : initializers) {
        Operand value = expressions.lower(initializer);
        if (value == null) {
          return null;
        }
        values.add(value);
      }
    }
    boolean active = element.isFloatingPoint()
        && (!neverWritten || values.stream().anyMatch(Operand::isActive));
    Operand array = context.emit(Operation.newArray(element), List.of(length), type, active);
    context.arrays().madeArray(array, length, creation.getDimensions().isEmpty() ? Optional.empty()
        : lengthOfBoundArray(creation.getDimensions().get(0)));
    for (int k = 0; k < initializers.size(); k++) {
      Operand value = neverWritten ? values.get(k) : expressions.lower(initializers.get(k));
      if (value == null) {
        return null;
      }
      if (new ArrayTarget(array, Operand.Constant.of(k), null).store(value, initializers.get(k))
          == null) {
        return null;
      }
    }
    return array;
  }

  /**
   * A new {@code double[]} of {@code values}, in order, as {@code new double[] {a, b}} makes
   * it: the leaves of a value record a method returns. Null after an error.
   */
  Operand arrayOf(List<Operand> values, Tree at) {
    Operand array = context.emit(Operation.newArray(NumericType.DOUBLE),
        List.of(Operand.Constant.of(values.size())), NumericType.DOUBLE_ARRAY, true);
    for (int k = 0; k < values.size(); k++) {
      if (new ArrayTarget(array, Operand.Constant.of(k), null).store(values.get(k), at)
          == null) {
        return null;
      }
    }
    return array;
  }

  private static boolean isDoubles(Tree type) {
    return type instanceof com.sun.source.tree.PrimitiveTypeTree primitive
        && primitive.getPrimitiveTypeKind() == javax.lang.model.type.TypeKind.DOUBLE;
  }

  /** {@code double[]}: the element type of {@code new double[][] {...}}. */
  private static boolean isMatrixOfDoubles(Tree type) {
    return type instanceof com.sun.source.tree.ArrayTypeTree array && isDoubles(array.getType());
  }

  /**
   * {@code new double[n][m]}, {@code new double[][] {{a, b}, {c}}} or, in a declaration of a
   * {@code double[][]}, {@code {{a, b}, {c}}}: a local matrix whose rows keep their arrays
   * (only their elements are written). Its adjoints are kept in one flat array, row after row,
   * as a {@code double[][]} parameter's are in the gradient (for a matrix made inside a loop,
   * one flat array as long as the largest, as for other arrays made in loops).
   */
  private Operand newMatrix(NewArrayTree creation, boolean neverWritten) {
    List<? extends ExpressionTree> initializers =
        creation.getInitializers() == null ? List.of() : creation.getInitializers();
    if (creation.getInitializers() == null) {
      if (creation.getDimensions().size() != 2) {
        unsupported(creation, "matrix creation '" + context.source().of(creation) + "' is not"
            + " supported: give both sizes ('new double[n][m]'), or the rows"
            + " ('{{a, b}, {c, d}}')");
        return null;
      }
      List<Operand> sizes = new ArrayList<>();
      for (ExpressionTree dimension : creation.getDimensions()) {
        Operand size = expressions.unboxing().number(expressions.lower(dimension));
        if (size == null) {
          return null;
        }
        if (!size.type().widensTo(NumericType.INT)) {
          unsupported(dimension, "array size '" + context.source().of(dimension) + "' has type '"
              + size.type().keyword() + "': a size must be an 'int'");
          return null;
        }
        sizes.add(size);
      }
      Operand matrix = context.emit(Operation.newMatrix(), sizes, NumericType.DOUBLE_MATRIX,
          true);
      if (sizes.size() == 2) {
        context.arrays().madeRectangular(matrix);
      }
      return matrix;
    }
    List<Operand> rowLengths = new ArrayList<>();
    for (ExpressionTree row : initializers) {
      if (!(row instanceof NewArrayTree rowCreation) || rowCreation.getInitializers() == null
          || rowCreation.getType() != null && !isDoubles(rowCreation.getType())) {
        unsupported(row, "row '" + context.source().of(row) + "' of a local matrix is not"
            + " supported: write each row's elements in braces ('{a, b}')");
        return null;
      }
      rowLengths.add(Operand.Constant.of(rowCreation.getInitializers().size()));
    }
    List<Operand> values = new ArrayList<>();
    if (neverWritten) {
      // the elements first, to know whether any carries a derivative, as for an array: a
      // matrix of numbers that none writes is data ('{{1, 2}, {0.5, -1}}' passed to a
      // @NoDerivative parameter), not a matrix that carries derivatives
      for (ExpressionTree row : initializers) {
        for (ExpressionTree element : ((NewArrayTree) row).getInitializers()) {
          Operand value = expressions.lower(element);
          if (value == null) {
            return null;
          }
          values.add(value);
        }
      }
    }
    boolean active = !neverWritten || values.stream().anyMatch(Operand::isActive);
    Operand matrix = context.emit(Operation.newRows(rowLengths.size()), rowLengths,
        NumericType.DOUBLE_MATRIX, active);
    if (initializers.stream().map(row -> ((NewArrayTree) row).getInitializers().size())
        .distinct().count() <= 1) {
      context.arrays().madeRectangular(matrix); // '{{a, b}, {c, d}}'
    }
    int lowered = 0;
    for (int i = 0; i < initializers.size(); i++) {
      Operand row = context.emit(Operation.ELEMENT, List.of(matrix, Operand.Constant.of(i)),
          NumericType.DOUBLE_ARRAY, active);
      List<? extends ExpressionTree> elements =
          ((NewArrayTree) initializers.get(i)).getInitializers();
      for (int j = 0; j < elements.size(); j++) {
        Operand value = neverWritten ? values.get(lowered++) : expressions.lower(elements.get(j));
        if (value == null
            || new ArrayTarget(row, Operand.Constant.of(j), null).store(value, elements.get(j))
                == null) {
          return null;
        }
      }
    }
    return matrix;
  }

  private static NumericType arrayOf(NumericType element) {
    return switch (element) {
      case DOUBLE -> NumericType.DOUBLE_ARRAY;
      case FLOAT -> NumericType.FLOAT_ARRAY;
      case INT -> NumericType.INT_ARRAY;
      default -> null;
    };
  }

  /** Whether {@code call} is {@code a.clone()} of an array, a copy of it. */
  static boolean isArrayClone(MethodInvocationTree call, NameLowering names) {
    return call.getMethodSelect() instanceof MemberSelectTree member
        && member.getIdentifier().contentEquals("clone") && call.getArguments().isEmpty()
        && names.isArrayExpression(member.getExpression());
  }

  /** {@code a.clone()} of a one-dimensional array: a local array with the same elements. */
  Operand cloneOf(MethodInvocationTree invocation, ExpressionTree receiver) {
    return cloneOf(invocation, receiver, false);
  }

  /**
   * As above; with {@code onlyRead} (the clone is bound to a local that is only read:
   * {@link ArrayChoices#onlyRead}), the clone of an array that carries no derivative carries
   * none either, so that a call run as written may sort it ({@code double[] s = xs.clone();
   * Arrays.sort(s)} of a {@code @NoDerivative xs}).
   */
  Operand cloneOf(MethodInvocationTree invocation, ExpressionTree receiver, boolean onlyRead) {
    Operand array = expressions.lower(receiver);
    return array == null ? null : cloneOf(invocation, array, onlyRead);
  }

  /**
   * {@code array.clone()} where {@code array} is the value of an expression already lowered
   * ({@code rows.get(0).clone()}, whose receiver only its lowering tells is an array).
   */
  Operand cloneOf(MethodInvocationTree invocation, Operand array, boolean onlyRead) {
    if (array.type() == NumericType.DOUBLE_MATRIX) {
      unsupported(invocation, "'" + context.source().of(invocation) + "' is not supported: only"
          + " arrays of one dimension can be cloned");
      return null;
    }
    return context.emit(Operation.CLONE, List.of(array), array.type(),
        array.type().isArray() && array.type().elementType().isFloatingPoint()
            && (!onlyRead || isActiveArray(array)));
  }

  /** {@code a.length} of an array. */
  Operand arrayLength(MemberSelectTree select) {
    Operand array = expressions.lower(select.getExpression());
    if (array == null) {
      return null;
    }
    if (!array.type().isArray()) {
      return objects.field(array, "length", select);
    }
    return context.emit(Operation.LENGTH, List.of(array), NumericType.INT, false);
  }

  static boolean isActiveArray(Operand operand) {
    return operand instanceof Operand.Use use && use.value().isActiveArray();
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
