package ad4j.processor.ir;

import java.util.Objects;

/**
 * What an instruction computes: an operator, a cast, a call of a {@code Math} or
 * {@code StrictMath} function or of another {@code @Differentiable} method, or a copy.
 */
public final class Operation {
  /** How the operation is written in Java. */
  public enum Form {
    /** {@code a op b}. */
    INFIX(Family.OPERATOR),
    /** {@code op a}. */
    PREFIX(Family.OPERATOR),
    /** {@code (type) a}. */
    CAST(Family.OPERATOR),
    /** {@code Owner.name(a, ...)} of a math function. */
    CALL(Family.MATH_CALL),
    /** {@code Owner.name(a, ...)} of a {@code @Differentiable} method. */
    USER_CALL(Family.DIFFERENTIATED_CALL),
    /**
     * {@code Owner.name(a, ...)} of a method with {@code @DerivativeOf} rules, or of one of the
     * rules; see {@link RuledCallee}.
     */
    RULED_CALL(Family.DIFFERENTIATED_CALL),
    /**
     * {@code GradClass.nameTangent(a, ..., aDot, ...)}: the forward mode of a
     * {@code @Differentiable} method, generated for it.
     */
    TANGENT_CALL(Family.GENERATED_CALL),
    /**
     * {@code GradClass.namePullback(tape, a, ..., seed)}: the reverse mode of a
     * {@code @Differentiable} method, which returns its value and leaves the adjoints of its
     * {@code double} parameters on the tape, the last on top.
     */
    PULLBACK_CALL(Family.TAPE),
    /**
     * {@code name(tape, a, ...)}: a call of another program of the same generated class, which
     * works on the caller's tape. A program that returns nothing gives a value nobody reads.
     */
    LOCAL_CALL(Family.TAPE),
    /** Takes the most recently recorded value of the result's type back from the tape. */
    POP(Family.TAPE),
    /**
     * {@code tape.name(a, ...)}: a method of the tape other than push and pop, which the
     * snapshots of checkpointed loops use ({@code mark}, {@code doubleAt}, ...).
     */
    TAPE_CALL(Family.TAPE),
    /** {@code a}: a constant or a variable's current value, copied into a value. */
    COPY(Family.OPERATOR),
    /** {@code c ? a : b} where neither operand computes anything. */
    SELECT(Family.OPERATOR),
    /**
     * {@code a}, whose derivative is {@code b}'s: two computations of one number, the first
     * giving its value bit for bit, the second its derivative (a stream's compensated sum and
     * its plain sum, equal in exact arithmetic). Written as {@code a}.
     */
    WITH_DERIVATIVE_OF(Family.OPERATOR),
    /**
     * {@code a[i]}: an element of an array, or a row of a matrix. A third argument, which the
     * reverse-mode programs add ({@code transform/ArraySlots}), is the gradient slot of the
     * element: the Java text is the same, the reverse sweep adds the element's adjoint there.
     */
    ELEMENT(Family.ARRAY),
    /** {@code a.length}. */
    LENGTH(Family.ARRAY),
    /**
     * {@code ad4j.runtime.internal.Slots.name(a, ...)}: where an array's elements lie in a
     * gradient.
     */
    SLOTS_CALL(Family.ARRAY),
    /** {@code new double[n]}, {@code new int[n]}: a local array of the user's, all zeros. */
    NEW_ARRAY(Family.ARRAY),
    /**
     * {@code a.clone()}. A second argument, which reverse-mode programs add
     * ({@code transform/ArraySlots}), is the gradient slot of the source's first element.
     */
    CLONE(Family.ARRAY),
    /**
     * {@code a[i] = v}, whose value is {@code v} (JLS 15.26.1): a write into a local array. Its
     * result is the stored value, so that it is an instruction like any other.
     */
    STORE(Family.ARRAY),
    /**
     * {@code Owner.name(a, ...)} of a method that carries no derivative, run as written, with
     * the user's side effects, once wherever the instruction runs: a call whose result is not a
     * floating-point number ({@code boolean}, {@code int}, {@code long}, {@code void}) or whose
     * arguments carry no derivative. Its result is never active.
     */
    PLAIN_CALL(Family.PLAIN_CALL);

    private final Family family;

    Form(Family family) {
      this.family = family;
    }

    /** The family this form belongs to, which the analyses ask instead of naming forms. */
    public Family family() {
      return family;
    }

    /**
     * Whether it calls a method whose derivatives come from elsewhere: the generated members of
     * a {@code @Differentiable} method, or a method's {@code @DerivativeOf} rules. Such a call
     * may read the arrays it is passed, and makes the array it returns.
     */
    public boolean callsDifferentiated() {
      return family == Family.DIFFERENTIATED_CALL;
    }

    /** Whether it reads or changes the tape. */
    public boolean usesTape() {
      return family == Family.TAPE;
    }

    /** Whether it makes a new array: a local array of the user's, or a copy of one. */
    public boolean makesArray() {
      return this == NEW_ARRAY || this == CLONE;
    }
  }

  /**
   * What kind of thing a {@link Form} does, declared by every form, so that an analysis that
   * asks a family (is it an operator, does it use the tape) covers a new form of that family
   * without naming it. Only a form of new meaning needs the places that test forms by name.
   */
  public enum Family {
    /** Computes its result from its operands with Java's operators: reads nothing else. */
    OPERATOR,
    /** A call of a {@code Math}-like function with a rule in {@code rules/DerivativeRules}. */
    MATH_CALL,
    /** A call of a {@code @Differentiable} method, or of one with {@code @DerivativeOf} rules. */
    DIFFERENTIATED_CALL,
    /** A call of a generated member that works without the tape (a tangent). */
    GENERATED_CALL,
    /** Reads or changes the tape: pops, its methods, and programs that work on it. */
    TAPE,
    /** Reads, writes, makes or measures an array. */
    ARRAY,
    /** A call that carries no derivative, run as written. */
    PLAIN_CALL
  }

  /** How a {@link Form#PLAIN_CALL} is written; null for other forms. */
  public enum Plain {
    /** {@code Owner.name(a, ...)}. */
    STATIC_CALL,
    /** {@code a.name(b, ...)}: the receiver is the first argument. */
    INSTANCE_CALL,
    /** {@code a.name}. */
    FIELD_READ,
    /**
     * {@code (T) HANDLE.get(a)}, the name being {@code (T) HANDLE}: a private field of an object,
     * read through a {@code VarHandle} of the generated class.
     */
    HANDLE_READ,
    /** {@code new Type(a, ...)}, the name being {@code new Type}. */
    CONSTRUCTION,
    /** {@code new Type[] {a, ...}}, the name being {@code new Type[]}. */
    ARRAY_CREATION,
    /**
     * {@code a instanceof Type}, the name being {@code Type}: a test of an object's class, which
     * never changes, so it gives the same answer each time it runs on the same object.
     */
    TYPE_TEST,
    /**
     * {@code a instanceof Type ? (Type) a : null}, the name being {@code Type}: what a pattern
     * {@code a instanceof Type t} binds to {@code t} where the test holds.
     */
    TYPE_PATTERN
  }

  public static final Operation ADD = infix("+");
  public static final Operation SUBTRACT = infix("-");
  public static final Operation MULTIPLY = infix("*");
  public static final Operation DIVIDE = infix("/");
  public static final Operation REMAINDER = infix("%");
  public static final Operation NEGATE = new Operation(Form.PREFIX, "-", 1, null, null);
  public static final Operation NOT = new Operation(Form.PREFIX, "!", 1, null, null);
  public static final Operation COMPLEMENT = new Operation(Form.PREFIX, "~", 1, null, null);
  public static final Operation COPY = new Operation(Form.COPY, "copy", 1, null, null);
  public static final Operation SELECT = new Operation(Form.SELECT, "?:", 3, null, null);
  /** {@code a} with the derivative of {@code b}: see {@link Form#WITH_DERIVATIVE_OF}. */
  public static final Operation WITH_DERIVATIVE_OF =
      new Operation(Form.WITH_DERIVATIVE_OF, "with derivative of", 2, null, null);
  /** {@code a[i]}. */
  public static final Operation ELEMENT = new Operation(Form.ELEMENT, "[]", 2, null, null);
  /** {@code a[i]} whose adjoint goes to the gradient slot given as the third argument. */
  public static final Operation ELEMENT_AT_SLOT =
      new Operation(Form.ELEMENT, "[]", 3, null, null);
  /** {@code a.length}. */
  public static final Operation LENGTH = new Operation(Form.LENGTH, "length", 1, null, null);
  /** {@code new double[n]} or {@code new int[n]}: named by the element type's keyword. */
  public static Operation newArray(NumericType elementType) {
    return new Operation(Form.NEW_ARRAY, elementType.keyword(), 1, null, null);
  }

  /** {@code new double[n][m]}: a local matrix of n rows of m elements. */
  public static Operation newMatrix() {
    return new Operation(Form.NEW_ARRAY, "double[][]", 2, null, null);
  }

  /**
   * {@code new double[][] {new double[l0], new double[l1], ...}}: a local matrix of
   * {@code rows} rows, each as long as its argument says (its elements are stored next).
   */
  public static Operation newRows(int rows) {
    return new Operation(Form.NEW_ARRAY, "double[][] rows", rows, null, null);
  }

  /** Whether this is {@link #newMatrix} or {@link #newRows}: it makes a {@code double[][]}. */
  public boolean makesMatrix() {
    return form == Form.NEW_ARRAY && name.startsWith("double[][]");
  }
  /** {@code a.clone()}. */
  public static final Operation CLONE = new Operation(Form.CLONE, "clone", 1, null, null);
  /** {@code a.clone()} of an array whose elements start at the slot given second. */
  public static final Operation CLONE_AT_SLOT =
      new Operation(Form.CLONE, "clone", 2, null, null);
  /** {@code a[i] = v}. */
  public static final Operation STORE = new Operation(Form.STORE, "[]=", 3, null, null);
  /**
   * {@code a[i] = v} into a row of a local matrix, whose element's adjoint is at the slot given
   * fourth, in the matrix's flat adjoint array.
   */
  public static final Operation STORE_AT_SLOT = new Operation(Form.STORE, "[]=", 4, null, null);

  /** {@code ad4j.runtime.internal.Slots.name(arguments)} with {@code arity} arguments. */
  public static Operation slotsCall(SlotsCall call, int arity) {
    return new Operation(Form.SLOTS_CALL, call.javaName(), arity, null, null);
  }

  /** Whether this is a call of {@code call}, with any number of arguments. */
  public boolean isSlotsCall(SlotsCall call) {
    return form == Form.SLOTS_CALL && name.equals(call.javaName());
  }

  private final Form form;
  private final String name;
  private final int arity;
  private final MathOwner owner;
  private final Callee callee;
  private final RuledCallee ruled;
  private final Plain plain;

  private Operation(Form form, String name, int arity, MathOwner owner, Callee callee) {
    this(form, name, arity, owner, callee, null);
  }

  private Operation(Form form, String name, int arity, MathOwner owner, Callee callee,
      RuledCallee ruled) {
    this(form, name, arity, owner, callee, ruled, null);
  }

  private Operation(Form form, String name, int arity, MathOwner owner, Callee callee,
      RuledCallee ruled, Plain plain) {
    this.plain = plain;
    this.form = form;
    this.name = name;
    this.arity = arity;
    this.owner = owner;
    this.callee = callee;
    this.ruled = ruled;
  }

  /** A binary operator: arithmetic, comparison, shift or bitwise. */
  public static Operation infix(String symbol) {
    return new Operation(Form.INFIX, symbol, 2, null, null);
  }

  /** A cast to a primitive type. */
  public static Operation cast(NumericType type) {
    return new Operation(Form.CAST, type.keyword(), 1, null, null);
  }

  /** A call of {@code owner.name} with {@code arity} arguments. */
  public static Operation call(MathOwner owner, String name, int arity) {
    return new Operation(Form.CALL, name, arity, Objects.requireNonNull(owner), null);
  }

  /**
   * A call of the tangent of another {@code @Differentiable} method: its arguments, then one
   * tangent per active parameter (an array's tangent is an array of its shape).
   */
  public static Operation tangentCall(Callee callee) {
    return new Operation(Form.TANGENT_CALL, callee.tangentName(),
        callee.parameterTypes().size() + callee.differentiableParameterCount()
            + callee.activeArrayCount(), null, callee);
  }

  /**
   * A call of the pullback of another {@code @Differentiable} method onto the tape: its
   * arguments, then per active array parameter the array its adjoints are added into and the
   * slot of its first element there, then the seed (an array for a vector function).
   */
  public static Operation pullbackCall(Callee callee) {
    return new Operation(Form.PULLBACK_CALL, callee.name() + "Pullback",
        callee.parameterTypes().size() + 2 * callee.activeArrayCount() + 1, null, callee);
  }

  /**
   * A call of the forward mode of a {@code @Differentiable} method's pullback onto the tape
   * (written for methods of order 2): the arguments of the {@link #pullbackCall} (with the
   * seed last), one tangent per active parameter (an array's tangent is an array of its shape),
   * the seed's tangent, and per active array parameter the array the tangents of its adjoints
   * are added into. It pushes each {@code double} parameter's adjoint's tangent and then the
   * adjoint, in parameter order, so that the caller takes back each adjoint, then its tangent.
   * Its form is {@link Form#PULLBACK_CALL}: it is written as one, with the tape first.
   */
  public static Operation pullbackTangentCall(Callee callee) {
    return new Operation(Form.PULLBACK_CALL, callee.name() + "PullbackTangent",
        callee.parameterTypes().size() + 2 * callee.activeArrayCount() + 1
            + callee.differentiableParameterCount() + callee.activeArrayCount() + 1
            + callee.activeArrayCount(), null, callee);
  }

  /**
   * A call of the recording forward sweep of another {@code @Differentiable} method (split
   * mode, for order-1 reverse sweeps): the arguments of the {@link #callWithSlots}, with a start
   * of 0 for each active array parameter the call has no slot for. It returns the callee's
   * value and leaves on the tape what the callee's {@link #replayCall} takes back. Its form is
   * {@link Form#PULLBACK_CALL}: it is written as one, with the tape first.
   */
  public static Operation recordCall(Callee callee) {
    return new Operation(Form.PULLBACK_CALL, callee.name() + RECORD,
        callee.parameterTypes().size() + callee.activeArrayCount(), null, callee);
  }

  /**
   * A call of the replaying reverse sweep of another {@code @Differentiable} method: the
   * arguments of the {@link #pullbackCall}, for a call whose forward sweep was a {@link
   * #recordCall}. It takes back what that recorded and pushes the adjoints as the pullback does;
   * it returns nothing.
   */
  public static Operation replayCall(Callee callee) {
    return new Operation(Form.PULLBACK_CALL, callee.name() + REPLAY,
        callee.parameterTypes().size() + 2 * callee.activeArrayCount() + 1, null, callee);
  }

  /** What ends the name of a callee's recording forward sweep: {@code fRecord}. */
  public static final String RECORD = "Record";
  /** What ends the name of a callee's replaying reverse sweep: {@code fReplay}. */
  public static final String REPLAY = "Replay";

  /** Whether this is a {@link #recordCall} or a {@link #replayCall}. */
  public boolean isSplitCall() {
    return form == Form.PULLBACK_CALL && callee != null
        && (name.equals(callee.name() + RECORD) || name.equals(callee.name() + REPLAY));
  }

  /** Whether this is a {@link #pullbackTangentCall}. */
  public boolean isPullbackTangentCall() {
    return form == Form.PULLBACK_CALL && callee != null
        && name.equals(callee.name() + "PullbackTangent");
  }

  /**
   * A call of the program {@code name} of the same generated class with the caller's tape and
   * {@code arity} further arguments.
   */
  public static Operation localCall(String name, int arity) {
    return new Operation(Form.LOCAL_CALL, name, arity, null, null);
  }

  /**
   * A call, run as written, of a method that carries no derivative; {@code method} is how
   * generated code names it ({@code Double.isNaN}, {@code F.fuzzyEquals}).
   */
  public static Operation plainCall(String method, int arity) {
    return plain(Plain.STATIC_CALL, method, arity);
  }

  private static Operation plain(Plain kind, String name, int arity) {
    return new Operation(Form.PLAIN_CALL, name, arity, null, null, null, kind);
  }

  /**
   * {@code a.method(b, ...)}, run as written like a {@link #plainCall}: a method of an object
   * that carries no derivative (a parameter, a local), the receiver first among the
   * {@code arity} arguments.
   */
  public static Operation instanceCall(String method, int arity) {
    return plain(Plain.INSTANCE_CALL, method, arity);
  }

  /** {@code a.field}, read as written: a field of an object that carries no derivative. */
  public static Operation fieldRead(String field) {
    return plain(Plain.FIELD_READ, field, 1);
  }

  /**
   * {@code (type) handle.get(a)}, read as written: a private field of an object that carries no
   * derivative, through {@code handle}, a {@code VarHandle} the generated class holds.
   */
  public static Operation handleRead(String handle, String type) {
    return plain(Plain.HANDLE_READ, "(" + type + ") " + handle, 1);
  }

  /** {@code new type(a, ...)}, run as written: an object that carries no derivative. */
  public static Operation construction(String type, int arity) {
    return plain(Plain.CONSTRUCTION, "new " + type, arity);
  }

  /**
   * {@code new type[] {a, ...}}, run as written: an array of objects (the arguments boxed as
   * Java boxes them), which carries no derivative.
   */
  public static Operation arrayCreation(String type, int arity) {
    return plain(Plain.ARRAY_CREATION, "new " + type + "[]", arity);
  }

  /**
   * {@code a instanceof type}, run as written: the test of the class of an object that carries
   * no derivative ({@code type} as generated code names it).
   */
  public static Operation typeTest(String type) {
    return plain(Plain.TYPE_TEST, type, 1);
  }

  /**
   * {@code a instanceof type ? (type) a : null}, run as written: the object a pattern binds,
   * of its type where the test holds.
   */
  public static Operation typePattern(String type) {
    return plain(Plain.TYPE_PATTERN, type, 1);
  }

  /**
   * Whether this is {@link Plain#TYPE_TEST} or {@link Plain#TYPE_PATTERN}: it reads the class
   * of its object and nothing else, throws nothing and changes nothing, so it gives the same
   * answer wherever and however often it runs on the same object.
   */
  public boolean testsType() {
    return plain == Plain.TYPE_TEST || plain == Plain.TYPE_PATTERN;
  }

  /** How a {@link Form#PLAIN_CALL} is written; null for other forms. */
  public Plain plain() {
    return plain;
  }

  /**
   * {@code tape.name(a, ...)} with {@code arity} arguments: a method of
   * {@code ad4j.runtime.internal.Tape} for the snapshots of checkpointed loops.
   */
  public static Operation tapeCall(String name, int arity) {
    return new Operation(Form.TAPE_CALL, name, arity, null, null);
  }

  /** A value taken back from the tape; see {@link Push}. */
  public static final Operation POP = new Operation(Form.POP, "pop", 0, null, null);

  /** A call of another {@code @Differentiable} method. */
  public static Operation call(Callee callee) {
    return new Operation(Form.USER_CALL, callee.name(), callee.parameterTypes().size(), null,
        callee);
  }

  /**
   * A call of another {@code @Differentiable} method as reverse-mode programs see it: its
   * arguments, then per array parameter that carries derivatives in the callee, the gradient
   * slot of the argument's first element ({@code transform/ArraySlots}). The Java text is the
   * same call; the reverse sweep passes the slots to the callee's pullback.
   */
  public static Operation callWithSlots(Callee callee) {
    return new Operation(Form.USER_CALL, callee.name(),
        callee.parameterTypes().size() + callee.activeArrayCount(), null, callee);
  }

  /**
   * A call of a method with {@code @DerivativeOf} rules, or of a rule: differentiated with the
   * rules (see {@code DerivativeRules}), never by looking inside.
   */
  public static Operation call(RuledCallee ruled) {
    return new Operation(Form.RULED_CALL, ruled.name(), ruled.argumentCount(), null, null,
        ruled);
  }

  /**
   * A call of {@code ruled} whose arguments are followed by {@code slots} gradient slots, which
   * reverse-mode programs add ({@code transform/ArraySlots}): per argument that is an array
   * carrying derivatives, in order, the slot of its first element. The Java text is the same.
   */
  public static Operation callAtSlots(RuledCallee ruled, int slots) {
    return new Operation(Form.RULED_CALL, ruled.name(), ruled.argumentCount() + slots, null,
        null, ruled);
  }

  /**
   * This operation as it is written in Java, without the gradient slots that reverse-mode
   * programs append to reads, stores, clones and calls of arrays that carry derivatives
   * ({@code derive/ArraySlots}): the slots are for the reverse sweep, whose statements the
   * transform writes of its own, and are never printed. Itself when it has none.
   */
  public Operation withoutSlots() {
    if (equals(ELEMENT_AT_SLOT)) {
      return ELEMENT;
    } else if (equals(STORE_AT_SLOT)) {
      return STORE;
    } else if (equals(CLONE_AT_SLOT)) {
      return CLONE;
    } else if (form == Form.USER_CALL && arity > callee.parameterTypes().size()) {
      return call(callee);
    } else if (form == Form.RULED_CALL && arity > ruled.argumentCount()) {
      return call(ruled);
    }
    return this;
  }

  public Form form() {
    return form;
  }

  /** The operator symbol, the cast's type keyword, or the function's simple name. */
  public String name() {
    return name;
  }

  public int arity() {
    return arity;
  }

  /** The class of a called math function; {@code null} otherwise. */
  public MathOwner owner() {
    return owner;
  }

  /** The called {@code @Differentiable} method; {@code null} otherwise. */
  public Callee callee() {
    return callee;
  }

  /** The called method with {@code @DerivativeOf} rules, or rule; {@code null} otherwise. */
  public RuledCallee ruled() {
    return ruled;
  }

  /** The key of this operation's entry in the table of derivative rules. */
  public String ruleKey() {
    return switch (form) {
      case INFIX -> name;
      case PREFIX -> "unary" + name;
      // to double or float: the value rounded (or not), with derivative 1; to an integer: 0
      case CAST -> name.equals("double") || name.equals("float") ? "cast to floating point"
          : "cast";
      case CALL -> name + "/" + arity;
      case USER_CALL -> "call";
      case RULED_CALL -> "ruled call";
      case TANGENT_CALL -> "tangent call";
      case PULLBACK_CALL -> "pullback call";
      case LOCAL_CALL -> "local call";
      case POP -> "pop";
      case TAPE_CALL -> "tape call";
      case COPY -> "copy";
      case SELECT -> "?:";
      case WITH_DERIVATIVE_OF -> "with derivative of";
      case ELEMENT -> "element";
      case LENGTH -> "length";
      case SLOTS_CALL -> "slots";
      case NEW_ARRAY -> "new array";
      case CLONE -> "clone";
      case STORE -> "store";
      case PLAIN_CALL -> "plain call";
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Operation that
        && form == that.form
        && name.equals(that.name)
        && arity == that.arity
        && owner == that.owner
        && Objects.equals(callee, that.callee)
        && Objects.equals(ruled, that.ruled)
        && plain == that.plain;
  }

  @Override
  public int hashCode() {
    return Objects.hash(form, name, arity, owner, callee, ruled, plain);
  }

  @Override
  public String toString() {
    return switch (form) {
      case CALL -> owner.simpleName() + "." + name + "/" + arity;
      case USER_CALL, TANGENT_CALL, PULLBACK_CALL ->
          callee.userClass() + "." + name + "/" + arity;
      case RULED_CALL -> (ruled.onFirstArgument() ? "receiver" : ruled.qualifier()) + "." + name
          + "/" + arity;
      default -> name;
    };
  }
}
