package ad4j.processor.plan;

import ad4j.processor.ir.Function;
import java.util.List;

/**
 * The program a member prints, after its long blocks or loop nests were cut into part methods,
 * and those parts (none when it stays whole).
 */
public record Parted(Function program, List<PartMethod> parts) {
  /** {@code program} whole. */
  static Parted whole(Function program) {
    return new Parted(program, List.of());
  }
}
