package ad4j.processor.plan;

import ad4j.processor.emit.NameScope;
import ad4j.processor.emit.PrintedSize;
import ad4j.processor.ir.Function;
import ad4j.processor.methodsize.LongBlocks;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which cut of a member's program into part methods ({@link LongBlocks}) the member prints:
 * when its printed body would pass HotSpot's limit, smaller parts until the program and every
 * part are under the limit, or larger ones when the program calling its parts is what passes
 * it; when it fits, its loop nests apart where that is faster. Apart from {@link LongBlocks},
 * which cuts, because this measures each cut as printed and chooses.
 */
final class PartsSearch {
  private final NameScope names;
  private final String segmentSuffix;
  private final int forcedPartSize;
  /**
   * The estimated bytes of the parts of the cuts chosen, as methods on the tape: the planner
   * asks again whether a chosen part passes a limit ({@link #partBytes}), and measuring means
   * printing. Only chosen cuts' parts are kept, so the cuts tried and dropped are not held.
   */
  private final Map<Function, Integer> chosenPartBytes = new IdentityHashMap<>();

  PartsSearch(NameScope names, String segmentSuffix, int forcedPartSize) {
    this.names = names;
    this.segmentSuffix = segmentSuffix;
    this.forcedPartSize = forcedPartSize;
  }

  /** {@code program}, the program of {@code member}, cut as it prints best. */
  Parted cut(Function program, String member) {
    if (forcedPartSize > 0) {
      return cutInto(program, member, forcedPartSize);
    }
    if (fitsWhole(program)) {
      return withLoopNestsApart(program, member);
    }
    // the cut whose largest method is smallest; smaller parts only while it passes the limit
    // (more parts hand more values over), and while a part, not the member, is the largest
    PartsTried best = null;
    for (int size = LongBlocks.PART_SIZE; size >= LongBlocks.PART_SIZE / 8; size /= 2) {
      Optional<PartsTried> cut = cutOnce(program, member, size);
      if (cut.isEmpty()) {
        break;
      }
      if (best == null || cut.get().largest() < best.largest()) {
        best = cut.get();
      }
      if (cut.get().largest() <= SizeLimits.BYTECODE_LIMIT || cut.get().memberLargest()) {
        break;
      }
    }
    // Where the member itself, with its parts' calls, is what passes the limit, fewer and
    // larger parts make it shorter (seven branches of 300 statements each called 11 parts
    // of 160: a member of 12 KB that ran interpreted, each part near 1 KB).
    for (int size = 2 * LongBlocks.PART_SIZE; best != null && best.memberLargest()
        && best.largest() > SizeLimits.BYTECODE_LIMIT && size <= 16 * LongBlocks.PART_SIZE;
        size *= 2) {
      Optional<PartsTried> cut = cutOnceBelow(program, member, size, best.largest());
      if (cut.isEmpty()) {
        break;
      }
      best = cut.get();
    }
    if (best == null) {
      return Parted.whole(program);
    }
    for (int i = 0; i < best.parts().size(); i++) {
      chosenPartBytes.put(best.parts().get(i).program(), best.partBytes().get(i));
    }
    return new Parted(best.program(), best.parts());
  }

  /**
   * Whether {@code program} fits one method as it is: it cannot be cut (a straight-line
   * program is not printed once more to be measured), or its printed body is under the limit.
   */
  private boolean fitsWhole(Function program) {
    return !LongBlocks.mayCut(program)
        || PrintedSize.bodyFits(program, names, SizeLimits.BYTECODE_LIMIT);
  }

  private String partName(String member) {
    return member + segmentSuffix + "Part";
  }

  /**
   * The estimated bytecode of {@code part}'s program printed as a method on the tape, as
   * {@link PrintedSize#ofMethodOnTape}: measured when {@link #cut} chose it, else now.
   */
  int partBytes(PartMethod part) {
    Integer known = chosenPartBytes.get(part.program());
    return known != null ? known : PrintedSize.ofMethodOnTape(part.program(), names);
  }

  /**
   * {@code program}, which fits a method, with each of its loop nests in a method of its own
   * where {@link LongBlocks#loopNestsOf} moves them.
   */
  private Parted withLoopNestsApart(Function program, String member) {
    Optional<LongBlocks.Cut> cut = LongBlocks.loopNestsOf(program,
        member + segmentSuffix + "Nest");
    if (cut.isEmpty()) {
      return Parted.whole(program);
    }
    return new Parted(cut.get().program(), parts(cut.get(), member, PartMethod.Kind.LOOP_NEST));
  }

  /**
   * A cut tried by {@link #cut}: the member's program, its parts, the estimated bytes of each
   * part and of the largest method, the member or a part.
   */
  private record PartsTried(Function program, List<PartMethod> parts, List<Integer> partBytes,
      int largest, boolean memberLargest) {}

  /** {@code program} cut into parts of {@code size} statements and measured, if it cuts. */
  private Optional<PartsTried> cutOnce(Function program, String member, int size) {
    return cutOnceBelow(program, member, size, Integer.MAX_VALUE);
  }

  /**
   * {@code program} cut into parts of {@code size} statements and measured, if it cuts and
   * its largest method is smaller than {@code bound}. The measuring stops at the first method
   * of {@code bound} bytes or more: the cut is then no better than the one that set the
   * bound, and its other methods need not be printed (a record half of the samples whose member
   * stays at 22 KB with parts of 160, 320, 640 and 1,280 statements was printed whole at each).
   */
  private Optional<PartsTried> cutOnceBelow(Function program, String member, int size,
      int bound) {
    Optional<LongBlocks.Cut> cut = LongBlocks.of(program, partName(member), size);
    if (cut.isEmpty()) {
      return Optional.empty();
    }
    int calling = PrintedSize.ofBody(cut.get().program(), names);
    if (calling >= bound) {
      return Optional.empty();
    }
    int largest = calling;
    List<Integer> partBytes = new ArrayList<>();
    for (LongBlocks.Part part : cut.get().parts()) {
      int bytes = PrintedSize.ofMethodOnTape(part.program(), names);
      if (bytes >= bound) {
        return Optional.empty();
      }
      partBytes.add(bytes);
      largest = Math.max(largest, bytes);
    }
    return Optional.of(new PartsTried(cut.get().program(),
        parts(cut.get(), member, PartMethod.Kind.PART), partBytes, largest, calling == largest));
  }

  /** {@code program} cut into parts of {@code size} statements, whatever its length. */
  private Parted cutInto(Function program, String member, int size) {
    Optional<LongBlocks.Cut> cut = LongBlocks.of(program, partName(member), size);
    if (cut.isEmpty()) {
      return Parted.whole(program);
    }
    return new Parted(cut.get().program(), parts(cut.get(), member, PartMethod.Kind.PART));
  }

  private static List<PartMethod> parts(LongBlocks.Cut cut, String member,
      PartMethod.Kind kind) {
    List<PartMethod> parts = new ArrayList<>();
    for (LongBlocks.Part part : cut.parts()) {
      parts.add(new PartMethod(part.name(), part.program(), member, kind));
    }
    return parts;
  }
}
