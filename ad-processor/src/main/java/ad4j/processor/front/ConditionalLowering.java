package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import javax.lang.model.type.TypeKind;

/**
 * Lowers the expressions that evaluate an operand only when Java would: {@code a && b},
 * {@code a || b} and {@code c ? a : b} (chains of them level by level). Apart from {@link
 * ExpressionLowering} because these are where an expression becomes branches.
 */
final class ConditionalLowering {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final IrBuilder ir;
  private final ConstantExpressions constants;

  ConditionalLowering(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
    this.ir = context.ir();
    this.constants = new ConstantExpressions(context);
  }

  /** {@code a && b}, {@code a || b}: b is evaluated only when Java would evaluate it. */
  Operand shortCircuit(BinaryTree binary) {
    String operator = OperatorLowering.operatorOf(binary.getKind());
    Operand left = expressions.lower(binary.getLeftOperand());
    ir.openBlock();
    Operand right = expressions.lower(binary.getRightOperand());
    Block rightBlock = ir.closeBlock();
    if (left == null || right == null) {
      return null;
    }
    if (left.type() != NumericType.BOOLEAN || right.type() != NumericType.BOOLEAN) {
      unsupported(binary, "operator '" + operator + "' needs boolean operands");
      return null;
    }
    if (rightBlock.statements().isEmpty()) {
      return expressions.operators()
          .combine(Operation.infix(operator), left, right, NumericType.BOOLEAN);
    }
    Variable result = ir.variable("condition", NumericType.BOOLEAN, null);
    ir.add(new Declare(result, left, context.line()));
    Block evaluateRight = ExpressionLowering.append(rightBlock,
        new Store(result, right, context.line()));
    Block empty = new Block(List.of());
    boolean isAnd = operator.equals("&&");
    ir.add(new If(ir.nextStatementId(), left, isAnd ? evaluateRight : empty,
        isAnd ? empty : evaluateRight, context.line()));
    return new Operand.Use(context.readVariable(result));
  }

  /**
   * {@code c ? a : b}. When neither branch computes anything, a select instruction keeps the
   * code straight-line; otherwise a branch evaluates only the chosen operand, as Java does.
   *
   * <p>A chain {@code c0 ? a0 : c1 ? a1 : ... : z} is lowered level by level in a loop, not by
   * recursion, and every level lowered as a branch stores into the one result variable of the
   * outermost: the else block of each branch is then only the computation of the next
   * condition and the next branch, which is written as {@code else if}. (A variable of its own
   * per level, assigned to the outer one after the inner branch, nested the chain as deep as
   * it is long and made its code quadratic in its length.)
   */
  Operand conditional(ConditionalExpressionTree outermost) {
    List<ChainLevel> levels = new ArrayList<>();
    ExpressionTree falseOperand = outermost;
    while (ExpressionLowering.withoutParentheses(falseOperand)
        instanceof ConditionalExpressionTree conditional) {
      Operand condition = expressions.lower(conditional.getCondition());
      ir.openBlock();
      Operand whenTrue = expressions.lower(conditional.getTrueExpression());
      Block trueBlock = ir.closeBlock();
      levels.add(new ChainLevel(conditional, condition, whenTrue, trueBlock));
      ir.openBlock(); // the else block: the next level's condition is computed in it
      falseOperand = conditional.getFalseExpression();
    }
    Operand last = expressions.lower(falseOperand);
    if (last != null) {
      last = unboxLevels(levels, last);
    }
    NumericType[] types = chainTypes(levels, last);
    if (types == null) {
      for (int i = 0; i < levels.size(); i++) {
        ir.closeBlock();
      }
      return null;
    }
    TypeKind narrow = narrowType(levels, last, types);
    if (narrow == UNKNOWN) {
      for (int i = 0; i < levels.size(); i++) {
        ir.closeBlock();
      }
      unsupported(outermost, "this '?:' chooses between a '" + keyword(narrowKindOf(levels,
          last)) + "' and an 'int' constant that ad4j cannot evaluate (or one that reads a"
          + " 'final' local, which ad4j computes as an 'int' value), so it cannot tell the type"
          + " Java gives it (JLS 15.25), which chooses the method it is passed to and how it"
          + " prints: cast the operands to 'int', or to the narrower type");
      return null;
    }
    NumericType narrowType = narrowChoice(narrow, levels, last);
    if (narrowType != null) {
      types[0] = narrowType;
    }
    // From the innermost level out: each level's else block is closed, and its result (a
    // constant, a select, or a branch) goes into the else block of the level around it.
    Variable result = null; // the variable the branches of the current levels store into
    Operand whenFalse = last; // null while the levels below stored into the result
    for (int i = levels.size() - 1; i >= 0; i--) {
      ChainLevel level = levels.get(i);
      Block falseBlock = ir.closeBlock();
      NumericType type = types[i];
      Operand whenTrue = narrowType != null
          ? expressions.conversions().convert(level.whenTrue(), type)
          : Conversions.literalAs(level.whenTrue(), type);
      if (whenFalse != null) {
        whenFalse = narrowType != null ? expressions.conversions().convert(whenFalse, type)
            : Conversions.literalAs(whenFalse, type);
        if (level.trueBlock().statements().isEmpty() && falseBlock.statements().isEmpty()) {
          whenFalse = choose(level.condition(), whenTrue, whenFalse, type);
          continue;
        }
      }
      int sharing = outermostSharing(types, i);
      if (result == null) {
        result = ir.variable("choice", types[sharing], null);
      }
      Block thenBlock = ExpressionLowering.append(level.trueBlock(),
          new Store(result, whenTrue, context.line()));
      Block elseBlock = whenFalse == null ? falseBlock
          : ExpressionLowering.append(falseBlock, new Store(result, whenFalse, context.line()));
      if (sharing == i) {
        ir.add(new Declare(result, Operand.Constant.zero(result.type()), context.line()));
      }
      ir.add(new If(ir.nextStatementId(), level.condition(), thenBlock, elseBlock,
          context.line()));
      if (sharing == i) {
        whenFalse = new Operand.Use(context.readVariable(result));
        result = null;
      } else {
        whenFalse = null; // the level around stores into the same result
      }
    }
    if (narrow != null && narrowType == null) {
      // char, short or byte: a call it is passed to means f(char), not f(int), as in javac
      if (!(whenFalse instanceof Operand.Constant constant)) {
        unsupported(outermost, "this '?:' has type '" + keyword(narrow) + "' in Java (JLS"
            + " 15.25), which ad4j computes as an 'int' here: cast its operands to 'int'");
        return null;
      }
      return expressions.conversions().typedAs(narrow, constant);
    }
    return whenFalse; // the outermost level's result
  }

  /**
   * Java's unboxing of the operands of a chain's levels (JLS 15.25): a box beside a number, or
   * two boxes of different numbers ({@code Integer} and {@code Double}), make a numeric
   * {@code ?:}, whose boxes are unboxed ({@code c ? xs.get(i) : x}); two boxes of one type make
   * a box, which stays an object (compared with {@code ==} as a reference). Levels are typed
   * from the innermost out; the innermost's else block is open, and a true operand's number is
   * read at the end of its block. Returns {@code last}, unboxed where its level is numeric.
   */
  private Operand unboxLevels(List<ChainLevel> levels, Operand last) {
    Unboxing unboxing = expressions.unboxing();
    boolean falseBox = unboxing.isBox(last);
    boolean falseNumber = last.type().isNumeric();
    for (int i = levels.size() - 1; i >= 0; i--) {
      ChainLevel level = levels.get(i);
      Operand whenTrue = level.whenTrue();
      if (whenTrue == null) {
        return last;
      }
      boolean trueBox = unboxing.isBox(whenTrue);
      boolean numeric = trueBox && falseNumber || falseBox && whenTrue.type().isNumeric()
          || trueBox && falseBox && !unboxing.numberType(whenTrue).equals(
              unboxing.numberType(last));
      if (!numeric) {
        // a level of two numbers stays one; any other is an error or a box, as it was
        falseNumber = !trueBox && !falseBox && falseNumber && whenTrue.type().isNumeric();
        falseBox = false;
        continue;
      }
      if (falseBox) {
        last = unboxing.number(last); // in the innermost else block, still open
        falseBox = false;
      }
      if (trueBox) {
        ir.openBlock();
        level.trueBlock().statements().forEach(ir::add);
        Operand number = unboxing.number(whenTrue);
        levels.set(i, new ChainLevel(level.tree(), level.condition(), number, ir.closeBlock()));
      }
      falseNumber = true;
    }
    return last;
  }

  /**
   * The {@code char}, {@code short} or {@code byte} type of a {@code ?:} of one level whose
   * type in Java is {@code narrow}, when each operand is a constant or of that type already, so
   * that it converts without an instruction (which would run outside the operand's branch):
   * {@code char e = x > 0 ? 'a' : 'b'} chooses between {@code char}s. Null otherwise: an
   * {@code int} choice, or a narrow one of more levels or of other operands, which stays
   * {@code int}, or a constant ({@code true ? 'a' : 0}), typed as Java types it at the end.
   */
  private static NumericType narrowChoice(TypeKind narrow, List<ChainLevel> levels,
      Operand last) {
    if (narrow == null || levels.size() != 1
        || levels.get(0).condition() instanceof Operand.Constant
            && levels.get(0).whenTrue() instanceof Operand.Constant
            && last instanceof Operand.Constant) {
      return null;
    }
    NumericType type = JavaTypes.variableType(narrow).orElseThrow();
    for (Operand operand : List.of(levels.get(0).whenTrue(), last)) {
      if (!(operand instanceof Operand.Constant) && operand.type() != type) {
        return null;
      }
    }
    return type;
  }

  /** Stands for a type {@link #narrowType} cannot tell. */
  private static final TypeKind UNKNOWN = TypeKind.ERROR;

  /**
   * The type JLS 15.25 gives an {@code int} chain of {@code ?:} when it is {@code char},
   * {@code short} or {@code byte}: both operands of a level of that type (or {@code byte} and
   * {@code short}: {@code short}), or one of that type and the other an {@code int} constant it
   * holds; null for {@code int}; {@link #UNKNOWN} beside an {@code int} constant ad4j cannot
   * evaluate. Levels are typed from the innermost out, as Java nests them.
   */
  private TypeKind narrowType(List<ChainLevel> levels, Operand last, NumericType[] types) {
    for (NumericType type : types) {
      if (type != NumericType.INT) {
        return null;
      }
    }
    Operand whenFalse = last;
    ExpressionTree falseTree = levels.get(levels.size() - 1).tree().getFalseExpression();
    TypeKind falseKind = expressions.conversions().narrowTypeOf(last);
    for (int i = levels.size() - 1; i >= 0; i--) {
      Operand whenTrue = levels.get(i).whenTrue();
      ExpressionTree trueTree = levels.get(i).tree().getTrueExpression();
      TypeKind trueKind = expressions.conversions().narrowTypeOf(whenTrue);
      TypeKind kind;
      if (trueKind == falseKind) {
        kind = trueKind;
      } else if (trueKind == UNKNOWN || falseKind == UNKNOWN) {
        kind = UNKNOWN;
      } else if (trueKind != null && falseKind != null) {
        kind = (trueKind == TypeKind.BYTE || trueKind == TypeKind.SHORT)
            && (falseKind == TypeKind.BYTE || falseKind == TypeKind.SHORT) ? TypeKind.SHORT : null;
      } else {
        kind = trueKind != null ? besideInt(trueKind, whenFalse, falseTree)
            : besideInt(falseKind, whenTrue, trueTree);
      }
      falseKind = kind;
      whenFalse = null; // the level's result, no constant Java evaluates
    }
    return falseKind;
  }

  /** The type of a {@code ?:} of a {@code narrow} operand and an {@code int} one, {@code other}. */
  private TypeKind besideInt(TypeKind narrow, Operand other, ExpressionTree otherTree) {
    if (other == null) {
      return null; // a chain's result
    }
    // a constant expression of Java (JLS 15.29), told from the tree: '(m = 66)' is none
    Optional<OptionalDouble> constant = constants.intValue(otherTree, other);
    if (constant.isEmpty()) {
      return null; // an int variable or a chain's result: the ?: is an int
    }
    if (constant.get().isEmpty()) {
      return UNKNOWN;
    }
    return holds(narrow, constant.get().getAsDouble()) ? narrow : null;
  }

  /** Whether the {@code char}, {@code short} or {@code byte} type {@code narrow} holds value. */
  static boolean holds(TypeKind narrow, double value) {
    return switch (narrow) {
      case CHAR -> value >= Character.MIN_VALUE && value <= Character.MAX_VALUE;
      case SHORT -> value >= Short.MIN_VALUE && value <= Short.MAX_VALUE;
      default -> value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE;
    };
  }

  /** The narrow type among the operands of a chain, for a message. */
  private TypeKind narrowKindOf(List<ChainLevel> levels, Operand last) {
    TypeKind kind = expressions.conversions().narrowTypeOf(last);
    for (ChainLevel level : levels) {
      TypeKind own = expressions.conversions().narrowTypeOf(level.whenTrue());
      kind = own != null ? own : kind;
    }
    return kind;
  }

  static String keyword(TypeKind kind) {
    return kind == null ? "int" : kind.toString().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * The outermost level of a chain that shares the result variable of the level {@code level}:
   * the outermost of all, but for a {@code float} level inside a {@code double} one, which
   * stores into a {@code float} variable of its own, the type JLS 15.25 gives it (its operands
   * are {@code float}s or integer constants a {@code float} holds exactly: other integers are an
   * error, {@link #roundsIntegerToFloat}). This happens once in a chain at most: the types of the
   * levels only widen outwards.
   */
  private static int outermostSharing(NumericType[] types, int level) {
    int outermost = level;
    while (outermost > 0
        && !(types[outermost] == NumericType.FLOAT && types[outermost - 1] == NumericType.DOUBLE)) {
      outermost--;
    }
    return outermost;
  }

  /** One {@code c ? a :} of a chain, lowered: its condition and its true operand. */
  private record ChainLevel(ConditionalExpressionTree tree, Operand condition, Operand whenTrue,
      Block trueBlock) {}

  /**
   * The type of each level of a {@code ?:} chain, from the outermost, whose false operand at the
   * innermost is {@code last}; null after reporting the first error from the innermost level
   * out, as Java's type check of the nested expressions would, or when an operand failed.
   */
  private NumericType[] chainTypes(List<ChainLevel> levels, Operand last) {
    NumericType[] types = new NumericType[levels.size()];
    if (last == null) {
      return null;
    }
    NumericType falseType = last.type();
    for (int i = levels.size() - 1; i >= 0; i--) {
      ChainLevel level = levels.get(i);
      if (level.condition() == null || level.whenTrue() == null) {
        return null;
      }
      if (level.condition().type() != NumericType.BOOLEAN) {
        unsupported(level.tree().getCondition(), "the condition of '?:' must be a boolean");
        return null;
      }
      NumericType trueType = level.whenTrue().type();
      if (trueType == NumericType.BOOLEAN || falseType == NumericType.BOOLEAN) {
        if (trueType != falseType) {
          unsupported(level.tree(), "the operands of '?:' must both be numbers or both booleans");
          return null;
        }
        types[i] = NumericType.BOOLEAN;
      } else if (trueType == NumericType.STRING && falseType == NumericType.STRING) {
        types[i] = NumericType.STRING; // a message chosen for an exception or a call
      } else if (i == levels.size() - 1 && expressions.unboxing().isBox(level.whenTrue())
          && expressions.unboxing().isBox(last)) {
        // not unboxed: both of one type (unboxLevels), which makes a box
        unsupported(level.tree(), boxesOfOneType("'?:'",
            expressions.unboxing().numberType(last).orElseThrow().keyword()));
        return null;
      } else if (!trueType.isNumeric() || !falseType.isNumeric()) {
        unsupported(level.tree(), "'?:' choosing between " + chainOperandKind(trueType, falseType)
            + " is not supported: a differentiable method keeps each array or object variable"
            + " bound to one value; choose with 'if' and 'else' around the code that reads it");
        return null;
      } else {
        types[i] = NumericType.promote(trueType, falseType);
        // the innermost level chooses the last operand; one around it, the next level's choice
        Operand falseOperand = i == levels.size() - 1 ? last : null;
        if (roundsIntegerToFloat(types[i], level.whenTrue())
            || (falseOperand != null ? roundsIntegerToFloat(types[i], falseOperand)
                : types[i] == NumericType.FLOAT && falseType.isIntegral())) {
          unsupported(level.tree(), integerBesideFloat("'?:'"));
          return null;
        }
      }
      falseType = types[i];
    }
    return types;
  }

  /**
   * Whether {@code operand}, an operand of a {@code ?:} or a value a {@code switch} expression
   * yields whose type is {@code type}, is an {@code int} or {@code long} that the choice rounds
   * to {@code float}. Compilers do not agree on that value: JLS 15.25 rounds it (ecj does), while
   * javac, where the choice is assigned, passed or returned as a {@code double}, widens the
   * operand straight to {@code double} ({@code double r = c ? 16777217 : f} is 16777217.0, not
   * 16777216.0), and for a {@code switch} expression they differ again by context. Generated
   * code cannot know which value the user's compiled method took, and a different value there
   * may decide a branch: a silently wrong derivative. A constant that a {@code float} holds
   * exactly (an integer of magnitude at most 2^24) rounds to itself, and is fine.
   */
  static boolean roundsIntegerToFloat(NumericType type, Operand operand) {
    if (type != NumericType.FLOAT || !operand.type().isIntegral()) {
      return false;
    }
    return !(operand instanceof Operand.Constant constant && constant.knownValue().isPresent()
        && Math.abs(constant.knownValue().getAsDouble()) <= 1 << 24);
  }

  /** The error for {@link #roundsIntegerToFloat}, at {@code what} ({@code '?:'}). */
  static String integerBesideFloat(String what) {
    return what + " chooses between an 'int' or 'long' and a 'float': Java compilers differ in"
        + " whether that integer is rounded to 'float' (javac widens it straight to 'double'"
        + " where the choice is used as one), so the value the method computes is not known;"
        + " cast the integer to the type you mean ('(float) n' or '(double) n')";
  }

  /**
   * The error for a {@code ?:} or {@code switch} expression ({@code what}) whose operands are all
   * boxes of {@code number}s ({@code Double}: {@code double}): Java makes it a box (JLS 15.25, 15.28.1), an
   * object, which ad4j does not keep in a variable or compute with.
   */
  static String boxesOfOneType(String what, String number) {
    return what + " choosing between boxes of '" + number + "' only is a box in Java (an"
        + " object), which ad4j does not choose: cast an operand to '" + number + "' ('("
        + number + ") xs.get(i)'), which makes the choice a number";
  }

  private static String chainOperandKind(NumericType whenTrue, NumericType whenFalse) {
    return whenTrue.isArray() || whenFalse.isArray() ? "arrays" : "objects";
  }

  /** {@code c ? a : b} of operands computed without statements: a constant or a select. */
  private Operand choose(Operand condition, Operand whenTrue, Operand whenFalse,
      NumericType type) {
    if (condition instanceof Operand.Constant c && whenTrue instanceof Operand.Constant t
        && whenFalse instanceof Operand.Constant f) {
      return new Operand.Constant(c.expression().choose(t.expression(), f.expression()), type,
          OptionalDouble.empty());
    }
    boolean active = whenTrue.isActive() || whenFalse.isActive();
    return context.emit(Operation.SELECT, List.of(condition, whenTrue, whenFalse), type, active);
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
