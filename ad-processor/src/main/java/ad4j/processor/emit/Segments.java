package ad4j.processor.emit;

import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The split of a long straight-line method into segments, each written as methods of its own.
 *
 * <p>HotSpot does not compile methods longer than 8000 bytes of bytecode: they stay
 * interpreted. A user's method just under that limit gives a generated reverse sweep several
 * times longer, with a local for every intermediate value. So long methods are cut into
 * segments of consecutive statements; each segment gets a forward method, a reverse method and
 * a tangent method. Segments hand each other the values that cross a boundary on the
 * {@link ad4j.runtime.Tape}, in a fixed order, and each forward method records there the values
 * its reverse method will need; adjoints travel back the same way.
 */
final class Segments {
  /**
   * Instructions per segment: small enough that every generated segment method stays well
   * under 8000 bytes of bytecode, large enough that handing values over stays a small part of
   * the work. Measured on a chain of sin, multiply and add: a whole value-and-gradient method
   * takes about 29 bytes per instruction, a forward segment about 10, a reverse segment about
   * 20 (javac's wide local-variable instructions included).
   */
  static final int SIZE = 150;

  /**
   * Above this many instructions a straight-line method is split: about 5800 bytes for the
   * value-and-gradient method, so methods near HotSpot's limit are split before they reach it.
   */
  static final int THRESHOLD = 200;

  /** One segment: its instructions and what crosses its boundaries. */
  record Segment(int number, List<Instruction> instructions, List<Value> carriedIn,
      List<Value> needed, List<Value> carriedOut) {}

  private final List<Segment> segments = new ArrayList<>();
  private final Value result;

  private Segments(Function function, FlowAnalysis flow, List<Instruction> live) {
    Return ret = (Return) function.body().statements().get(
        function.body().statements().size() - 1);
    this.result = ret.value() instanceof Operand.Use use ? use.value() : null;
    List<List<Instruction>> chunks = chunks(live);
    Map<Value, Integer> definedIn = new HashMap<>();
    for (int k = 0; k < chunks.size(); k++) {
      for (Instruction instruction : chunks.get(k)) {
        definedIn.put(instruction.result(), k);
      }
    }
    // lastUse[v]: the last segment whose instructions read v as an operand (or return it).
    Map<Value, Integer> lastUse = new HashMap<>();
    for (int k = 0; k < chunks.size(); k++) {
      for (Instruction instruction : chunks.get(k)) {
        for (Operand argument : instruction.arguments()) {
          if (argument instanceof Operand.Use use
              && use.value().origin() != Value.Origin.PARAMETER) {
            lastUse.merge(use.value(), k, Math::max);
          }
        }
      }
    }
    if (result != null && result.origin() != Value.Origin.PARAMETER) {
      lastUse.merge(result, chunks.size() - 1, Math::max);
    }
    List<List<Value>> carriedIn = new ArrayList<>();
    for (int k = 0; k < chunks.size(); k++) {
      int segment = k;
      List<Value> in = lastUse.entrySet().stream()
          .filter(e -> definedIn.get(e.getKey()) < segment && e.getValue() >= segment)
          .map(Map.Entry::getKey)
          .sorted(Comparator.comparingInt(Value::id))
          .toList();
      carriedIn.add(in);
    }
    for (int k = 0; k < chunks.size(); k++) {
      Set<Value> needed = new LinkedHashSet<>();
      for (Instruction instruction : chunks.get(k)) {
        for (Value value : flow.needs(instruction)) {
          if (value.origin() != Value.Origin.PARAMETER) {
            needed.add(value);
          }
        }
      }
      List<Value> out = k + 1 < chunks.size() ? carriedIn.get(k + 1) : List.of();
      segments.add(new Segment(k + 1, chunks.get(k), carriedIn.get(k), List.copyOf(needed),
          out));
    }
  }

  /** Whether {@code function} is long enough to be split, and the split if so. */
  static Segments of(Function function, FlowAnalysis flow, List<Instruction> live) {
    if (!flow.isStraightLine() || live.size() <= THRESHOLD) {
      return null;
    }
    return new Segments(function, flow, live);
  }

  List<Segment> list() {
    return segments;
  }

  /** The returned value, or null when the method returns a constant or a parameter. */
  Value result() {
    return result;
  }

  /** Cuts at statement boundaries once a segment has {@link #SIZE} instructions. */
  private static List<List<Instruction>> chunks(List<Instruction> live) {
    List<List<Instruction>> chunks = new ArrayList<>();
    List<Instruction> current = new ArrayList<>();
    for (Instruction instruction : live) {
      boolean newStatement = !current.isEmpty()
          && !current.get(current.size() - 1).line().equals(instruction.line());
      if (current.size() >= SIZE && (newStatement || current.size() >= 2 * SIZE)) {
        chunks.add(current);
        current = new ArrayList<>();
      }
      current.add(instruction);
    }
    chunks.add(current);
    return chunks;
  }

  /** The statements of a function, for callers that only need the instructions. */
  static List<Instruction> instructions(List<Statement> statements) {
    List<Instruction> instructions = new ArrayList<>();
    for (Statement statement : statements) {
      if (statement instanceof Instruction instruction) {
        instructions.add(instruction);
      }
    }
    return instructions;
  }
}
