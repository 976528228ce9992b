package ad4j.processor.analysis;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a loop's forward sweep records on the tape, and when: the values each instruction's
 * derivative reads that are computed inside a loop (parameters and values computed before the
 * loop stay readable). Each value is recorded once per block, after its last use there, so that
 * the reverse sweep takes it back before the first use it meets and shares it with the others.
 */
public final class TapePlan {
  private final FlowAnalysis flow;
  private final Map<Block, Map<Instruction, List<Value>>> plans = new IdentityHashMap<>();
  /** Loop bodies whose values the reverse reads where they were made: see keepInLocals. */
  private final java.util.Set<Block> keptInLocals =
      java.util.Collections.newSetFromMap(new IdentityHashMap<>());

  public TapePlan(FlowAnalysis flow) {
    this.flow = flow;
  }

  /**
   * The values made directly in {@code body}, a loop's body, are read where they were made,
   * not recorded: the reverse of each iteration follows it in the same body (a fused loop of
   * {@link ad4j.processor.derive.reverse.Adjoint Adjoint}), where they are still in scope. Called
   * before any plan is made.
   */
  public void keepInLocals(Block body) {
    keptInLocals.add(body);
  }

  /** Whether the values made directly in {@code block} are read where they were made. */
  public boolean keepsInLocals(Block block) {
    return keptInLocals.contains(block);
  }

  /** The values recorded right after {@code instruction}, which lies in the loop block. */
  public List<Value> recordedAfter(Instruction instruction, Block block) {
    return plans.computeIfAbsent(block, this::plan).getOrDefault(instruction, List.of());
  }

  private Map<Instruction, List<Value>> plan(Block block) {
    Map<Value, Instruction> lastUse = new HashMap<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        for (Value needed : taped(instruction)) {
          lastUse.put(needed, instruction);
        }
      }
    }
    Map<Instruction, List<Value>> plan = new IdentityHashMap<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        for (Value needed : taped(instruction)) {
          if (lastUse.get(needed) == instruction) {
            List<Value> after = plan.computeIfAbsent(instruction, i -> new ArrayList<>());
            if (!after.contains(needed)) {
              after.add(needed);
            }
          }
        }
      }
    }
    return plan;
  }

  /** The values an instruction inside a loop records for its reverse. */
  private List<Value> taped(Instruction instruction) {
    return flow.needs(instruction).stream()
        .filter(v -> v.origin() != Value.Origin.PARAMETER
            && flow.loopDepth(flow.definingBlock(v)) > 0
            && !keptInLocals.contains(flow.definingBlock(v)))
        .toList();
  }
}
