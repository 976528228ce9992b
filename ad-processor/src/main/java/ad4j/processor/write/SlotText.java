package ad4j.processor.write;

import ad4j.processor.ir.Function;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Value;
import com.palantir.javapoet.CodeBlock;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.VariableElement;

/**
 * The gradient slots of one user's method as generated code and its javadoc state them: their
 * number as Java text, their order in words, and the check of an output array's length. Apart
 * because every member family that takes or fills a gradient says the same.
 */
final class SlotText {
  private final MethodContext method;
  private final Function function;
  private final int slots;

  SlotText(MethodContext method) {
    this.method = method;
    this.function = method.function();
    this.slots = function.differentiableParameters().size();
  }

  /** Throws when {@code array}, an output of {@code methodName}, is shorter than the slots. */
  CodeBlock lengthCheck(String methodName, String array, List<String> parameters) {
    if (!function.hasActiveArrays()) {
      return CodeBlock.builder()
          .beginControlFlow("if ($L.length < $L)", array, slots)
          .addStatement("throw new $T($S + $L.length + $S)", IllegalArgumentException.class,
              method.gradType() + "." + methodName + ": '" + array + "' has length ", array,
              ", needs " + slots + " (" + inWords() + ")")
          .endControlFlow()
          .build();
    }
    String count = count(parameters);
    return CodeBlock.builder()
        .beginControlFlow("if ($L.length < $L)", array, count)
        .addStatement("throw new $T($S + $L.length + $S + ($L) + $S)",
            IllegalArgumentException.class,
            method.gradType() + "." + methodName + ": '" + array + "' has length ", array,
            ", needs ", count, " (" + inWords() + ")")
        .endControlFlow()
        .build();
  }

  /**
   * The number of gradient slots as Java text over the parameters' names: a constant for
   * {@code double}s only, else {@code 2 + w.length + ad4j.runtime.internal.Slots.count(m)}.
   */
  String count(List<String> parameterNames) {
    return slotsBefore(parameterNames, function.parameters().size());
  }

  /**
   * The gradient slot of the parameter at {@code index}, the first of an array's, as Java text
   * over the parameters' names: the number of slots of the parameters before it.
   */
  String start(List<String> parameterNames, int index) {
    return slotsBefore(parameterNames, index);
  }

  private String slotsBefore(List<String> parameterNames, int end) {
    int doubles = 0;
    List<String> terms = new ArrayList<>();
    List<Value> all = function.parameters();
    for (int i = 0; i < end; i++) {
      Value parameter = all.get(i);
      if (parameter.isActive()) {
        doubles++;
      } else if (parameter.type().isFloatingPointArray() && parameter.isActiveArray()) {
        terms.add(parameterNames.get(i) + ".length");
      } else if (parameter.isActiveArray()) {
        terms.add("ad4j.runtime.internal.Slots.count(" + parameterNames.get(i) + ")");
      }
    }
    if (doubles > 0 || terms.isEmpty()) {
      terms.add(0, Integer.toString(doubles));
    }
    return String.join(" + ", terms);
  }

  /** For messages: {@code "slots in order: x, y"}. */
  String inWords() {
    return "slots in order: " + names(false);
  }

  /** The slots in order, a paragraph at the end of a member's description. */
  String layoutNote() {
    return "\n<p>Slots, in order: " + names(true) + ".\n";
  }

  /** When an output array is too short, as the javadoc says it. */
  String tooShortInWords() {
    return function.hasActiveArrays()
        ? "fewer elements than there are\n{@code double}s and array elements that carry"
            + " derivatives"
        : "fewer than " + slots + " elements";
  }

  /**
   * The slots in order, by the user's parameter names: {@code x, y}; with arrays
   * {@code x, then w (one per element), then lambda}; in {@code {@code ...}} for javadoc.
   */
  private String names(boolean javadoc) {
    List<String> parts = new ArrayList<>();
    List<Value> all = function.parameters();
    List<? extends VariableElement> declared = method.element().getParameters();
    for (int k = 0; k < all.size(); k++) {
      Value parameter = all.get(k);
      if (!parameter.isActive() && !parameter.isActiveArray()) {
        continue;
      }
      String name = declared.size() == all.size()
          ? declared.get(k).getSimpleName().toString() : parameter.nameHint();
      String shown = javadoc ? "{@code " + name + "}" : name;
      if (parameter.isActiveArray()) {
        shown += parameter.type() == NumericType.DOUBLE_MATRIX
            ? " (one per element, row by row)" : " (one per element)";
      }
      parts.add(shown);
    }
    return String.join(function.hasActiveArrays() ? ", then " : ", ", parts);
  }
}
