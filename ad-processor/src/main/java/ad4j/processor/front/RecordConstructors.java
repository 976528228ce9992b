package ad4j.processor.front;

import com.sun.source.util.Trees;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Whether making a value record runs code of its own, and whether that code changes the
 * record's components: generated code makes records again of their leaves (the result of a
 * method, a record passed to a callee), which runs their constructors again. Apart from
 * {@link LoweringContext} because it reads the records' declarations only, never the method
 * being lowered.
 */
final class RecordConstructors {
  private final LoweringContext context;
  private final Elements elements;
  private final Trees trees;

  RecordConstructors(LoweringContext context, Elements elements, Trees trees) {
    this.context = context;
    this.elements = elements;
    this.trees = trees;
  }

  /**
   * Whether record {@code record} declares a constructor that may change its components (any
   * but a compact one that only checks them, {@link #checksOnly}), or holds a value record
   * that does: its code would run again, on the components, where generated code makes the
   * record of its leaves ({@code new W(new V(a, b), c)}), and change them.
   */
  boolean changesComponents(TypeElement record) {
    return componentChanger(record).isPresent();
  }

  /**
   * The record whose constructor would change the components of {@code record} made again of
   * its leaves ({@link #changesComponents}): {@code record} itself, or a value record it holds.
   */
  Optional<TypeElement> componentChanger(TypeElement record) {
    if (trees.getPath(record) == null) {
      // a class file does not tell a compact constructor that changes the components from one
      // javac wrote
      return Optional.of(record);
    }
    if (ValueClasses.isValueClass(record)) {
      // its constructor copies its arguments into the fields, unchanged
      return componentChangerAmongComponents(record);
    }
    for (javax.lang.model.element.ExecutableElement constructor :
        javax.lang.model.util.ElementFilter.constructorsIn(record.getEnclosedElements())) {
      if (trees.getPath(constructor) != null
          && elements.getOrigin(constructor) == javax.lang.model.util.Elements.Origin.EXPLICIT
          && (!checksOnly(constructor)
              || hasArrayComponent(record) && mayWriteArrays(constructor))) {
        return Optional.of(record);
      }
    }
    return componentChangerAmongComponents(record);
  }

  /**
   * Whether making {@code record} runs code of its own: a constructor written in it (a compact
   * one that only checks the components too), or in a value record it holds; a value class's,
   * or a record compiled without its source here. Generated code that makes such a record again
   * of leaves that are no record's (zeros for a null record: {@link ObjectRecordArguments})
   * would run its checks on them, where the method made no record.
   */
  boolean runsCodeWhenMade(TypeElement record) {
    if (trees.getPath(record) == null || ValueClasses.isValueClass(record)) {
      return true;
    }
    for (javax.lang.model.element.ExecutableElement constructor :
        javax.lang.model.util.ElementFilter.constructorsIn(record.getEnclosedElements())) {
      if (elements.getOrigin(constructor) == javax.lang.model.util.Elements.Origin.EXPLICIT) {
        return true;
      }
    }
    return ValueRecords.components(record).stream().anyMatch(component ->
        ValueRecords.valueRecord(component.type()).map(this::runsCodeWhenMade).orElse(false));
  }

  /** Whether {@code record} has an array component, into which its constructor could write. */
  private static boolean hasArrayComponent(TypeElement record) {
    return ValueRecords.components(record).stream().anyMatch(component ->
        component.type().getKind() == javax.lang.model.type.TypeKind.ARRAY);
  }

  /**
   * The value record held by {@code record} whose constructor would change its components
   * made again of them ({@link #componentChanger}), {@code record}'s own aside: generated code
   * that makes {@code record} as written makes those it holds again of their leaves.
   */
  Optional<TypeElement> componentChangerAmongComponents(TypeElement record) {
    for (ValueRecords.Component component : ValueRecords.components(record)) {
      Optional<TypeElement> changer = ValueRecords.valueRecord(component.type())
          .flatMap(this::componentChanger);
      if (changer.isPresent()) {
        return changer;
      }
    }
    return Optional.empty();
  }

  /**
   * How messages name the constructor {@link #componentChanger} found for {@code record}:
   * {@code whose constructor changes its components}, {@code which holds value record 'V',
   * whose constructor changes its components}, or one compiled without its source.
   */
  String changerText(TypeElement record) {
    TypeElement changer = componentChanger(record).orElse(record);
    String constructor = trees.getPath(changer) == null
        ? "whose constructor, compiled without its source here, may change its components"
        : "whose constructor changes its components";
    return changer.equals(record) ? constructor
        : "which holds value record '" + changer.getSimpleName() + "', " + constructor;
  }

  /**
   * The tree of {@code constructor} when it is a compact canonical constructor of a file of
   * this compilation ({@code V { ... }}: it cannot set the fields itself, and its parameters are
   * the components, assigned to the fields after its body); empty for any other.
   */
  Optional<com.sun.source.tree.MethodTree> compact(
      javax.lang.model.element.ExecutableElement constructor) {
    com.sun.source.util.TreePath path = trees.getPath(constructor);
    if (path == null || !(path.getLeaf() instanceof com.sun.source.tree.MethodTree tree)
        || tree.getBody() == null) {
      return Optional.empty();
    }
    context.resolution().adopt(tree, path.getCompilationUnit());
    // compact: no parameter list written ('V {')
    String text = context.source().of(tree);
    int body = text.indexOf('{');
    if (body < 0 || text.substring(0, body).indexOf('(') >= 0) {
      return Optional.empty();
    }
    return Optional.of(tree);
  }

  /**
   * Whether compact constructor {@code constructor} may write into an array it is given: its
   * body sets an element of an array ({@code c[0] *= 2}, through an alias too) or passes a
   * name to a call ({@code Arrays.sort(c)}, {@code normalize(d)}), which could write into it.
   * A constructor that only checks its components runs as written where the record is made
   * ({@link #checksOnly}); on an array that carries derivatives, such writes would change
   * elements behind the derivatives' back. Asked of constructors that are not read-only.
   */
  boolean mayWriteArrays(javax.lang.model.element.ExecutableElement constructor) {
    Optional<com.sun.source.tree.MethodTree> compact = compact(constructor);
    TypeElement record = (TypeElement) constructor.getEnclosingElement();
    com.sun.source.util.TreePath path = trees.getPath(record);
    if (compact.isEmpty() || path == null) {
      return true;
    }
    Symbols symbols =
        new Symbols(elements, context.types(), record, path.getCompilationUnit());
    boolean[] found = {false};
    new com.sun.source.util.TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(com.sun.source.tree.AssignmentTree node, Void unused) {
        element(node.getVariable());
        return super.visitAssignment(node, unused);
      }

      @Override
      public Void visitCompoundAssignment(com.sun.source.tree.CompoundAssignmentTree node,
          Void unused) {
        element(node.getVariable());
        return super.visitCompoundAssignment(node, unused);
      }

      @Override
      public Void visitUnary(com.sun.source.tree.UnaryTree node, Void unused) {
        switch (node.getKind()) {
          case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
              element(node.getExpression());
          default -> { }
        }
        return super.visitUnary(node, unused);
      }

      @Override
      public Void visitMethodInvocation(com.sun.source.tree.MethodInvocationTree node,
          Void unused) {
        if (!onlyReads(node, record, symbols)) {
          names(node.getArguments());
        }
        return super.visitMethodInvocation(node, unused);
      }

      @Override
      public Void visitThrow(com.sun.source.tree.ThrowTree node, Void unused) {
        return null; // the record is not made: what it writes then reaches no derivative
      }

      @Override
      public Void visitNewClass(com.sun.source.tree.NewClassTree node, Void unused) {
        names(node.getArguments());
        return super.visitNewClass(node, unused);
      }

      private void element(com.sun.source.tree.ExpressionTree target) {
        found[0] |= ExpressionLowering.withoutParentheses(target).getKind()
            == com.sun.source.tree.Tree.Kind.ARRAY_ACCESS;
      }

      private void names(java.util.List<? extends com.sun.source.tree.ExpressionTree> arguments) {
        for (com.sun.source.tree.ExpressionTree argument : arguments) {
          found[0] |= ExpressionLowering.withoutParentheses(argument).getKind()
              == com.sun.source.tree.Tree.Kind.IDENTIFIER;
        }
      }
    }.scan(compact.get().getBody(), null);
    return found[0];
  }

  /**
   * Whether {@code call}, in the code of {@code record}, surely calls a static method that only
   * reads what it is given: every static method of its name in the class it names (or, called
   * unqualified, the innermost class around the record that has one) is
   * {@code Objects.requireNonNull}, {@code Arrays.toString} or another the JDK reads only with
   * ({@link LaunderedDependence#onlyReads}), or a method of the sources that only reads.
   */
  private boolean onlyReads(com.sun.source.tree.MethodInvocationTree call, TypeElement record,
      Symbols symbols) {
    com.sun.source.tree.ExpressionTree select = call.getMethodSelect();
    String name;
    Optional<TypeElement> owner;
    if (select instanceof com.sun.source.tree.IdentifierTree identifier) {
      name = identifier.getName().toString();
      owner = Optional.empty();
      for (Element type = record; type instanceof TypeElement around && owner.isEmpty();
          type = type.getEnclosingElement()) {
        if (!methodsNamed(around, name).isEmpty()) {
          owner = Optional.of(around);
        }
      }
    } else if (select instanceof com.sun.source.tree.MemberSelectTree member) {
      name = member.getIdentifier().toString();
      owner = symbols.resolveType(member.getExpression());
    } else {
      return false;
    }
    // a class named as the qualifier: only its static methods ('Arrays.toString(c)')
    boolean qualified = select instanceof com.sun.source.tree.MemberSelectTree;
    List<javax.lang.model.element.ExecutableElement> methods = owner
        .map(type -> methodsNamed(type, name).stream()
            .filter(method -> !qualified || StaticMembers.isStatic(method)).toList())
        .orElse(List.of());
    return !methods.isEmpty() && methods.stream().allMatch(method ->
        StaticMembers.isStatic(method) && (LaunderedDependence.onlyReads(method)
            || context.calleeServices().readOnlyMethods().test(method)));
  }

  private List<javax.lang.model.element.ExecutableElement> methodsNamed(TypeElement type,
      String name) {
    return javax.lang.model.util.ElementFilter.methodsIn(elements.getAllMembers(type)).stream()
        .filter(method -> method.getSimpleName().contentEquals(name)).toList();
  }

  /**
   * Whether {@code constructor} is a compact canonical constructor, in a file of this
   * compilation, that leaves the components as given (it assigns none of them): its checks may
   * run as written, and the record's components are its arguments.
   */
  boolean checksOnly(javax.lang.model.element.ExecutableElement constructor) {
    Optional<com.sun.source.tree.MethodTree> compact = compact(constructor);
    if (compact.isEmpty()) {
      return false;
    }
    com.sun.source.tree.MethodTree tree = compact.get();
    java.util.Set<String> components = new java.util.HashSet<>();
    constructor.getParameters().forEach(p -> components.add(p.getSimpleName().toString()));
    return java.util.Collections.disjoint(AssignedNames.in(tree.getBody()), components);
  }
}
