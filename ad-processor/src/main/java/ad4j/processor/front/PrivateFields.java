package ad4j.processor.front;

import ad4j.processor.ir.Expr;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;

/**
 * The {@code private static final} fields of the user's classes that a {@code @Differentiable}
 * method reads ({@code private static final double HALF_LOG_2_PI = 0.5 * Math.log(2 *
 * Math.PI)}, {@code private static final double[] LANCZOS = {...}}, a private {@code Logger}):
 * generated code lives in another class and cannot name them, so the generated class holds a
 * copy of each, read once when that class is initialised, through a private lookup
 * ({@code MethodHandles.privateLookupIn}: the generated class is in the user's package and
 * module). A final field holds the same value in both places; for an array or an object it is
 * the same array or object, whose elements the method reads as it does.
 *
 * <p>The copy has the field's name, prefixed for a field of a nested class by the nested path
 * ({@code Inner_TABLE}), so fields of different classes never share a copy. Fields of generic
 * types are left out (a cast to them would be unchecked). A non-final one, which the method
 * may see change, is read through a {@code VarHandle} where the method reads it
 * ({@link #staticHandleRead}), and so is a final one of a class whose initialisation may reach
 * the generated class before it has set the field ({@link StaticInitialization}).
 */
public final class PrivateFields {
  /**
   * A field the generated class copies, or, for an instance field, holds a handle on; or a
   * private method the generated class calls through a method of its own ({@link #call}).
   *
   * @param owner the class that declares it
   * @param member the field, or the method
   * @param copy the name of the copy (or of the handle, or of the method that calls it) in the
   *     generated class
   * @param handle whether the generated class holds a {@code VarHandle} on the field, read where
   *     the method reads it, rather than a copy of its value
   */
  public record Copy(TypeElement owner, Element member, String copy, boolean handle) {}

  private final LoweringContext context;

  PrivateFields(LoweringContext context) {
    this.context = context;
  }

  /**
   * How generated code reads {@code field}, a private static final field of a class it can
   * name, through the generated class's copy ({@code StatsGrad.HALF_LOG_2_PI}); empty for any
   * other field.
   */
  Optional<Expr> read(VariableElement field) {
    if (!field.getModifiers().contains(Modifier.FINAL)
        || !StaticMembers.isStatic(field) || !(field.getEnclosingElement() instanceof TypeElement owner)
        || !isHidden(field, owner) || !isFound(owner) || !isCopyable(field.asType())) {
      return Optional.empty();
    }
    if (!StaticInitialization.onlyJdkCode(owner, context.trees())) {
      // its initialisation may reach the generated class before the field is set: a copy
      // taken then would keep the field's default value. An atom, as the copy's name is, for
      // any place the copy could be (a call's receiver, an indexed array)
      return handleOf(field, true).map(handle -> Expr.atom("((" + field.asType() + ") " + handle
          + ".get())"));
    }
    String copy = copyName(owner, field.getSimpleName().toString());
    context.copiesPrivateField(new Copy(owner, field, copy, false));
    // the generated class of the method's own class, also in a record's inlined code
    TypeElement own = context.resolution().ownSymbols().enclosingType();
    return Optional.of(Expr.atom(GradClassNames.gradSimpleName(context.elements(), own) + "."
        + copy));
  }

  /**
   * How generated code reads {@code field}, a private static field that is not final, of a
   * class it can name ({@code private static double scale}), where the method reads it:
   * {@code (double) StatsGrad.scaleField.get()}, through a {@code VarHandle} of the generated
   * class found once when that class is initialised, so that each read sees what the field
   * holds then; empty for any other field.
   */
  Optional<Expr> staticHandleRead(VariableElement field) {
    if (field.getModifiers().contains(Modifier.FINAL)) {
      return Optional.empty();
    }
    return handleOf(field, true).map(handle -> Expr.source("(" + field.asType() + ") " + handle
        + ".get()", Expr.unaryPrecedence()));
  }

  /**
   * How generated code reads {@code field}, a private instance field of a class it can name
   * (the receiver's {@code private final double mass}): the name of a {@code VarHandle} of the
   * generated class ({@code SpringGrad.massField}), found once when that class is initialised;
   * empty for any other field.
   */
  Optional<String> handle(VariableElement field) {
    return handleOf(field, false);
  }

  /**
   * The qualified name of the generated class's {@code VarHandle} on {@code field}, a private
   * field, static or not as {@code isStatic} says, of a class generated code can name (the
   * handle is noted for {@code PrivateFieldCopies}); empty for any other field.
   */
  private Optional<String> handleOf(VariableElement field, boolean isStatic) {
    if (StaticMembers.isStatic(field) != isStatic
        || !(field.getEnclosingElement() instanceof TypeElement owner)
        || !isHidden(field, owner) || !isFound(owner) || !isCopyable(field.asType())) {
      return Optional.empty();
    }
    String handle = copyName(owner, field.getSimpleName() + "Field");
    context.copiesPrivateField(new Copy(owner, field, handle, true));
    // the generated class of the method's own class, also in a record's inlined code
    TypeElement own = context.resolution().ownSymbols().enclosingType();
    return Optional.of(GradClassNames.gradSimpleName(context.elements(), own) + "." + handle);
  }

  /**
   * The method generated code calls for {@code method}, a private method that is not generic of
   * a class it can name, run as written ({@code private static int order(int n)}, an argument
   * check): {@code StatsGrad.order}, a private static method of the generated class with the
   * same parameters (an instance method's receiver first), which calls {@code method} through
   * a {@code MethodHandle} found once when that class is initialised, exactly, and throws what
   * it throws; empty for any other method.
   */
  Optional<String> call(ExecutableElement method) {
    if (!method.getModifiers().contains(Modifier.PRIVATE)
        || !method.getTypeParameters().isEmpty()
        || !(method.getEnclosingElement() instanceof TypeElement owner)
        || context.reachability().ofType(owner).isPresent()
        || !(method.getReturnType().getKind() == javax.lang.model.type.TypeKind.VOID
            || isCopyable(method.getReturnType()))
        || !method.getParameters().stream().allMatch(p -> isCopyable(p.asType()))
        || !method.getThrownTypes().stream().allMatch(PrivateFields::isCopyable)) {
      return Optional.empty();
    }
    String copy = copyName(owner, method.getSimpleName().toString());
    // overloads of one name get one method each: the position among them tells them apart
    java.util.List<ExecutableElement> sameName = javax.lang.model.util.ElementFilter
        .methodsIn(owner.getEnclosedElements()).stream()
        .filter(m -> m.getSimpleName().equals(method.getSimpleName())).toList();
    if (sameName.size() > 1) {
      copy = copy + "_" + (sameName.indexOf(method) + 1);
    }
    context.copiesPrivateField(new Copy(owner, method, copy, false));
    // the generated class of the method's own class, also in a record's inlined code
    TypeElement own = context.resolution().ownSymbols().enclosingType();
    return Optional.of(GradClassNames.gradSimpleName(context.elements(), own) + "." + copy);
  }

  /**
   * The name of the generated class's member for {@code name} of {@code owner}: {@code name},
   * prefixed by the nested path below the top-level class ({@code Inner_TABLE}), and for a
   * class in another top-level class than the method's (a method taking a function inlined
   * from another file) by that class's qualified name ({@code com_example_Rules_TABLE}), so
   * that members of different classes never share a name, in any method of the class.
   */
  private String copyName(TypeElement owner, String name) {
    TypeElement top = topLevel(owner);
    String path = nestedPath(owner);
    if (!top.equals(topLevel(context.resolution().ownSymbols().enclosingType()))) {
      String qualified = top.getQualifiedName().toString();
      path = path.isEmpty() ? qualified : qualified + "." + path;
    }
    return path.isEmpty() ? name : path.replace('.', '_') + "_" + name;
  }

  /** Whether generated code cannot name {@code field}: it is private, or its class is. */
  private boolean isHidden(VariableElement field, TypeElement owner) {
    return field.getModifiers().contains(Modifier.PRIVATE)
        || context.reachability().ofType(owner).isPresent();
  }

  /**
   * Whether the generated class finds {@code owner} for a private lookup: it names the class,
   * or the class is nested, private or in a private class, in the top-level class of the
   * method's own class, which it names; a private lookup there finds its nestmates by their
   * binary names ({@code PrivateFieldCopies}).
   */
  private boolean isFound(TypeElement owner) {
    if (context.reachability().ofType(owner).isEmpty()) {
      return true;
    }
    TypeElement top = topLevel(owner);
    return top != owner && top.equals(topLevel(context.resolution().ownSymbols().enclosingType()))
        && context.reachability().ofType(top).isEmpty();
  }

  /** The top-level class around {@code type}, or {@code type}. */
  public static TypeElement topLevel(TypeElement type) {
    TypeElement top = type;
    while (top.getEnclosingElement() instanceof TypeElement outer) {
      top = outer;
    }
    return top;
  }

  /** {@code Inner} for {@code Outer.Inner}: the path below the top-level class. */
  private static String nestedPath(TypeElement owner) {
    StringBuilder path = new StringBuilder();
    for (TypeElement t = owner; t.getEnclosingElement() instanceof TypeElement outer;
        t = outer) {
      path.insert(0, path.length() == 0 ? t.getSimpleName() : t.getSimpleName() + ".");
    }
    return path.toString();
  }

  /** Primitives, arrays of them, and classes that are not generic. */
  private static boolean isCopyable(TypeMirror type) {
    if (type.getKind().isPrimitive()) {
      return true;
    }
    if (type instanceof ArrayType array) {
      return isCopyable(array.getComponentType());
    }
    return type instanceof DeclaredType declared && declared.getTypeArguments().isEmpty()
        && ((TypeElement) declared.asElement()).getTypeParameters().isEmpty();
  }
}
