package ad4j.processor.plan;

import ad4j.processor.ir.Function;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part methods of the first-order members, by member, in the order the generated class
 * lists them: a member's program planned again (after a split, or to fall back) replaces its
 * parts and moves them last, and a member dropped takes its parts along.
 */
final class PartsByMember {
  private final PartsSearch search;
  private final Map<String, List<PartMethod>> parts = new LinkedHashMap<>();

  PartsByMember(PartsSearch search) {
    this.search = search;
  }

  /** {@code program}, the program of {@code member}, cut ({@link PartsSearch}); kept here. */
  Parted cut(Function program, String member) {
    parts.remove(member);
    Parted cut = search.cut(program, member);
    if (!cut.parts().isEmpty()) {
      parts.put(member, cut.parts());
    }
    return cut;
  }

  /**
   * Moves the parts of each of {@code members}, in this order, after all the others, as if
   * they were cut again now, one after another.
   */
  void moveLast(String... members) {
    for (String member : members) {
      List<PartMethod> moved = parts.remove(member);
      if (moved != null) {
        parts.put(member, moved);
      }
    }
  }

  /** Forgets the parts of {@code member}, which is not generated after all. */
  void remove(String member) {
    parts.remove(member);
  }

  /** Every member's parts, in order. */
  List<PartMethod> inOrder() {
    List<PartMethod> all = new ArrayList<>();
    parts.values().forEach(all::addAll);
    return all;
  }
}
