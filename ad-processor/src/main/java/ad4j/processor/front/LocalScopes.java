package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The locals and parameters in scope, block by block, with what each holds now. */
final class LocalScopes {

  /**
   * A local variable or parameter. It holds a single-assignment value, or, when the user assigns
   * it under control flow, is backed by a mutable {@link Variable}.
   */
  static final class Local {
    private final String name;
    private final NumericType type;
    private final Variable variable;
    private final boolean typeKnown;
    private boolean broken;
    private Value value;
    /** For an {@link NumericType#OBJECT} local: its declared type. */
    private javax.lang.model.type.TypeMirror referenceType;
    private String javaType;
    /**
     * For a local of a value record that {@link RecordLowering} flattens: the record; its
     * leaves are locals of their own ({@link #leafKey}).
     */
    private javax.lang.model.element.TypeElement valueRecord;
    /** For a local of a functional interface type: the function it holds, known here. */
    private FunctionValues.Known function;
    /**
     * Whether Java holds a box here where ad4j holds its number: a parameter of a function over
     * boxes ({@code t} of {@code Function<Double, Double> f = t -> ...}).
     */
    private boolean javaBox;
    /** Whether it is declared {@code final} with an initializer: maybe a constant variable. */
    private boolean constantVariable;

    Local(String name, NumericType type, Variable variable, boolean broken, boolean typeKnown) {
      this.name = name;
      this.type = type;
      this.variable = variable;
      this.broken = broken;
      this.typeKnown = typeKnown;
    }

    /**
     * Whether its type is known, also when it is broken: the declaration said it. Uses of such a
     * broken local are still lowered (with a stand-in value), so that errors further on, which
     * have nothing to do with the first, are reported too.
     */
    boolean hasKnownType() {
      return typeKnown;
    }

    String name() {
      return name;
    }

    NumericType type() {
      return type;
    }

    /**
     * Whether this local is declared {@code final} with an initializer, so that it may be a
     * constant variable (JLS 4.12.4), whose reads Java's {@code ?:} and {@code switch}
     * expressions type as constants ({@code c ? 'a' : L} is a {@code char} for a
     * {@code final int L = 66}).
     */
    boolean isConstantVariable() {
      return constantVariable;
    }

    void markConstantVariable() {
      constantVariable = true;
    }

    /** The declared type of an {@link NumericType#OBJECT} local; null for others. */
    javax.lang.model.type.TypeMirror referenceType() {
      return referenceType;
    }

    /** How generated code names the declared type of an {@link NumericType#OBJECT} local. */
    String javaType() {
      return javaType;
    }

    private void declareAs(javax.lang.model.type.TypeMirror mirror, String text) {
      referenceType = mirror;
      javaType = text;
      if (variable != null && mirror != null) {
        variable.declareAs(mirror, text);
      }
    }

    /** The value record this local holds, flattened; null for any other local. */
    javax.lang.model.element.TypeElement valueRecord() {
      return valueRecord;
    }

    /** The function a local of a functional interface type holds; null for other locals. */
    FunctionValues.Known function() {
      return function;
    }

    /** Whether Java holds a box here where ad4j holds its number ({@link #markJavaBox}). */
    boolean isJavaBox() {
      return javaBox;
    }

    /** Notes that Java holds a box here: a parameter of a function over boxes. */
    void markJavaBox() {
      javaBox = true;
    }

    /** The mutable variable behind this local, or null when it is single-assignment. */
    Variable variable() {
      return variable;
    }

    /**
     * Whether its declaration or an assignment to it had an error already reported; uses then
     * report nothing.
     */
    boolean isBroken() {
      return broken;
    }

    /** After an assignment that failed: its value is unknown, and was reported as an error. */
    void markBroken() {
      broken = true;
    }

    /** The value it holds now; null before its first assignment. */
    Value value() {
      return value;
    }

    void hold(Value newValue) {
      value = newValue;
    }
  }

  private final Deque<Map<String, Local>> scopes = new ArrayDeque<>();
  /** The scopes that hide those outside them: the code of an inlined method's own. */
  private final java.util.Set<Map<String, Local>> isolated =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  LocalScopes() {
    scopes.push(new HashMap<>());
  }

  void push() {
    scopes.push(new HashMap<>());
  }

  void pop() {
    isolated.remove(scopes.pop());
  }

  /**
   * Pops the innermost scope, keeping those of its locals named {@code names} in the scope
   * around it: the variables of patterns in a {@code for} loop's condition, which Java puts in
   * scope after the loop ({@code for (; !(o instanceof Circle c); ) ...} binds {@code c} in the
   * rest of the block), while the loop's own variables go.
   */
  void popKeeping(java.util.Set<String> names) {
    Map<String, Local> top = scopes.peek();
    pop();
    for (String name : names) {
      Local local = top.get(name);
      if (local != null) {
        scopes.peek().put(name, local);
      }
    }
  }

  /**
   * A scope whose code sees none of the locals outside it: the body of a method inlined where
   * it is called ({@link RecordLowering}), which has its own names.
   */
  void pushIsolated() {
    push();
    isolated.add(scopes.peek());
  }

  /** The name under which leaf {@code index} of record local {@code name} is in scope. */
  static String leafKey(String name, int index) {
    return name + "." + index; // no Java name has a dot: never a user's local
  }

  /**
   * A local of value record {@code record}, flattened: a marker under {@code name}, and its
   * leaves, primitives ({@link ValueRecords.Leaf#type}), under {@link #leafKey}, named {@code leafNames} in generated code;
   * mutable (backed by variables) when the user assigns the record local. For a parameter,
   * {@code parameters} are the leaves' parameter values, which they hold first; null for a
   * local, whose leaves the caller binds.
   */
  List<Local> declareRecord(String name, javax.lang.model.element.TypeElement record,
      List<String> leafNames, List<Value> parameters, LoweringContext context) {
    Local marker = new Local(name, NumericType.OBJECT, null, false, true);
    marker.valueRecord = record;
    scopes.peek().put(name, marker);
    boolean mutable = context.variables().needsVariable(name);
    List<Local> leaves = new java.util.ArrayList<>();
    List<ValueRecords.Leaf> types = ValueRecords.leaves(record);
    for (int i = 0; i < leafNames.size(); i++) {
      Value parameter = parameters == null ? null : parameters.get(i);
      NumericType type = types.get(i).type();
      Variable variable = mutable
          ? context.ir().variable(leafNames.get(i), type, parameter) : null;
      if (variable != null) {
        context.flatRecords().namesLeaf(variable, name + "." + types.get(i).accessors());
      }
      Local leaf = new Local(leafNames.get(i), type, variable, false, true);
      if (type == NumericType.OBJECT) {
        // a component that carries nothing, of an object type: named as declared
        javax.lang.model.type.TypeMirror declared = types.get(i).declared();
        leaf.declareAs(declared, context.javaTypes().javaText(declared).orElse("Object"));
      }
      if (parameter != null) {
        leaf.hold(parameter);
      }
      scopes.peek().put(leafKey(name, i), leaf);
      leaves.add(leaf);
    }
    return leaves;
  }

  void declareParameter(String name, Value parameter, LoweringContext context) {
    Variable variable = context.variables().needsVariable(name)
        ? context.ir().variable(name, parameter.type(), parameter) : null;
    Local local = new Local(name, parameter.type(), variable, false, true);
    local.declareAs(parameter.referenceType(), parameter.javaType());
    local.hold(parameter);
    scopes.peek().put(name, local);
  }

  void declareLocal(String name, NumericType type, LoweringContext context) {
    declareLocal(name, type, null, null, context);
  }

  /** A local of an object type ({@code mirror}, named {@code text} in generated code). */
  void declareLocal(String name, NumericType type, javax.lang.model.type.TypeMirror mirror,
      String text, LoweringContext context) {
    Variable variable = context.variables().needsVariable(name)
        ? context.ir().variable(name, type, null) : null;
    Local local = new Local(name, type, variable, false, true);
    if (mirror != null) {
      local.declareAs(mirror, text);
    }
    scopes.peek().put(name, local);
  }

  /**
   * A local of an object type ({@code mirror}, named {@code text} in generated code) backed by
   * a mutable variable whatever its name: a pattern's variable bound in a nested block, which
   * the code after that block reads.
   */
  void declareVariableLocal(String name, NumericType type, javax.lang.model.type.TypeMirror mirror,
      String text, LoweringContext context) {
    Local local = new Local(name, type, context.ir().variable(name, type, null), false, true);
    local.declareAs(mirror, text);
    scopes.peek().put(name, local);
  }

  /**
   * A local of a functional interface type that holds {@code function}: it has no value in the
   * IR, since each call of it becomes the function's code ({@link FunctionValues}).
   */
  void declareFunction(String name, FunctionValues.Known function) {
    Local local = new Local(name, NumericType.OBJECT, null, false, true);
    local.function = function;
    scopes.peek().put(name, local);
  }

  /** The locals and parameters in scope now, by name, the innermost of each name. */
  Map<String, Local> visible() {
    Map<String, Local> visible = new HashMap<>();
    for (Map<String, Local> scope : scopes) {
      scope.forEach(visible::putIfAbsent);
      if (isolated.contains(scope)) {
        // as lookUp: an inlined method's code does not see its caller's locals, and neither
        // does a lambda written in it (its 'x' is the record's component, not the caller's)
        break;
      }
    }
    return visible;
  }

  /**
   * Makes {@code visible} the only locals in scope, as the body of a lambda sees them where it
   * was written; returns what {@link #leave} restores.
   */
  Deque<Map<String, Local>> enter(Map<String, Local> visible) {
    Deque<Map<String, Local>> saved = new ArrayDeque<>(scopes);
    scopes.clear();
    scopes.push(new HashMap<>(visible));
    return saved;
  }

  /** Restores the scopes {@link #enter} saved. */
  void leave(Deque<Map<String, Local>> saved) {
    scopes.clear();
    scopes.addAll(saved);
  }

  /** A local whose declaration was in error: known, so that its uses are not errors too. */
  void declareBroken(String name) {
    scopes.peek().put(name, new Local(name, NumericType.DOUBLE, null, true, false));
  }

  /** A local of a known type whose initializer was in error. */
  void declareBroken(String name, NumericType type) {
    scopes.peek().put(name, new Local(name, type, null, true, true));
  }

  /** The innermost local of that name, or null. */
  Local lookUp(String name) {
    for (Map<String, Local> scope : scopes) {
      Local local = scope.get(name);
      if (local != null) {
        return local;
      }
      if (isolated.contains(scope)) {
        return null;
      }
    }
    return null;
  }
}
