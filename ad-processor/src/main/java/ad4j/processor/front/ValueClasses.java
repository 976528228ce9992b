package ad4j.processor.front;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.ElementFilter;

/**
 * <em>Value classes</em> (DESIGN.md, part 3): a {@code final} class whose source is in the
 * compilation, whose instance fields are all {@code final} and set unchanged by its one
 * constructor (not private), which takes them in declaration order ({@code this.re = re;}),
 * each read by a getter that is not private ({@code double re() { return re; }}): an immutable {@code Complex} or {@code Vector3D}
 * written as a class. ad4j flattens it as it flattens a value record ({@link ValueRecords}), its
 * fields the components, its getters the accessors. A class that is not one (a mutable one, one
 * whose constructor computes its fields) stays an ordinary object, and so does a class whose
 * methods {@code @DerivativeOf} rules target (the user has said how to differentiate through it).
 *
 * <p>Whether the constructor and the getters only copy takes their syntax trees, which the
 * processor gives for the work it runs on its own thread ({@link #during}); the elements alone
 * cannot say.
 */
public final class ValueClasses {
  private static final ThreadLocal<Trees> TREES = new ThreadLocal<>();
  /** What {@link #fields} found for each class looked at in this thread's work. */
  private static final ThreadLocal<java.util.Map<TypeElement, Optional<List<Field>>>> FOUND =
      new ThreadLocal<>();

  private ValueClasses() {}

  /**
   * Runs {@code work} with {@code trees}, which gives the classes' bodies, in this thread;
   * {@code ruled}: the classes whose methods {@code @DerivativeOf} rules target, which stay
   * objects, differentiated through their rules as before.
   */
  public static void during(Trees trees, java.util.Set<TypeElement> ruled, Runnable work) {
    TREES.set(trees);
    java.util.Map<TypeElement, Optional<List<Field>>> found = new java.util.HashMap<>();
    ruled.forEach(type -> found.put(type, Optional.empty()));
    FOUND.set(found);
    try {
      work.run();
    } finally {
      TREES.remove();
      FOUND.remove();
    }
  }

  /**
   * A field of a value class as a component: its name, the field, and the name of its getter.
   */
  record Field(VariableElement field, String getter) {}

  /** The fields of {@code type}, in declaration order, when it is a value class. */
  static Optional<List<Field>> fields(TypeElement type) {
    java.util.Map<TypeElement, Optional<List<Field>>> found = FOUND.get();
    if (found == null) {
      return Optional.empty();
    }
    Optional<List<Field>> known = found.get(type);
    if (known == null) {
      known = find(type);
      found.put(type, known);
    }
    return known;
  }

  private static Optional<List<Field>> find(TypeElement type) {
    Trees trees = TREES.get();
    if (trees == null || type.getKind() != ElementKind.CLASS
        || !type.getModifiers().contains(Modifier.FINAL) || !type.getTypeParameters().isEmpty()
        || type.getNestingKind() != NestingKind.TOP_LEVEL
            && (type.getNestingKind() != NestingKind.MEMBER
                || !type.getModifiers().contains(Modifier.STATIC))
        || type.getSuperclass().getKind() != TypeKind.DECLARED
        || !((TypeElement) ((javax.lang.model.type.DeclaredType) type.getSuperclass())
            .asElement()).getQualifiedName().contentEquals("java.lang.Object")
        || trees.getPath(type) == null) {
      return Optional.empty();
    }
    List<VariableElement> fields = new ArrayList<>();
    for (VariableElement field : ElementFilter.fieldsIn(type.getEnclosedElements())) {
      if (field.getModifiers().contains(Modifier.STATIC)) {
        continue;
      }
      if (!field.getModifiers().contains(Modifier.FINAL) || field.getConstantValue() != null
          || initialized(trees, field)) {
        return Optional.empty(); // mutable, or not set by the constructor
      }
      fields.add(field);
    }
    if (fields.isEmpty() || hasInitializerBlock(trees, type)
        || !copyingConstructor(trees, type, fields)) {
      return Optional.empty();
    }
    List<Field> components = new ArrayList<>();
    for (VariableElement field : fields) {
      Optional<String> getter = getter(trees, type, field);
      if (getter.isEmpty()) {
        return Optional.empty();
      }
      components.add(new Field(field, getter.get()));
    }
    return Optional.of(components);
  }

  /** Whether {@code method} is a getter of value class {@code type}: the field it returns. */
  static Optional<String> fieldOfGetter(TypeElement type, ExecutableElement method) {
    return fields(type).flatMap(fields -> fields.stream()
        .filter(f -> f.getter().contentEquals(method.getSimpleName())
            && method.getParameters().isEmpty())
        .map(f -> f.field().getSimpleName().toString()).findFirst());
  }

  private static boolean initialized(Trees trees, VariableElement field) {
    Tree tree = trees.getTree(field);
    return tree instanceof com.sun.source.tree.VariableTree variable
        && variable.getInitializer() != null;
  }

  private static boolean hasInitializerBlock(Trees trees, TypeElement type) {
    Tree tree = trees.getTree(type);
    return !(tree instanceof com.sun.source.tree.ClassTree declaration)
        || declaration.getMembers().stream().anyMatch(member -> member instanceof BlockTree);
  }

  /**
   * Whether the class has one constructor, taking the fields' types in declaration order, whose
   * body is one {@code this.f = p;} (or {@code f = p;}) per field, from the parameter at the
   * field's place.
   */
  private static boolean copyingConstructor(Trees trees, TypeElement type,
      List<VariableElement> fields) {
    List<ExecutableElement> constructors = ElementFilter.constructorsIn(type.getEnclosedElements());
    if (constructors.size() != 1) {
      return false;
    }
    ExecutableElement constructor = constructors.get(0);
    List<? extends VariableElement> parameters = constructor.getParameters();
    // generated code makes the class again with it: it must not be private
    if (parameters.size() != fields.size() || constructor.isVarArgs()
        || constructor.getModifiers().contains(Modifier.PRIVATE)) {
      return false;
    }
    for (int i = 0; i < fields.size(); i++) {
      if (!parameters.get(i).asType().toString().equals(fields.get(i).asType().toString())) {
        return false;
      }
    }
    MethodTree tree = trees.getTree(constructor);
    if (tree == null || tree.getBody() == null) {
      return false;
    }
    List<? extends StatementTree> statements = tree.getBody().getStatements();
    // javac adds the call of Object's constructor, 'super();', first: skip it
    int first = !statements.isEmpty() && isSuperCall(statements.get(0)) ? 1 : 0;
    if (statements.size() - first != fields.size()) {
      return false;
    }
    boolean[] set = new boolean[fields.size()];
    for (StatementTree statement : statements.subList(first, statements.size())) {
      if (!(statement instanceof ExpressionStatementTree expression)
          || !(expression.getExpression() instanceof AssignmentTree assignment)
          || !(assignment.getExpression() instanceof IdentifierTree value)) {
        return false;
      }
      Optional<String> target = ownField(assignment.getVariable());
      if (assignment.getVariable() instanceof IdentifierTree named && parameters.stream()
          .anyMatch(p -> p.getSimpleName().contentEquals(named.getName()))) {
        return false; // 're = re;': the parameter, not the field
      }
      int index = -1;
      for (int i = 0; i < fields.size(); i++) {
        if (target.isPresent() && fields.get(i).getSimpleName().contentEquals(target.get())) {
          index = i;
        }
      }
      if (index < 0 || set[index]
          || !parameters.get(index).getSimpleName().contentEquals(value.getName())) {
        return false;
      }
      set[index] = true;
    }
    return true;
  }

  private static boolean isSuperCall(StatementTree statement) {
    return statement instanceof ExpressionStatementTree expression
        && expression.getExpression() instanceof com.sun.source.tree.MethodInvocationTree call
        && call.getArguments().isEmpty()
        && call.getMethodSelect() instanceof IdentifierTree name
        && name.getName().contentEquals("super");
  }

  /** {@code f} of {@code this.f} or of {@code f}: the field the expression names. */
  private static Optional<String> ownField(ExpressionTree expression) {
    if (expression instanceof IdentifierTree identifier) {
      return Optional.of(identifier.getName().toString());
    }
    if (expression instanceof MemberSelectTree select
        && select.getExpression() instanceof IdentifierTree owner
        && owner.getName().contentEquals("this")) {
      return Optional.of(select.getIdentifier().toString());
    }
    return Optional.empty();
  }

  /**
   * The name of a getter of {@code field}: an instance method of the class, not private,
   * taking nothing and returning the field's type, whose body is {@code return f;} or
   * {@code return this.f;}. A method of the field's name is preferred.
   */
  private static Optional<String> getter(Trees trees, TypeElement type, VariableElement field) {
    String found = null;
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (method.getModifiers().contains(Modifier.STATIC)
          || method.getModifiers().contains(Modifier.PRIVATE)
          || !method.getParameters().isEmpty()
          || !method.getReturnType().toString().equals(field.asType().toString())) {
        continue;
      }
      MethodTree tree = trees.getTree(method);
      if (tree == null || tree.getBody() == null || tree.getBody().getStatements().size() != 1
          || !(tree.getBody().getStatements().get(0) instanceof ReturnTree ret)
          || ret.getExpression() == null) {
        continue;
      }
      ExpressionTree returned = ret.getExpression();
      while (returned instanceof ParenthesizedTree parenthesized) {
        returned = parenthesized.getExpression();
      }
      if (ownField(returned).filter(name -> field.getSimpleName().contentEquals(name))
          .isPresent()) {
        if (method.getSimpleName().contentEquals(field.getSimpleName())) {
          return Optional.of(method.getSimpleName().toString());
        }
        found = found == null ? method.getSimpleName().toString() : found;
      }
    }
    return Optional.ofNullable(found);
  }

  /** Whether {@code element} is a value class. */
  static boolean isValueClass(Element element) {
    return element instanceof TypeElement type && fields(type).isPresent();
  }
}
