package ad4j.processor.emit;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.RuledCallee;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/** The Java text of an instruction's right-hand side, and of operands written inline. */
final class InstructionText {
  private InstructionText() {}

  /** {@code operation(arguments)} as Java writes it. */
  static Expr of(Operation operation, List<Expr> arguments,
      Function<MathOwner, String> mathClass) {
    return switch (operation.form()) {
      case INFIX -> Expr.binary(operation.name(), arguments.get(0), arguments.get(1));
      case PREFIX -> prefix(operation.name(), arguments.get(0));
      case CAST -> arguments.get(0).castTo(operation.name());
      case CALL -> Expr.call(mathClass.apply(operation.owner()), operation.name(),
          arguments.toArray(Expr[]::new));
      // slot arguments after the callee's own are for the reverse sweep (transform/ArraySlots)
      case USER_CALL -> userCall(operation, arguments);
      case RULED_CALL -> ruledCall(operation, arguments);
      case TANGENT_CALL -> Expr.call(operation.callee().flatOwner(), operation.name(),
          arguments.toArray(Expr[]::new));
      case PLAIN_CALL -> plainCall(operation, arguments);
      case COPY, WITH_DERIVATIVE_OF -> arguments.get(0);
      case SELECT -> arguments.get(0).choose(arguments.get(1), arguments.get(2));
      // the slot argument of a reverse-mode read is for the reverse sweep: not written here
      case ELEMENT -> arguments.get(0).element(arguments.get(1));
      case LENGTH -> arguments.get(0).member("length");
      case SLOTS_CALL -> Expr.call("ad4j.runtime.internal.Slots", operation.name(),
          arguments.toArray(Expr[]::new));
      case NEW_ARRAY -> Expr.atom(newArray(operation, arguments));
      case CLONE -> Expr.localCall(arguments.get(0).member("clone").toString());
      case STORE -> Expr.source(arguments.get(0).element(arguments.get(1)) + " = "
          + arguments.get(2), Expr.ASSIGNMENT);
      case PULLBACK_CALL, LOCAL_CALL, POP, TAPE_CALL ->
          throw new IllegalArgumentException("the emitter writes what uses the tape: " + operation);
    };
  }

  /**
   * Whether {@code operation} is written as a call of a generated or user method, or a store: a
   * statement of its own when its value is unused. A field read, a private field's read through
   * its handle (a cast) and an array's creation run as written are not statements in Java: an
   * unused one is declared, as an unused element read is.
   */
  static boolean isMethodCall(Operation operation) {
    return switch (operation.form()) {
      case USER_CALL, RULED_CALL, TANGENT_CALL, PULLBACK_CALL, LOCAL_CALL, SLOTS_CALL, STORE,
          TAPE_CALL -> true;
      case PLAIN_CALL -> switch (operation.plain()) {
        case STATIC_CALL, INSTANCE_CALL, CONSTRUCTION -> true;
        case FIELD_READ, HANDLE_READ, ARRAY_CREATION, TYPE_TEST, TYPE_PATTERN -> false;
      };
      case INFIX, PREFIX, CAST, CALL, COPY, SELECT, WITH_DERIVATIVE_OF, ELEMENT, LENGTH,
          NEW_ARRAY, CLONE, POP -> false;
    };
  }

  /** Whether {@code operation} is written as a method call, a math function's included. */
  static boolean isCall(Operation operation) {
    return switch (operation.form()) {
      case CALL, USER_CALL, RULED_CALL, TANGENT_CALL, PULLBACK_CALL, LOCAL_CALL, PLAIN_CALL,
          TAPE_CALL -> true;
      case INFIX, PREFIX, CAST, COPY, SELECT, WITH_DERIVATIVE_OF, ELEMENT, LENGTH, SLOTS_CALL,
          NEW_ARRAY, CLONE, STORE, POP -> false;
    };
  }

  /** {@code Owner.m(a, ...)} of a static callee, {@code a.m(b, ...)} of an instance one. */
  private static Expr userCall(Operation operation, List<Expr> arguments) {
    // slot arguments after the callee's own are for the reverse sweep (derive/reverse)
    List<Expr> flat = arguments.subList(0, operation.callee().parameterTypes().size());
    if (operation.callee().valueOverLeaves()) {
      // a record made again of its leaves could hold other values: no record is made
      return Expr.call(operation.callee().flatOwner(), operation.callee().valueName(),
          flat.toArray(Expr[]::new));
    }
    List<Expr> own = withRecords(operation.callee(), flat);
    Expr call;
    if (operation.callee().receiverFirst()) {
      call = Expr.localCall(own.get(0).member(operation.name()).toString(),
          own.subList(1, own.size()).toArray(Expr[]::new));
    } else {
      call = Expr.call(operation.callee().userClass(), operation.name(),
          own.toArray(Expr[]::new));
    }
    if (operation.callee().resultLeaves() != null) {
      // a value record the method returns: its leaves, the value of the vector function
      return Expr.call(operation.callee().flatOwner(), operation.callee().resultLeaves(), call);
    }
    return call;
  }

  /** The arguments of the callee itself: each value record made again of its leaves. */
  private static List<Expr> withRecords(ad4j.processor.ir.Callee callee, List<Expr> flat) {
    if (callee.records().isEmpty()) {
      return flat;
    }
    List<Expr> own = new ArrayList<>();
    int next = 0;
    for (ad4j.processor.ir.Callee.RecordArgument record : callee.records()) {
      own.addAll(flat.subList(next, record.first()));
      Object[] leaves = flat.subList(record.first(), record.first() + record.leaves())
          .stream().map(Expr::toString).toArray();
      own.add(Expr.atom(String.format(record.construction(), leaves)));
      next = record.first() + record.leaves();
    }
    own.addAll(flat.subList(next, flat.size()));
    return own;
  }

  /**
   * {@code Owner.m(a, ...)}, {@code a.m(b, ...)}, {@code a.field}, {@code new T(a, ...)} or
   * {@code new T[] {a, ...}}.
   */
  private static Expr plainCall(Operation operation, List<Expr> arguments) {
    return switch (operation.plain()) {
      case FIELD_READ -> arguments.get(0).member(operation.name());
      case HANDLE_READ -> Expr.source(operation.name() + ".get(" + arguments.get(0) + ")",
          Expr.unaryPrecedence());
      case INSTANCE_CALL -> Expr.localCall(arguments.get(0).member(operation.name()).toString(),
          arguments.subList(1, arguments.size()).toArray(Expr[]::new));
      case STATIC_CALL, CONSTRUCTION ->
          Expr.localCall(operation.name(), arguments.toArray(Expr[]::new));
      case ARRAY_CREATION -> Expr.atom(operation.name() + " {" + String.join(", ",
          arguments.stream().map(Expr::toString).toList()) + "}");
      case TYPE_TEST -> typeTest(arguments.get(0), operation.name());
      // the object is a name or a constant's text (front/TypeTests): written twice, read twice
      case TYPE_PATTERN -> typeTest(arguments.get(0), operation.name())
          .choose(arguments.get(0).castTo(operation.name()), Expr.atom("null"));
    };
  }

  /** {@code object instanceof type}, which binds as a relational operator does. */
  private static Expr typeTest(Expr object, String type) {
    boolean bare = object.toString().matches("[\\w.$]+");
    return Expr.source((bare ? object.toString() : "(" + object + ")") + " instanceof " + type,
        Expr.precedenceOf("<"));
  }

  /** {@code Qualifier.name(a, ...)}, with the receiver first for a rule of an instance method. */
  private static Expr ruledCall(Operation operation, List<Expr> arguments) {
    RuledCallee ruled = operation.ruled();
    int own = ruled.parameterTypes().size();
    if (ruled.onFirstArgument()) {
      // an instance method called on an object of the method's: the first argument
      return Expr.localCall(checked(ruled, arguments.get(0)).member(operation.name()).toString(),
          arguments.subList(1, own).toArray(Expr[]::new));
    }
    List<Expr> all = new ArrayList<>();
    if (ruled.leadingArgument() != null) {
      all.add(Expr.atom(ruled.leadingArgument()));
    }
    // slots that reverse-mode programs add after the arguments are for the reverse sweep
    all.addAll(arguments.subList(0, own));
    if (ruled.receiverCheck() != null) {
      // a rule taking an object of the method's first
      all.set(0, checked(ruled, all.get(0)));
    }
    return Expr.call(ruled.qualifier(), operation.name(), all.toArray(Expr[]::new));
  }

  /**
   * {@code receiver}, an object of the method's, passed through the check that its class does
   * not override the ruled target, where the call has one ({@link RuledCallee#receiverCheck}).
   */
  private static Expr checked(RuledCallee ruled, Expr receiver) {
    if (ruled.receiverCheck() == null) {
      return receiver;
    }
    return Expr.atom("ad4j.runtime.internal.Overrides.ruleReceiver(" + receiver + ", "
        + ruled.receiverCheck() + ")");
  }

  private static Expr prefix(String symbol, Expr operand) {
    return switch (symbol) {
      case "-" -> operand.negate();
      case "!" -> operand.not();
      default -> Expr.source("~" + operand, Expr.unaryPrecedence()); // operands are names
    };
  }

  /**
   * An operand with the formula values it uses written inline from their definitions
   * ({@code inline}); other operands as {@code leaf} writes them.
   */
  static Expr inline(Operand operand, Map<Value, Instruction> inline,
      Function<Operand, Expr> leaf, BiFunction<Instruction, List<Expr>, Expr> text) {
    Instruction definition = operand instanceof Operand.Use use ? inline.get(use.value()) : null;
    if (definition == null) {
      return leaf.apply(operand);
    }
    List<Expr> arguments = new ArrayList<>();
    for (Operand argument : definition.arguments()) {
      arguments.add(inline(argument, inline, leaf, text));
    }
    return text.apply(definition, arguments);
  }

  /** {@code new double[n]}, {@code new double[n][m]}, or a matrix's rows of given lengths. */
  private static String newArray(Operation operation, List<Expr> arguments) {
    if (!operation.makesMatrix()) {
      return "new " + operation.name() + "[" + arguments.get(0) + "]";
    }
    if (operation.name().equals("double[][]")) {
      return "new double[" + arguments.get(0) + "][" + arguments.get(1) + "]";
    }
    StringBuilder rows = new StringBuilder("new double[][] {");
    for (int i = 0; i < arguments.size(); i++) {
      rows.append(i == 0 ? "" : ", ").append("new double[").append(arguments.get(i)).append(']');
    }
    return rows.append('}').toString();
  }
}
