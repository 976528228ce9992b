package ad4j.processor.front;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;

/**
 * Whether a method whose source ad4j has returns a new array each time it runs, as a
 * {@code @DerivativeOf} target returning {@code double[]} and a rule returning a partial array
 * must: the members differentiate each array such a call returns as one of their own, so a
 * shared buffer ({@code BUF[0] = x * x; return BUF;}) that a second call writes again, or an
 * argument returned, would give one array two sets of derivatives. The answer is syntactic and
 * errs towards "no": every {@code return} gives {@code new double[...]}, an array initializer, a
 * {@code clone()}, {@code Arrays.copyOf} or {@code copyOfRange}, or a local declared with one of
 * those and never assigned again (through {@code ?:}, casts and parentheses too). A method
 * compiled earlier, whose body ad4j cannot read, is trusted to keep the contract.
 */
final class FreshArrayReturns {
  private static final Set<String> COPIES = Set.of("Arrays.copyOf", "Arrays.copyOfRange",
      "java.util.Arrays.copyOf", "java.util.Arrays.copyOfRange");
  /** The JDK's classes whose static methods start a stream, by simple name. */
  private static final Map<String, String> STREAM_SOURCES = Map.of(
      "Arrays", "java.util.Arrays",
      "IntStream", "java.util.stream.IntStream",
      "LongStream", "java.util.stream.LongStream",
      "DoubleStream", "java.util.stream.DoubleStream",
      "Stream", "java.util.stream.Stream");

  /** The file of the method looked at, its locals by name, and how often each is assigned. */
  private final CompilationUnitTree unit;
  private final Map<String, VariableTree> locals = new HashMap<>();
  private final Map<String, Integer> assignments = new HashMap<>();

  private FreshArrayReturns(CompilationUnitTree unit) {
    this.unit = unit;
  }

  /**
   * The first returned expression of {@code method} that may not be a new array, with its
   * line; empty when every return gives a new one, or the source is not available.
   */
  static Optional<String> firstNotFresh(Trees trees, ExecutableElement element) {
    TreePath path = trees.getPath(element);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree) || tree.getBody() == null) {
      return Optional.empty();
    }
    FreshArrayReturns method = new FreshArrayReturns(path.getCompilationUnit());
    new OwnCode() {
      @Override
      public Void visitVariable(VariableTree variable, Void unused) {
        // a name declared twice (in two blocks) is not known to be fresh: its second
        // declaration counts as an assignment
        String name = variable.getName().toString();
        if (method.locals.putIfAbsent(name, variable) != null) {
          method.assignments.merge(name, 1, Integer::sum);
        }
        return super.visitVariable(variable, unused);
      }

      @Override
      public Void visitAssignment(AssignmentTree assignment, Void unused) {
        if (assignment.getVariable() instanceof IdentifierTree name) {
          method.assignments.merge(name.getName().toString(), 1, Integer::sum);
        }
        return super.visitAssignment(assignment, unused);
      }
    }.scan(tree.getBody(), null);
    String[] found = {null};
    new OwnCode() {
      @Override
      public Void visitReturn(ReturnTree statement, Void unused) {
        ExpressionTree value = statement.getExpression();
        if (found[0] == null && value != null && !method.fresh(value, false)) {
          long line = method.unit.getLineMap().getLineNumber(
              trees.getSourcePositions().getStartPosition(method.unit, value));
          found[0] = "'" + value + "' (line " + line + ")";
        }
        return null;
      }
    }.scan(tree.getBody(), null);
    return Optional.ofNullable(found[0]);
  }

  /**
   * Whether {@code pipeline} is a chain of calls that starts with a stream made by the JDK
   * ({@code Arrays.stream(a)}, {@code IntStream.range(0, n)}, {@code DoubleStream.of(...)}),
   * whose {@code toArray()} makes a new array. The class is named as written, so its simple
   * name must be imported from the JDK, not one of the file's own classes.
   */
  private boolean startsAStream(ExpressionTree pipeline) {
    ExpressionTree at = pipeline;
    while (at instanceof MethodInvocationTree call
        && call.getMethodSelect() instanceof MemberSelectTree member) {
      if (member.getExpression() instanceof IdentifierTree owner) {
        String name = owner.getName().toString();
        return STREAM_SOURCES.containsKey(name) && importsFromTheJdk(name);
      }
      if (member.getExpression() instanceof MemberSelectTree qualified
          && STREAM_SOURCES.containsValue(qualified.toString())) {
        return true; // 'java.util.stream.DoubleStream.of(...)'
      }
      at = member.getExpression();
    }
    return false;
  }

  /** Whether the file names the JDK's class {@code simpleName} by an import and declares none. */
  private boolean importsFromTheJdk(String simpleName) {
    String qualified = STREAM_SOURCES.get(simpleName);
    String inPackage = qualified.substring(0, qualified.lastIndexOf('.'));
    boolean imported = unit.getImports().stream().anyMatch(i -> !i.isStatic()
        && (i.getQualifiedIdentifier().toString().equals(qualified)
            || i.getQualifiedIdentifier().toString().equals(inPackage + ".*")));
    boolean[] declared = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitClass(com.sun.source.tree.ClassTree type, Void unused) {
        declared[0] |= type.getSimpleName().contentEquals(simpleName);
        return super.visitClass(type, unused);
      }
    }.scan(unit, null);
    return imported && !declared[0];
  }

  /** A scan of a method's own code: not of lambdas or classes in it, whose returns are theirs. */
  private static class OwnCode extends TreeScanner<Void, Void> {
    @Override
    public Void visitLambdaExpression(LambdaExpressionTree lambda, Void unused) {
      return null;
    }

    @Override
    public Void visitClass(com.sun.source.tree.ClassTree type, Void unused) {
      return null;
    }
  }

  /** Whether {@code value} is a new array; {@code initializer}: a local's, not a returned one. */
  private boolean fresh(ExpressionTree value, boolean initializer) {
    switch (value.getKind()) {
      case NEW_ARRAY:
        return true;
      case PARENTHESIZED:
        return fresh(((ParenthesizedTree) value).getExpression(), initializer);
      case TYPE_CAST:
        return fresh(((TypeCastTree) value).getExpression(), initializer);
      case CONDITIONAL_EXPRESSION: {
        ConditionalExpressionTree choice = (ConditionalExpressionTree) value;
        return fresh(choice.getTrueExpression(), initializer)
            && fresh(choice.getFalseExpression(), initializer);
      }
      case METHOD_INVOCATION: {
        MethodInvocationTree call = (MethodInvocationTree) value;
        ExpressionTree select = call.getMethodSelect();
        return select instanceof MemberSelectTree member
            && (member.getIdentifier().contentEquals("clone") && call.getArguments().isEmpty()
                || COPIES.contains(member.toString())
                || member.getIdentifier().contentEquals("toArray")
                    && startsAStream(member.getExpression()));
      }
      case IDENTIFIER: {
        // a local made so and never assigned again; not another local's initializer
        String name = ((IdentifierTree) value).getName().toString();
        VariableTree local = locals.get(name);
        return !initializer && local != null && local.getInitializer() != null
            && !assignments.containsKey(name) && fresh(local.getInitializer(), true);
      }
      default:
        return false;
    }
  }
}
