package ad4j.processor.front;

import ad4j.processor.ir.Operand;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.PrimitiveType;
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
    return chosen(context, candidates(context, owner, name), types.get(), site)
        .map(Overloads.Choice::method).orElse(null);
  }

  /** The method or constructor of {@code candidates} that a call with {@code arguments} means. */
  static Optional<Overloads.Choice> choice(LoweringContext context,
      List<ExecutableElement> candidates, List<Operand> arguments) {
    Optional<List<TypeMirror>> types = context.javaTypes().javaTypesOf(arguments);
    if (types.isEmpty()) {
      return Optional.empty();
    }
    return chosen(context, candidates, types.get(), null);
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
    return chosen(context,
        javax.lang.model.util.ElementFilter.constructorsIn(site.asElement().getEnclosedElements()),
        types.get(), site);
  }

  /**
   * The one of {@code candidates} that arguments of these types choose, on a receiver of type
   * {@code site} (null: a static call). Where an argument of the call being lowered is a box in
   * Java that ad4j holds as its number ({@link JavaBoxes}: {@code g(t)} in
   * {@code Function<Double, Double> f = t -> g(t)}), Java chooses with the box's type: when
   * that is another method ({@code g(Double)} or {@code g(Object)} beside {@code g(double)}),
   * the call is an error, as generated code, passing the number, would call the other one.
   */
  private static Optional<Overloads.Choice> chosen(LoweringContext context,
      List<ExecutableElement> candidates, List<TypeMirror> types,
      javax.lang.model.type.DeclaredType site) {
    Overloads overloads = context.calleeServices().overloads();
    Optional<Overloads.Choice> choice = overloads.choose(candidates, types, site);
    Tree call = context.lowering();
    List<? extends ExpressionTree> trees = call instanceof MethodInvocationTree invocation
        ? invocation.getArguments()
        : call instanceof NewClassTree creation ? creation.getArguments() : List.of();
    if (trees.size() != types.size()) {
      return choice;
    }
    List<TypeMirror> written = new ArrayList<>(types);
    ExpressionTree boxed = null;
    for (int i = 0; i < types.size(); i++) {
      if (types.get(i).getKind().isPrimitive()
          && JavaBoxes.isBoxInJava(context, trees.get(i))) {
        written.set(i, context.types().boxedClass((PrimitiveType) types.get(i)).asType());
        boxed = boxed == null ? trees.get(i) : boxed;
      }
    }
    if (boxed == null) {
      return choice;
    }
    Optional<Overloads.Choice> java = overloads.choose(candidates, written, site);
    Optional<ExecutableElement> javaMethod = java.map(Overloads.Choice::method);
    if (javaMethod.equals(choice.map(Overloads.Choice::method))) {
      choice.ifPresent(c -> rejectPassedBoxes(context, call, trees, types, c));
      return choice;
    }
    String shown = context.source().of(boxed);
    context.diagnostics().errorOnce(call, "call to '" + context.source().of(call) + "': '"
        + shown + "' is a box in Java, which a function over boxes takes or returns, and"
        + " with it Java calls " + javaMethod.map(CallChoices::signature).orElse("no method")
        + ", where ad4j, which specialises the function over numbers, would call "
        + choice.map(c -> signature(c.method())).orElse("no method") + "; use the primitive"
        + " interface ('DoubleUnaryOperator', 'DoubleBinaryOperator', 'DoubleSupplier'), or"
        + " write '(double) " + shown + "' to call the method that takes a number");
    return java;
  }

  /**
   * An error at {@code call} where it passes a parameter of a function over boxes as an object
   * ({@code same(t, t)} of a {@code same(Double a, Double b)}): Java passes the one box the
   * function was given, each time the same object, and generated code, which holds its number,
   * would box it again at each use, another object each time, which a method comparing or
   * keeping objects tells apart.
   */
  private static void rejectPassedBoxes(LoweringContext context, Tree call,
      List<? extends ExpressionTree> trees, List<TypeMirror> types, Overloads.Choice choice) {
    List<? extends javax.lang.model.element.VariableElement> parameters =
        choice.method().getParameters();
    for (int i = 0; i < trees.size() && !parameters.isEmpty(); i++) {
      ExpressionTree argument = ExpressionLowering.withoutParentheses(trees.get(i));
      if (!(argument instanceof com.sun.source.tree.IdentifierTree name)
          || !JavaBoxes.isBoxInJava(context, argument)) {
        continue;
      }
      int at = Math.min(i, parameters.size() - 1);
      TypeMirror type = parameters.get(at).asType();
      if (choice.variableArity() && at == parameters.size() - 1
          && type instanceof javax.lang.model.type.ArrayType array) {
        type = array.getComponentType();
      }
      if (type.getKind().isPrimitive()) {
        continue;
      }
      context.diagnostics().errorOnce(call, "call to '" + context.source().of(call) + "': '"
          + name.getName() + "' is the box a function over boxes is given, one object in Java,"
          + " which this call passes as an object to " + signature(choice.method())
          + "; ad4j holds its number, and generated code would box it again at each use,"
          + " another object each time; use the primitive interface ('DoubleUnaryOperator',"
          + " 'DoubleBinaryOperator'), or pass the number ('(" + types.get(i) + ") "
          + name.getName() + "') to a method that takes one");
      return;
    }
  }

  /** {@code 'Owner.name(Double)'}: a method as messages name it. */
  static String signature(ExecutableElement method) {
    StringBuilder text = new StringBuilder("'")
        .append(method.getEnclosingElement().getSimpleName()).append('.')
        .append(method.getKind() == javax.lang.model.element.ElementKind.CONSTRUCTOR
            ? method.getEnclosingElement().getSimpleName() : method.getSimpleName())
        .append('(');
    for (int i = 0; i < method.getParameters().size(); i++) {
      TypeMirror type = method.getParameters().get(i).asType();
      text.append(i == 0 ? "" : ", ").append(type.toString().replace("java.lang.", ""));
    }
    return text.append(")'").toString();
  }
}
