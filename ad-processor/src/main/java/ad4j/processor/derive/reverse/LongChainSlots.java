package ad4j.processor.derive.reverse;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The values the pieces of a long {@code if / else if} chain outside loops carry from the
 * forward sweep to the reverse sweep, in variables all pieces share ({@link ChainSlots}). These
 * exist for {@code methodsize/LongBlocks}, which cuts long chains into parts: apart so that the
 * sweeps only read the slots.
 */
final class LongChainSlots {
  private final SweepState s;

  LongChainSlots(SweepState s) {
    this.s = s;
  }

  /** The pieces of a long chain: its links' then-blocks, and the last link's else block. */
  static List<Block> pieces(List<If> chain) {
    List<Block> pieces = new ArrayList<>();
    for (If link : chain) {
      pieces.add(link.thenBlock());
    }
    pieces.add(chain.get(chain.size() - 1).elseBlock());
    return pieces;
  }

  /**
   * The variables that carry, from a long chain's forward sweep to its reverse sweep, the values
   * its pieces compute and their reverses read ({@code e = Math.exp(x * y)}, whose partial is
   * {@code e}; the condition of a branch inside a piece). Only one piece runs, so the pieces
   * share them ({@link ChainSlots}): the first value of each type that a piece carries goes
   * into the chain's first variable of that type, and so on. Left in locals of their own,
   * hoisted to the top of the method, a chain of 500 such pieces handed 500 values from part
   * to part of the cut sweeps, past the JVM's limit; now each part hands over what one piece
   * carries. Values made and read in loops inside a piece go on the tape as in any loop; the
   * pieces of a long chain inside a piece carry their own.
   */
  void pieceSlots(List<If> chain, ChainSlots slots) {
    for (Block piece : pieces(chain)) {
      slots.startPiece();
      List<Block> blocks = new ArrayList<>();
      blocksOfPiece(piece, blocks);
      // the values made outside the piece's loops: those inside go on the tape
      Set<Block> within = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
      blocks.stream().filter(block -> s.flow.loopDepth(block) == 0).forEach(within::add);
      Map<Value, Variable> carried = new HashMap<>();
      for (Block block : blocks) {
        List<Value> read = new ArrayList<>();
        for (Statement statement : block.statements()) {
          if (statement instanceof Instruction instruction && s.flow.isLive(instruction)) {
            read.addAll(s.flow.needs(instruction));
            if (within.contains(block) && LocalArrayAdjoints.makesLocalArray(instruction)
                && instruction.operation().form() == Operation.Form.NEW_ARRAY
                && !instruction.operation().makesMatrix() && !s.primal.returnsArray()) {
              // its adjoint array is made in the piece's reverse, of the length it was made with
              s.arraysOfPieces.add(instruction);
              if (instruction.arguments().get(0) instanceof Operand.Use length) {
                read.add(length.value());
              }
            }
          } else if (statement instanceof If branch
              && branch.condition() instanceof Operand.Use use) {
            read.add(use.value());
          }
        }
        for (Value value : read) {
          NumericType type = value.type();
          if (!within.contains(s.flow.definingBlock(value))
              || !(type.isFloatingPoint() || type == NumericType.INT
                  || type == NumericType.LONG || type == NumericType.BOOLEAN)) {
            continue;
          }
          Variable slot = carried.get(value);
          if (slot == null) {
            slot = slots.take("Carried", type);
            carried.put(value, slot);
            s.carriedFrom.computeIfAbsent(s.flow.definingBlock(value), b -> new LinkedHashMap<>())
                .put(value, slot);
          }
          s.restored.computeIfAbsent(block, b -> new HashMap<>())
              .put(value, new Operand.Read(slot));
        }
      }
    }
  }

  /**
   * {@code block} and the blocks inside it, at any depth, in order, into {@code within}: those
   * of its branches and loops (in a loop's, values made outside it are read too), not those of
   * the pieces of long chains, which carry their own values.
   */
  private void blocksOfPiece(Block block, List<Block> within) {
    within.add(block);
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch && !s.chains.longChain(branch, block).isEmpty()) {
        continue;
      }
      for (Block nested : statement.nestedBlocks()) {
        blocksOfPiece(nested, within);
      }
    }
  }
}
