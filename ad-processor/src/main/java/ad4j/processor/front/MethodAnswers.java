package ad4j.processor.front;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import javax.lang.model.element.ExecutableElement;

/**
 * The remembered answers of a yes-or-no question about methods that is worked out by reading
 * their bodies ({@link ArgumentOnlyMethods}, {@link ReadOnlyMethods}), where a body may lead back
 * to a method being read (recursion). While a method's body is read, the method is assumed to
 * answer "yes"; an answer given under that assumption is kept only when it is the outermost one,
 * or "no".
 */
final class MethodAnswers {
  private final Map<ExecutableElement, Boolean> known = new HashMap<>();
  /** The methods being read now. */
  private final Set<ExecutableElement> reading = new HashSet<>();

  /** The answer for {@code method}: remembered, assumed while it is read, or {@code read}'s. */
  boolean of(ExecutableElement method, Predicate<ExecutableElement> read) {
    Boolean answer = known.get(method);
    if (answer != null) {
      return answer;
    }
    if (reading.contains(method)) {
      return true;
    }
    boolean outermost = reading.isEmpty();
    reading.add(method);
    boolean result;
    try {
      result = read.test(method);
    } finally {
      reading.remove(method);
    }
    if (outermost || !result) {
      known.put(method, result);
    }
    return result;
  }
}
