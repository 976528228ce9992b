package ad4j.processor.front;

import ad4j.processor.ir.Operand;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;

/**
 * Which method a call means, given its lowered arguments: the member methods of a class by
 * name, inherited ones included, and the one javac chooses among them for the arguments' Java
 * types ({@link Overloads}, JLS 15.12.2), on a class or on a receiver of a parameterised type.
 *
 * <p>Apart from {@link CalleeResolver} because every kind of call asks it first, whatever
 * lowers the call then: a {@code @Differentiable} callee, a method with rules, one run as
 * written, a method reference, a record's method.
 */
final class CallChoices {
  private CallChoices() {}

  /** The member methods of {@code owner} named {@code name}, inherited ones included. */
  static List<ExecutableElement> candidates(LoweringContext context, TypeElement owner,
      String name) {
    return context.symbols().members().methods(owner, name);
  }

  /**
   * The method {@code owner.name(arguments)} calls, chosen as javac chooses among its member
   * methods of that name (JLS 15.12.2); null when none applies.
   */
  static ExecutableElement choose(LoweringContext context, TypeElement owner, String name,
      List<Operand> arguments) {
    return choice(context, candidates(context, owner, name), arguments)
        .map(Overloads.Choice::method).orElse(null);
  }

  /**
   * The method {@code receiver.name(arguments)} calls, for a receiver of type {@code site}
   * ({@code List<Double>}: {@code add(Double)}); null when none applies.
   */
  static ExecutableElement chooseOn(LoweringContext context,
      javax.lang.model.type.DeclaredType site, String name, List<Operand> arguments) {
    Optional<List<TypeMirror>> types = context.javaTypes().javaTypesOf(arguments);
    if (types.isEmpty()) {
      return null;
    }
    TypeElement owner = (TypeElement) site.asElement();
    return context.calleeServices().overloads().choose(candidates(context, owner, name),
        types.get(), site)
        .map(Overloads.Choice::method).orElse(null);
  }

  /** The method or constructor of {@code candidates} that a call with {@code arguments} means. */
  static Optional<Overloads.Choice> choice(LoweringContext context,
      List<ExecutableElement> candidates, List<Operand> arguments) {
    Optional<List<TypeMirror>> types = context.javaTypes().javaTypesOf(arguments);
    if (types.isEmpty()) {
      return Optional.empty();
    }
    return context.calleeServices().overloads().choose(candidates, types.get());
  }

  /**
   * The constructor of {@code candidates}, constructors of {@code site}
   * ({@code HashSet<Double>}), that {@code new} with {@code arguments} means, its parameters
   * seen as members of {@code site} ({@code Collection<? extends Double>}).
   */
  static Optional<Overloads.Choice> constructorChoice(LoweringContext context,
      javax.lang.model.type.DeclaredType site, List<Operand> arguments) {
    Optional<List<TypeMirror>> types = context.javaTypes().javaTypesOf(arguments);
    if (types.isEmpty()) {
      return Optional.empty();
    }
    return context.calleeServices().overloads().choose(
        javax.lang.model.util.ElementFilter.constructorsIn(site.asElement().getEnclosedElements()),
        types.get(), site);
  }
}
