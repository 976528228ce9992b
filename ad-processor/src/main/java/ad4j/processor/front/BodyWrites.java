package ad4j.processor.front;

import static ad4j.processor.front.BodyTrees.concat;
import static ad4j.processor.front.BodyTrees.declaredInScope;
import static ad4j.processor.front.BodyTrees.isSelf;
import static ad4j.processor.front.BodyTrees.unwrapped;
import static ad4j.processor.front.BodyTrees.withoutTypeArguments;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;

/**
 * The walk over one body for its first write that outlasts the call: an assignment or an
 * increment of a field or of an element of an array the body did not make, a concatenation or
 * a JDK call that may run an object's code, or a call, construction or method reference that
 * may change state. The methods it calls are judged by {@link TargetStateWrites}, which keeps
 * the answers and ends recursion; code it cannot read is judged as {@link UnreadCode} says.
 */
final class BodyWrites {
  /** The reading that judges the methods and constructors this body calls. */
  private final TargetStateWrites callees;
  private final UnreadCode unread;
  private final BodyLocals body;
  private final BodyValues values;
  /** Whether the body is a constructor's, whose own instance fields it may write. */
  private final boolean constructor;

  BodyWrites(TargetStateWrites callees, UnreadCode unread, BodyLocals body,
      boolean constructor) {
    this.callees = callees;
    this.unread = unread;
    this.body = body;
    this.values = new BodyValues(body);
    this.constructor = constructor;
  }

  /** The first write or call in {@code code} that may change state outlasting the call. */
  Optional<Tree> firstWrite(TreePath code) {
    Tree[] found = new Tree[1];
    new TreePathScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        return found[0] == null ? super.scan(tree, unused) : null;
      }

      @Override
      public Void visitAssignment(AssignmentTree assignment, Void unused) {
        written(assignment.getVariable(), assignment);
        return super.visitAssignment(assignment, unused);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree assignment, Void unused) {
        written(assignment.getVariable(), assignment);
        if (found[0] == null && unread.countsAsChange()
            && assignment.getKind() == Tree.Kind.PLUS_ASSIGNMENT
            && values.isString(assignment.getVariable())
            && !values.isPlainValue(assignment.getExpression())) {
          found[0] = assignment; // 's += tag' calls tag.toString()
        }
        return super.visitCompoundAssignment(assignment, unused);
      }

      @Override
      public Void visitUnary(UnaryTree unary, Void unused) {
        switch (unary.getKind()) {
          case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
              written(unary.getExpression(), unary);
          default -> { }
        }
        return super.visitUnary(unary, unused);
      }

      @Override
      public Void visitBinary(com.sun.source.tree.BinaryTree binary, Void unused) {
        // a concatenation calls the toString() of an object, which may count ('+' of two
        // values of unknown class, boxes of a List<Double>, is taken for a sum)
        if (found[0] == null && unread.countsAsChange() && binary.getKind() == Tree.Kind.PLUS
            && (values.isString(binary.getLeftOperand())
                && !values.isPlainValue(binary.getRightOperand())
                || values.isString(binary.getRightOperand())
                && !values.isPlainValue(binary.getLeftOperand()))) {
          found[0] = binary;
        }
        return super.visitBinary(binary, unused);
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        if (found[0] == null && mayChangeState(call)) {
          found[0] = call;
        }
        return super.visitMethodInvocation(call, unused);
      }

      @Override
      public Void visitNewClass(NewClassTree creation, Void unused) {
        if (found[0] == null && mayChangeState(creation)) {
          found[0] = creation;
        }
        return super.visitNewClass(creation, unused);
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree reference, Void unused) {
        if (found[0] == null && mayChangeState(reference)) {
          found[0] = reference;
        }
        return super.visitMemberReference(reference, unused);
      }

      private void written(ExpressionTree variable, Tree write) {
        if (found[0] == null && outlivesTheCall(variable, getCurrentPath())) {
          found[0] = write;
        }
      }
    }.scan(code, null);
    return Optional.ofNullable(found[0]);
  }

  /**
   * A field (not one of the object a constructor makes), or an element of an array the body
   * did not make.
   */
  private boolean outlivesTheCall(ExpressionTree variable, TreePath at) {
    ExpressionTree target = unwrapped(variable);
    if (target instanceof ArrayAccessTree element) {
      int depth = 1;
      ExpressionTree array = unwrapped(element.getExpression());
      while (array instanceof ArrayAccessTree row) {
        array = unwrapped(row.getExpression());
        depth++;
      }
      return array instanceof IdentifierTree name
          && !declaredInScope(at, name.getName().toString())
          || !body.made(array, depth, new HashSet<>());
    }
    if (target instanceof IdentifierTree name) {
      String written = name.getName().toString();
      return !declaredInScope(at, written) && !(constructor && isOwnInstanceField(written));
    }
    return !(constructor && target instanceof MemberSelectTree select
        && unwrapped(select.getExpression()) instanceof IdentifierTree self
        && self.getName().contentEquals("this")
        && isOwnInstanceField(select.getIdentifier().toString()));
  }

  /** A field of the object a constructor makes. */
  private boolean isOwnInstanceField(String name) {
    return body.symbols.fieldOf(body.owner, name).filter(f -> !StaticMembers.isStatic(f))
        .isPresent();
  }

  /**
   * Whether the generated member {@code member} of {@code user}'s class may change state: it
   * runs the code of a method of {@code user} whose name begins its own, and writes the
   * arrays it is given for results (a gradient, a Hessian), harmless where the body made them.
   */
  private boolean generatedMemberMayChange(TypeElement user, String member,
      List<? extends ExpressionTree> arguments) {
    for (ExpressionTree argument : arguments) {
      if (unread.countsAsChange() && unwrapped(argument) instanceof IdentifierTree name
          && body.isArray(name) && !body.made(name, 1, new HashSet<>())) {
        return true;
      }
    }
    boolean any = false;
    for (ExecutableElement method : ElementFilter.methodsIn(user.getEnclosedElements())) {
      if (member.startsWith(method.getSimpleName().toString())) {
        any = true;
        if (callees.mayChangeState(method, false)) {
          return true;
        }
      }
    }
    return !any && unread.countsAsChange();
  }

  /**
   * Whether {@code call} may change state: by what it calls, or, for a JDK method, by the
   * methods of objects given to it that it may call (a string's {@code toString()} of an
   * object, a function's {@code applyAsDouble}): its arguments must then be plain values.
   */
  private boolean mayChangeState(MethodInvocationTree call) {
    boolean outer = callees.libraryRuns;
    callees.libraryRuns = false;
    try {
      return callMayChangeState(call) || unread.countsAsChange() && callees.libraryRuns
          && !call.getArguments().stream().allMatch(values::isPlainValue);
    } finally {
      callees.libraryRuns = outer;
    }
  }

  private boolean callMayChangeState(MethodInvocationTree call) {
    ExpressionTree select = call.getMethodSelect();
    boolean firstMade = !call.getArguments().isEmpty()
        && body.made(call.getArguments().get(0), 1, new HashSet<>());
    if (select instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      if (name.equals("super") || name.equals("this")) {
        return false; // a constructor's first statement: read with the class's constructors
      }
      Symbols.CallTarget target = body.symbols.resolveUnqualifiedCall(name);
      if (target instanceof Symbols.CallTarget.MathFunction) {
        return name.equals("random");
      }
      if (target instanceof Symbols.CallTarget.OtherMethod other) {
        return anyMayChange(List.of(other.owner()), name, firstMade);
      }
      if (!(target instanceof Symbols.CallTarget.Imported imported)) {
        return unread.countsAsChange();
      }
      return anyMayChange(concat(imported.single(), imported.onDemand()), name, firstMade);
    }
    if (!(select instanceof MemberSelectTree member)) {
      return unread.countsAsChange();
    }
    String name = member.getIdentifier().toString();
    ExpressionTree receiver = unwrapped(member.getExpression());
    if (name.equals("clone") && call.getArguments().isEmpty() && body.isArray(receiver)) {
      return false; // a new array
    }
    Optional<TypeElement> differentiated = body.generatedFor(receiver);
    if (differentiated.isPresent()) {
      return generatedMemberMayChange(differentiated.get(), name, call.getArguments());
    }
    if (body.holdsOwnLambdas(receiver)) {
      return false; // runs code read in place
    }
    if (body.madeObject(receiver, new HashSet<>())) {
      callees.libraryRuns = true;
      return false; // changes only an object the body made
    }
    Optional<List<TypeElement>> classes = isSelf(receiver) ? body.self(receiver)
        : body.typeNamed(receiver).map(List::of).or(() -> body.classesOf(receiver));
    return classes.isEmpty() ? unread.countsAsChange()
        : anyMayChange(classes.get(), name, firstMade);
  }

  private boolean mayChangeState(NewClassTree creation) {
    if (creation.getClassBody() != null || creation.getEnclosingExpression() != null) {
      // an anonymous class's or an inner object's construction: not read
      return unread.countsAsChange();
    }
    Optional<TypeElement> type = body.typeNamed(withoutTypeArguments(creation.getIdentifier()));
    if (type.isEmpty()) {
      return unread.countsAsChange();
    }
    List<ExecutableElement> constructors =
        ElementFilter.constructorsIn(type.get().getEnclosedElements());
    return constructors.isEmpty() ? unread.countsAsChange() :
        constructors.stream().anyMatch(c -> callees.construction(c, creation).isPresent());
  }

  private boolean mayChangeState(MemberReferenceTree reference) {
    String name = reference.getName().toString();
    ExpressionTree qualifier = unwrapped(reference.getQualifierExpression());
    if (name.equals("<init>")) {
      return unread.countsAsChange(); // Type::new: not read
    }
    Optional<List<TypeElement>> classes = isSelf(qualifier) ? body.self(qualifier)
        : body.typeNamed(qualifier).map(List::of).or(() -> body.classesOf(qualifier));
    return classes.isEmpty() ? unread.countsAsChange() : anyMayChange(classes.get(), name, false);
  }

  /** Whether some method {@code name} of {@code classes} may change state, or none is. */
  private boolean anyMayChange(List<TypeElement> classes, String name, boolean firstMade) {
    boolean any = false;
    for (TypeElement type : classes) {
      for (ExecutableElement method : ElementFilter.methodsIn(body.elements.getAllMembers(type))) {
        if (method.getSimpleName().contentEquals(name)) {
          any = true;
          if (callees.mayChangeState(method, firstMade)) {
            return true;
          }
        }
      }
    }
    return !any && unread.countsAsChange();
  }
}
