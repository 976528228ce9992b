package ad4j.processor.front;

import ad4j.processor.ir.Expr;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import javax.lang.model.type.TypeKind;

/**
 * Java's conversions between the types of values: whether assignment conversion takes a value to
 * a variable's type, a value converted or widened to another type (a constant as text with a
 * cast, anything else as an instruction), a cast expression, and which constants are of Java
 * type {@code char}, {@code short} or {@code byte}, which the IR's {@code int} does not tell
 * apart but overload resolution does.
 *
 * <p>Apart from {@link ExpressionLowering} because every lowering that stores, passes or returns
 * a value asks these questions, and their rules are Java's, not those of any one kind of
 * expression.
 */
final class Conversions {
  private final LoweringContext context;
  private final Diagnostics diagnostics;
  private final ExpressionLowering expressions;
  /**
   * The constants whose Java type is {@code char}, {@code short} or {@code byte}:
   * {@link JavaTypes#narrowConstants}.
   */
  private final Map<Operand, TypeKind> narrowConstants;

  Conversions(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.diagnostics = context.diagnostics();
    this.expressions = expressions;
    this.narrowConstants = context.javaTypes().narrowConstants();
  }

  /** Whether Java's assignment conversion takes {@code value} to {@code target}. */
  boolean assignable(Operand value, NumericType target, Tree at) {
    if (value.type().widensTo(target) || narrowsAsConstant(value, target)) {
      return true;
    }
    if (target.isArray() && at instanceof ExpressionTree expression
        && ExpressionLowering.isNull(expression)) {
      unsupported(at, "'null' cannot be assigned to a '" + target.keyword() + "' variable: a"
          + " differentiable method binds each array variable to an array; declare it where"
          + " its array is made, or with no initializer and assign it once where it is"
          + " declared");
      return false;
    }
    unsupported(at, "a value of type '" + value.type().keyword() + "' cannot be assigned to '"
        + target.keyword() + "'");
    return false;
  }

  /**
   * Whether {@code value} is a constant that Java's assignment conversion narrows to the
   * {@code byte}, {@code short} or {@code char} {@code target} (JLS 5.2): an {@code int} constant
   * whose value that type holds ({@code char c = 'a'}, {@code byte b = 10}).
   */
  private boolean narrowsAsConstant(Operand value, NumericType target) {
    if (!target.isNarrow() || !(value instanceof Operand.Constant constant)
        || constant.type() != NumericType.INT) {
      return false;
    }
    TypeKind kind = narrowConstants.get(constant);
    if (kind != null && kind.name().equals(target.name())) {
      return true;
    }
    if (constant.knownValue().isEmpty()) {
      return false;
    }
    double known = constant.knownValue().getAsDouble();
    return switch (target) {
      case BYTE -> known == (byte) known;
      case SHORT -> known == (short) known;
      default -> known == (char) known;
    };
  }

  /** {@code (target) value}: an instruction when the types differ and the value is not text. */
  Operand convert(Operand value, NumericType target) {
    if (value.type() == target) {
      return value;
    }
    if (value instanceof Operand.Constant constant) {
      if (value.type().widensTo(target)) {
        return constant; // Java widens a constant where it is assigned
      }
      if (target.isNarrow()) {
        return narrowConstant(constant, target);
      }
      return new Operand.Constant(castText(constant.expression(), target), target,
          OptionalDouble.empty());
    }
    boolean active = value.isActive() && target.isFloatingPoint();
    return context.emit(Operation.cast(target), List.of(value), target, active);
  }

  /**
   * {@code constant} as a constant of the {@code byte}, {@code short} or {@code char} type
   * {@code target}: as written when that is its Java type ({@code 'a'} for a {@code char}),
   * else with a cast, so that it prints, concatenates and chooses overloads as the narrow value
   * does ({@code (char) 97}, {@code (byte) 10}).
   */
  private Operand.Constant narrowConstant(Operand.Constant constant, NumericType target) {
    TypeKind kind = narrowConstants.get(constant);
    boolean asWritten = kind != null && kind.name().equals(target.name());
    OptionalDouble known = OptionalDouble.empty();
    if (constant.knownValue().isPresent() && constant.type().isIntegral()) {
      long whole = (long) constant.knownValue().getAsDouble();
      known = OptionalDouble.of(switch (target) {
        case BYTE -> (byte) whole;
        case SHORT -> (short) whole;
        default -> (char) whole;
      });
    }
    return new Operand.Constant(asWritten ? constant.expression()
        : castText(constant.expression(), target), target, known);
  }

  /**
   * Marks {@code constant} as of Java type {@code kind} when that is {@code char}, {@code short}
   * or {@code byte}, which overload resolution tells from {@code int}.
   */
  Operand.Constant typedAs(TypeKind kind, Operand.Constant constant) {
    if (kind == TypeKind.CHAR || kind == TypeKind.SHORT || kind == TypeKind.BYTE) {
      narrowConstants.put(constant, kind);
    }
    return constant;
  }

  /**
   * The Java type of {@code operand} when it is {@code char}, {@code short} or {@code byte};
   * else null.
   */
  TypeKind narrowTypeOf(Operand operand) {
    return operand.type().isNarrow() ? TypeKind.valueOf(operand.type().name())
        : narrowConstants.get(operand);
  }

  /**
   * Whether Java's assignment conversion takes {@code value} to a local of the reference type
   * {@code target}: a string or an object whose type is assignable to it.
   */
  boolean assignableReference(Operand value, javax.lang.model.type.TypeMirror target, Tree at) {
    Optional<javax.lang.model.type.TypeMirror> type = context.javaTypes().referenceTypeOf(value);
    if (value.type().isReference() && type.isPresent()
        && context.types().isAssignable(type.get(), target)) {
      return true;
    }
    Optional<javax.lang.model.type.TypeMirror> box = boxOf(value.type());
    if (box.isPresent() && context.types().isAssignable(box.get(), target)) {
      // javac boxes it; ad4j keeps numbers in primitive locals only, which is what to say
      unsupported(at, "a value of type '" + value.type().keyword()
          + "' boxed into a local of type '" + target + "' is not supported: ad4j computes"
          + " with primitive values, and a box (an object) carries no derivative; declare the"
          + " local '" + value.type().keyword() + "'");
      return false;
    }
    unsupported(at, "a value of type '" + type.map(Object::toString)
        .orElse(value.type().keyword()) + "' cannot be assigned to '" + target + "'");
    return false;
  }

  /** The box of a primitive {@code type} ({@code Double} of {@code double}); else empty. */
  private Optional<javax.lang.model.type.TypeMirror> boxOf(NumericType type) {
    TypeKind kind = switch (type) {
      case DOUBLE -> TypeKind.DOUBLE;
      case FLOAT -> TypeKind.FLOAT;
      case INT -> TypeKind.INT;
      case LONG -> TypeKind.LONG;
      case BOOLEAN -> TypeKind.BOOLEAN;
      case CHAR -> TypeKind.CHAR;
      case SHORT -> TypeKind.SHORT;
      case BYTE -> TypeKind.BYTE;
      default -> null;
    };
    return kind == null ? Optional.empty() : Optional.of(context.types()
        .boxedClass(context.types().getPrimitiveType(kind)).asType());
  }

  Operand cast(TypeCastTree cast) {
    Operand operand = expressions.lower(cast.getExpression());
    if (operand == null) {
      return null;
    }
    Tree type = cast.getType();
    if (type instanceof PrimitiveTypeTree) {
      operand = expressions.unboxing().number(operand); // (double) xs.get(i)
    }
    if (!(type instanceof PrimitiveTypeTree primitive)) {
      unsupported(cast, "cast to '" + type + "' is not supported: only casts to primitive"
          + " types are");
      return null;
    }
    TypeKind kind = primitive.getPrimitiveTypeKind();
    Optional<NumericType> target = ConstantText.valueType(kind);
    if (target.isEmpty() || (target.get() == NumericType.BOOLEAN)
        != (operand.type() == NumericType.BOOLEAN)) {
      unsupported(cast, "cast of '" + operand.type().keyword() + "' to '" + type
          + "' is not supported");
      return null;
    }
    boolean narrowPrimitive = kind == TypeKind.CHAR || kind == TypeKind.SHORT
        || kind == TypeKind.BYTE;
    if (operand instanceof Operand.Constant constant) {
      if (constant.type() == target.get() && !narrowPrimitive
          && !narrowConstants.containsKey(constant)) {
        return constant; // a redundant cast would draw a -Xlint:cast warning in generated code
      }
      OptionalDouble known = target.get() == NumericType.DOUBLE ? constant.knownValue()
          : OptionalDouble.empty();
      return typedAs(kind, new Operand.Constant(
          castText(constant.expression(), type.toString()), target.get(), known));
    }
    if (narrowPrimitive) {
      // the value has the narrow type from here on: it prints, concatenates and chooses
      // overloads as one (a char as a character)
      NumericType narrow = JavaTypes.variableType(kind).orElseThrow();
      return operand.type() == narrow ? operand
          : context.emit(Operation.cast(narrow), List.of(operand), narrow, false);
    }
    if (operand.type() == target.get()) {
      return operand;
    }
    // A cast of a differentiable double to int or long is constant between integers; one to
    // float rounds the value and passes the derivative on (DerivativeRules).
    boolean active = operand.isActive() && target.get().isFloatingPoint();
    return context.emit(Operation.cast(target.get()), List.of(operand), target.get(), active);
  }

  /**
   * {@code value} as a value of {@code type}, a constant included (written with a cast): what a
   * call's result or a bound parameter is, where Java has converted it already.
   */
  Operand widened(Operand value, NumericType type) {
    return literalAs(convert(value, type), type);
  }

  static Operand literalAs(Operand operand, NumericType type) {
    if (operand instanceof Operand.Constant constant && constant.type() != type
        && type != NumericType.BOOLEAN) {
      return new Operand.Constant(castText(constant.expression(), type), type,
          type == NumericType.DOUBLE ? constant.knownValue() : OptionalDouble.empty());
    }
    return operand;
  }

  /**
   * An {@code int} or {@code long} operand of {@code float} arithmetic as Java's binary numeric
   * promotion makes it, rounded to {@code float} (JLS 5.6): the partial derivative that reads it
   * must read the rounded number ({@code x * n} with {@code n = 16777217} multiplies by
   * {@code 16777216f}), not the integer widened to {@code double}. A constant that a
   * {@code float} holds exactly stays as written.
   */
  Operand asFloatOperand(Operand operand) {
    if (!operand.type().isIntegral()) {
      return operand;
    }
    if (operand instanceof Operand.Constant constant) {
      OptionalDouble known = constant.knownValue();
      if (known.isPresent() && (double) (float) known.getAsDouble() == known.getAsDouble()) {
        return constant;
      }
      // past 2^53 the known double is itself rounded, and rounding it again to float may
      // differ from Java's one rounding of the long: then the partials read the cast's text
      OptionalDouble rounded = known.isPresent() && Math.abs(known.getAsDouble()) <= 0x1p53
          ? OptionalDouble.of((float) known.getAsDouble()) : OptionalDouble.empty();
      return new Operand.Constant(castText(constant.expression(), NumericType.FLOAT),
          NumericType.FLOAT, rounded);
    }
    return convert(operand, NumericType.FLOAT);
  }

  private static Expr castText(Expr expression, NumericType type) {
    return castText(expression, type.keyword());
  }

  private static Expr castText(Expr expression, String type) {
    return expression.castTo(type);
  }


  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
