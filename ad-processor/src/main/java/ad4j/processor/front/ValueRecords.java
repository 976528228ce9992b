package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/**
 * Which records are <em>value records</em> (DESIGN.md, part 3): records whose components carry
 * derivatives, which ad4j flattens into their primitive components, depth first ("leaves":
 * {@code record Vec3(double x, double y, double z)} has three; {@code record Body(Vec3 pos,
 * double mass)} four, {@code pos.x} first). Built so far: records (and {@link ValueClasses value
 * classes}) whose components are {@code double}s, {@code float}s, {@code double[]}s (which carry
 * derivatives, an array one per element), {@code int}s, {@code long}s, {@code boolean}s,
 * {@code String}s, objects and arrays of neither {@code double}s nor {@code float}s (which carry
 * none, kept beside them as leaves that take no slot) or value records, at least one of them
 * carrying a derivative. A record that mixes such components with {@code float[]}s, higher
 * ranks of {@code double} arrays, {@code char}s, {@code short}s or {@code byte}s is {@link
 * #isMixed mixed}: not built yet, an error where it would carry derivatives; a record with no
 * derivative-carrying component is an ordinary object.
 */
public final class ValueRecords {
  private ValueRecords() {}

  /**
   * The value record of {@code parameter}, when generated members take it flattened: a value
   * record parameter that is not {@code @NoDerivative}.
   */
  public static Optional<TypeElement> flattened(VariableElement parameter) {
    return ActiveParameters.isMarkedNoDerivative(parameter) ? Optional.empty()
        : valueRecord(parameter.asType());
  }

  /** The record type {@code type} names, when it is a value record. */
  public static Optional<TypeElement> valueRecord(TypeMirror type) {
    return valueRecord(type, new java.util.HashSet<>());
  }

  /**
   * As {@link #valueRecord(TypeMirror)}; {@code enclosing}: the records whose components are
   * being looked at, which a component's type may not be (a record that holds itself, a
   * {@code Node(double v, Node next)}, has no flat layout).
   */
  private static Optional<TypeElement> valueRecord(TypeMirror type,
      java.util.Set<TypeElement> enclosing) {
    if (!(type instanceof DeclaredType declared)
        || !(declared.asElement() instanceof TypeElement element)
        || !isRecordLike(element) || !element.getTypeParameters().isEmpty()
        || !enclosing.add(element)) {
      return Optional.empty();
    }
    try {
      List<Component> components = components(element);
      boolean carries = false;
      for (Component component : components) {
        TypeMirror componentType = component.type();
        if (valueRecord(componentType, enclosing).isPresent()) {
          carries = true;
          continue;
        }
        Optional<NumericType> leaf = leafType(componentType);
        if (leaf.isEmpty()) {
          return Optional.empty();
        }
        carries |= leaf.get().isFloatingPoint() || leaf.get() == NumericType.DOUBLE_ARRAY;
      }
      // a record of ints and booleans only (or of no components) is an ordinary object
      return carries ? Optional.of(element) : Optional.empty();
    } finally {
      enclosing.remove(element);
    }
  }

  /**
   * The type of a leaf of a value record's component of type {@code type}: a {@code double}
   * or {@code float} carries a derivative (a {@code float} its value in float, its derivative
   * in double), and so do a {@code double[]}'s elements; an {@code int}, {@code long},
   * {@code boolean}, {@code String}, object or array of neither {@code double}s nor
   * {@code float}s none, and is kept beside them (passed along unchanged). Empty for a record
   * that may carry derivatives (a value record is not a leaf), a {@code float[]}, a
   * {@code double[][]}, a {@code char}, {@code short}, {@code byte} or a type variable.
   */
  static Optional<NumericType> leafType(TypeMirror type) {
    return switch (type.getKind()) {
      case DOUBLE -> Optional.of(NumericType.DOUBLE);
      case FLOAT -> Optional.of(NumericType.FLOAT);
      case INT -> Optional.of(NumericType.INT);
      case LONG -> Optional.of(NumericType.LONG);
      case BOOLEAN -> Optional.of(NumericType.BOOLEAN);
      case ARRAY -> arrayLeafType((javax.lang.model.type.ArrayType) type);
      case DECLARED -> mayCarry(type, new java.util.HashSet<>()) ? Optional.empty()
          : Optional.of(((TypeElement) ((DeclaredType) type).asElement()).getQualifiedName()
              .contentEquals("java.lang.String") ? NumericType.STRING : NumericType.OBJECT);
      default -> Optional.empty();
    };
  }

  /**
   * The type of an array component's leaf: a {@code double[]} carries derivatives, one slot per
   * element; an {@code int[]} or an array of objects none; empty for other arrays of
   * {@code double}s or {@code float}s ({@code float[]}, {@code double[][]}), not built yet.
   */
  private static Optional<NumericType> arrayLeafType(javax.lang.model.type.ArrayType type) {
    TypeMirror element = type.getComponentType();
    if (element.getKind() == TypeKind.DOUBLE) {
      return Optional.of(NumericType.DOUBLE_ARRAY);
    }
    if (element.getKind() == TypeKind.INT) {
      return Optional.of(NumericType.INT_ARRAY);
    }
    while (element instanceof javax.lang.model.type.ArrayType inner) {
      element = inner.getComponentType();
    }
    return element.getKind() == TypeKind.DOUBLE || element.getKind() == TypeKind.FLOAT
        ? Optional.empty() : Optional.of(NumericType.OBJECT);
  }

  /**
   * Whether {@code type} is a record with a {@code double}, {@code float} or derivative-carrying
   * array among its components, or among those of records it holds ({@code visited}: the records
   * looked at, once each): a value record, or one ad4j cannot flatten, never an object to pass
   * along as a component that carries nothing.
   */
  private static boolean mayCarry(TypeMirror type, java.util.Set<TypeElement> visited) {
    if (!(type instanceof DeclaredType declared)
        || !(declared.asElement() instanceof TypeElement element)
        || !isRecordLike(element) || !visited.add(element)) {
      return false;
    }
    for (Component component : components(element)) {
      TypeMirror componentType = component.type();
      if (ActiveParameters.isDifferentiableType(componentType)
          || mayCarry(componentType, visited)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a method may return value record {@code record} (a vector function over its
   * derivative-carrying leaves, in a {@code double[]}): its leaves are {@code double}s and
   * {@code float}s, or carry no derivative ({@code int}, {@code String}, objects: the record's
   * own members pass them along, {@code front/Lowering.lowerRecordReturn}); a {@code double[]}
   * leaf, whose length is the method's to choose, is not returned yet.
   */
  public static boolean isReturnable(TypeElement record) {
    return leaves(record).stream()
        .allMatch(leaf -> leaf.type().isFloatingPoint() || !leaf.active());
  }

  /**
   * The leaves of value record {@code record} that carry derivatives, depth first: those of the
   * {@code double[]} a method returning the record gives (its value, its tangents, its seed).
   */
  public static List<Leaf> activeLeaves(TypeElement record) {
    return leaves(record).stream().filter(Leaf::active).toList();
  }

  /**
   * Where a leaf of a returned value record that carries no derivative comes from, the same
   * object or number in every member: parameter {@code parameter} of the method's members
   * (a leaf of a record parameter, a plain one), or constant Java text {@code constant} (when
   * {@code parameter} is negative).
   */
  public record Carried(int parameter, String constant) {
    /** What separates the leaves in {@link #encode}: no literal holds it as it is. */
    private static final String SEPARATOR = "\n";

    /**
     * {@code carried} as one string, a line per leaf: the parameter's index, or {@code =} and
     * the constant's text (a literal, which holds no line break as it is written).
     */
    public static String encode(List<Carried> carried) {
      return String.join(SEPARATOR, carried.stream()
          .map(c -> c.parameter() >= 0 ? Integer.toString(c.parameter()) : "=" + c.constant())
          .toList());
    }

    /** The leaves {@link #encode} wrote; empty when {@code text} is not such a string. */
    public static Optional<List<Carried>> decode(String text) {
      List<Carried> carried = new java.util.ArrayList<>();
      for (String line : text.split(SEPARATOR, -1)) {
        if (line.startsWith("=")) {
          carried.add(new Carried(-1, line.substring(1)));
        } else if (line.matches("[0-9]+")) {
          carried.add(new Carried(Integer.parseInt(line), null));
        } else {
          return Optional.empty();
        }
      }
      return Optional.of(carried);
    }
  }

  /**
   * Whether {@code type} is a record with a component that carries derivatives beside others:
   * not a value record that ad4j can flatten yet, and not an object it may treat as one.
   */
  public static boolean isMixed(TypeMirror type) {
    return isMixed(type, new java.util.HashSet<>());
  }

  private static boolean isMixed(TypeMirror type, java.util.Set<TypeElement> enclosing) {
    if (!(type instanceof DeclaredType declared)
        || !(declared.asElement() instanceof TypeElement element)
        || !isRecordLike(element) || valueRecord(type).isPresent()
        || !enclosing.add(element)) {
      return false;
    }
    try {
      for (Component component : components(element)) {
        TypeMirror componentType = component.type();
        if (ActiveParameters.isDifferentiableType(componentType)
            || componentType.getKind() == TypeKind.FLOAT
            || valueRecord(componentType).isPresent() || isMixed(componentType, enclosing)) {
          return true;
        }
      }
      return false;
    } finally {
      enclosing.remove(element);
    }
  }

  /**
   * For a {@link #isMixed mixed} record, the component that keeps it from being a value record,
   * as the errors name it ({@code component 'c' of type 'double[]'}, of a nested record's too).
   */
  public static String obstacle(TypeMirror type) {
    return obstacle(type, new java.util.HashSet<>()).orElse("a component");
  }

  private static Optional<String> obstacle(TypeMirror type, java.util.Set<TypeElement> visited) {
    if (!(type instanceof DeclaredType declared)
        || !(declared.asElement() instanceof TypeElement element)
        || !isRecordLike(element) || !visited.add(element)) {
      return Optional.empty();
    }
    if (!element.getTypeParameters().isEmpty()) {
      // a value record's type is written as it is, and generated members are not generic
      return Optional.of("'" + element.getSimpleName() + "' is generic, with type parameter"
          + (element.getTypeParameters().size() > 1 ? "s " : " ")
          + element.getTypeParameters().stream().map(p -> "'" + p.getSimpleName() + "'")
              .collect(java.util.stream.Collectors.joining(", "))
          + ", and ad4j flattens records that are not");
    }
    for (Component component : components(element)) {
      TypeMirror componentType = component.type();
      if (valueRecord(componentType).isEmpty() && leafType(componentType).isEmpty()) {
        return obstacle(componentType, visited).or(() -> Optional.of("component '"
            + component.name() + "' of type '" + componentType + "'"));
      }
    }
    return Optional.empty();
  }

  /**
   * A component of a value record or class: its name (a record component's, a field's), its
   * type, and the accessor that reads it (the record's accessor, the class's getter).
   */
  public record Component(String name, TypeMirror type, String accessor) {}

  /**
   * The components of record or {@link ValueClasses value class} {@code record}, in declaration
   * order; none for any other type.
   */
  public static List<Component> components(TypeElement record) {
    if (record.getKind() == ElementKind.RECORD) {
      return ElementFilter.recordComponentsIn(record.getEnclosedElements()).stream()
          .map(c -> new Component(c.getSimpleName().toString(), c.getAccessor().getReturnType(),
              c.getSimpleName().toString()))
          .toList();
    }
    return ValueClasses.fields(record).map(fields -> fields.stream()
        .map(f -> new Component(f.field().getSimpleName().toString(), f.field().asType(),
            f.getter()))
        .toList()).orElse(List.of());
  }

  /** Whether {@code element} is a record or a {@link ValueClasses value class}. */
  private static boolean isRecordLike(TypeElement element) {
    return element.getKind() == ElementKind.RECORD || ValueClasses.isValueClass(element);
  }

  /**
   * A leaf of a value record: a value of {@code type} reached through {@code path}, the
   * components from the record down ({@code [pos, x]}), which {@code getters} read ({@code
   * [pos, x]} for records, a value class's getters for its fields); {@code declared}: the
   * component's Java type (what generated code names a {@code String} or object leaf by).
   */
  public record Leaf(List<String> path, List<String> getters, NumericType type,
      TypeMirror declared) {
    public Leaf {
      path = List.copyOf(path);
      getters = List.copyOf(getters);
    }

    /**
     * Whether the leaf carries a derivative: a {@code double} or {@code float}, or a
     * {@code double[]}, whose elements do (one slot each, in order).
     */
    public boolean active() {
      return type.isFloatingPoint() || type == NumericType.DOUBLE_ARRAY;
    }

    /** {@code pos().x()}: how Java reads the leaf from the record. */
    public String accessors() {
      return String.join("().", getters) + "()";
    }

    /** {@code PosX}: the leaf's part of a generated name, after the record's name. */
    public String suffix() {
      StringBuilder suffix = new StringBuilder();
      for (String part : path) {
        suffix.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
      }
      return suffix.toString();
    }
  }

  /**
   * A value record parameter that the method's members take flattened, one {@code double} per
   * leaf: the public members take the record itself ({@code write/RecordAdapters}).
   *
   * @param name the parameter's name
   * @param type the record's type
   * @param flatNames the names of the flat parameters, one per leaf
   * @param leaves the leaves, in the same order
   */
  public record FlatParameter(String name, TypeMirror type, List<String> flatNames,
      List<Leaf> leaves) {
    public FlatParameter {
      flatNames = List.copyOf(flatNames);
      leaves = List.copyOf(leaves);
    }
  }

  /**
   * The name of the private member of a generated class that gives the leaves of a record of
   * value record {@code record} as a {@code double[]} ({@code leavesOfOrbits_Vec3}): what the
   * code of callers of a method returning the record makes of the method's value.
   */
  public static String leavesMember(TypeElement record) {
    StringBuilder name = new StringBuilder();
    for (javax.lang.model.element.Element at = record;
        at instanceof TypeElement type; at = at.getEnclosingElement()) {
      name.insert(0, name.length() == 0 ? type.getSimpleName() : type.getSimpleName() + "_");
    }
    return "leavesOf" + name;
  }

  /** The leaves of value record {@code record}, depth first. */
  public static List<Leaf> leaves(TypeElement record) {
    List<Leaf> leaves = new ArrayList<>();
    collect(record, new ArrayList<>(), new ArrayList<>(), leaves);
    return leaves;
  }

  private static void collect(TypeElement record, List<String> path, List<String> getters,
      List<Leaf> into) {
    for (Component component : components(record)) {
      path.add(component.name());
      getters.add(component.accessor());
      Optional<TypeElement> nested = valueRecord(component.type());
      if (nested.isPresent()) {
        collect(nested.get(), path, getters, into);
      } else {
        TypeMirror type = component.type();
        into.add(new Leaf(path, getters, leafType(type).orElseThrow(), type));
      }
      path.remove(path.size() - 1);
      getters.remove(getters.size() - 1);
    }
  }

  /**
   * The first leaf and the number of leaves of component {@code name} of {@code record};
   * empty when it has no such component.
   */
  static Optional<int[]> range(TypeElement record, String name) {
    int first = 0;
    for (Component component : components(record)) {
      Optional<TypeElement> nested = valueRecord(component.type());
      int size = nested.map(n -> leaves(n).size()).orElse(1);
      if (component.name().contentEquals(name)) {
        return Optional.of(new int[] {first, size});
      }
      first += size;
    }
    return Optional.empty();
  }

  /** The value record of component {@code name} of {@code record}, when it is one. */
  static Optional<TypeElement> componentRecord(TypeElement record, String name) {
    for (Component component : components(record)) {
      if (component.name().contentEquals(name)) {
        return valueRecord(component.type());
      }
    }
    return Optional.empty();
  }
}
