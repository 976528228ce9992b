package ad4j.processor.front;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;

/**
 * The method that implements a function given as a class: an anonymous class's, or that of
 * {@code new C()} of a class of the file, checked to hold and use nothing of an instance, since
 * ad4j inlines the method's body without making one. Apart from {@link FunctionValues} because
 * these checks read a class's declaration, not the function's code.
 */
final class FunctionImplementations {
  private final LoweringContext context;

  FunctionImplementations(LoweringContext context) {
    this.context = context;
  }

  /**
   * The class or interface {@code creation} makes an instance of, resolved by name as the rest
   * of the lowering resolves names; null when it is none that ad4j finds. Not by
   * {@code Trees.getElement}: on an unattributed method body javac attributes the whole class
   * for it during annotation processing, and then rejects a record's compact constructor in the
   * same class ("canonical constructor must not contain explicit constructor invocation") when
   * it attributes the class again after processing.
   */
  TypeElement createdType(NewClassTree creation) {
    Tree name = creation.getIdentifier();
    if (name instanceof ParameterizedTypeTree parameterized) {
      name = parameterized.getType();
    }
    return name instanceof ExpressionTree expression
        ? context.symbols().resolveType(expression).orElse(null) : null;
  }

  /**
   * The method of {@code creation}, an anonymous class of a functional interface, that
   * implements it; null after an error. ad4j inlines that method's body as a lambda's, so the
   * class must hold nothing else (no field, other method or initializer, which the body could
   * use through its instance), and the body must not name its instance: no {@code this} or
   * {@code super}, and no unqualified name of a member of the interface or of {@code Object},
   * which in the class mean the instance's members and here would not.
   */
  MethodTree implementation(NewClassTree creation, FunctionValues.Signature signature) {
    MethodTree method = null;
    for (Tree member : creation.getClassBody().getMembers()) {
      if (member instanceof MethodTree constructor
          && constructor.getName().contentEquals("<init>")) {
        continue; // the constructor javac writes: an anonymous class cannot declare one
      }
      if (member instanceof MethodTree candidate
          && candidate.getName().contentEquals(signature.name())
          && candidate.getParameters().size() == signature.parameters().size()
          && candidate.getBody() != null && method == null) {
        method = candidate;
      } else {
        unsupported(member, "an anonymous class used as a function is supported when it holds"
            + " only its method '" + signature.name() + "': ad4j inlines that method where the"
            + " function is called; write the rest as static methods, or use a lambda");
        return null;
      }
    }
    if (method == null || !creation.getArguments().isEmpty()) {
      unsupported(creation, "the anonymous class '" + context.source().of(creation.getIdentifier())
          + "' does not implement '" + signature.name() + "' in its body; ad4j inlines that"
          + " method where the function is called");
      return null;
    }
    Set<String> instanceNames = new HashSet<>();
    Element type = createdType(creation);
    for (Element owner : List.of(type == null ? context.elements()
        .getTypeElement("java.lang.Object") : type, context.elements()
        .getTypeElement("java.lang.Object"))) {
      if (owner instanceof TypeElement ownerType) {
        for (Element member : context.elements().getAllMembers(ownerType)) {
          instanceNames.add(member.getSimpleName().toString());
        }
      }
    }
    return namesNoInstance(method, instanceNames) ? method : null;
  }

  /**
   * The method of {@code named} that implements the function, for {@code new C()} of a class
   * of the file; null after an error. ad4j inlines it as it inlines an anonymous class's, its
   * names resolved in the class, so {@code new C()} must make nothing the method could read:
   * the class extends {@code Object}, has no instance field or initializer and no constructor
   * that does anything, and the method names no instance member.
   */
  MethodTree namedImplementation(NewClassTree creation, TypeElement named,
      FunctionValues.Signature signature) {
    TreePath path = context.trees().getPath(named);
    String shown = "new " + context.source().of(creation.getIdentifier()) + "()";
    if (path == null || path.getCompilationUnit() != context.diagnostics().unitOf(creation)
        || !(path.getLeaf() instanceof ClassTree declaration)) {
      unsupported(creation, "'" + shown + "' as a function: ad4j inlines the method of a class"
          + " used as a function, by its source, which must be in this file");
      return null;
    }
    TypeMirror object = context.elements().getTypeElement("java.lang.Object").asType();
    if (!context.types().isSameType(named.getSuperclass(), object)) {
      unsupported(creation, "'" + shown + "' as a function: ad4j inlines the method of a class"
          + " used as a function when the class extends only 'Object'");
      return null;
    }
    MethodTree method = null;
    for (Tree member : declaration.getMembers()) {
      if (member instanceof MethodTree candidate && candidate.getName().contentEquals("<init>")) {
        List<? extends StatementTree> statements = candidate.getBody().getStatements();
        boolean onlySuper = statements.stream().allMatch(statement ->
            context.source().of(statement).replace(" ", "").equals("super();"));
        if (!candidate.getParameters().isEmpty() || !onlySuper) {
          unsupported(member, "'" + shown + "' as a function: ad4j inlines the method of a class"
              + " used as a function without making an instance, so the class must not declare"
              + " a constructor that takes or does anything");
          return null;
        }
      } else if (member instanceof MethodTree candidate
          && candidate.getName().contentEquals(signature.name())
          && candidate.getParameters().size() == signature.parameters().size()
          && candidate.getBody() != null) {
        method = candidate;
      } else if (member instanceof VariableTree field
          && !field.getModifiers().getFlags().contains(Modifier.STATIC)
          || member instanceof BlockTree block && !block.isStatic()) {
        unsupported(member, "'" + shown + "' as a function: ad4j inlines the method of a class"
            + " used as a function without making an instance, so the class must hold no"
            + " instance fields or initializers; make them static, or use a lambda");
        return null;
      }
    }
    if (method == null) {
      unsupported(creation, "'" + shown + "' as a function: its class does not declare '"
          + signature.name() + "' itself; ad4j inlines that method where the function is"
          + " called");
      return null;
    }
    Set<String> instanceNames = new HashSet<>();
    for (Element member : context.elements().getAllMembers(named)) {
      if (!StaticMembers.isStatic(member)) {
        instanceNames.add(member.getSimpleName().toString());
      }
    }
    return namesNoInstance(method, instanceNames) ? method : null;
  }

  /**
   * Whether the body of {@code method}, inlined without its instance, names none of
   * {@code instanceNames}, nor {@code this} or {@code super}; an error at the first that it
   * names.
   */
  private boolean namesNoInstance(MethodTree method, Set<String> instanceNames) {
    Tree[] instanceUse = {null};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree tree, Void unused) {
        String name = tree.getName().toString();
        if (instanceUse[0] == null && (name.equals("this") || name.equals("super")
            || instanceNames.contains(name))) {
          instanceUse[0] = tree;
        }
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree tree, Void unused) {
        return scan(tree.getExpression(), null); // a qualified name is not the instance's
      }
    }.scan(method.getBody(), null);
    if (instanceUse[0] != null) {
      unsupported(instanceUse[0], "'" + context.source().of(instanceUse[0]) + "' in a class"
          + " used as a function names the class's instance or its members; ad4j inlines the"
          + " method's body where the function is called, where no such instance exists");
      return false;
    }
    return true;
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
