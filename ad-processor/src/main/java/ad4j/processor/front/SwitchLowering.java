package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.YieldTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import javax.lang.model.type.TypeKind;

/**
 * Lowers {@code switch} statements and expressions on {@code int} values (and {@code char},
 * {@code short}, {@code byte} constants), enums and strings to the IR's branches: one {@code if} per case, in
 * order. A case is entered when its label matches, when no label matches and it is the
 * {@code default}, or when the case before it completes normally (fallthrough, colon form only),
 * which a boolean variable remembers. A {@code break} that ends a case, or a {@code yield} that
 * ends a case of a switch expression, is the end of that case.
 */
final class SwitchLowering {
  /** Lowers statements in the current block; returns whether they can complete normally. */
  interface StatementLowerer {
    boolean lower(List<? extends StatementTree> statements);

    /** {@link DeclarationLowering#declareInLaterCase}. */
    void declareInLaterCase(VariableTree declaration);
  }

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final StatementLowerer statements;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  /** Whether a plain {@code break} here would leave a switch rather than a loop. */
  private boolean breakLeavesSwitch;
  /**
   * The innermost switch statement's record that a {@code break} left it before the end of a
   * case ({@link EarlyCaseBreaks}); null where its cases have no such {@code break}.
   */
  private Variable leftEarly;

  SwitchLowering(LoweringContext context, ExpressionLowering expressions,
      StatementLowerer statements) {
    this.context = context;
    this.expressions = expressions;
    this.statements = statements;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
  }

  /** Whether a plain {@code break} at this point would leave a switch. */
  boolean breakLeavesSwitch() {
    return breakLeavesSwitch;
  }

  /** Sets where a plain {@code break} goes; returns the previous setting, to restore. */
  boolean setBreakLeavesSwitch(boolean leavesSwitch) {
    boolean previous = breakLeavesSwitch;
    breakLeavesSwitch = leavesSwitch;
    return previous;
  }

  /**
   * A {@code break} that leaves the switch statement being lowered before the end of a case:
   * records that it left, so that the statements after it do not run; false (nothing lowered)
   * where the switch has no record of it, a {@code break} its cases were not scanned for.
   */
  boolean breakFromCase() {
    if (leftEarly == null) {
      return false;
    }
    ir.add(new Store(leftEarly, Operand.Constant.of(true), context.line()));
    return true;
  }

  /**
   * Whether the statements after {@code statement} in its block run only where no
   * {@code break} in it left the switch statement being lowered: {@code statement} holds such a
   * break ({@link EarlyCaseBreaks}), in a case of that switch, outside loops. Every block of a
   * case asks this of each of its statements, so that {@code { if (c) break; r += 1; }} skips
   * {@code r += 1} too, not only the case's own statements.
   */
  boolean guardsAfter(StatementTree statement) {
    return leftEarly != null && breakLeavesSwitch && EarlyCaseBreaks.in(statement);
  }

  /**
   * {@code if (!leftSwitch) { rest }}, the statements {@code rest} lowers; true: where a break
   * left, the {@code if} completes without running them.
   */
  boolean unlessLeft(Runnable rest) {
    SourceLine line = context.line();
    Operand stays = notLeft();
    ir.openBlock();
    rest.run();
    Block guarded = ir.closeBlock();
    ir.add(new If(ir.nextStatementId(), stays, guarded, new Block(List.of()), line));
    return true;
  }

  /** {@code !leftSwitch}: no break has left the switch statement being lowered. */
  private Operand notLeft() {
    return context.emit(Operation.NOT,
        List.of(new Operand.Use(context.readVariable(leftEarly))), NumericType.BOOLEAN, false);
  }

  /** A switch statement; returns whether it can complete normally. */
  boolean statement(SwitchTree tree) {
    return lowerCases(tree, tree.getExpression(), tree.getCases(), null, null);
  }

  /** A switch expression: its value, or null after reporting an error. */
  Operand expression(SwitchExpressionTree tree) {
    SourceLine line = context.line();
    // The result is declared before the branches, so that its value is the one the chosen
    // case yields; its type is known once every case is lowered.
    int declarationAt = ir.size();
    int bindings = context.bindingDepth();
    List<Yield> yields = lowerYields(tree, yielded -> {
      Operand value = expressions.lower(yielded);
      return value == null ? null : List.of(value);
    });
    // its cases' statements started at their depth; the rest of the statement is at its own
    context.bindingsStartAt(bindings);
    if (yields == null) {
      return null;
    }
    // boxes of numbers are unboxed (JLS 15.28.1) unless every case yields a box of one type,
    // which makes the switch a box: an object
    Unboxing unboxing = expressions.unboxing();
    boolean unboxes = yields.stream().map(yield -> unboxing.isBox(yield.value())
        ? unboxing.numberType(yield.value()) : java.util.Optional.<NumericType>empty())
        .distinct().count() > 1;
    if (!unboxes && unboxing.isBox(yields.get(0).value()) && yields.size() > 1) {
      diagnostics.error(tree, ConditionalLowering.boxesOfOneType("a 'switch' expression",
          unboxing.numberType(yields.get(0).value()).orElseThrow().keyword()));
      return null;
    }
    NumericType type = null;
    for (Yield yield : yields) {
      NumericType yielded = unboxes && unboxing.isBox(yield.value())
          ? unboxing.numberType(yield.value()).orElseThrow() : yield.value().type();
      if (type == null) {
        type = yielded;
      } else if ((type == NumericType.BOOLEAN) != (yielded == NumericType.BOOLEAN)
          || type != NumericType.BOOLEAN && (!type.isNumeric() || !yielded.isNumeric())) {
        diagnostics.error(tree, "the cases of a 'switch' expression must all yield numbers or"
            + " all booleans");
        return null;
      } else if (type != NumericType.BOOLEAN) {
        type = NumericType.promote(type, yielded);
      }
    }
    if (type == null) {
      diagnostics.error(tree, "a 'switch' expression needs a case that yields a value");
      return null;
    }
    TypeKind narrow = type == NumericType.INT ? narrowChoice(tree, yields) : null;
    if (narrow == TypeKind.ERROR) {
      return null;
    }
    if (narrow != null) {
      // Java gives it that type (JLS 15.28.1): a char prints as a character, and a call it is
      // passed to means f(char), not f(int)
      type = JavaTypes.variableType(narrow).orElseThrow();
    }
    for (Yield yield : yields) {
      boolean integerBox = unboxes && unboxing.numberType(yield.value())
          .filter(NumericType::isIntegral).isPresent();
      if (ConditionalLowering.roundsIntegerToFloat(type, yield.value())
          || type == NumericType.FLOAT && integerBox) {
        diagnostics.error(tree, ConditionalLowering.integerBesideFloat("'switch'"));
        return null;
      }
    }
    Variable result = ir.variable("switchValue", type, null);
    for (Yield yield : yields) {
      ir.openBlock();
      Operand yielded = unboxes ? unboxing.number(yield.value()) : yield.value();
      Operand value = expressions.conversions().convert(yielded, type);
      ir.add(new Store(result, value, line));
      endCase(yield, ir.closeBlock().statements());
    }
    ir.insertAt(declarationAt, new Declare(result, Operand.Constant.zero(type), line));
    return new Operand.Use(context.readVariable(result));
  }

  /**
   * The {@code short}, {@code byte} or {@code char} type javac gives a switch expression whose
   * cases yield {@code int}s and narrower values, null for an {@code int}. javac (17 to 25)
   * types it by its own rule, not JLS 5.6's: the narrow type when every case yields it; else
   * the type of a case's value beside which every other case (but, for a value that is no
   * constant, the other such values of its type) yields an {@code int} constant that type holds
   * ({@code case 1 -> c; default -> 66} and {@code case 1 -> c; case 2 -> d; default -> 66}
   * are {@code char}s, which print {@code B}; {@code case 1 -> 'a'; case 2 -> c; default -> 66}
   * an {@code int}); else {@code short} for {@code byte}s and {@code short}s. Constants are
   * told from the trees ({@link ConstantExpressions}). {@link TypeKind#ERROR} after reporting
   * an error, when the type depends on a value ad4j cannot tell is a constant (one that reads
   * a {@code final} local) or on a constant it cannot evaluate.
   */
  private TypeKind narrowChoice(SwitchExpressionTree tree, List<Yield> yields) {
    Conversions conversions = expressions.conversions();
    ConstantExpressions constants = new ConstantExpressions(context);
    int count = yields.size();
    TypeKind[] kinds = new TypeKind[count];
    ConstantExpressions.Kind[] forms = new ConstantExpressions.Kind[count];
    boolean uncertain = false;
    for (int i = 0; i < count; i++) {
      Yield yield = yields.get(i);
      kinds[i] = conversions.narrowTypeOf(yield.value());
      forms[i] = constants.of(yield.tree(), yield.value());
      if (kinds[i] == null && forms[i] == ConstantExpressions.Kind.NONE) {
        return null; // an int that is no constant makes the switch an int
      }
      uncertain |= forms[i] == ConstantExpressions.Kind.UNCERTAIN || kinds[i] == null
          && ((Operand.Constant) yield.value()).knownValue().isEmpty();
    }
    if (java.util.Arrays.stream(kinds).distinct().count() == 1) {
      return kinds[0]; // one narrow type (or int)
    }
    if (java.util.Arrays.stream(kinds).allMatch(java.util.Objects::nonNull)) {
      boolean shorts = java.util.Arrays.stream(kinds)
          .allMatch(kind -> kind == TypeKind.BYTE || kind == TypeKind.SHORT);
      return shorts ? TypeKind.SHORT : null;
    }
    Boolean argument = isArgument(tree);
    if (Boolean.TRUE.equals(argument)) {
      // a poly expression (JLS 15.28.1) that may be passed to f(char) only when each case
      // yields a char: an int constant converts to a char in an assignment, not in a call
      return null;
    }
    if (uncertain) {
      diagnostics.error(tree, "the type javac gives this 'switch' expression, which yields"
          + " 'char', 'short' or 'byte' values beside 'int' constants, depends on which of them"
          + " are constants, which ad4j cannot tell here (a value that reads a 'final' local, or"
          + " a constant ad4j cannot evaluate): cast the values the cases yield to 'int', or to"
          + " one narrow type");
      return TypeKind.ERROR;
    }
    TypeKind javacs = null;
    for (int i = 0; i < count && javacs == null; i++) {
      if (kinds[i] != null && besideIntConstants(i, kinds, forms, yields)) {
        javacs = kinds[i];
      }
    }
    TypeKind specifications = choiceOfTheSpecification(kinds, yields);
    if (javacs != specifications) {
      // the user's own compiler decides what the method computes: javac or the Eclipse
      // compiler, which follows JLS 5.6 ('case 1 -> 'a'; case 2 -> c; default -> 66' prints
      // 66 compiled by javac and B compiled by ECJ), and generated code must compute the same
      diagnostics.error(tree, "javac gives this 'switch' expression, which yields 'char',"
          + " 'short' or 'byte' values beside 'int' constants, the type '"
          + keywordOrInt(javacs) + "' and the Java Language Specification (and the Eclipse"
          + " compiler) the type '" + keywordOrInt(specifications) + "', so what the method"
          + " computes depends on the compiler: cast the values the cases yield to 'int', or to"
          + " one narrow type");
      return TypeKind.ERROR;
    }
    if (javacs != null && argument == null) {
      diagnostics.error(tree, "this 'switch' expression, which yields a '"
          + ConditionalLowering.keyword(javacs) + "' beside 'int' constants, is a '"
          + ConditionalLowering.keyword(javacs) + "' where it stands alone and an 'int'"
          + " where it is passed to a method, and ad4j cannot tell which it is here: cast"
          + " the values the cases yield to 'int', or to '"
          + ConditionalLowering.keyword(javacs) + "'");
      return TypeKind.ERROR;
    }
    return javacs;
  }

  /**
   * The type JLS 5.6 gives, in a numeric choice context, to values of the narrow types
   * {@code kinds} beside {@code int} constants (the null kinds): {@code short}, {@code byte} or
   * {@code char} when a value has that type and every other has it too (a {@code byte} beside
   * {@code short}s) or is an {@code int} constant that type holds; null for {@code int}.
   */
  private static TypeKind choiceOfTheSpecification(TypeKind[] kinds, List<Yield> yields) {
    for (TypeKind candidate : List.of(TypeKind.SHORT, TypeKind.BYTE, TypeKind.CHAR)) {
      if (java.util.Arrays.stream(kinds).noneMatch(kind -> kind == candidate)) {
        continue;
      }
      boolean all = true;
      for (int i = 0; i < kinds.length && all; i++) {
        all = kinds[i] == candidate
            || candidate == TypeKind.SHORT && kinds[i] == TypeKind.BYTE
            || kinds[i] == null && ConditionalLowering.holds(candidate,
                ((Operand.Constant) yields.get(i).value()).knownValue().getAsDouble());
      }
      if (all) {
        return candidate;
      }
    }
    return null;
  }

  private static String keywordOrInt(TypeKind kind) {
    return kind == null ? "int" : ConditionalLowering.keyword(kind);
  }

  /**
   * Whether {@code tree} is an argument of a call or of a constructor call; null when it is not
   * found in the compilation unit (the code of a method inlined from another).
   */
  private Boolean isArgument(SwitchExpressionTree tree) {
    com.sun.source.util.TreePath path =
        com.sun.source.util.TreePath.getPath(context.unit(), tree);
    if (path == null) {
      return null;
    }
    Tree child = tree;
    path = path.getParentPath();
    while (path != null && path.getLeaf() instanceof ParenthesizedTree) {
      child = path.getLeaf();
      path = path.getParentPath();
    }
    Tree parent = path == null ? null : path.getLeaf();
    return parent instanceof MethodInvocationTree call && call.getArguments().contains(child)
        || parent instanceof NewClassTree creation && creation.getArguments().contains(child);
  }

  /**
   * Whether every case but {@code candidate} (and, when its value is no constant, the other
   * values of its type that are none) yields an {@code int} constant its type holds.
   */
  private static boolean besideIntConstants(int candidate, TypeKind[] kinds,
      ConstantExpressions.Kind[] forms, List<Yield> yields) {
    TypeKind type = kinds[candidate];
    boolean shared = forms[candidate] == ConstantExpressions.Kind.NONE;
    for (int i = 0; i < kinds.length; i++) {
      if (i == candidate || shared && kinds[i] == type
          && forms[i] == ConstantExpressions.Kind.NONE) {
        continue; // javac's one type object of a value of this type that is no constant
      }
      if (kinds[i] != null) {
        return false;
      }
      double value = ((Operand.Constant) yields.get(i).value()).knownValue().getAsDouble();
      if (!ConditionalLowering.holds(type, value)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A switch expression whose cases each yield as many values as {@code results} has
   * variables (a value record's leaves, to which {@code leavesOf} lowers what a case yields,
   * null after an error): each value stored into its variable at the end of its case's
   * branch, the variables declared before the switch. False after reporting an error.
   */
  boolean expressionInto(SwitchExpressionTree tree, List<Variable> results,
      Function<ExpressionTree, List<Operand>> leavesOf) {
    SourceLine line = context.line();
    int declarationAt = ir.size();
    List<Yield> yields = lowerYields(tree, leavesOf);
    if (yields == null) {
      return false;
    }
    for (Yield yield : yields) {
      List<Statement> stores = new ArrayList<>();
      for (int i = 0; i < results.size(); i++) {
        stores.add(new Store(results.get(i), yield.values().get(i), line));
      }
      endCase(yield, stores);
    }
    for (int i = results.size() - 1; i >= 0; i--) {
      Variable result = results.get(i);
      ir.insertAt(declarationAt, new Declare(result, Operand.Constant.zero(result.type()), line));
    }
    return true;
  }

  /**
   * The cases of switch expression {@code tree} lowered, what each yields by {@code yielding};
   * null after reporting an error.
   */
  private List<Yield> lowerYields(SwitchExpressionTree tree,
      Function<ExpressionTree, List<Operand>> yielding) {
    List<Yield> yields = new ArrayList<>();
    SourceLine line = context.line();
    int errors = diagnostics.errorCount();
    lowerCases(tree, tree.getExpression(), tree.getCases(), yields, yielding);
    context.restoreLine(line);
    return diagnostics.errorCount() == errors ? yields : null;
  }

  /** Adds {@code statements} at the end of the branch of {@code yield}'s case. */
  private void endCase(Yield yield, List<Statement> statements) {
    If branch = (If) ir.statementAt(yield.branchIndex());
    List<Statement> thenStatements = new ArrayList<>(branch.thenBlock().statements());
    thenStatements.addAll(statements);
    ir.replace(yield.branchIndex(), new If(branch.id(), branch.condition(),
        new Block(thenStatements), branch.elseBlock(), branch.line()));
  }

  /**
   * What the cases of {@code tree} yield, as written: the expression of a rule, or of the
   * {@code yield} that ends a case (a case that throws yields nothing).
   */
  List<ExpressionTree> yielded(SwitchExpressionTree tree) {
    List<ExpressionTree> yielded = new ArrayList<>();
    for (CaseTree c : tree.getCases()) {
      Tree ending = body(c, c.getCaseKind() == CaseTree.CaseKind.RULE, List.of()).ending();
      if (ending instanceof YieldTree yield) {
        yielded.add(yield.getValue());
      } else if (ending instanceof ExpressionTree expression) {
        yielded.add(expression);
      }
    }
    return yielded;
  }

  private static boolean isExplicitlyTyped(VariableTree declaration) {
    return declaration.getType() != null && !(declaration.getType() instanceof
        com.sun.source.tree.IdentifierTree identifier && identifier.getName().contentEquals("var"));
  }

  /**
   * What a case yields (one value, or a record's leaves), and the index of its case's branch
   * in the current block.
   */
  private record Yield(List<Operand> values, int branchIndex, ExpressionTree tree) {
    Operand value() {
      return values.get(0);
    }
  }

  /**
   * Lowers the cases; returns whether the switch can complete normally. Of a switch
   * expression ({@code yields} not null), {@code yielding} lowers what each case yields.
   */
  private boolean lowerCases(Tree tree, ExpressionTree selectorTree,
      List<? extends CaseTree> cases, List<Yield> yields,
      Function<ExpressionTree, List<Operand>> yielding) {
    // a pattern's case would be taken for 'default', its guard ignored
    Operand selector = SwitchPatterns.rejected(selectorTree, cases, context) ? null
        : selector(selectorTree);
    SourceLine line = context.line();
    List<List<Operand>> labels = new ArrayList<>();
    boolean hasDefault = false;
    for (CaseTree c : cases) {
      List<Operand> constants = new ArrayList<>();
      for (ExpressionTree label : c.getExpressions()) {
        constants.add(selector == null ? null : label(selector, label));
      }
      hasDefault |= c.getExpressions().isEmpty();
      labels.add(constants);
    }
    Operand noneMatches = hasDefault && selector != null ? noneMatches(selector, labels) : null;
    Variable entered = null;
    boolean completes = !hasDefault;
    boolean breakBefore = setBreakLeavesSwitch(yields == null);
    Variable leftBefore = leftEarly;
    leftEarly = null;
    if (yields == null && cases.stream()
        .anyMatch(c -> body(c, c.getCaseKind() == CaseTree.CaseKind.RULE, null).statements()
            .stream().anyMatch(EarlyCaseBreaks::in))) {
      leftEarly = ir.variable("leftSwitch", NumericType.BOOLEAN, null);
      ir.add(new Declare(leftEarly, Operand.Constant.of(false), line));
      completes = true; // by such a break
    }
    // the locals that groups of statements declared, in scope in the groups after them
    List<VariableTree> declaredInGroups = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      CaseTree c = cases.get(i);
      boolean rule = c.getCaseKind() == CaseTree.CaseKind.RULE;
      context.restoreLine(line);
      Operand matches = selector == null ? Operand.Constant.of(false)
          : c.getExpressions().isEmpty() ? noneMatches : anyMatches(selector, labels.get(i));
      Operand condition = matches;
      if (entered != null && matches != null) {
        condition = context.emit(Operation.infix("|"),
            List.of(new Operand.Use(context.readVariable(entered)), matches),
            NumericType.BOOLEAN, false);
      }
      ir.openBlock();
      context.scopes().push();
      if (!rule) {
        declaredInGroups.forEach(statements::declareInLaterCase);
      }
      CaseBody body = body(c, rule, yields);
      List<Operand> yieldedValues = null;
      ExpressionTree yieldedTree = null;
      boolean caseCompletes = statements.lower(body.statements());
      if (body.ending() instanceof BreakTree) {
        completes = true;
        caseCompletes = false;
      } else if (body.ending() != null) {
        ExpressionTree yielded = body.ending() instanceof YieldTree yield
            ? yield.getValue() : (ExpressionTree) body.ending();
        if (caseCompletes) {
          context.startStatement(body.ending());
          yieldedValues = yielding.apply(yielded);
          yieldedTree = yielded;
        } else {
          diagnostics.error(body.ending(), "unreachable statement");
        }
        caseCompletes = false;
      }
      if (!rule) {
        for (StatementTree statement : body.statements()) {
          if (statement instanceof VariableTree declaration && isExplicitlyTyped(declaration)) {
            LocalScopes.Local local = context.scopes().lookUp(declaration.getName().toString());
            if (local != null && !local.isBroken()) {
              declaredInGroups.add(declaration);
            }
          }
        }
      }
      boolean last = i == cases.size() - 1;
      // falling into the next case only where no break left this one early
      Operand fallsThrough = leftEarly != null && caseCompletes && !rule && !last
          ? notLeft() : Operand.Constant.of(true);
      context.scopes().pop();
      List<Statement> caseStatements = new ArrayList<>(ir.closeBlock().statements());
      if (body.ending() != null && entered != null) {
        // a break or yield ends this case: the cases after it are not entered by falling
        caseStatements.add(new Store(entered, Operand.Constant.of(false), line));
      } else if (!caseCompletes && entered != null) {
        // No path completes this case: each ends by a 'break' inside it ('{ s -= x; break; }',
        // 'if (c) { ...; break; } else { ...; break; }', which generated code continues after
        // as after the case), or leaves by 'continue', 'return' or 'throw'. The cases after it
        // are not entered by falling, whatever case fell into this one: cleared as it starts,
        // where the statement is reachable whatever ends the case.
        caseStatements.add(0, new Store(entered, Operand.Constant.of(false), line));
      }
      if (caseCompletes && (rule || last)) {
        completes = true;
        if (yields != null) {
          diagnostics.error(c, "a case of a 'switch' expression must end by 'yield' or 'throw'");
        }
      }
      if (caseCompletes && !rule && !last) {
        if (entered == null) {
          entered = ir.variable("fallthrough", NumericType.BOOLEAN, null);
          ir.add(new Declare(entered, Operand.Constant.of(false), line));
        }
        caseStatements.add(new Store(entered, fallsThrough, line));
      }
      if (last && !completes && yields == null) {
        // Every path that gets here enters this case (the switch cannot complete normally):
        // unconditional, so that javac sees the method end here, as it sees the user's.
        caseStatements.forEach(ir::add);
      } else if (condition != null) {
        ir.add(new If(ir.nextStatementId(), condition, new Block(caseStatements),
            new Block(List.of()), line));
        if (yieldedValues != null) {
          yields.add(new Yield(yieldedValues, ir.size() - 1, yieldedTree));
        }
      }
    }
    setBreakLeavesSwitch(breakBefore);
    leftEarly = leftBefore;
    context.restoreLine(line);
    return completes;
  }

  /** The statements of a case, and the {@code break} or {@code yield} that ends it, if any. */
  private record CaseBody(List<? extends StatementTree> statements, Tree ending) {}

  private CaseBody body(CaseTree c, boolean rule, List<Yield> yields) {
    List<? extends StatementTree> list;
    if (rule) {
      Tree body = c.getBody();
      if (body instanceof BlockTree block) {
        list = block.getStatements();
      } else if (body instanceof ExpressionTree expression) {
        return new CaseBody(List.of(), expression); // case c -> value of a switch expression
      } else {
        list = List.of((StatementTree) body);
      }
    } else {
      list = c.getStatements();
    }
    if (!list.isEmpty()) {
      StatementTree lastStatement = list.get(list.size() - 1);
      boolean ends = yields == null
          ? lastStatement instanceof BreakTree b && b.getLabel() == null
          : lastStatement instanceof YieldTree;
      if (ends) {
        return new CaseBody(list.subList(0, list.size() - 1), lastStatement);
      }
    }
    return new CaseBody(list, null);
  }

  /**
   * The selector's value; null after reporting that it is none of an {@code int}, an enum or a
   * {@code String}. A switch on an enum or a string throws {@code NullPointerException} on
   * {@code null} before any case, as Java's does.
   */
  private Operand selector(ExpressionTree selectorTree) {
    // a switch on an Integer box unboxes it, as Java does (Unboxing leaves a Character one)
    Operand selector = expressions.unboxing().number(expressions.lower(selectorTree));
    if (selector == null || selector.type() == NumericType.INT || selector.type().isNarrow()) {
      return selector;
    }
    if (selector.type() == NumericType.STRING || enumOf(selector).isPresent()) {
      context.emit(Operation.plainCall("java.util.Objects.requireNonNull", 1),
          List.of(selector), NumericType.VOID, false);
      return selector;
    }
    diagnostics.error(selectorTree, "'switch' on a '"
        + context.javaTypes().referenceTypeOf(selector)
            .map(Object::toString).orElse(selector.type().keyword()) + "' is not supported: ad4j"
        + " switches on 'int', 'char', 'short', 'byte', enum and 'String' values");
    return null;
  }

  /** The enum type of {@code selector}, if it is an enum. */
  private java.util.Optional<javax.lang.model.element.TypeElement> enumOf(Operand selector) {
    return context.javaTypes().referenceTypeOf(selector)
        .filter(mirror -> mirror instanceof javax.lang.model.type.DeclaredType)
        .map(mirror -> (javax.lang.model.element.TypeElement)
            ((javax.lang.model.type.DeclaredType) mirror).asElement())
        .filter(type -> type.getKind() == javax.lang.model.element.ElementKind.ENUM);
  }

  /**
   * A case label: an {@code int} constant, an enum constant of the selector's enum (by its
   * simple name, or qualified), or a {@code String} constant; null after reporting an error.
   */
  private Operand label(Operand selector, ExpressionTree label) {
    java.util.Optional<javax.lang.model.element.TypeElement> enumType = enumOf(selector);
    if (enumType.isPresent()) {
      String name = label instanceof IdentifierTree identifier ? identifier.getName().toString()
          : label instanceof com.sun.source.tree.MemberSelectTree select
              ? select.getIdentifier().toString() : null;
      boolean isConstant = name != null && enumType.get().getEnclosedElements().stream()
          .anyMatch(e -> e.getKind() == javax.lang.model.element.ElementKind.ENUM_CONSTANT
              && e.getSimpleName().contentEquals(name));
      if (!isConstant) {
        diagnostics.error(label, "'" + context.source().of(label) + "' is not a constant of"
            + " the enum '" + enumType.get().getQualifiedName() + "'");
        return null;
      }
      return context.javaTypes().referenceConstant(
          context.javaTypes().referenceTo(enumType.get()) + "." + name, enumType.get().asType());
    }
    Operand constant = expressions.lower(label);
    if (selector.type() == NumericType.STRING) {
      if (constant != null && !(constant instanceof Operand.Constant
          && constant.type() == NumericType.STRING)) {
        diagnostics.error(label, "a case label of a switch on a 'String' must be a 'String'"
            + " constant");
        return null;
      }
      return constant;
    }
    if (constant != null && !(constant instanceof Operand.Constant
        && constant.type().isIntegral() && constant.type() != NumericType.LONG)) {
      diagnostics.error(label, "a case label must be an 'int', 'char', 'short' or 'byte'"
          + " constant");
      return null;
    }
    return constant;
  }

  private Operand anyMatches(Operand selector, List<Operand> constants) {
    Operand any = null;
    for (Operand constant : constants) {
      if (constant == null) {
        return null;
      }
      Operand equal = matches(selector, constant);
      any = any == null ? equal : context.emit(Operation.infix("|"), List.of(any, equal),
          NumericType.BOOLEAN, false);
    }
    return any;
  }

  private Operand noneMatches(Operand selector, List<List<Operand>> labels) {
    Operand none = Operand.Constant.of(true);
    for (List<Operand> constants : labels) {
      for (Operand constant : constants) {
        if (constant == null) {
          return null;
        }
        Operand differs = context.emit(Operation.NOT, List.of(matches(selector, constant)),
            NumericType.BOOLEAN, false);
        none = none instanceof Operand.Constant ? differs : context.emit(Operation.infix("&"),
            List.of(none, differs), NumericType.BOOLEAN, false);
      }
    }
    return none;
  }

  /**
   * {@code selector == constant}; {@code selector.equals(constant)} for strings, as Java's
   * switch on a String compares.
   */
  private Operand matches(Operand selector, Operand constant) {
    if (selector.type() == NumericType.STRING) {
      return context.emit(Operation.instanceCall("equals", 2), List.of(selector, constant),
          NumericType.BOOLEAN, false);
    }
    return context.emit(Operation.infix("=="), List.of(selector, constant), NumericType.BOOLEAN,
        false);
  }
}
