package ad4j.processor.emit;

import ad4j.processor.ir.Function;
import java.util.Set;

/**
 * What the names of every member generated for one user's method start from: the user's names,
 * which generated names never take, and the names generated code uses as qualifiers
 * ({@link ReservedNames}), which no variable takes. Apart from {@link NameAllocator} because
 * each member, and each trial print that measures one, chooses its names afresh from the same
 * scope, and the reserved names are found once per method. The scope also keeps each printed
 * program's form ({@link PrintedForms}), shared by the trial prints and the final one.
 */
public final class NameScope {
  private final Function function;
  private final Set<String> reserved;
  /**
   * Held here, beside the names, because every printer of the method's programs, trial or
   * final, starts from this scope.
   */
  private final PrintedForms printedForms = new PrintedForms();

  private NameScope(Function function, Set<String> reserved) {
    this.function = function;
    this.reserved = reserved;
  }

  /** The scope of the user's {@code function}. */
  public static NameScope of(Function function) {
    return new NameScope(function, ReservedNames.of(function));
  }

  /** The names of one member: nothing taken yet. */
  public NameAllocator allocator() {
    return new NameAllocator(function.userNames(), reserved, printedForms);
  }
}
