package ad4j.processor.front;

import static ad4j.processor.front.BodyTrees.classOf;
import static ad4j.processor.front.BodyTrees.isSelf;
import static ad4j.processor.front.BodyTrees.unwrapped;
import static ad4j.processor.front.BodyTrees.withoutTypeArguments;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * One body's parameters and locals and what they hold, read from the source text: the class of
 * the object a receiver gives (a declared type, a field, a new object, a call's result), the
 * declared type of a name, what a call returns, and whether a value is an array or a JDK object
 * the body made itself (whose writes end with the call). {@link BodyWrites} asks these of the
 * body it walks; they are apart from the walk because they only read, never judge.
 */
final class BodyLocals {
  final Elements elements;
  private final Types types;
  final Symbols symbols;
  final TypeElement owner;
  private final Set<String> parameters = new HashSet<>();
  /** Each local's declaration: its type, or its initializer for 'var'. */
  private final Map<String, VariableTree> locals = new HashMap<>();
  /** Every value assigned to each local, its initializer included. */
  private final Map<String, List<ExpressionTree>> values = new HashMap<>();
  /** Names declared more than once (in blocks apart): their class is not known here. */
  private final Set<String> redeclared = new HashSet<>();
  /** Locals given values the body does not write: loop variables, lambdas' parameters. */
  private final Set<String> implicit = new HashSet<>();

  BodyLocals(Elements elements, Types types, Symbols symbols, TypeElement owner,
      MethodTree method) {
    this.elements = elements;
    this.types = types;
    this.symbols = symbols;
    this.owner = owner;
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

  /**
   * Whether {@code value} is surely an array the body made, and so are its elements down to
   * {@code depth} levels of it: {@code new double[n][m]}, an initializer of new arrays, a
   * copy ({@code .clone()}, {@code Arrays.copyOf}: its first level only), or a local given
   * only such values.
   */
  boolean made(ExpressionTree value, int depth, Set<String> asked) {
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
  boolean isArray(ExpressionTree expression) {
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
  boolean madeObject(ExpressionTree value, Set<String> asked) {
    ExpressionTree v = unwrapped(value);
    if (v instanceof NewClassTree creation) {
      return creation.getClassBody() == null && creation.getEnclosingExpression() == null
          && typeNamed(withoutTypeArguments(creation.getIdentifier()))
              .filter(t -> JdkHarmlessCode.PLAIN_CONSTRUCTIONS
                  .contains(t.getQualifiedName().toString()))
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
  boolean holdsOwnLambdas(ExpressionTree receiver) {
    if (!(unwrapped(receiver) instanceof IdentifierTree name)) {
      return false;
    }
    String local = name.getName().toString();
    List<ExpressionTree> given = values.getOrDefault(local, List.of());
    return locals.containsKey(local) && !parameters.contains(local)
        && !implicit.contains(local) && !given.isEmpty()
        && given.stream().map(BodyTrees::unwrapped).allMatch(g ->
            g instanceof LambdaExpressionTree || g instanceof MemberReferenceTree);
  }

  /**
   * The class whose generated class {@code qualifier} names ({@code RulesGrad} of
   * {@code Rules}), which may not exist yet while this round generates it.
   */
  Optional<TypeElement> generatedFor(ExpressionTree qualifier) {
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

  /** The class {@code this} or {@code super} calls a method of. */
  Optional<List<TypeElement>> self(ExpressionTree receiver) {
    if (((IdentifierTree) receiver).getName().contentEquals("this")) {
      return Optional.of(List.of(owner));
    }
    return classOf(owner.getSuperclass()).map(List::of);
  }

  /** Whether {@code name} names the class {@code qualified} (not a local or a field). */
  boolean isType(ExpressionTree name, String qualified) {
    return typeNamed(name).filter(t -> t.getQualifiedName().contentEquals(qualified))
        .isPresent();
  }

  /** The type a qualifier names, when it is no local's or field's name. */
  Optional<TypeElement> typeNamed(ExpressionTree qualifier) {
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

  /** The declared type of a local, parameter or field named so; empty when unknown. */
  Optional<TypeMirror> declaredType(IdentifierTree name) {
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
  Optional<List<TypeMirror>> returnTypes(MethodInvocationTree call) {
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

  /**
   * The class of the object {@code receiver} gives, when it is known here: a local or a
   * parameter declared with a class, a field, a new object, a string, or the result of a
   * call whose methods of that name all return one class.
   */
  Optional<List<TypeElement>> classesOf(ExpressionTree receiver) {
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
