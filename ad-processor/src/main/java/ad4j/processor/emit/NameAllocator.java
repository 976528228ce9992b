package ad4j.processor.emit;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javax.lang.model.SourceVersion;

/**
 * Chooses the local and parameter names of one generated method. The user's names are kept where
 * possible; generated names ({@code xDot}, {@code t1}, {@code gradient}) never take a name the
 * user wrote, so a parameter called {@code gradient} or a local called {@code t1} still works.
 * No variable takes a name that generated code uses as a qualifier ({@link ReservedNames}): a
 * parameter {@code Tape} or {@code geo} is renamed rather than hide {@code Tape.current()} or
 * {@code geo.LibGrad}.
 */
public final class NameAllocator {
  private final Set<String> userNames;
  private final Set<String> reserved;
  private final Set<String> used = new HashSet<>();
  private final Map<String, Integer> nextNumber = new HashMap<>();
  private final PrintedForms printedForms;

  NameAllocator(Iterable<String> userNames, Set<String> reserved, PrintedForms printedForms) {
    this.userNames = new HashSet<>();
    userNames.forEach(this.userNames::add);
    this.reserved = reserved;
    this.printedForms = printedForms;
  }

  /** The printed forms of the programs of the method whose scope this allocator names. */
  PrintedForms printedForms() {
    return printedForms;
  }

  /** A name the user wrote: kept unless it is already taken here or is reserved. */
  public String user(String name) {
    if (!used.contains(name) && !reserved.contains(name)) {
      used.add(name);
      return name;
    }
    return fresh(name);
  }

  /** A generated name: {@code hint} itself if free, else {@code hint2}, {@code hint3}, ... */
  public String fresh(String hint) {
    if (isFree(hint)) {
      used.add(hint);
      return hint;
    }
    return numbered(hint, 2);
  }

  /** {@code prefix1}, {@code prefix2}, ...: the first that is free. */
  String numbered(String prefix) {
    return numbered(prefix, 1);
  }

  private String numbered(String prefix, int start) {
    // Names are never given back, so the search for a prefix goes on where it stopped last:
    // thousands of temporaries stay linear.
    for (int i = Math.max(start, nextNumber.getOrDefault(prefix, start)); ; i++) {
      String candidate = prefix + i;
      if (isFree(candidate)) {
        used.add(candidate);
        nextNumber.put(prefix, i + 1);
        return candidate;
      }
    }
  }

  private boolean isFree(String name) {
    return !used.contains(name) && !userNames.contains(name) && !reserved.contains(name)
        && !SourceVersion.isKeyword(name);
  }
}
