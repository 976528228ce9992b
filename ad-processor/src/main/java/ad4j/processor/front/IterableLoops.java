package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.Tree;
import java.util.List;
import java.util.Optional;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.PrimitiveType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * The enhanced {@code for} over an {@code Iterable} that carries no derivative (a
 * {@code @NoDerivative List<Double>}, a map's entry set, a set of objects): Java's own loop
 * (JLS 14.14.2), {@code iterable.iterator()} once before it, {@code hasNext()} before and
 * {@code next()} at the start of each iteration, every call run as written, as if the user had
 * written them. An element is a number where the loop's variable unboxes it
 * ({@code for (double w : weights)}), else an object.
 *
 * <p>Nothing new about derivatives: the elements come out of an object, so they carry none,
 * and the dependence analysis follows them from the iterable as from any call of its methods,
 * so that a list the method filled with values that carry derivatives is an error where they
 * come back. The reverse sweep reads each iteration's element from the tape, as it does the
 * result of any call run as written in a loop; members that make several sweeps cannot run
 * {@code next()} again, and say so ({@link RepeatedRuns}).
 */
final class IterableLoops {
  /** How the loop's variable is declared: a number ({@code kind}) or an object ({@code mirror}). */
  record Variable(String name, NumericType kind, TypeMirror mirror, String text) {}

  private final LoweringContext context;
  private final ExpressionLowering expressions;

  IterableLoops(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
  }

  /** Whether {@code value} is an {@code Iterable} (a {@code List}, a {@code Set}, ...). */
  boolean isIterable(Operand value) {
    return context.javaTypes().isObjectOf(value,
        context.elements().getTypeElement("java.lang.Iterable"));
  }

  /**
   * A walk over an {@code Iterable}'s elements, for calls and messages: {@code at} is where
   * errors go, {@code iterable} the iterable's source ({@code weights}), {@code what} the code
   * that walks it ({@code the enhanced 'for' loop over 'weights'}).
   */
  record Walk(Tree at, String iterable, String what) {
    static Walk of(EnhancedForLoopTree loop, String iterable) {
      return new Walk(loop.getExpression(), iterable,
          "the enhanced 'for' loop over '" + iterable + "'");
    }
  }

  /**
   * {@code iterable.iterator()}, run once before the loop; null after an error, also where
   * the members of the method being lowered would walk it again.
   */
  Operand iterator(Walk walk, Operand iterable) {
    if (new RepeatedRuns(context).rejectIteration(walk.at(), walk.what(), walk.iterable())) {
      return null;
    }
    if (context.element() != null && CheckpointedLoops.isCheckpointed(context.element())
        && !context.loops().inside()) {
      // the reverse sweep computes a checkpointed loop's iterations anew from its snapshots
      context.diagnostics().error(walk.at(), walk.what() + " cannot be checkpointed"
          + " (@Checkpointed): it runs its iterator as written, and the reverse sweep would"
          + " have to run 'next()' again when it computes iterations anew; walk the elements"
          + " in an array, by index");
      return null;
    }
    return expressions.objects().writtenCall(iterable, "iterator", walk.at(),
        walk.iterable() + ".iterator()");
  }

  /** {@code iterator.hasNext()}: the loop's test. */
  Operand hasNext(Walk walk, Operand iterator) {
    return expressions.objects().writtenCall(iterator, "hasNext", walk.at(),
        walk.iterable() + ".iterator().hasNext()");
  }

  /** {@code iterator.next()}, as it returns it; null after an error. */
  Operand next(Walk walk, Operand iterator) {
    return expressions.objects().writtenCall(iterator, "next", walk.at(),
        walk.iterable() + ".iterator().next()");
  }

  /** {@code element}, an element {@link #next} returned, as {@code variable} holds it. */
  Operand held(Operand element, Variable variable) {
    if (element == null || variable.kind().isReference()) {
      return element;
    }
    return expressions.conversions().convert(expressions.unboxing().number(element),
        variable.kind());
  }

  /** The type of the elements {@code iterator}'s {@code next()} returns. */
  TypeMirror elementType(Operand iterator) {
    DeclaredType iteratorType = (DeclaredType) context.javaTypes().referenceTypeOf(iterator)
        .orElseThrow();
    // the method next() calls, chosen as for a call of the user's
    javax.lang.model.element.ExecutableElement next =
        CallChoices.chooseOn(context, iteratorType, "next", List.of());
    return next == null ? context.elements().getTypeElement("java.lang.Object").asType()
        : context.javaTypes().heldAs(((javax.lang.model.type.ExecutableType)
            context.types().asMemberOf(iteratorType, next)).getReturnType());
  }

  /**
   * The loop's variable, as its declaration and the type of the elements {@code iterator}'s
   * {@code next()} returns make it; empty after an error at the variable.
   */
  Optional<Variable> variable(EnhancedForLoopTree loop, Operand iterator) {
    TypeMirror elements = elementType(iterator);
    String name = loop.getVariable().getName().toString();
    Tree typeTree = loop.getVariable().getType();
    boolean inferred = typeTree == null || (typeTree instanceof IdentifierTree identifier
        && identifier.getName().contentEquals("var"));
    TypeMirror declared = inferred ? elements
        : context.javaTypes().typeMirrorOf(typeTree).orElse(null);
    Tree at = inferred ? loop.getVariable() : typeTree;
    if (declared == null) {
      return Optional.empty(); // an unknown type: its name is the error
    }
    if (declared.getKind().isPrimitive()) {
      Optional<PrimitiveType> unboxed = Unboxing.unboxedType(context.types(), elements);
      Optional<NumericType> kind = context.javaTypes().irType(declared)
          .filter(NumericType::isNumeric);
      if (unboxed.isEmpty() || kind.isEmpty()
          || !context.types().isAssignable(unboxed.get(), declared)
          || !isNumber(unboxed.get())) {
        context.diagnostics().error(at, "the variable '" + name + "' of an enhanced 'for'"
            + " loop over '" + shown(loop) + "', whose elements are '" + elements + "', cannot"
            + " have type '" + declared + "': ad4j unboxes 'Double', 'Float', 'Integer' and"
            + " 'Long' elements to a number they widen to");
        return Optional.empty();
      }
      return Optional.of(new Variable(name, kind.get(), null, null));
    }
    Optional<String> text = context.javaTypes().javaText(declared);
    if (!context.types().isAssignable(elements, declared) || text.isEmpty()) {
      context.diagnostics().error(at, "the variable '" + name + "' of an enhanced 'for' loop"
          + " over '" + shown(loop) + "', whose elements are '" + elements + "', cannot have"
          + " type '" + declared + "'" + (text.isEmpty() ? ": generated code cannot name it ("
          + context.javaTypes().typeProblem(declared) + ")" : ""));
      return Optional.empty();
    }
    // a value record element is an object, as a @NoDerivative record parameter is: its
    // components are read through its accessors where the loop reads them
    return Optional.of(new Variable(name, context.javaTypes().irType(declared)
        .orElse(NumericType.OBJECT), declared, text.get()));
  }

  private static boolean isNumber(PrimitiveType type) {
    TypeKind kind = type.getKind();
    return kind == TypeKind.DOUBLE || kind == TypeKind.FLOAT || kind == TypeKind.INT
        || kind == TypeKind.LONG;
  }

  private String shown(EnhancedForLoopTree loop) {
    return context.source().of(loop.getExpression());
  }
}
