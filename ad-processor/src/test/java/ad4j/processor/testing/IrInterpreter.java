package ad4j.processor.testing;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs an IR function directly, with Java's semantics, so that transforms can be checked without
 * printing Java: values are boxed {@code Double}, {@code Integer}, {@code Long}, {@code Boolean}
 * or {@code double[]}. Constants must have known values (literals), as in the programs the
 * tests build. Calls of other methods are not supported.
 */
public final class IrInterpreter {
  private final Map<Value, Object> values = new HashMap<>();
  private final Map<Variable, Object> variables = new HashMap<>();
  private final Deque<Object> tape = new ArrayDeque<>();

  /** How a block ended. */
  private sealed interface Exit permits Normal, Returned, Jumped {}

  private record Normal() implements Exit {}

  private record Returned(Object value) implements Exit {}

  private record Jumped(Jump jump) implements Exit {}

  private IrInterpreter() {}

  /** Runs {@code function} on {@code arguments}, one per parameter, and returns its result. */
  public static Object run(Function function, Object... arguments) {
    if (arguments.length != function.parameters().size()) {
      throw new IllegalArgumentException("expected " + function.parameters().size()
          + " arguments, got " + arguments.length);
    }
    IrInterpreter interpreter = new IrInterpreter();
    for (int i = 0; i < arguments.length; i++) {
      interpreter.values.put(function.parameters().get(i), arguments[i]);
    }
    Exit exit = interpreter.run(function.body());
    if (!(exit instanceof Returned returned)) {
      throw new IllegalStateException("the function ended without a return: " + exit);
    }
    if (!interpreter.tape.isEmpty()) {
      throw new IllegalStateException("values left on the tape: " + interpreter.tape.size());
    }
    return returned.value();
  }

  private Exit run(Block block) {
    for (Statement statement : block.statements()) {
      Exit exit = run(statement);
      if (!(exit instanceof Normal)) {
        return exit;
      }
    }
    return new Normal();
  }

  private Exit run(Statement statement) {
    if (statement instanceof Instruction instruction) {
      values.put(instruction.result(), evaluate(instruction));
    } else if (statement instanceof Declare declare) {
      variables.put(declare.variable(), convert(value(declare.initial()),
          declare.variable().type()));
    } else if (statement instanceof Store store) {
      variables.put(store.variable(), convert(value(store.value()), store.variable().type()));
    } else if (statement instanceof Push push) {
      tape.push(value(push.value()));
    } else if (statement instanceof ElementStore store) {
      double[] array = (double[]) values.get(store.array());
      double element = (Double) value(store.value());
      int index = ((Number) value(store.index())).intValue();
      array[index] = store.add() ? array[index] + element : element;
    } else if (statement instanceof Return ret) {
      return new Returned(value(ret.value()));
    } else if (statement instanceof If branch) {
      return run((Boolean) value(branch.condition()) ? branch.thenBlock() : branch.elseBlock());
    } else if (statement instanceof Loop loop) {
      return runLoop(loop);
    } else if (statement instanceof Jump jump) {
      return new Jumped(jump);
    } else if (statement instanceof Throw thrown) {
      throw new IllegalStateException("the program threw " + thrown.exceptionType());
    }
    return new Normal();
  }

  private Exit runLoop(Loop loop) {
    while (true) {
      if (loop.testFirst() && !test(loop)) {
        return new Normal();
      }
      Exit exit = run(loop.body());
      if (exit instanceof Returned) {
        return exit;
      }
      if (exit instanceof Jumped jumped) {
        if (jumped.jump().loopId() != loop.id()) {
          return exit;
        }
        if (jumped.jump().kind() == Jump.Kind.BREAK) {
          return new Normal();
        }
      }
      run(loop.update());
      if (!loop.testFirst() && !test(loop)) {
        return new Normal();
      }
    }
  }

  private boolean test(Loop loop) {
    run(loop.condition());
    return loop.test() == null || (Boolean) value(loop.test());
  }

  private Object value(Operand operand) {
    if (operand instanceof Operand.Use use) {
      if (!values.containsKey(use.value())) {
        throw new IllegalStateException("read before it is computed: " + use.value());
      }
      return values.get(use.value());
    }
    if (operand instanceof Operand.Read read) {
      return variables.get(read.variable());
    }
    Operand.Constant constant = (Operand.Constant) operand;
    String text = constant.expression().toString();
    if (constant.type() == NumericType.BOOLEAN) {
      return Boolean.parseBoolean(text);
    }
    double known = constant.knownValue().orElseThrow(
        () -> new IllegalArgumentException("constant without a known value: " + text));
    return convert(known, constant.type());
  }

  private Object evaluate(Instruction instruction) {
    Operation operation = instruction.operation();
    List<Object> arguments = instruction.arguments().stream().map(this::value).toList();
    NumericType type = instruction.result().type();
    return switch (operation.form()) {
      case COPY, WITH_DERIVATIVE_OF -> convert(arguments.get(0), type);
      case CAST -> convert(arguments.get(0), type);
      case SELECT -> (Boolean) arguments.get(0) ? arguments.get(1) : arguments.get(2);
      case POP -> convert(tape.pop(), type);
      case PREFIX -> prefix(operation.name(), arguments.get(0), type);
      case INFIX -> infix(operation.name(), arguments.get(0), arguments.get(1), type);
      case CALL -> call(operation, arguments);
      case ELEMENT -> java.lang.reflect.Array.get(arguments.get(0), (Integer) arguments.get(1));
      case LENGTH -> java.lang.reflect.Array.getLength(arguments.get(0));
      case NEW_ARRAY -> operation.name().equals("int") ? new int[(Integer) arguments.get(0)]
          : new double[(Integer) arguments.get(0)];
      case CLONE -> arguments.get(0) instanceof int[] a ? a.clone()
          : ((double[]) arguments.get(0)).clone();
      case STORE -> {
        java.lang.reflect.Array.set(arguments.get(0), (Integer) arguments.get(1),
            arguments.get(2));
        yield arguments.get(2);
      }
      case USER_CALL, RULED_CALL, TANGENT_CALL, PULLBACK_CALL, LOCAL_CALL, SLOTS_CALL,
          PLAIN_CALL, TAPE_CALL ->
          throw new UnsupportedOperationException("calls of other methods: " + operation);
    };
  }

  private static Object prefix(String symbol, Object operand, NumericType type) {
    return switch (symbol) {
      case "!" -> !(Boolean) operand;
      case "-" -> switch (type) {
        case INT -> -(Integer) convert(operand, type);
        case LONG -> -(Long) convert(operand, type);
        default -> -(Double) convert(operand, NumericType.DOUBLE);
      };
      default -> throw new UnsupportedOperationException(symbol);
    };
  }

  private static Object infix(String symbol, Object a, Object b, NumericType type) {
    if (a instanceof Boolean x && b instanceof Boolean y) {
      return switch (symbol) {
        case "&&", "&" -> x && y;
        case "||", "|" -> x || y;
        case "==" -> x.equals(y);
        case "!=" -> !x.equals(y);
        default -> throw new UnsupportedOperationException(symbol);
      };
    }
    boolean integral = !(a instanceof Double) && !(b instanceof Double)
        && !(a instanceof Float) && !(b instanceof Float);
    if (type == NumericType.BOOLEAN) {
      int comparison = integral
          ? Long.compare(((Number) a).longValue(), ((Number) b).longValue())
          : Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
      double x = ((Number) a).doubleValue();
      double y = ((Number) b).doubleValue();
      return switch (symbol) {
        case "<" -> integral ? comparison < 0 : x < y;
        case ">" -> integral ? comparison > 0 : x > y;
        case "<=" -> integral ? comparison <= 0 : x <= y;
        case ">=" -> integral ? comparison >= 0 : x >= y;
        case "==" -> integral ? comparison == 0 : x == y;
        case "!=" -> integral ? comparison != 0 : x != y;
        default -> throw new UnsupportedOperationException(symbol);
      };
    }
    if (type == NumericType.INT || type == NumericType.LONG) {
      long x = ((Number) a).longValue();
      long y = ((Number) b).longValue();
      long r = switch (symbol) {
        case "+" -> x + y;
        case "-" -> x - y;
        case "*" -> x * y;
        case "/" -> x / y;
        case "%" -> x % y;
        default -> throw new UnsupportedOperationException(symbol);
      };
      return convert(r, type);
    }
    double x = ((Number) a).doubleValue();
    double y = ((Number) b).doubleValue();
    return switch (symbol) {
      case "+" -> x + y;
      case "-" -> x - y;
      case "*" -> x * y;
      case "/" -> x / y;
      case "%" -> x % y;
      default -> throw new UnsupportedOperationException(symbol);
    };
  }

  private static Object call(Operation operation, List<Object> arguments) {
    Class<?> owner = operation.owner().simpleName().equals("Math") ? Math.class
        : StrictMath.class;
    for (Method method : owner.getMethods()) {
      if (method.getName().equals(operation.name())
          && method.getParameterCount() == arguments.size()
          && List.of(method.getParameterTypes()).stream().allMatch(t -> t == double.class
              || method.getName().equals("scalb") && t == int.class)) {
        Object[] converted = new Object[arguments.size()];
        for (int i = 0; i < converted.length; i++) {
          converted[i] = method.getParameterTypes()[i] == int.class
              ? ((Number) arguments.get(i)).intValue()
              : ((Number) arguments.get(i)).doubleValue();
        }
        try {
          return method.invoke(null, converted);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    throw new UnsupportedOperationException(operation.toString());
  }

  private static Object convert(Object value, NumericType type) {
    if (value instanceof Boolean || value instanceof double[] || value == null) {
      return value;
    }
    Number number = (Number) value;
    return switch (type) {
      case INT -> number.intValue();
      case LONG -> number.longValue();
      case FLOAT -> (double) number.floatValue();
      case DOUBLE -> number.doubleValue();
      default -> value;
    };
  }
}
