package ad4j.processor.front;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Whether initialising a class runs only the JDK's code, so that it cannot reach a generated
 * class: what {@link PrivateFields} asks before the generated class copies a private static
 * final field once, when it is initialised. A class whose initialisation calls its generated
 * class ({@code static final double EARLY = StatsGrad.fGradient(2)[0];}), or code of the
 * user's that may, initialises the generated class while its own fields are not all set yet:
 * a copy taken then would keep a default value for good, where the method reads the value the
 * field holds. Such a class's fields are read where the method reads them instead.
 *
 * <p>The rule is syntactic and errs towards "no": the class's superclass is {@code Object} or
 * {@code Record} and its interfaces are the JDK's (initialising a class initialises its
 * superclass first), and its static initializers and static fields' initializers call only
 * methods and constructors of a short list of the JDK's classes that compute values and load no
 * class they are given or configured ({@code Math}, {@code String}, the boxes,
 * {@code StringBuilder}, {@code Arrays}, {@code Objects}, the collections' factories,
 * {@code BigInteger}, {@code BigDecimal}: {@link #COMPUTING_CLASSES}), static ones or
 * {@code String}'s, and read only its own fields, the JDK's and compile-time constants. Other
 * JDK code may reach the user's classes: {@code Class.forName}, reflection, method handles,
 * service loaders, resource bundles, and loggers, whose configuration names handler classes.
 * Anything else (a method of the user's, a lambda or method reference of one, an object of the
 * user's made, another class's field read, enum constants) makes the answer "no", as does a
 * class without source here.
 */
public final class StaticInitialization {
  private StaticInitialization() {}

  /** Whether initialising {@code type} runs only the JDK's code. */
  static boolean onlyJdkCode(TypeElement type, Trees trees) {
    if (!isPlainSuperclass(type.getSuperclass())
        || !type.getInterfaces().stream().allMatch(StaticInitialization::isJdkType)) {
      return false;
    }
    TreePath path = trees.getPath(type);
    if (path == null || !(path.getLeaf() instanceof ClassTree declaration)
        || attributingBreaksARecord(path, trees)) {
      return false;
    }
    for (Tree member : declaration.getMembers()) {
      if (runsWhenInitialized(member)
          && !onlyJdkCode(new TreePath(path, member), type, trees)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code member} runs when its class is initialised: a static initializer, or a static
   * field's initializer.
   */
  private static boolean runsWhenInitialized(Tree member) {
    return member instanceof BlockTree block && block.isStatic()
        || member instanceof VariableTree field
            && field.getModifiers().getFlags().contains(Modifier.STATIC)
            && field.getInitializer() != null;
  }

  /**
   * Whether the generated class must initialise {@code type} before the members of its static
   * methods run: calling a static method initialises its class first (JLS 12.4.1), whose
   * initialisation may do what the method then reads (a static initializer setting another
   * class's field) or what a caller sees (a log line), and a generated member reads nothing of
   * {@code type} that would initialise it. Not needed where initialising it runs only the
   * JDK's computing code ({@link #onlyJdkCode}), and not possible where generated code cannot
   * name it (a compact source file's class).
   */
  public static boolean mustInitializeFirst(TypeElement type, Elements elements, Types types,
      Trees trees) {
    Element outer = type;
    while (!(outer instanceof PackageElement)) {
      outer = outer.getEnclosingElement();
    }
    String packageName = ((PackageElement) outer).getQualifiedName().toString();
    return (attributed(type, trees) ? !onlyJdkCode(type, trees) : runsCode(type, trees))
        && new Reachability(elements, types, trees, packageName).ofType(type).isEmpty();
  }

  /**
   * Whether initialising {@code type}, a class whose code generated code inlines (a value
   * record made or whose static method is called, a function's class made), may do something
   * the method reads or its caller sees: generated code does not initialise it where the method
   * does ({@code new R(...)} initialises {@code R} first, JLS 12.4.1), so its initializer might
   * not have run yet when the inlined code runs. As {@link #mustInitializeFirst} judges the
   * method's own class, except that a static field holding a record made of constants by the
   * constructor the compiler wrote ({@code static final Vec ZERO = new Vec(0, 0)}), a lambda or
   * a type's method reference held in a static field, and a user's interface declaring only
   * constants are taken for harmless: they run no code of the user's.
   */
  static boolean inlinedInitializationMayMatter(TypeElement type, Trees trees,
      Elements elements) {
    return !harmlessWhenInlined(type, trees, elements, new java.util.HashSet<>());
  }

  private static boolean harmlessWhenInlined(TypeElement type, Trees trees, Elements elements,
      java.util.Set<TypeElement> seen) {
    if (!seen.add(type)) {
      return true; // being judged further out: its other members decide
    }
    TreePath path = trees.getPath(type);
    if (!isPlainSuperclass(type.getSuperclass()) || path == null
        || !(path.getLeaf() instanceof ClassTree declaration)
        || !type.getInterfaces().stream().allMatch(i -> declaresOnlyConstants(i, trees))) {
      return false;
    }
    boolean attributed = attributed(type, trees) && !attributingBreaksARecord(path, trees);
    for (Tree member : declaration.getMembers()) {
      if (!runsWhenInitialized(member)
          || attributed && onlyJdkCode(new TreePath(path, member), type, trees)) {
        continue;
      }
      // a static initializer that is not the JDK's code; a field's initializer may still be
      // one that runs nothing of the user's
      if (!(member instanceof VariableTree field) || !isConstant(type, field)
          && !(field.getInitializer() instanceof LambdaExpressionTree)
          && !(attributed && isTypeMethodReference(new TreePath(new TreePath(path, member),
              field.getInitializer()), trees))
          && !madeOfConstants(field.getInitializer(), type, trees, elements, seen)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code initializer} is {@code new R(...)} of literals (signed ones too) for a record
   * {@code R} with no constructor of its own whose initialisation is harmless as well: named
   * by its simple name, which under ECJ's unattributed trees is all there is to go by, so only
   * {@code type} itself or a record nested in it counts.
   */
  private static boolean madeOfConstants(Tree initializer, TypeElement type, Trees trees,
      Elements elements, java.util.Set<TypeElement> seen) {
    if (!(initializer instanceof NewClassTree made) || made.getClassBody() != null
        || made.getEnclosingExpression() != null
        || !(made.getIdentifier() instanceof IdentifierTree name)
        || !made.getArguments().stream().allMatch(StaticInitialization::isLiteral)) {
      return false;
    }
    TypeElement record = type.getSimpleName().contentEquals(name.getName()) ? type
        : ElementFilter.typesIn(type.getEnclosedElements()).stream()
            .filter(nested -> nested.getSimpleName().contentEquals(name.getName()))
            .findFirst().orElse(null);
    return record != null && record.getKind() == ElementKind.RECORD
        && ElementFilter.constructorsIn(record.getEnclosedElements())
            .stream().allMatch(c -> elements.getOrigin(c) != Elements.Origin.EXPLICIT)
        && harmlessWhenInlined(record, trees, elements, seen);
  }

  /**
   * Whether {@code path} is a method reference of a type's method ({@code Math::sin},
   * {@code Fn::sq}): making it runs nothing, where one of an object evaluates the object.
   */
  private static boolean isTypeMethodReference(TreePath path, Trees trees) {
    return path.getLeaf() instanceof MemberReferenceTree reference
        && trees.getElement(new TreePath(path, reference.getQualifierExpression()))
            instanceof TypeElement;
  }

  private static boolean isLiteral(Tree argument) {
    Tree plain = argument;
    while (plain instanceof com.sun.source.tree.UnaryTree unary
        && (unary.getKind() == Tree.Kind.UNARY_MINUS || unary.getKind() == Tree.Kind.UNARY_PLUS)) {
      plain = unary.getExpression();
    }
    return plain instanceof com.sun.source.tree.LiteralTree;
  }

  /**
   * Whether interface {@code type} is the JDK's, or a user's whose fields are all constants and
   * whose superinterfaces are such too: its initialisation, when a class's brings it about,
   * runs nothing.
   */
  private static boolean declaresOnlyConstants(TypeMirror type, Trees trees) {
    if (isJdkType(type)) {
      return true;
    }
    TypeElement element = (TypeElement) ((DeclaredType) type).asElement();
    return trees.getPath(element) != null
        && ElementFilter.fieldsIn(element.getEnclosedElements()).stream()
            .allMatch(field -> field.getConstantValue() != null)
        && element.getInterfaces().stream().allMatch(i -> declaresOnlyConstants(i, trees));
  }

  /** Whether {@code trees} are attributed (javac's), so that they name what their names mean. */
  private static boolean attributed(TypeElement type, Trees trees) {
    TreePath path = trees.getPath(type);
    return path != null && trees.getElement(path) != null;
  }

  /**
   * For trees without attribution (ECJ's), where the scan of {@link #onlyJdkCode} cannot tell
   * whose field a name reads or writes: whether initialising {@code type} runs any code, a
   * superclass's initialisation, a static initializer or a static field's initializer that is
   * not a constant.
   */
  private static boolean runsCode(TypeElement type, Trees trees) {
    TreePath path = trees.getPath(type);
    if (!isPlainSuperclass(type.getSuperclass()) || path == null
        || !(path.getLeaf() instanceof ClassTree declaration)) {
      return true;
    }
    for (Tree member : declaration.getMembers()) {
      if (runsWhenInitialized(member)
          && !(member instanceof VariableTree field && isConstant(type, field))) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code field}, declared in {@code type}, is a constant variable. */
  private static boolean isConstant(TypeElement type, VariableTree field) {
    return type.getEnclosedElements().stream().anyMatch(e -> e.getKind() == ElementKind.FIELD
        && e.getSimpleName().contentEquals(field.getName())
        && ((VariableElement) e).getConstantValue() != null);
  }

  /**
   * Whether the top-level class around {@code path} declares, at any depth, a record with a
   * constructor of its own. The scan below asks {@code Trees.getElement} of the initializers'
   * names, and on unattributed trees javac attributes the whole top-level class for that,
   * during annotation processing; attributing it again after processing, javac then rejects a
   * record's canonical constructor ("canonical constructor must not contain explicit constructor
   * invocation") and a valid class does not compile. Such a class gets the answer "no", which is
   * always safe: its fields are read where the method reads them.
   */
  private static boolean attributingBreaksARecord(TreePath path, Trees trees) {
    ClassTree outermost = null;
    for (Tree leaf : path) {
      if (leaf instanceof ClassTree declaration) {
        outermost = declaration;
      }
    }
    boolean[] found = {false};
    CompilationUnitTree unit = path.getCompilationUnit();
    SourcePositions positions = trees.getSourcePositions();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitClass(ClassTree declaration, Void unused) {
        // javac adds the implicit canonical constructor to the tree, at the record's own
        // position; one the user wrote starts elsewhere
        long record = positions.getStartPosition(unit, declaration);
        if (declaration.getKind() == Tree.Kind.RECORD && declaration.getMembers().stream()
            .anyMatch(member -> member instanceof MethodTree method
                && method.getName().contentEquals("<init>")
                && positions.getStartPosition(unit, method) != record)) {
          found[0] = true;
        }
        return super.visitClass(declaration, unused);
      }
    }.scan(outermost, null);
    return found[0];
  }

  private static boolean onlyJdkCode(TreePath member, TypeElement type, Trees trees) {
    boolean[] other = {false};
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        Element method = trees.getElement(getCurrentPath());
        if (method == null || !isComputingMember(method)
            || !(method.getModifiers().contains(Modifier.STATIC)
                || isString(method.getEnclosingElement()))) {
          other[0] = true;
        }
        return super.visitMethodInvocation(call, unused);
      }

      @Override
      public Void visitNewClass(NewClassTree made, Void unused) {
        Element constructor = trees.getElement(getCurrentPath());
        if (made.getClassBody() != null || constructor == null
            || !isComputingMember(constructor)) {
          other[0] = true; // also an enum constant, made by the enum's constructor
        }
        return super.visitNewClass(made, unused);
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree reference, Void unused) {
        Element method = trees.getElement(getCurrentPath());
        if (method == null || !isComputingMember(method)) {
          other[0] = true;
        }
        return super.visitMemberReference(reference, unused);
      }

      @Override
      public Void visitIdentifier(IdentifierTree identifier, Void unused) {
        readsOther(trees.getElement(getCurrentPath()));
        return super.visitIdentifier(identifier, unused);
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree select, Void unused) {
        readsOther(trees.getElement(getCurrentPath()));
        return super.visitMemberSelect(select, unused);
      }

      /** A field of another class of the user's, whose read would initialise that class. */
      private void readsOther(Element element) {
        if (element instanceof VariableElement field && element.getKind() == ElementKind.FIELD
            && field.getConstantValue() == null && !type.equals(field.getEnclosingElement())
            && !isJdkMember(field)) {
          other[0] = true;
        }
      }
    }.scan(member, null);
    return !other[0];
  }

  /**
   * Whether {@code member} is a method or constructor of one of the {@link #COMPUTING_CLASSES},
   * which compute values and load no class they are given or configured.
   */
  private static boolean isComputingMember(Element member) {
    return member.getEnclosingElement() instanceof TypeElement owner
        && COMPUTING_CLASSES.contains(owner.getQualifiedName().toString());
  }

  /**
   * The JDK's classes whose methods a class's initialisation may call and still copy its
   * fields: they compute values. Every other class may load the user's classes, the generated
   * one among them: {@code Class.forName("p.StatsGrad")}, reflection, method handles, service
   * loaders, {@code Beans.instantiate}, resource bundles, JDBC drivers, and
   * {@code Logger.getLogger}, whose logging configuration may name the user's handler classes.
   */
  private static final java.util.Set<String> COMPUTING_CLASSES = java.util.Set.of(
      "java.lang.Math", "java.lang.StrictMath", "java.lang.String", "java.lang.StringBuilder",
      "java.lang.Double", "java.lang.Float", "java.lang.Integer", "java.lang.Long",
      "java.lang.Short", "java.lang.Byte", "java.lang.Character", "java.lang.Boolean",
      "java.util.Arrays", "java.util.Objects", "java.util.List", "java.util.Set",
      "java.util.Map", "java.util.Collections", "java.math.BigInteger", "java.math.BigDecimal");

  /**
   * Whether {@code type}, a superclass, is {@code Object} or {@code Record}, whose
   * initialisation does nothing.
   */
  private static boolean isPlainSuperclass(TypeMirror type) {
    if (!(type instanceof DeclaredType declared)) {
      return true;
    }
    String name = ((TypeElement) declared.asElement()).getQualifiedName().toString();
    return name.equals("java.lang.Object") || name.equals("java.lang.Record");
  }

  private static boolean isJdkType(TypeMirror type) {
    return !(type instanceof DeclaredType declared)
        || isJdk((TypeElement) declared.asElement());
  }

  private static boolean isJdkMember(Element member) {
    return member.getEnclosingElement() instanceof TypeElement owner && isJdk(owner);
  }

  private static boolean isString(Element type) {
    return type instanceof TypeElement owner
        && owner.getQualifiedName().contentEquals("java.lang.String");
  }

  /** Whether {@code type} is the JDK's: in a package of {@code java.}, {@code javax.}, {@code jdk.}. */
  private static boolean isJdk(TypeElement type) {
    Element outer = type;
    while (!(outer instanceof PackageElement)) {
      outer = outer.getEnclosingElement();
    }
    String name = ((PackageElement) outer).getQualifiedName().toString();
    return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.");
  }
}
