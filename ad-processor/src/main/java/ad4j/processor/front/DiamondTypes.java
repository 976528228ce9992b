package ad4j.processor.front;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.TypeParameterElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.TypeVariable;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.Types;

/**
 * The type a diamond ({@code new ArrayList<>(...)}) makes where its target's type decides it:
 * a local declared {@code List<Double> xs = new ArrayList<>()}. The processor lowers trees that
 * javac has not attributed, so it infers the type arguments itself, for the one case that
 * needs no inference of Java's own (JLS 18.5.2): each type parameter of the created class
 * appears as a whole type argument of the target's class among its supertypes
 * ({@code ArrayList<E>} is a {@code List<E>}, so {@code E} is {@code Double}). Where one does
 * not ({@code class Tagged<K, T> extends HashMap<K, Double>} made for a {@code Map<String,
 * Double>}), there is no answer, and the caller keeps its error asking for the type arguments.
 * javac compiled the user's code with its own inference, which the target's type arguments
 * bind in the same way here, so both name the same type.
 */
final class DiamondTypes {
  private DiamondTypes() {}

  /**
   * {@code created} with the type arguments that {@code target}, the declared type of the
   * variable it initializes, gives it; empty where the target does not decide each of them.
   */
  static Optional<DeclaredType> made(TypeElement created, TypeMirror target, Types types) {
    if (!(target instanceof DeclaredType wanted) || wanted.getTypeArguments().isEmpty()
        || created.getTypeParameters().isEmpty()) {
      return Optional.empty();
    }
    Element wantedClass = wanted.asElement();
    Optional<DeclaredType> supertype = supertypeOf(created, wantedClass, types);
    if (supertype.isEmpty()) {
      return Optional.empty();
    }
    Map<Element, TypeMirror> bound = new HashMap<>();
    List<? extends TypeMirror> written = supertype.get().getTypeArguments();
    List<? extends TypeMirror> given = wanted.getTypeArguments();
    if (written.size() != given.size()) {
      return Optional.empty();
    }
    for (int i = 0; i < written.size(); i++) {
      if (written.get(i) instanceof TypeVariable variable
          && created.getTypeParameters().contains(variable.asElement())) {
        Optional<TypeMirror> argument = argumentFor(given.get(i));
        if (argument.isEmpty()) {
          return Optional.empty();
        }
        TypeMirror earlier = bound.putIfAbsent(variable.asElement(), argument.get());
        if (earlier != null && !types.isSameType(earlier, argument.get())) {
          return Optional.empty();
        }
      }
    }
    TypeMirror[] arguments = new TypeMirror[created.getTypeParameters().size()];
    for (int i = 0; i < arguments.length; i++) {
      TypeParameterElement parameter = created.getTypeParameters().get(i);
      TypeMirror argument = bound.get(parameter);
      if (argument == null) {
        return Optional.empty();
      }
      arguments[i] = argument;
    }
    return Optional.of(types.getDeclaredType(created, arguments));
  }

  /**
   * The type argument a parameter takes from the target's argument: the argument itself, or
   * a wildcard's bound ({@code List<? extends Number>} makes an {@code ArrayList<Number>}, as
   * javac infers); none for an unbounded wildcard, whose {@code Object} the user did not write.
   */
  private static Optional<TypeMirror> argumentFor(TypeMirror given) {
    if (given instanceof WildcardType wildcard) {
      TypeMirror bound = wildcard.getExtendsBound() != null ? wildcard.getExtendsBound()
          : wildcard.getSuperBound();
      return Optional.ofNullable(bound);
    }
    return given.getKind() == TypeKind.DECLARED || given.getKind() == TypeKind.ARRAY
        ? Optional.of(given) : Optional.empty();
  }

  /**
   * The supertype of {@code created}'s generic type (its own type parameters as arguments)
   * whose class is {@code wanted}, found breadth first: {@code List<E>} of
   * {@code ArrayList<E>}.
   */
  private static Optional<DeclaredType> supertypeOf(TypeElement created, Element wanted,
      Types types) {
    Deque<TypeMirror> pending = new ArrayDeque<>();
    Set<Element> seen = new HashSet<>();
    pending.add(created.asType());
    while (!pending.isEmpty()) {
      TypeMirror next = pending.removeFirst();
      if (!(next instanceof DeclaredType declared) || !seen.add(declared.asElement())) {
        continue;
      }
      if (declared.asElement().equals(wanted)) {
        return Optional.of(declared);
      }
      pending.addAll(types.directSupertypes(declared));
    }
    return Optional.empty();
  }
}
