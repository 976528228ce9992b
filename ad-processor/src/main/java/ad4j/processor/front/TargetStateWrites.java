package ad4j.processor.front;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The first place in a {@code @DerivativeOf} target's body that changes state outlasting the
 * call: a write to a field ({@code k++}, {@code this.total += x}, {@code Owner.k = 1}) or to an
 * element of an array the body did not make (a parameter's, a field's, one a local took from
 * them), or a call that may do so. Such a target gives another result, or changes something
 * again, each time it runs, and the members that make one sweep per slot call it in every
 * sweep ({@link RepeatedRuns}).
 *
 * <p>Read from the source text, without attribution (the same under ECJ's parsed trees): a name
 * that no local or parameter in scope declares is a field's. The calls the body makes are
 * followed into the bodies of the methods and constructors they may call that have source in
 * this compilation (every method of the name in the receiver's class, transitively; a method
 * already being read counts as changing nothing there, so recursion ends). A call of a method
 * without source is taken as harmless only when the JDK's method is known to change nothing
 * outside what the body made ({@code Math}'s functions but {@code random}, {@code String}, the
 * boxes, streams, {@code Arrays.stream} and copies, {@code Arrays.fill} of a local array):
 * anything else (a print, a draw, {@code Arrays.fill} of a field's array, a method of an
 * object whose class is unknown here, a method a subclass may override) may change state and
 * so counts as a write; so does a JDK method taken for harmless that is given an object (not a
 * number, string, box or array of them, nor a lambda or method reference of the body, read in
 * place), whose methods it may call ({@code String.valueOf(tag)}, {@code map(COUNT)}), and a
 * concatenation of such an object, which calls its {@code toString()}. The target itself,
 * without source, stays the user's word that it is a function of its arguments: its rules say
 * so, and the user can name a library method itself as the target.
 */
final class TargetStateWrites {
  /** JDK methods that write only the array given first: harmless where the body made it. */
  private static final Set<String> WRITE_FIRST_ARGUMENT = Set.of("java.util.Arrays.fill",
      "java.util.Arrays.setAll", "java.util.Arrays.sort", "java.util.Arrays.parallelPrefix",
      "java.util.Arrays.parallelSetAll", "java.util.Arrays.parallelSort");

  /** JDK methods that make a new array or list view and change nothing. */
  private static final Set<String> MAKE_NEW = Set.of("java.util.Arrays.stream",
      "java.util.Arrays.copyOf", "java.util.Arrays.copyOfRange",
      "java.util.Objects.isNull", "java.util.Objects.nonNull",
      "java.util.Objects.requireNonNull", "java.util.List.of", "java.util.List.copyOf",
      "java.util.Set.of", "java.util.Map.of", "java.util.Map.entry");

  /** JDK classes whose objects, made in the body, change nothing but themselves. */
  private static final Set<String> PLAIN_CONSTRUCTIONS = Set.of("java.lang.String",
      "java.lang.StringBuilder", "java.lang.Object", "java.util.ArrayList",
      "java.util.HashMap", "java.util.LinkedHashMap", "java.util.HashSet",
      "java.util.LinkedHashSet", "java.util.ArrayDeque", "java.util.TreeMap",
      "java.util.TreeSet", "java.util.LinkedList");

  private final Trees trees;
  private final Elements elements;
  private final Types types;
  /** Methods whose bodies are being read: a call of one of them adds nothing (recursion). */
  private final Set<ExecutableElement> reading = new HashSet<>();
  private final Map<ExecutableElement, Optional<Tree>> answers = new HashMap<>();
  /**
   * Whether the call being judged may run a JDK method taken for harmless, which may still
   * call methods of the objects it is given ({@code toString()}, a function's
   * {@code applyAsDouble}).
   */
  private boolean libraryRuns;

  /**
   * Whether code this cannot read (a method without source, one a subclass may override, a
   * call it cannot resolve) counts as changing state, or as changing none.
   */
  private final boolean strict;

  private TargetStateWrites(Trees trees, Elements elements, Types types, boolean strict) {
    this.trees = trees;
    this.elements = elements;
    this.types = types;
    this.strict = strict;
  }

  /**
   * The first such write or call of {@code target}'s body; empty without one, or without
   * source.
   */
  static Optional<Tree> first(Trees trees, Elements elements, Types types,
      ExecutableElement target) {
    return new TargetStateWrites(trees, elements, types, true).body(target)
        .orElse(Optional.empty());
  }

  /**
   * The first write of {@code rule}'s body, a {@code @DerivativeOf} rule, to state that
   * outlasts its call, or of a call it makes to a method whose body, read in source, makes one.
   * The user's method never runs a rule, and generated members run it, so any such write makes
   * them differ from the method. Code that cannot be read is taken for a function here (a
   * distribution's {@code density(x)} of a library): the rule is the user's word.
   */
  static Optional<Tree> ofRule(Trees trees, Elements elements, Types types,
      ExecutableElement rule) {
    return new TargetStateWrites(trees, elements, types, false).body(rule)
        .orElse(Optional.empty());
  }

  /** {@code change}'s text for a message: its first line, at most 60 characters of it. */
  static String shown(Tree change) {
    String text = change.toString().strip();
    int end = text.indexOf('\n');
    String line = end < 0 ? text : text.substring(0, end).strip();
    return line.length() <= 60 && end < 0 ? line
        : line.substring(0, Math.min(line.length(), 57)) + "...";
  }

  /**
   * The first write of {@code method}'s body, or of a method it calls; an empty outer optional
   * when the method has no body in source.
   */
  private Optional<Optional<Tree>> body(ExecutableElement method) {
    TreePath path = trees.getPath(method);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree) || tree.getBody() == null
        || !(method.getEnclosingElement() instanceof TypeElement owner)) {
      return Optional.empty();
    }
    Optional<Tree> known = answers.get(method);
    if (known != null) {
      return Optional.of(known);
    }
    if (!reading.add(method)) {
      return Optional.of(Optional.empty()); // judged where its reading began
    }
    try {
      Symbols symbols = new Symbols(elements, types, owner, path.getCompilationUnit());
      Body body = new Body(symbols, owner, tree, method.getKind() == ElementKind.CONSTRUCTOR);
      Optional<Tree> found = body.firstWrite(new TreePath(path, tree.getBody()));
      if (found.isEmpty() && method.getKind() == ElementKind.CONSTRUCTOR) {
        found = beforeConstructorBody(owner, tree, body);
      }
      answers.put(method, found);
      return Optional.of(found);
    } finally {
      reading.remove(method);
    }
  }

  /**
   * What a constructor runs before its body: the superclass's constructor an implicit
   * {@code super()} calls, and the instance initializers and field initializers of its class.
   */
  private Optional<Tree> beforeConstructorBody(TypeElement owner, MethodTree constructor,
      Body body) {
    boolean explicit = constructor.getBody().getStatements().stream().findFirst()
        .filter(first -> first instanceof com.sun.source.tree.ExpressionStatementTree statement
            && statement.getExpression() instanceof MethodInvocationTree call
            && call.getMethodSelect() instanceof IdentifierTree name
            && (name.getName().contentEquals("super") || name.getName().contentEquals("this")))
        .isPresent();
    if (!explicit && owner.getSuperclass() instanceof DeclaredType declared
        && declared.asElement() instanceof TypeElement superclass) {
      for (ExecutableElement made
          : ElementFilter.constructorsIn(superclass.getEnclosedElements())) {
        if (made.getParameters().isEmpty()) {
          Optional<Tree> found = construction(made, constructor);
          if (found.isPresent()) {
            return found;
          }
        }
      }
    }
    TreePath path = trees.getPath(owner);
    if (path == null || !(path.getLeaf() instanceof ClassTree type)) {
      return Optional.empty();
    }
    for (Tree member : type.getMembers()) {
      TreePath initializer = member instanceof BlockTree block && !block.isStatic()
          ? new TreePath(path, block)
          : member instanceof VariableTree field && field.getInitializer() != null
              && !field.getModifiers().getFlags().contains(Modifier.STATIC)
              ? new TreePath(new TreePath(path, field), field.getInitializer()) : null;
      Optional<Tree> found = initializer == null ? Optional.empty()
          : body.firstWrite(initializer);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** {@code at} if running {@code constructor} may change state: one of the JDK's or read. */
  private Optional<Tree> construction(ExecutableElement constructor, Tree at) {
    TypeElement type = (TypeElement) constructor.getEnclosingElement();
    String name = type.getQualifiedName().toString();
    if (PLAIN_CONSTRUCTIONS.contains(name) || name.equals("java.lang.Record")
        || LaunderedDependence.readsArgumentsOnly(type) || isThrowable(type)) {
      return Optional.empty();
    }
    return body(constructor).map(found -> found.map(write -> at))
        .orElse(strict ? Optional.of(at) : Optional.empty());
  }

  /** An exception or error: made to be thrown, which ends the @Differentiable method's call. */
  private boolean isThrowable(TypeElement type) {
    TypeElement throwable = elements.getTypeElement("java.lang.Throwable");
    return throwable != null && types.isSubtype(types.erasure(type.asType()),
        types.erasure(throwable.asType()));
  }

  /**
   * Whether a call of {@code method} (or a reference to it) from a body may change state
   * outlasting that body's call; {@code firstArgumentMade} says whether the call's first
   * argument is an array the body made.
   */
  private boolean mayChangeState(ExecutableElement method, boolean firstArgumentMade) {
    if (!(method.getEnclosingElement() instanceof TypeElement owner)) {
      return strict;
    }
    String qualified = owner.getQualifiedName() + "." + method.getSimpleName();
    if (ArgumentOnlyMethods.isArgumentOnlyLibraryMethod(method)
        || LaunderedDependence.onlyReads(method) || MAKE_NEW.contains(qualified)
        || WRITE_FIRST_ARGUMENT.contains(qualified) && firstArgumentMade
        || !StaticMembers.isStatic(method) && LaunderedDependence.readsArgumentsOnly(owner)
            && !method.getSimpleName().contentEquals("random")
        || isStreamMethod(owner)) {
      // a parameter of a class of objects: it may call their methods ('valueOf(Object)')
      libraryRuns |= method.getParameters().stream().anyMatch(p -> !isPlainType(p.asType()));
      return false; // a lambda or method reference given to it is read where it is written
    }
    if (strict && OverridableMethods.mayBeOverridden(method)) {
      return true; // an object of a subclass may run another body
    }
    return body(method).map(Optional::isPresent).orElse(strict);
  }

  /** A type of {@code java.util.stream}: its methods change nothing but the stream's state. */
  private boolean isStreamMethod(TypeElement owner) {
    PackageElement pkg = elements.getPackageOf(owner);
    return pkg.getQualifiedName().contentEquals("java.util.stream");
  }

  /** One body: its parameters and locals, the arrays it made, and what it writes and calls. */
  private final class Body {
    private final Symbols symbols;
    private final TypeElement owner;
    private final boolean constructor;
    private final Set<String> parameters = new HashSet<>();
    /** Each local's declaration: its type, or its initializer for 'var'. */
    private final Map<String, VariableTree> locals = new HashMap<>();
    /** Every value assigned to each local, its initializer included. */
    private final Map<String, List<ExpressionTree>> values = new HashMap<>();
    /** Names declared more than once (in blocks apart): their class is not known here. */
    private final Set<String> redeclared = new HashSet<>();
    /** Locals given values the body does not write: loop variables, lambdas' parameters. */
    private final Set<String> implicit = new HashSet<>();

    Body(Symbols symbols, TypeElement owner, MethodTree method, boolean constructor) {
      this.symbols = symbols;
      this.owner = owner;
      this.constructor = constructor;
      method.getParameters().forEach(p -> parameters.add(p.getName().toString()));
      method.getParameters().forEach(p -> locals.put(p.getName().toString(), p));
      new TreeScanner<Void, Void>() {
        @Override
        public Void visitVariable(VariableTree variable, Void unused) {
          String name = variable.getName().toString();
          if (locals.put(name, variable) != null) { // locals, lambdas' and catches' parameters
            redeclared.add(name);
          }
          if (variable.getInitializer() != null) {
            values.computeIfAbsent(name, n -> new ArrayList<>()).add(variable.getInitializer());
          }
          return super.visitVariable(variable, unused);
        }

        @Override
        public Void visitEnhancedForLoop(EnhancedForLoopTree loop, Void unused) {
          implicit.add(loop.getVariable().getName().toString());
          return super.visitEnhancedForLoop(loop, unused);
        }

        @Override
        public Void visitLambdaExpression(LambdaExpressionTree lambda, Void unused) {
          lambda.getParameters().forEach(p -> implicit.add(p.getName().toString()));
          return super.visitLambdaExpression(lambda, unused);
        }

        @Override
        public Void visitAssignment(AssignmentTree assignment, Void unused) {
          if (unwrapped(assignment.getVariable()) instanceof IdentifierTree name) {
            values.computeIfAbsent(name.getName().toString(), n -> new ArrayList<>())
                .add(assignment.getExpression());
          }
          return super.visitAssignment(assignment, unused);
        }
      }.scan(method.getBody(), null);
    }

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
          if (found[0] == null && strict && assignment.getKind() == Tree.Kind.PLUS_ASSIGNMENT
              && isString(assignment.getVariable())
              && !isPlainValue(assignment.getExpression())) {
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
          if (found[0] == null && strict && binary.getKind() == Tree.Kind.PLUS
              && (isString(binary.getLeftOperand())
                  && !isPlainValue(binary.getRightOperand())
                  || isString(binary.getRightOperand())
                  && !isPlainValue(binary.getLeftOperand()))) {
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
            || !made(array, depth, new HashSet<>());
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

    /**
     * Whether a local or parameter named {@code name} is in scope at {@code at}: declared
     * before it in a block around it, by a loop, a lambda, a catch or a switch around it, or a
     * parameter of the method around it. Otherwise the name is a field's (a block's local of
     * that name may have ended: '{ int k = 0; } k++;').
     */
    private static boolean declaredInScope(TreePath at, String name) {
      Tree child = at.getLeaf();
      for (TreePath p = at.getParentPath(); p != null; child = p.getLeaf(), p = p.getParentPath()) {
        Tree tree = p.getLeaf();
        if (tree instanceof BlockTree block && declaresBefore(block.getStatements(), child, name)
            || tree instanceof CaseTree branch && branch.getStatements() != null
                && declaresBefore(branch.getStatements(), child, name)
            || tree instanceof SwitchTree choice && earlierCasesDeclare(choice.getCases(), child,
                name)
            || tree instanceof ForLoopTree loop
                && declaresBefore(loop.getInitializer(), null, name)
            || tree instanceof EnhancedForLoopTree loop && child != loop.getExpression()
                && loop.getVariable().getName().contentEquals(name)
            || tree instanceof LambdaExpressionTree lambda && lambda.getParameters().stream()
                .anyMatch(parameter -> parameter.getName().contentEquals(name))
            || tree instanceof CatchTree handler
                && handler.getParameter().getName().contentEquals(name)
            || tree instanceof TryTree attempt
                && declaresBefore(attempt.getResources(), null, name)) {
          return true;
        }
        if (tree instanceof MethodTree method) {
          return method.getParameters().stream()
              .anyMatch(parameter -> parameter.getName().contentEquals(name));
        }
        if (tree instanceof ClassTree) {
          return false; // a field of the class, or of a class around it
        }
      }
      return false;
    }

    /** Whether {@code trees} declare {@code name} before {@code until} (null: any of them). */
    private static boolean declaresBefore(List<? extends Tree> trees, Tree until, String name) {
      for (Tree tree : trees) {
        if (tree == until) {
          return false;
        }
        if (tree instanceof VariableTree variable && variable.getName().contentEquals(name)) {
          return true;
        }
      }
      return false;
    }

    /** Whether the cases of a switch before the one holding {@code child} declare {@code name}. */
    private static boolean earlierCasesDeclare(List<? extends CaseTree> cases, Tree child,
        String name) {
      for (CaseTree branch : cases) {
        if (branch == child) {
          return false;
        }
        if (branch.getStatements() != null && declaresBefore(branch.getStatements(), null, name)) {
          return true;
        }
      }
      return false;
    }

    /** A field of the object a constructor makes. */
    private boolean isOwnInstanceField(String name) {
      return symbols.fieldOf(owner, name).filter(f -> !StaticMembers.isStatic(f)).isPresent();
    }

    /**
     * Whether {@code value} is surely an array the body made, and so are its elements down to
     * {@code depth} levels of it: {@code new double[n][m]}, an initializer of new arrays, a
     * copy ({@code .clone()}, {@code Arrays.copyOf}: its first level only), or a local given
     * only such values.
     */
    private boolean made(ExpressionTree value, int depth, Set<String> asked) {
      ExpressionTree v = unwrapped(value);
      if (depth <= 0) {
        return true;
      }
      if (v instanceof TypeCastTree cast) {
        return made(cast.getExpression(), depth, asked);
      }
      if (v instanceof NewArrayTree array) {
        return array.getInitializers() == null || array.getInitializers().stream()
            .allMatch(e -> made(e, depth - 1, asked));
      }
      if (v instanceof MethodInvocationTree call && depth == 1) {
        ExpressionTree select = call.getMethodSelect();
        if (select instanceof MemberSelectTree member && call.getArguments().isEmpty()
            && member.getIdentifier().contentEquals("clone")) {
          return isArray(member.getExpression());
        }
        return select instanceof MemberSelectTree member
            && Set.of("copyOf", "copyOfRange").contains(member.getIdentifier().toString())
            && isType(member.getExpression(), "java.util.Arrays");
      }
      if (v instanceof ArrayAccessTree element) {
        return made(element.getExpression(), depth + 1, asked);
      }
      if (v instanceof IdentifierTree name) {
        String local = name.getName().toString();
        if (!locals.containsKey(local) || parameters.contains(local) || implicit.contains(local)
            || !asked.add(local + "@" + depth)) {
          return false;
        }
        List<ExpressionTree> given = values.getOrDefault(local, List.of());
        return !given.isEmpty() && given.stream().allMatch(g -> made(g, depth, asked));
      }
      return false;
    }

    /** Whether {@code expression} is a local, parameter or field declared of an array type. */
    private boolean isArray(ExpressionTree expression) {
      if (!(unwrapped(expression) instanceof IdentifierTree name)) {
        return false;
      }
      VariableTree declared = locals.get(name.getName().toString());
      if (declared != null) {
        return declared.getType() != null
            && declared.getType().getKind() == Tree.Kind.ARRAY_TYPE;
      }
      return symbols.resolveField(name.getName().toString())
          .filter(field -> field.asType().getKind() == javax.lang.model.type.TypeKind.ARRAY)
          .isPresent();
    }

    /**
     * Whether {@code value} is an object of the JDK's plain classes ({@code StringBuilder},
     * {@code ArrayList}, ...) that the body made: {@code new StringBuilder()}, a call of one of
     * its methods that returns the builder itself ({@code append}), or a local given only such
     * values. Its methods change that object alone.
     */
    private boolean madeObject(ExpressionTree value, Set<String> asked) {
      ExpressionTree v = unwrapped(value);
      if (v instanceof NewClassTree creation) {
        return creation.getClassBody() == null && creation.getEnclosingExpression() == null
            && typeNamed(withoutTypeArguments(creation.getIdentifier()))
                .filter(t -> PLAIN_CONSTRUCTIONS.contains(t.getQualifiedName().toString()))
                .isPresent();
      }
      if (v instanceof MethodInvocationTree call
          && call.getMethodSelect() instanceof MemberSelectTree member
          && Set.of("of", "copyOf").contains(member.getIdentifier().toString())) {
        // an unmodifiable collection of the JDK: its methods change nothing
        return typeNamed(member.getExpression()).filter(t -> Set.of("java.util.List",
            "java.util.Set", "java.util.Map").contains(t.getQualifiedName().toString()))
            .isPresent();
      }
      if (v instanceof MethodInvocationTree call
          && call.getMethodSelect() instanceof MemberSelectTree member
          && madeObject(member.getExpression(), asked)) {
        // StringBuilder's append, insert, reverse ... give the builder back
        Optional<List<TypeElement>> receiver = classesOf(member.getExpression());
        return receiver.isPresent() && receiver.get().size() == 1
            && receiver.get().get(0).getQualifiedName().contentEquals("java.lang.StringBuilder")
            && ElementFilter.methodsIn(receiver.get().get(0).getEnclosedElements()).stream()
                .filter(m -> m.getSimpleName().contentEquals(member.getIdentifier()))
                .allMatch(m -> types.isSameType(types.erasure(m.getReturnType()),
                    types.erasure(receiver.get().get(0).asType())));
      }
      if (v instanceof IdentifierTree name) {
        String local = name.getName().toString();
        if (!locals.containsKey(local) || parameters.contains(local) || implicit.contains(local)
            || !asked.add(local)) {
          return false;
        }
        List<ExpressionTree> given = values.getOrDefault(local, List.of());
        return !given.isEmpty() && given.stream().allMatch(g -> madeObject(g, asked));
      }
      return false;
    }

    /**
     * Whether {@code receiver} is a local given only lambdas and method references written in
     * the body, whose code is read where it is written.
     */
    private boolean holdsOwnLambdas(ExpressionTree receiver) {
      if (!(unwrapped(receiver) instanceof IdentifierTree name)) {
        return false;
      }
      String local = name.getName().toString();
      List<ExpressionTree> given = values.getOrDefault(local, List.of());
      return locals.containsKey(local) && !parameters.contains(local)
          && !implicit.contains(local) && !given.isEmpty()
          && given.stream().map(TargetStateWrites::unwrapped).allMatch(g ->
              g instanceof LambdaExpressionTree || g instanceof MemberReferenceTree);
    }

    /**
     * The class whose generated class {@code qualifier} names ({@code RulesGrad} of
     * {@code Rules}), which may not exist yet while this round generates it.
     */
    private Optional<TypeElement> generatedFor(ExpressionTree qualifier) {
      if (!(qualifier instanceof IdentifierTree name) || !name.getName().toString()
          .endsWith("Grad") || locals.containsKey(name.getName().toString())
          || symbols.resolveField(name.getName().toString()).isPresent()) {
        return Optional.empty();
      }
      String simple = name.getName().toString();
      Optional<TypeElement> user = symbols.resolveSimpleType(
          simple.substring(0, simple.length() - "Grad".length()).replace('_', '.'))
          .or(() -> GradClassNames.gradSimpleName(elements, owner).equals(simple)
              ? Optional.of(owner) : Optional.empty());
      return user.filter(u -> GradClassNames.gradSimpleName(elements, u).equals(simple));
    }

    /**
     * Whether the generated member {@code member} of {@code user}'s class may change state: it
     * runs the code of a method of {@code user} whose name begins its own, and writes the
     * arrays it is given for results (a gradient, a Hessian), harmless where the body made them.
     */
    private boolean generatedMemberMayChange(TypeElement user, String member,
        List<? extends ExpressionTree> arguments) {
      for (ExpressionTree argument : arguments) {
        if (strict && unwrapped(argument) instanceof IdentifierTree name && isArray(name)
            && !made(name, 1, new HashSet<>())) {
          return true;
        }
      }
      boolean any = false;
      for (ExecutableElement method : ElementFilter.methodsIn(user.getEnclosedElements())) {
        if (member.startsWith(method.getSimpleName().toString())) {
          any = true;
          if (TargetStateWrites.this.mayChangeState(method, false)) {
            return true;
          }
        }
      }
      return !any && strict;
    }

    /** The class {@code this} or {@code super} calls a method of. */
    private Optional<List<TypeElement>> self(ExpressionTree receiver) {
      if (((IdentifierTree) receiver).getName().contentEquals("this")) {
        return Optional.of(List.of(owner));
      }
      return classOf(owner.getSuperclass()).map(List::of);
    }

    /** {@code this} or {@code super}. */
    private static boolean isSelf(ExpressionTree receiver) {
      return receiver instanceof IdentifierTree self
          && (self.getName().contentEquals("this") || self.getName().contentEquals("super"));
    }

    /** Whether {@code name} names the class {@code qualified} (not a local or a field). */
    private boolean isType(ExpressionTree name, String qualified) {
      return typeNamed(name).filter(t -> t.getQualifiedName().contentEquals(qualified))
          .isPresent();
    }

    /** The type a qualifier names, when it is no local's or field's name. */
    private Optional<TypeElement> typeNamed(ExpressionTree qualifier) {
      ExpressionTree first = qualifier;
      while (first instanceof MemberSelectTree select) {
        first = select.getExpression();
      }
      if (qualifier == null || !Symbols.isName(qualifier)
          || !(first instanceof IdentifierTree name)
          || locals.containsKey(name.getName().toString())
          || symbols.resolveField(name.getName().toString()).isPresent()) {
        return Optional.empty();
      }
      return symbols.resolveType(qualifier);
    }

    /**
     * Whether {@code call} may change state: by what it calls, or, for a JDK method, by the
     * methods of objects given to it that it may call (a string's {@code toString()} of an
     * object, a function's {@code applyAsDouble}): its arguments must then be plain values.
     */
    private boolean mayChangeState(MethodInvocationTree call) {
      boolean outer = libraryRuns;
      libraryRuns = false;
      try {
        return callMayChangeState(call) || strict && libraryRuns
            && !call.getArguments().stream().allMatch(this::isPlainValue);
      } finally {
        libraryRuns = outer;
      }
    }

    /**
     * Whether {@code value} is a number, a boolean, a string, a box, an array of such, or
     * code read in place (a lambda, a method reference): nothing whose methods a JDK method
     * could call to run code of the sources.
     */
    private boolean isPlainValue(ExpressionTree value) {
      ExpressionTree v = unwrapped(value);
      if (v instanceof com.sun.source.tree.LiteralTree || v instanceof LambdaExpressionTree
          || v instanceof MemberReferenceTree || v instanceof NewArrayTree) {
        return true;
      }
      if (v instanceof TypeCastTree cast) {
        return cast.getType().getKind() == Tree.Kind.PRIMITIVE_TYPE
            || isPlainValue(cast.getExpression());
      }
      if (v instanceof com.sun.source.tree.BinaryTree binary) {
        return binary.getKind() != Tree.Kind.PLUS
            || isPlainValue(binary.getLeftOperand()) && isPlainValue(binary.getRightOperand());
      }
      if (v instanceof UnaryTree || v instanceof com.sun.source.tree.InstanceOfTree) {
        return true;
      }
      if (v instanceof com.sun.source.tree.ConditionalExpressionTree choice) {
        return isPlainValue(choice.getTrueExpression())
            && isPlainValue(choice.getFalseExpression());
      }
      if (v instanceof ArrayAccessTree element) {
        ExpressionTree array = unwrapped(element.getExpression());
        return array instanceof IdentifierTree name && declaredType(name).filter(type ->
            type instanceof javax.lang.model.type.ArrayType && isPlainType(type)).isPresent();
      }
      if (v instanceof IdentifierTree name) {
        return declaredType(name).filter(TargetStateWrites.this::isPlainType).isPresent();
      }
      if (v instanceof MemberSelectTree select) {
        if (select.getIdentifier().contentEquals("length")) {
          return true;
        }
        Optional<List<TypeElement>> base = typeNamed(select.getExpression()).map(List::of)
            .or(() -> classesOf(select.getExpression()));
        return base.isPresent() && base.get().size() == 1
            && symbols.fieldOf(base.get().get(0), select.getIdentifier().toString())
                .filter(field -> isPlainType(field.asType())).isPresent();
      }
      if (v instanceof MethodInvocationTree call) {
        return returnTypes(call).filter(all -> all.stream()
            .allMatch(TargetStateWrites.this::isPlainType)).isPresent();
      }
      return false;
    }

    /** Whether {@code value} is surely a string: a literal, or a name declared so. */
    private boolean isString(ExpressionTree value) {
      ExpressionTree v = unwrapped(value);
      if (v.getKind() == Tree.Kind.STRING_LITERAL) {
        return true;
      }
      if (v instanceof com.sun.source.tree.BinaryTree binary
          && binary.getKind() == Tree.Kind.PLUS) {
        return isString(binary.getLeftOperand()) || isString(binary.getRightOperand());
      }
      return v instanceof IdentifierTree name && declaredType(name).flatMap(t -> classOf(t))
          .filter(t -> t.getQualifiedName().contentEquals("java.lang.String")).isPresent();
    }

    /** The declared type of a local, parameter or field named so; empty when unknown. */
    private Optional<TypeMirror> declaredType(IdentifierTree name) {
      String n = name.getName().toString();
      VariableTree local = locals.get(n);
      if (local != null) {
        if (redeclared.contains(n) || local.getType() == null) {
          return Optional.empty();
        }
        Tree type = local.getType();
        int dimensions = 0;
        while (type instanceof com.sun.source.tree.ArrayTypeTree array) {
          type = array.getType();
          dimensions++;
        }
        Optional<TypeMirror> element = type instanceof com.sun.source.tree.PrimitiveTypeTree
            primitive ? Optional.of(types.getPrimitiveType(primitive.getPrimitiveTypeKind()))
            : typeNamed(withoutTypeArguments(type)).map(t -> types.erasure(t.asType()));
        for (int i = 0; i < dimensions && element.isPresent(); i++) {
          element = Optional.of(types.getArrayType(element.get()));
        }
        return element;
      }
      return symbols.resolveField(n).map(field -> field.asType());
    }

    /** What the methods {@code call} may call return; empty when they are not known. */
    private Optional<List<TypeMirror>> returnTypes(MethodInvocationTree call) {
      ExpressionTree select = call.getMethodSelect();
      List<TypeElement> classes;
      String name;
      if (select instanceof IdentifierTree identifier) {
        name = identifier.getName().toString();
        Symbols.CallTarget target = symbols.resolveUnqualifiedCall(name);
        if (target instanceof Symbols.CallTarget.MathFunction) {
          return Optional.of(List.of(types.getPrimitiveType(javax.lang.model.type.TypeKind
              .DOUBLE)));
        }
        if (!(target instanceof Symbols.CallTarget.OtherMethod other)) {
          return Optional.empty();
        }
        classes = List.of(other.owner());
      } else if (select instanceof MemberSelectTree member) {
        name = member.getIdentifier().toString();
        ExpressionTree receiver = unwrapped(member.getExpression());
        Optional<List<TypeElement>> found = isSelf(receiver) ? self(receiver)
            : typeNamed(receiver).map(List::of).or(() -> classesOf(receiver));
        if (found.isEmpty()) {
          return Optional.empty();
        }
        classes = found.get();
      } else {
        return Optional.empty();
      }
      List<TypeMirror> results = new ArrayList<>();
      for (TypeElement type : classes) {
        for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(type))) {
          if (method.getSimpleName().contentEquals(name)) {
            results.add(method.getReturnType());
          }
        }
      }
      return results.isEmpty() ? Optional.empty() : Optional.of(results);
    }

    private boolean callMayChangeState(MethodInvocationTree call) {
      ExpressionTree select = call.getMethodSelect();
      boolean firstMade = !call.getArguments().isEmpty()
          && made(call.getArguments().get(0), 1, new HashSet<>());
      if (select instanceof IdentifierTree identifier) {
        String name = identifier.getName().toString();
        if (name.equals("super") || name.equals("this")) {
          return false; // a constructor's first statement: read with the class's constructors
        }
        Symbols.CallTarget target = symbols.resolveUnqualifiedCall(name);
        if (target instanceof Symbols.CallTarget.MathFunction) {
          return name.equals("random");
        }
        if (target instanceof Symbols.CallTarget.OtherMethod other) {
          return anyMayChange(List.of(other.owner()), name, firstMade);
        }
        if (!(target instanceof Symbols.CallTarget.Imported imported)) {
          return strict;
        }
        return anyMayChange(concat(imported.single(), imported.onDemand()), name, firstMade);
      }
      if (!(select instanceof MemberSelectTree member)) {
        return strict;
      }
      String name = member.getIdentifier().toString();
      ExpressionTree receiver = unwrapped(member.getExpression());
      if (name.equals("clone") && call.getArguments().isEmpty() && isArray(receiver)) {
        return false; // a new array
      }
      Optional<TypeElement> differentiated = generatedFor(receiver);
      if (differentiated.isPresent()) {
        return generatedMemberMayChange(differentiated.get(), name, call.getArguments());
      }
      if (holdsOwnLambdas(receiver)) {
        return false; // runs code read in place
      }
      if (madeObject(receiver, new HashSet<>())) {
        libraryRuns = true;
        return false; // changes only an object the body made
      }
      Optional<List<TypeElement>> classes = isSelf(receiver) ? self(receiver)
          : typeNamed(receiver).map(List::of).or(() -> classesOf(receiver));
      return classes.isEmpty() ? strict : anyMayChange(classes.get(), name, firstMade);
    }

    private boolean mayChangeState(NewClassTree creation) {
      if (creation.getClassBody() != null || creation.getEnclosingExpression() != null) {
        return strict; // an anonymous class's or an inner object's construction: not read
      }
      Optional<TypeElement> type = typeNamed(withoutTypeArguments(creation.getIdentifier()));
      if (type.isEmpty()) {
        return strict;
      }
      List<ExecutableElement> constructors =
          ElementFilter.constructorsIn(type.get().getEnclosedElements());
      return constructors.isEmpty() ? strict :
          constructors.stream().anyMatch(c -> construction(c, creation).isPresent());
    }

    private boolean mayChangeState(MemberReferenceTree reference) {
      String name = reference.getName().toString();
      ExpressionTree qualifier = unwrapped(reference.getQualifierExpression());
      if (name.equals("<init>")) {
        return strict; // Type::new: not read
      }
      Optional<List<TypeElement>> classes = isSelf(qualifier) ? self(qualifier)
          : typeNamed(qualifier).map(List::of).or(() -> classesOf(qualifier));
      return classes.isEmpty() ? strict : anyMayChange(classes.get(), name, false);
    }

    /** Whether some method {@code name} of {@code classes} may change state, or none is. */
    private boolean anyMayChange(List<TypeElement> classes, String name, boolean firstMade) {
      boolean any = false;
      for (TypeElement type : classes) {
        for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(type))) {
          if (method.getSimpleName().contentEquals(name)) {
            any = true;
            if (TargetStateWrites.this.mayChangeState(method, firstMade)) {
              return true;
            }
          }
        }
      }
      return !any && strict;
    }

    /**
     * The class of the object {@code receiver} gives, when it is known here: a local or a
     * parameter declared with a class, a field, a new object, a string, or the result of a
     * call whose methods of that name all return one class.
     */
    private Optional<List<TypeElement>> classesOf(ExpressionTree receiver) {
      ExpressionTree r = unwrapped(receiver);
      if (r.getKind() == Tree.Kind.STRING_LITERAL) {
        return Optional.of(List.of(elements.getTypeElement("java.lang.String")));
      }
      if (r instanceof IdentifierTree name) {
        VariableTree local = locals.get(name.getName().toString());
        if (local != null && redeclared.contains(name.getName().toString())) {
          return Optional.empty();
        }
        if (local != null) {
          if (local.getType() != null) {
            return typeNamed(withoutTypeArguments(local.getType())).map(List::of);
          }
          List<ExpressionTree> given = values.getOrDefault(name.getName().toString(), List.of());
          return given.size() == 1 && !implicit.contains(name.getName().toString())
              ? classesOf(given.get(0)) : Optional.empty();
        }
        return symbols.resolveField(name.getName().toString())
            .flatMap(field -> classOf(field.asType())).map(List::of);
      }
      if (r instanceof MemberSelectTree select) {
        Optional<List<TypeElement>> base = typeNamed(select.getExpression()).map(List::of)
            .or(() -> classesOf(select.getExpression()));
        if (base.isEmpty() || base.get().size() != 1) {
          return Optional.empty();
        }
        return symbols.fieldOf(base.get().get(0), select.getIdentifier().toString())
            .flatMap(field -> classOf(field.asType())).map(List::of);
      }
      if (r instanceof NewClassTree creation && creation.getClassBody() == null) {
        return typeNamed(withoutTypeArguments(creation.getIdentifier())).map(List::of);
      }
      if (r instanceof MethodInvocationTree call
          && call.getMethodSelect() instanceof MemberSelectTree member) {
        Optional<List<TypeElement>> base = typeNamed(member.getExpression()).map(List::of)
            .or(() -> classesOf(member.getExpression()));
        if (base.isEmpty()) {
          return Optional.empty();
        }
        Set<TypeElement> results = new java.util.LinkedHashSet<>();
        for (TypeElement type : base.get()) {
          for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(type))) {
            if (method.getSimpleName().contentEquals(member.getIdentifier())) {
              Optional<TypeElement> result = classOf(method.getReturnType());
              if (result.isEmpty()) {
                return Optional.empty();
              }
              results.add(result.get());
            }
          }
        }
        return results.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(results));
      }
      return Optional.empty();
    }
  }

  /**
   * A primitive type, {@code String}, a box, or an array of them: the JDK's code calls no
   * method of the sources on such a value.
   */
  private boolean isPlainType(TypeMirror type) {
    TypeMirror element = type;
    while (element instanceof javax.lang.model.type.ArrayType array) {
      element = array.getComponentType();
    }
    return element.getKind().isPrimitive() || classOf(element)
        .filter(t -> LaunderedDependence.readsArgumentsOnly(t)
            && !t.getQualifiedName().contentEquals("java.lang.Math")
            && !t.getQualifiedName().contentEquals("java.lang.StrictMath")).isPresent();
  }

  /** The class of a declared type; empty for arrays, primitives and type variables. */
  private Optional<TypeElement> classOf(TypeMirror type) {
    return type instanceof DeclaredType declared
        && declared.asElement() instanceof TypeElement element
        ? Optional.of(element) : Optional.empty();
  }

  private static ExpressionTree withoutTypeArguments(Tree type) {
    return type instanceof ParameterizedTypeTree parameterized
        ? (ExpressionTree) parameterized.getType()
        : type instanceof ExpressionTree expression ? expression : null;
  }

  private static List<TypeElement> concat(List<TypeElement> a, List<TypeElement> b) {
    List<TypeElement> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static ExpressionTree unwrapped(ExpressionTree tree) {
    ExpressionTree e = tree;
    while (e instanceof ParenthesizedTree parenthesized) {
      e = parenthesized.getExpression();
    }
    return e;
  }
}
