package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The Java types of what the method computes with, and how generated code names types and
 * members: the type of an operand as overload resolution sees it, the IR type of a Java type,
 * the type a declaration's type tree names, the text generated code writes for a type, and the
 * class through which it reaches a static member. Apart from {@link LoweringContext} because
 * these answers depend on the compilation and the method's class only, not on where lowering
 * is in the method; the one state they keep is the Java types of constants lowering made.
 */
final class JavaTypes {
  private final LoweringContext context;
  private final Elements elements;
  private final Types types;
  private final Reachability reachability;
  /** How names resolve in the method's own class, wherever the lowering is now. */
  private final Symbols ownSymbols;
  /** The first segments of the type names generated code writes, which no local may hide. */
  private final Set<String> referencedTypeNames;

  JavaTypes(LoweringContext context, Elements elements, Types types, Reachability reachability,
      Symbols ownSymbols, Set<String> referencedTypeNames) {
    this.context = context;
    this.elements = elements;
    this.types = types;
    this.reachability = reachability;
    this.ownSymbols = ownSymbols;
    this.referencedTypeNames = referencedTypeNames;
  }

  private final Map<Operand, TypeMirror> constantTypes = new java.util.IdentityHashMap<>();

  /**
   * The constants whose Java type is {@code char}, {@code short} or {@code byte} (their type
   * here is {@code int}, as in arithmetic), with that type: a cast {@code (int) 'z'} of one must
   * stay, or a message would print "z", {@code sb.append('z')} calls {@code append(char)}, and
   * {@code f((short) 3)} calls {@code f(short)} where there is one, not {@code f(int)}.
   */
  private final Map<Operand, TypeKind> narrowConstants = new java.util.IdentityHashMap<>();

  Map<Operand, TypeKind> narrowConstants() {
    return narrowConstants;
  }

  /**
   * The Java type of an operand, as overload resolution sees it: a primitive ({@code char},
   * {@code short} or {@code byte} for a constant of that type), one of the arrays ad4j computes with, or a reference type; empty
   * for the result of a {@code void} call.
   */
  Optional<TypeMirror> javaTypeOf(Operand operand) {
    return switch (operand.type()) {
      case INT -> Optional.of(types.getPrimitiveType(
          narrowConstants.getOrDefault(operand, TypeKind.INT)));
      case LONG -> Optional.of(types.getPrimitiveType(TypeKind.LONG));
      case CHAR -> Optional.of(types.getPrimitiveType(TypeKind.CHAR));
      case SHORT -> Optional.of(types.getPrimitiveType(TypeKind.SHORT));
      case BYTE -> Optional.of(types.getPrimitiveType(TypeKind.BYTE));
      case FLOAT -> Optional.of(types.getPrimitiveType(TypeKind.FLOAT));
      case DOUBLE -> Optional.of(types.getPrimitiveType(TypeKind.DOUBLE));
      case BOOLEAN -> Optional.of(types.getPrimitiveType(TypeKind.BOOLEAN));
      case DOUBLE_ARRAY -> Optional.of(types.getArrayType(types.getPrimitiveType(TypeKind.DOUBLE)));
      case INT_ARRAY -> Optional.of(types.getArrayType(types.getPrimitiveType(TypeKind.INT)));
      case FLOAT_ARRAY ->
          Optional.of(types.getArrayType(types.getPrimitiveType(TypeKind.FLOAT)));
      case DOUBLE_MATRIX -> Optional.of(types.getArrayType(
          types.getArrayType(types.getPrimitiveType(TypeKind.DOUBLE))));
      case STRING, OBJECT -> referenceTypeOf(operand);
      case VOID -> Optional.empty();
    };
  }

  /** The Java types of arguments; empty when one has none (a {@code void} call's). */
  Optional<List<TypeMirror>> javaTypesOf(List<Operand> operands) {
    List<TypeMirror> mirrors = new ArrayList<>();
    for (Operand operand : operands) {
      Optional<TypeMirror> mirror = javaTypeOf(operand);
      if (mirror.isEmpty()) {
        return Optional.empty();
      }
      mirrors.add(mirror.get());
    }
    return Optional.of(mirrors);
  }

  /**
   * A constant of a reference type, as generated code writes it ({@code F.Mode.LINEAR},
   * {@code F.NAMES}), with its Java type.
   */
  Operand.Constant referenceConstant(String text, TypeMirror mirror) {
    Operand.Constant constant = new Operand.Constant(ad4j.processor.ir.Expr.atom(text),
        referenceKind(mirror), java.util.OptionalDouble.empty());
    constantTypes.put(constant, mirror);
    return constant;
  }

  /** The Java type of an operand of a reference type ({@code String} or an object). */
  Optional<TypeMirror> referenceTypeOf(Operand operand) {
    if (operand.type() == NumericType.STRING) {
      return Optional.of(elements.getTypeElement("java.lang.String").asType());
    }
    if (operand instanceof Operand.Use use && use.value().referenceType() != null) {
      return Optional.of(use.value().referenceType());
    }
    return Optional.ofNullable(constantTypes.get(operand));
  }

  /** {@code String} for {@code java.lang.String}, else an object. */
  NumericType referenceKind(TypeMirror mirror) {
    return mirror.getKind() != TypeKind.NULL && isString(mirror)
        ? NumericType.STRING : NumericType.OBJECT;
  }

  /**
   * Whether {@code operand} is an object of {@code type} or of a subtype of it, type arguments
   * aside: a {@code List<Double>} is an {@code Iterable}.
   */
  boolean isObjectOf(Operand operand, TypeElement type) {
    return operand.type() == NumericType.OBJECT && referenceTypeOf(operand)
        .map(mirror -> types.isAssignable(types.erasure(mirror), types.erasure(type.asType())))
        .orElse(false);
  }

  boolean isString(TypeMirror mirror) {
    TypeElement string = elements.getTypeElement("java.lang.String");
    return string != null && types.isSameType(mirror, string.asType());
  }

  /**
   * The IR type of a value of Java type {@code mirror}: a primitive ad4j computes with, one of
   * its array types, {@code String}, or an object; empty for {@code char}, {@code short},
   * {@code byte} and type variables.
   */
  Optional<NumericType> irType(TypeMirror mirror) {
    switch (mirror.getKind()) {
      case DECLARED -> {
        return Optional.of(referenceKind(mirror));
      }
      case ARRAY -> {
        javax.lang.model.type.TypeMirror component =
            ((javax.lang.model.type.ArrayType) mirror).getComponentType();
        if (component.getKind() == TypeKind.DOUBLE) {
          return Optional.of(NumericType.DOUBLE_ARRAY);
        }
        if (component.getKind() == TypeKind.INT) {
          return Optional.of(NumericType.INT_ARRAY);
        }
        if (component.getKind() == TypeKind.FLOAT) {
          return Optional.of(NumericType.FLOAT_ARRAY);
        }
        if (component.getKind() == TypeKind.ARRAY && ((javax.lang.model.type.ArrayType) component)
            .getComponentType().getKind() == TypeKind.DOUBLE) {
          return Optional.of(NumericType.DOUBLE_MATRIX);
        }
        return javaText(mirror).isPresent() ? Optional.of(NumericType.OBJECT) : Optional.empty();
      }
      case VOID -> {
        return Optional.of(NumericType.VOID);
      }
      case FLOAT -> {
        return Optional.of(NumericType.FLOAT);
      }
      default -> {
        return variableType(mirror.getKind());
      }
    }
  }

  /**
   * How generated code in the user's package writes the type {@code mirror}: classes by the
   * names {@link #referenceTo} gives, with their type arguments; arrays of any rank. Empty for
   * what it cannot write (type variables, wildcards, intersections).
   */
  Optional<String> javaText(TypeMirror mirror) {
    switch (mirror.getKind()) {
      case ARRAY -> {
        return javaText(((javax.lang.model.type.ArrayType) mirror).getComponentType())
            .map(component -> component + "[]");
      }
      case DECLARED -> {
        javax.lang.model.type.DeclaredType declared =
            (javax.lang.model.type.DeclaredType) mirror;
        if (reachability.ofType((TypeElement) declared.asElement()).isPresent()) {
          return Optional.empty();
        }
        StringBuilder text =
            new StringBuilder(referenceTo((TypeElement) declared.asElement()));
        if (!declared.getTypeArguments().isEmpty()) {
          List<String> arguments = new ArrayList<>();
          for (TypeMirror argument : declared.getTypeArguments()) {
            Optional<String> argumentText = javaText(argument);
            if (argumentText.isEmpty()) {
              return Optional.empty();
            }
            arguments.add(argumentText.get());
          }
          text.append('<').append(String.join(", ", arguments)).append('>');
        }
        return Optional.of(text.toString());
      }
      case WILDCARD -> {
        javax.lang.model.type.WildcardType wildcard = (javax.lang.model.type.WildcardType) mirror;
        if (wildcard.getExtendsBound() != null) {
          return javaText(wildcard.getExtendsBound()).map(bound -> "? extends " + bound);
        }
        if (wildcard.getSuperBound() != null) {
          return javaText(wildcard.getSuperBound()).map(bound -> "? super " + bound);
        }
        return Optional.of("?");
      }
      default -> {
        return mirror.getKind().isPrimitive()
            ? Optional.of(mirror.toString()) : Optional.empty();
      }
    }
  }

  /**
   * The Java type a declaration's type tree names: a primitive, an array, a class (raw when
   * written without type arguments) or a parameterized class; empty when it cannot be resolved
   * (or has wildcards).
   */
  Optional<TypeMirror> typeMirrorOf(Tree tree) {
    if (tree instanceof PrimitiveTypeTree primitive) {
      return Optional.of(types.getPrimitiveType(primitive.getPrimitiveTypeKind()));
    }
    if (tree instanceof com.sun.source.tree.ArrayTypeTree array) {
      return typeMirrorOf(array.getType()).map(types::getArrayType);
    }
    if (tree instanceof com.sun.source.tree.ParameterizedTypeTree parameterized) {
      Optional<TypeElement> raw = parameterized.getType() instanceof
          com.sun.source.tree.ExpressionTree name ? context.symbols().resolveType(name)
              : Optional.empty();
      if (raw.isEmpty()) {
        return Optional.empty();
      }
      List<TypeMirror> arguments = new ArrayList<>();
      for (Tree argument : parameterized.getTypeArguments()) {
        Optional<TypeMirror> mirror = argument instanceof com.sun.source.tree.WildcardTree wildcard
            ? wildcardOf(wildcard) : typeMirrorOf(argument);
        if (mirror.isEmpty() || mirror.get().getKind().isPrimitive()) {
          return Optional.empty();
        }
        arguments.add(mirror.get());
      }
      if (arguments.size() != raw.get().getTypeParameters().size()) {
        return Optional.empty();
      }
      return Optional.of(types.getDeclaredType(raw.get(), arguments.toArray(TypeMirror[]::new)));
    }
    if (tree instanceof com.sun.source.tree.ExpressionTree name && Symbols.isName(name)) {
      return context.symbols().resolveType(name).map(type -> types.erasure(type.asType()));
    }
    return Optional.empty();
  }

  /** The type argument {@code ?}, {@code ? extends B} or {@code ? super B} a tree writes. */
  private Optional<TypeMirror> wildcardOf(com.sun.source.tree.WildcardTree wildcard) {
    if (wildcard.getBound() == null) {
      return Optional.of(types.getWildcardType(null, null));
    }
    Optional<TypeMirror> bound = typeMirrorOf(wildcard.getBound())
        .filter(mirror -> !mirror.getKind().isPrimitive());
    return bound.map(mirror -> wildcard.getKind() == Tree.Kind.SUPER_WILDCARD
        ? types.getWildcardType(null, mirror) : types.getWildcardType(mirror, null));
  }

  /**
   * The type of a value that a member of a type with wildcard arguments returns or holds, as
   * javac's capture conversion lets code use it: {@code get} of a {@code List<? extends
   * Number>} returns {@code ? extends Number}, which a caller holds as a {@code Number}; one of
   * a {@code List<?>} or {@code List<? super Double>} as an {@code Object} (the upper bound
   * capture gives it; a type parameter's own bound is not looked at, so some such calls stay
   * errors where the value is used). Any other type is itself.
   */
  TypeMirror heldAs(TypeMirror mirror) {
    if (mirror instanceof javax.lang.model.type.WildcardType wildcard) {
      return wildcard.getExtendsBound() != null ? heldAs(wildcard.getExtendsBound())
          : elements.getTypeElement("java.lang.Object").asType();
    }
    return mirror;
  }

  /**
   * {@link #heldAs} of {@code mirror}, what a member of {@code receiver} returns or holds, where
   * capture conversion of a receiver with wildcard arguments leaves a captured variable inside
   * a type argument: {@code entrySet()} of a {@code Map<String, ? extends List<Double>>} is a
   * {@code Set<Entry<String, CAP#1>>}, which a {@code Set<Entry<String, ? extends
   * List<Double>>>} cannot hold. Such an argument becomes a wildcard bounded by it (the upward
   * projection, JLS 4.10.5): {@code Set<? extends Entry<String, ? extends List<Double>>>}.
   */
  TypeMirror heldAs(TypeMirror mirror, TypeMirror receiver) {
    TypeMirror held = heldAs(mirror);
    if (!(receiver instanceof javax.lang.model.type.DeclaredType declaredReceiver)
        || declaredReceiver.getTypeArguments().stream()
            .noneMatch(argument -> argument.getKind() == javax.lang.model.type.TypeKind.WILDCARD)
        || !(held instanceof javax.lang.model.type.DeclaredType declared)
        || declared.getTypeArguments().isEmpty()) {
      return held;
    }
    List<? extends TypeMirror> arguments = declared.getTypeArguments();
    TypeMirror[] projected = new TypeMirror[arguments.size()];
    boolean changed = false;
    for (int i = 0; i < projected.length; i++) {
      TypeMirror argument = arguments.get(i);
      if (argument.getKind() == javax.lang.model.type.TypeKind.DECLARED
          && holdsWildcard(argument)) {
        projected[i] = types.getWildcardType(argument, null);
        changed = true;
      } else {
        projected[i] = argument;
      }
    }
    if (!changed) {
      return held;
    }
    TypeElement element = (TypeElement) declared.asElement();
    return declared.getEnclosingType() instanceof javax.lang.model.type.DeclaredType outer
        ? types.getDeclaredType(outer, element, projected)
        : types.getDeclaredType(element, projected);
  }

  private static boolean holdsWildcard(TypeMirror mirror) {
    if (mirror.getKind() == javax.lang.model.type.TypeKind.WILDCARD) {
      return true;
    }
    return mirror instanceof javax.lang.model.type.DeclaredType declared
        && declared.getTypeArguments().stream().anyMatch(JavaTypes::holdsWildcard);
  }

  /** Why generated code cannot name the type {@code mirror}, when {@link #javaText} is empty. */
  String typeProblem(TypeMirror mirror) {
    switch (mirror.getKind()) {
      case ARRAY -> {
        return typeProblem(((javax.lang.model.type.ArrayType) mirror).getComponentType());
      }
      case DECLARED -> {
        javax.lang.model.type.DeclaredType declared =
            (javax.lang.model.type.DeclaredType) mirror;
        Optional<String> unreachable =
            reachability.ofType((TypeElement) declared.asElement());
        if (unreachable.isPresent()) {
          return unreachable.get();
        }
        for (TypeMirror argument : declared.getTypeArguments()) {
          if (javaText(argument).isEmpty()) {
            return typeProblem(argument);
          }
        }
        return "it cannot be named";
      }
      default -> {
        return "'" + mirror + "' is not a type generated code can declare (a type variable or"
            + " a wildcard)";
      }
    }
  }

  boolean isUncheckedException(TypeElement type) {
    TypeElement runtime = elements.getTypeElement("java.lang.RuntimeException");
    TypeMirror mirror = types.erasure(type.asType());
    return runtime != null && types.isSubtype(mirror, types.erasure(runtime.asType()));
  }

  /**
   * The class generated code names to reach {@code member}, which the user's code reaches as a
   * member of {@code qualifier} (the class a name was looked up in, JLS 13.1: {@code Sub} in
   * {@code Sub.EPS}, or the enclosing class inheriting an unqualified {@code helper}): the
   * qualifier, where generated code can reach the member through it, else the class declaring
   * the member. Naming the qualifier keeps javac's choice (a field hidden in a subclass is not
   * the same as the inherited one) and reaches public members of classes generated code cannot
   * name, such as a package-private superclass of another package.
   */
  TypeElement qualifyingType(javax.lang.model.element.Element member, TypeElement qualifier) {
    TypeElement declaring = (TypeElement) member.getEnclosingElement();
    if (qualifier == null || qualifier.equals(declaring)) {
      return declaring;
    }
    return reachableThrough(member, qualifier) ? qualifier : declaring;
  }

  /**
   * Why generated code cannot use {@code member} as a member of {@code qualifier}
   * ({@link #qualifyingType}), if it cannot.
   */
  Optional<String> memberReachability(javax.lang.model.element.Element member,
      TypeElement qualifier) {
    TypeElement declaring = (TypeElement) member.getEnclosingElement();
    return qualifyingType(member, qualifier).equals(declaring)
        ? reachability.ofMember(member) : Optional.empty();
  }

  private boolean reachableThrough(javax.lang.model.element.Element member, TypeElement via) {
    if (reachability.ofType(via).isPresent()
        || member.getModifiers().contains(Modifier.PRIVATE)) {
      return false;
    }
    // protected and package-private members are accessible in generated code only from their
    // own package, which generated code is in only when the user's class is
    return member.getModifiers().contains(Modifier.PUBLIC)
        || elements.getPackageOf(member).getQualifiedName()
            .contentEquals(ownSymbols.packageName());
  }

  /**
   * How generated code in the user's package names {@code type}; remembered as used. The
   * package is the method's own class's, also while code of another package is lowered (a
   * method taking a function inlined from there).
   */
  String referenceTo(TypeElement type) {
    String qualified = type.getQualifiedName().toString();
    String pkg = elements.getPackageOf(type).getQualifiedName().toString();
    String relative = qualified;
    if (pkg.equals(ownSymbols.packageName()) && !pkg.isEmpty()) {
      relative = qualified.substring(pkg.length() + 1);
    } else if (pkg.equals("java.lang")
        && !ownSymbols.packageShadows(type.getSimpleName().toString())) {
      // java.lang's name, unless a class of the user's package hides it
      relative = qualified.substring("java.lang.".length());
    }
    int dot = relative.indexOf('.');
    referencedTypeNames.add(dot < 0 ? relative : relative.substring(0, dot));
    return relative;
  }

  /** The type of a declared local or parameter, if ad4j supports it. */
  static Optional<NumericType> typeOf(Tree type) {
    if (type instanceof com.sun.source.tree.ArrayTypeTree array) {
      Tree element = array.getType();
      if (element instanceof com.sun.source.tree.ArrayTypeTree inner
          && inner.getType() instanceof PrimitiveTypeTree primitive
          && primitive.getPrimitiveTypeKind() == TypeKind.DOUBLE) {
        return Optional.of(NumericType.DOUBLE_MATRIX);
      }
      if (element instanceof PrimitiveTypeTree primitive) {
        return switch (primitive.getPrimitiveTypeKind()) {
          case DOUBLE -> Optional.of(NumericType.DOUBLE_ARRAY);
          case INT -> Optional.of(NumericType.INT_ARRAY);
          case FLOAT -> Optional.of(NumericType.FLOAT_ARRAY);
          default -> Optional.empty();
        };
      }
      return Optional.empty();
    }
    if (type instanceof PrimitiveTypeTree primitive) {
      // a float local computes in float and carries a derivative
      return primitive.getPrimitiveTypeKind() == TypeKind.FLOAT
          ? Optional.of(NumericType.FLOAT) : variableType(primitive.getPrimitiveTypeKind());
    }
    return Optional.empty();
  }

  /**
   * The type of a local or parameter of this kind, if ad4j supports it: {@code double},
   * {@code int}, {@code long}, {@code boolean}, and {@code char}, {@code short} and
   * {@code byte}, which carry no derivative.
   */
  static Optional<NumericType> variableType(TypeKind kind) {
    return switch (kind) {
      case DOUBLE -> Optional.of(NumericType.DOUBLE);
      case INT -> Optional.of(NumericType.INT);
      case LONG -> Optional.of(NumericType.LONG);
      case BOOLEAN -> Optional.of(NumericType.BOOLEAN);
      case CHAR -> Optional.of(NumericType.CHAR);
      case SHORT -> Optional.of(NumericType.SHORT);
      case BYTE -> Optional.of(NumericType.BYTE);
      default -> Optional.empty();
    };
  }
}
