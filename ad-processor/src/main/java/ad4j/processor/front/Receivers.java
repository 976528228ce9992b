package ad4j.processor.front;

import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.ElementFilter;

/**
 * The receiver of an instance {@code @Differentiable} method (DESIGN.md, part 3, "Instance
 * methods"). Generated members are static and take it first ({@code FooGrad.mGradient(Foo self,
 * x)}); it and every field read through it carry no derivative, like any object parameter
 * ({@link ObjectValues}): the method's code reads them as written, once where it reads them.
 *
 * <p>An instance method of a <em>value record</em> ({@link ValueRecords}) differentiates with
 * respect to its receiver as well: the receiver is flattened like a record parameter, its
 * leaves first among the parameters, and the method's code reads it as the code of the record's
 * methods that {@link RecordLowering} inlines does. A record that mixes components carrying
 * derivatives with others is not built yet: an error rather than a derivative that silently
 * leaves the components out.
 */
public final class Receivers {
  /** The name by which the method's code reads its receiver, in the lowering's scopes. */
  static final String THIS = "this";

  private Receivers() {}

  /** The value record {@code method} is an instance method of, if it is one. */
  public static Optional<TypeElement> valueRecordReceiver(ExecutableElement method) {
    return hasReceiver(method) ? ValueRecords.valueRecord(method.getEnclosingElement().asType())
        : Optional.empty();
  }

  /** Whether {@code method} has a receiver. */
  public static boolean hasReceiver(ExecutableElement method) {
    return !StaticMembers.isStatic(method);
  }

  /**
   * Checks an instance method's receiver; records an error and returns false when generated
   * code cannot treat it as an object that carries no derivative.
   */
  public static boolean check(ExecutableElement method, TypeElement owner, Tree at,
      Diagnostics diagnostics) {
    Optional<Problem> problem = problem(owner);
    problem.ifPresent(p -> diagnostics.error(at, "@Differentiable method '"
        + method.getSimpleName() + "' " + p.what() + ": " + p.why() + "; " + p.fix()));
    return problem.isEmpty();
  }

  /**
   * Why an instance method of {@code owner} could not be differentiated by annotating it, if
   * it could not ({@link #check} rejects such a method): a clause for the messages that advise
   * on a call of it.
   */
  static Optional<String> obstacle(TypeElement owner) {
    return problem(owner).map(p -> "it " + p.what() + ", and " + p.why());
  }

  /**
   * What keeps ad4j from differentiating an instance method of a class, said of the method
   * ({@code what}, "is ..."), why, and what to do instead.
   */
  private record Problem(String what, String why, String fix) {}

  private static Optional<Problem> problem(TypeElement owner) {
    if (ValueRecords.isMixed(owner.asType())) {
      return Optional.of(new Problem("is an instance method of record '" + owner.getSimpleName()
          + "', whose components carry derivatives beside one ad4j does not flatten yet ("
          + ValueRecords.obstacle(owner.asType()) + ")",
          "ad4j does not yet differentiate with respect to such a record",
          "make the method static and pass the components it needs as 'double' parameters"));
    }
    if (!owner.getTypeParameters().isEmpty()) {
      return Optional.of(new Problem("is an instance method of generic class '"
          + owner.getSimpleName() + "'", "ad4j's generated members, which take the receiver"
          + " first, are not generic", "make the method static"));
    }
    if (owner.getKind() == ElementKind.INTERFACE) {
      return Optional.of(new Problem("is a default method of interface '"
          + owner.getSimpleName() + "'", "ad4j differentiates static methods and instance"
          + " methods of classes", "make it static"));
    }
    return Optional.empty();
  }

  /**
   * The name of the receiver in generated code: {@code self}, or {@code self1}, ... when the
   * method names a parameter, local or field so.
   */
  static String name(MethodTree tree, TypeElement owner) {
    Set<String> taken = new HashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree variable, Void unused) {
        taken.add(variable.getName().toString());
        return super.visitVariable(variable, unused);
      }
    }.scan(tree, null);
    for (VariableElement field : ElementFilter.fieldsIn(owner.getEnclosedElements())) {
      taken.add(field.getSimpleName().toString());
    }
    String name = "self";
    for (int k = 1; taken.contains(name); k++) {
      name = "self" + k;
    }
    return name;
  }
}
