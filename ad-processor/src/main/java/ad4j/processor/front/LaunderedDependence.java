package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.Tree;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;

/**
 * Dependence laundered through code that carries no derivative: the analysis behind the
 * contract's "exact or rejected". A value computed from a derivative-carrying value by code that
 * runs as written — a call that is not {@code @Differentiable}, a method or field of an object, a
 * constructor, a string concatenation — carries none of that derivative. When such a value comes
 * back into the result, into a derivative-carrying value or into a {@code @Differentiable} call,
 * the derivative would be silently wrong: that is an error where it comes back, naming where the
 * dependence left ("'s' depends on 'x' through 'Double.toString' (line 5), which carries no
 * derivative").
 *
 * <p>By convention {@code int}, {@code long} and {@code boolean} carry no derivative: casts,
 * comparisons and indices get no message. An integer that a call run as written computes from a
 * derivative-carrying value (bit patterns, hash codes) is followed all the same, and where it
 * comes back it gets a warning, which {@code @SuppressWarnings("ad4j.zero-derivative")} on the
 * method or a class around it silences; a floating-point number or an object computed again
 * from such an integer by a call run as written is a laundered value like any other.
 *
 * <p>A call run as written that receives a dependent value may keep it anywhere: in its
 * arguments' objects, in its receiver, in static fields. From then on (in the order the method
 * runs, loops going round) what a call run as written returns, what is read through an object
 * (its fields, an element of an array of objects), an element of a {@code static final} table,
 * what a static field that is not {@code final} holds, and the arrays and objects given to such
 * a call may depend on it too. Calls that only read their arguments are exempt:
 * the methods of {@code Math}, {@code StrictMath}, {@code String} and the boxed types
 * ({@code Double.toString(x)} depends on {@code x} alone), and the static methods of the sources
 * whose bodies read and keep nothing but their arguments ({@link ArgumentOnlyMethods}: a check
 * {@code Checks.isTrue(mean > 0, "...", mean)}, a helper {@code logFactorial(k)}). Exceptions' messages
 * ({@code throw new IllegalArgumentException("bad " + x)}) leave the method and come back
 * nowhere.
 *
 * <p>The front end tells this analysis, while it lowers a method, where each value is made and
 * what each call run as written is; {@link #check} then runs over the lowered method, variables
 * and loops to a fixed point.
 */
final class LaunderedDependence {
  /** The {@code @SuppressWarnings} name that silences the warnings about integers. */
  static final String ZERO_DERIVATIVE = "ad4j.zero-derivative";

  /** Classes whose methods compute their result from their arguments (and receiver) alone. */
  private static final Set<String> ARGUMENTS_ONLY = Set.of("java.lang.Math",
      "java.lang.StrictMath", "java.lang.Double", "java.lang.Float", "java.lang.Integer",
      "java.lang.Long", "java.lang.Short", "java.lang.Byte", "java.lang.Boolean",
      "java.lang.Character", "java.lang.String");

  /**
   * Methods of the JDK that only read the arrays they are given and keep nothing: an array that
   * carries derivatives may be passed to them, and what they return depends on it.
   */
  private static final Set<String> READ_ONLY = Set.of("java.util.Arrays.toString",
      "java.util.Arrays.equals", "java.util.Arrays.hashCode", "java.util.Objects.requireNonNull");

  /**
   * Where a dependence left derivative-carrying code: which value, into what, on which line;
   * {@code where} is {@code line 81}, or {@code line 4 of Vec3.java} in a record's own file.
   */
  private record Departure(String source, String through, String where) {}

  /**
   * A value's dependence on a derivative-carrying value through code that carries none;
   * {@code integral} when only integers carry it (a warning, not an error, where it comes back).
   */
  private record Dependence(Departure departure, boolean integral) {
    /** Either dependence; the one that is not only integral wins, then the earlier one. */
    static Dependence join(Dependence a, Dependence b) {
      if (a == null) {
        return b;
      }
      if (b == null || !a.integral || b.integral) {
        return a;
      }
      return b;
    }

    Dependence as(boolean integralValue) {
      return integral == integralValue ? this : new Dependence(departure, integralValue);
    }
  }

  /**
   * A call run as written: how messages name it, whether it reads its arguments only, whether
   * it keeps and writes nothing (it may read state others kept), and whether an integer it
   * returns is a rounding of the kind that by convention carries no
   * derivative ({@code Math.round(x)}, {@code Math.floorMod}), as a cast does.
   */
  private record Call(String through, boolean argumentsOnly, boolean rounds,
      boolean keepsNothing) {
    Call(String through, boolean argumentsOnly, boolean rounds) {
      this(through, argumentsOnly, rounds, argumentsOnly);
    }
  }

  private final SourceText source;
  private final Map<Value, Tree> places = new IdentityHashMap<>();
  private final Map<Value, Call> calls = new IdentityHashMap<>();
  private final Set<Value> stateReads = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Map<Statement, Tree> resultPlaces = new IdentityHashMap<>();
  private final Set<Variable> resultVariables = Collections.newSetFromMap(new IdentityHashMap<>());

  // the analysis: dependences and derivative-carrying values, grown to a fixed point
  private final Map<Value, Dependence> dependences = new IdentityHashMap<>();
  private final Map<Variable, Dependence> variableDependences = new IdentityHashMap<>();
  private final Set<Value> carrying = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Set<Variable> carryingVariables =
      Collections.newSetFromMap(new IdentityHashMap<>());
  /** The array each row read from a matrix belongs to: a write into the row is one into it. */
  private final Map<Value, Value> containers = new IdentityHashMap<>();
  /** What state a call may have written, seen anywhere in each loop (by id). */
  private final Map<Integer, Dependence> loopStates = new HashMap<>();
  /** What the state that calls run as written can reach may hold here; null for nothing. */
  private Dependence state;
  private boolean changed;
  private final Map<String, Runnable> findings = new LinkedHashMap<>();

  LaunderedDependence(SourceText source) {
    this.source = source;
  }

  // ---- what the front end tells while it lowers ---------------------------------------------

  /** {@code value} is made while lowering {@code at}: messages name it by its text there. */
  void made(Value value, Tree at) {
    if (at != null) {
      places.putIfAbsent(value, at);
    }
  }

  /**
   * {@code result} is the result of a call run as written, {@code through} as messages name it
   * ({@code Double.toString}, {@code StringBuilder.append}, {@code new DD.Pair}); a call of
   * {@link #readsArgumentsOnly} reads nothing but its arguments and keeps none of them.
   */
  void runsAsWritten(Operand result, String through, boolean argumentsOnly) {
    if (result instanceof Operand.Use use) {
      calls.put(use.value(), new Call(through, argumentsOnly, false));
    }
  }

  /**
   * {@code result} is the result of a call run as written that reads its arguments and state
   * and keeps and writes nothing ({@link ReadOnlyMethods}: a getter, {@code maxIndex(a)}): what
   * it returns may depend on its arguments and on what earlier calls kept, and it changes no
   * state and no array it is given.
   */
  void readsAsWritten(Operand result, String through) {
    if (result instanceof Operand.Use use) {
      calls.put(use.value(), new Call(through, false, false, true));
    }
  }

  /**
   * {@code result} is the result of a function of {@code Math} or {@code StrictMath} without a
   * derivative rule, run as written: an integer it returns ({@code Math.round(x)}) carries no
   * derivative by convention, as a cast does, and gets no message.
   */
  void roundsAsWritten(Operand result, String through) {
    if (result instanceof Operand.Use use) {
      calls.put(use.value(), new Call(through, true, true));
    }
  }

  /**
   * Whether {@code value} is the result of a call run as written that reads its arguments only
   * and keeps none of them ({@link #runsAsWritten} told so, or {@link #roundsAsWritten}): a
   * function of {@code Math} or a boxed type, an argument-only method of the sources, an
   * unboxing. Run again on the same arguments, it gives the same result and changes nothing.
   */
  boolean readsArgumentsOnly(Value value) {
    Call call = calls.get(value);
    return call != null && call.argumentsOnly();
  }

  /**
   * {@code result} reads state that a call run as written may have written: a static field that
   * is not {@code final}, an element of an array of objects.
   */
  void readsState(Operand result) {
    if (result instanceof Operand.Use use) {
      stateReads.add(use.value());
    }
  }

  /** {@code statement} gives the method's result ({@code return}, or its value kept for it). */
  void givesResult(Statement statement, Tree at) {
    resultPlaces.put(statement, at);
    if (statement instanceof Store store) {
      resultVariables.add(store.variable());
    }
  }

  /**
   * Whether a method of {@code owner} (a class) computes its result from its arguments and
   * receiver alone and keeps none of them: {@code Math}, {@code String}, the boxed types.
   */
  static boolean readsArgumentsOnly(Element owner) {
    return owner instanceof javax.lang.model.element.TypeElement type
        && ARGUMENTS_ONLY.contains(type.getQualifiedName().toString());
  }

  /**
   * Whether {@code method} only reads the arrays it is given and keeps nothing
   * ({@code Arrays.toString}, {@code Arrays.equals}, {@code Arrays.hashCode}, a search of
   * numbers: {@link #searchesNumbers}), so that an array carrying derivatives may be passed to
   * it.
   */
  static boolean onlyReads(javax.lang.model.element.ExecutableElement method) {
    return method.getEnclosingElement() instanceof javax.lang.model.element.TypeElement type
        && READ_ONLY.contains(type.getQualifiedName() + "." + method.getSimpleName())
        || searchesNumbers(method);
  }

  /**
   * Whether {@code method} is {@code Arrays.binarySearch} over an array of numbers (no
   * comparator, no objects): the index it returns is a step function of the key and of the
   * elements, constant between them, as {@code (int) Math.floor(x)} is of {@code x}, so by the
   * same convention it carries no derivative and gets no message (a table's knots found by
   * search, then interpolated); it reads its arguments only and keeps nothing.
   */
  static boolean searchesNumbers(javax.lang.model.element.ExecutableElement method) {
    return method.getEnclosingElement() instanceof javax.lang.model.element.TypeElement type
        && type.getQualifiedName().contentEquals("java.util.Arrays")
        && method.getSimpleName().contentEquals("binarySearch")
        && method.getParameters().stream().allMatch(parameter -> {
          javax.lang.model.type.TypeMirror t = parameter.asType();
          return t.getKind().isPrimitive() || t instanceof javax.lang.model.type.ArrayType array
              && array.getComponentType().getKind().isPrimitive();
        });
  }

  // ---- the analysis ------------------------------------------------------------------------

  /**
   * Reports, in {@code diagnostics}, each place of {@code body} where a laundered dependence
   * comes back: an error for a floating-point number, an object or a string, a warning for an
   * integer unless {@code warnAboutIntegers} is false (suppressed).
   */
  void check(Block body, Diagnostics diagnostics, boolean warnAboutIntegers, Tree method) {
    this.diagnostics = diagnostics;
    this.warnAboutIntegers = warnAboutIntegers;
    this.methodTree = method;
    do {
      changed = false;
      state = null;
      findings.clear();
      block(body);
    } while (changed);
    for (Runnable finding : findings.values()) {
      finding.run();
    }
  }

  private Diagnostics diagnostics;
  private boolean warnAboutIntegers;
  private Tree methodTree;

  private void block(Block block) {
    for (Statement statement : block.statements()) {
      statement(statement);
    }
  }

  private void statement(Statement statement) {
    if (statement instanceof Instruction instruction) {
      instruction(instruction);
    } else if (statement instanceof Declare declare) {
      assign(declare.variable(), declare.initial(), declare);
    } else if (statement instanceof Store store) {
      assign(store.variable(), store.value(), store);
    } else if (statement instanceof Return ret) {
      // a return without a place returns what a return inside a loop kept, reported there
      Dependence dependence = dependenceOf(ret.value());
      Tree at = resultPlaces.get(ret);
      if (dependence != null && at != null) {
        comesBack(at, ret.value(), dependence, "the result");
      }
    } else if (statement instanceof If branch) {
      Dependence before = state;
      block(branch.thenBlock());
      Dependence afterThen = state;
      state = before;
      block(branch.elseBlock());
      state = Dependence.join(afterThen, state);
    } else if (statement instanceof Loop loop) {
      state = Dependence.join(state, loopStates.get(loop.id()));
      block(loop.condition());
      block(loop.body());
      block(loop.update());
      if (state != null && loopStates.get(loop.id()) == null) {
        loopStates.put(loop.id(), state);
        changed = true;
      }
    } else if (statement instanceof ElementStore store) {
      Dependence dependence = dependenceOf(store.value());
      if (dependence != null) {
        depend(store.array(), dependence);
      }
    }
    // jumps, throws and notes carry nothing back
  }

  private void assign(Variable variable, Operand value, Statement statement) {
    Dependence dependence = dependenceOf(value);
    if (dependence != null) {
      Dependence known = variableDependences.get(variable);
      Dependence joined = Dependence.join(known, dependence);
      if (joined != known) {
        variableDependences.put(variable, joined);
        changed = true;
      }
      Tree at = resultPlaces.get(statement);
      if (at != null && resultVariables.contains(variable)) {
        comesBack(at, value, dependence, "the result");
      }
    }
    if (carries(value) && carryingVariables.add(variable)) {
      changed = true;
    }
  }

  private void instruction(Instruction instruction) {
    Value result = instruction.result();
    List<Operand> arguments = instruction.arguments();
    Dependence dependence = null;
    Operand carried = null;
    for (Operand argument : arguments) {
      dependence = Dependence.join(dependence, dependenceOf(argument));
      if (carried == null && carries(argument)) {
        carried = argument;
      }
    }
    boolean mayCarry = result.isActive() || result.isActiveArray();
    Operation.Form form = instruction.operation().form();
    switch (form) {
      case PLAIN_CALL -> {
        Call call = calls.getOrDefault(result,
            new Call(instruction.operation().name(), false, false));
        boolean rounding = call.rounds() && isIntegral(result.type());
        Dependence made = carried != null && !rounding
            ? new Dependence(new Departure(nameOf(carried), call.through(),
                where(placeOf(result), instruction)), false)
            : dependence;
        if (!call.argumentsOnly() && call.keepsNothing()) {
          made = Dependence.join(made, state); // it may give back what an earlier one kept
        } else if (!call.argumentsOnly()) {
          state = Dependence.join(state, made); // it may have kept what it received
          made = Dependence.join(made, state); // and may give back what an earlier one kept
          if (state != null) {
            for (Operand argument : arguments) {
              if (argument instanceof Operand.Use use && (use.value().type().isArray()
                  || use.value().type() == NumericType.OBJECT)) {
                depend(use.value(), state); // and may have written into what it was given
              }
            }
          }
        }
        if (made != null) {
          depend(result, made.as(isIntegral(result.type())));
        }
      }
      case COPY -> {
        if (stateReads.contains(result)) {
          dependence = Dependence.join(dependence, state);
        }
        if (dependence != null) {
          depend(result, dependence);
        }
        if (carried != null) {
          carry(result);
        }
      }
      case STORE -> {
        // a[i] = v: the array holds what v depends on and carries
        Value array = ((Operand.Use) arguments.get(0)).value();
        Dependence stored = Dependence.join(dependenceOf(arguments.get(2)),
            dependenceOf(arguments.get(1)));
        if (stored != null) {
          depend(array, stored);
          depend(result, stored);
        }
        if (carries(arguments.get(2))) {
          carry(array);
          carry(result);
        }
      }
      case USER_CALL, RULED_CALL -> {
        if (dependence != null) {
          comesBack(placeOf(result), firstDependent(arguments), dependence,
              "a call of a method that ad4j differentiates");
        } else if (carried != null && mayCarry) {
          carry(result);
        }
      }
      default -> {
        if (form == Operation.Form.ELEMENT && (stateReads.contains(result)
            || arguments.get(0) instanceof Operand.Constant)) {
          // an element of an array of objects, or of a static final table: a call run as
          // written may have written it
          dependence = Dependence.join(dependence, state);
        }
        if (form == Operation.Form.ELEMENT && result.type().isArray()
            && arguments.get(0) instanceof Operand.Use array) {
          containers.put(result, array.value());
        }
        boolean carries = carried != null && mayCarry;
        if (carried != null && result.type().isReference() && !carries) {
          // "x = " + x: text made from a derivative-carrying value
          Tree at = placeOf(result);
          dependence = Dependence.join(new Dependence(new Departure(nameOf(carried),
              source.of(at), where(at, instruction)), false), dependence);
        }
        if (dependence != null && carries) {
          comesBack(placeOf(result), firstDependent(arguments), dependence,
              "a value that carries a derivative");
        } else if (dependence != null) {
          depend(result, dependence.as(isIntegral(result.type()) || dependence.integral()));
        }
        if (carries) {
          carry(result);
        }
      }
    }
  }

  /** Records that {@code value} depends as {@code dependence} says (booleans carry nothing). */
  private void depend(Value value, Dependence dependence) {
    if (value.type() == NumericType.BOOLEAN || value.type() == NumericType.VOID) {
      return;
    }
    for (Value holder = value; holder != null; holder = containers.get(holder)) {
      Dependence known = dependences.get(holder);
      Dependence joined = Dependence.join(known, dependence);
      if (joined != known) {
        dependences.put(holder, joined);
        changed = true;
      }
    }
  }

  private void carry(Value value) {
    for (Value holder = value; holder != null; holder = containers.get(holder)) {
      if (carrying.add(holder)) {
        changed = true;
      }
    }
  }

  private Dependence dependenceOf(Operand operand) {
    if (operand instanceof Operand.Use use) {
      return dependences.get(use.value());
    }
    if (operand instanceof Operand.Read read) {
      return variableDependences.get(read.variable());
    }
    return null;
  }

  /** Whether {@code operand} carries a derivative: an active parameter, or computed from one. */
  private boolean carries(Operand operand) {
    if (operand instanceof Operand.Use use) {
      Value value = use.value();
      return value.origin() == Value.Origin.PARAMETER
          ? value.isActive() || value.isActiveArray() : carrying.contains(value);
    }
    if (operand instanceof Operand.Read read) {
      return carryingVariables.contains(read.variable());
    }
    return false;
  }

  private Operand firstDependent(List<Operand> arguments) {
    Operand best = null;
    for (Operand argument : arguments) {
      Dependence dependence = dependenceOf(argument);
      if (dependence != null && (best == null || !dependence.integral())) {
        best = argument;
        if (!dependence.integral()) {
          break;
        }
      }
    }
    return best;
  }

  private static boolean isIntegral(NumericType type) {
    return type == NumericType.INT || type == NumericType.LONG || type == NumericType.INT_ARRAY;
  }

  private Tree placeOf(Value value) {
    Tree at = places.get(value);
    return at != null ? at : methodTree;
  }

  /** How messages name what {@code operand} is: a variable's name, or the code that made it. */
  private String nameOf(Operand operand) {
    if (operand instanceof Operand.Read read) {
      return read.variable().name();
    }
    if (operand instanceof Operand.Use use) {
      Value value = use.value();
      if (value.origin() == Value.Origin.PARAMETER || value.origin() == Value.Origin.LOCAL) {
        return value.nameHint();
      }
      Tree at = places.get(value);
      if (at != null) {
        return source.of(at);
      }
      return value.nameHint();
    }
    return String.valueOf(operand);
  }

  /**
   * Where a dependence leaves at {@code at}, made by {@code instruction}: the line of its
   * statement, or for code of another file inlined here (a record's method) its line there.
   */
  private String where(Tree at, Instruction instruction) {
    if (at != null && !source.isOwn(at)) {
      return "line " + source.line(at) + " of " + source.fileName(at);
    }
    return "line " + instruction.line().number();
  }

  /** A finding where a dependence comes back, reported once per place and value. */
  private void comesBack(Tree at, Operand what, Dependence dependence, String into) {
    String name = nameOf(what);
    Departure departure = dependence.departure();
    String key = System.identityHashCode(at) + ":" + name + ":" + dependence.integral();
    String chain = "'" + name + "' depends on '" + departure.source() + "' through '"
        + departure.through() + "' (" + departure.where() + "), which carries no derivative";
    if (!dependence.integral()) {
      findings.putIfAbsent(key, () -> diagnostics.error(at, chain + ", and reaches " + into
          + ": its derivative would be silently wrong; compute it with code that carries"
          + " derivatives (arithmetic, Math functions, @Differentiable methods), or give the"
          + " partial derivatives of what runs as written with @DerivativeOf"));
    } else {
      findings.putIfAbsent(key, () -> {
        if (warnAboutIntegers) {
          diagnostics.warning(at, "[" + ZERO_DERIVATIVE + "] " + chain + ", and reaches "
              + into + ": integers carry no derivative, so its derivative is taken as zero;"
              + " suppress with @SuppressWarnings(\"" + ZERO_DERIVATIVE + "\")");
        }
      });
    }
  }
}
