package ad4j.processor.ir;

import java.util.List;

/**
 * One segment of a long straight-line method that {@code methodsize/Segments} cuts before it is
 * derived: its instructions, and what crosses its boundaries (the values it takes in from the
 * segments before it, those its derivatives read, and those it hands to the segments after it).
 * Plain data, so that the derivative transforms and the member plan read it without depending
 * on the cutting.
 */
public record Segment(int number, List<Instruction> instructions, List<Value> carriedIn,
    List<Value> needed, List<Value> carriedOut) {
  /** The user's first line in this segment. */
  public long firstLine() {
    return instructions.get(0).line().number();
  }

  /** The user's last line in this segment. */
  public long lastLine() {
    return instructions.get(instructions.size() - 1).line().number();
  }
}
