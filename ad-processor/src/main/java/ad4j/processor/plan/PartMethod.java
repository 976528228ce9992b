package ad4j.processor.plan;

import ad4j.processor.ir.Function;

/**
 * A private method a member's program calls with its long blocks or loop nests moved into it
 * ({@link PartsSearch}): its name, its program, the member it was cut from and why.
 *
 * @param member the member's name as the plan keys it ({@code fValueAndGradient})
 */
public record PartMethod(String name, Function program, String member, Kind kind) {
  /** Why the part is apart. */
  public enum Kind {
    /** A piece of a block too long for HotSpot. */
    PART,
    /** A loop nest moved apart for speed, not size. */
    LOOP_NEST
  }
}
