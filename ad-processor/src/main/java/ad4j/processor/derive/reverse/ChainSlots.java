package ad4j.processor.derive.reverse;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The variables a long chain's pieces share: the values they carry to the reverse sweep
 * ({@link LongChainSlots#pieceSlots}) and the trip counts of their loops ({@link
 * TopLevelCounters#declareTopLevelCounters(Block, List, ChainSlots)}). Only one piece runs, so a
 * piece's n-th variable of a kind and type is the chain's n-th, declared when no piece took as many
 * before.
 */
final class ChainSlots {
  private final IrBuilder builder;
  private final int chainId;
  private final List<Statement> out;
  private final Map<String, List<Variable>> pools = new HashMap<>();
  /** How many of each pool the piece being declared has taken. */
  private final Map<String, Integer> taken = new HashMap<>();

  ChainSlots(IrBuilder builder, int chainId, List<Statement> out) {
    this.builder = builder;
    this.chainId = chainId;
    this.out = out;
  }

  /** The next piece: none of the variables taken yet. */
  void startPiece() {
    taken.clear();
  }

  /** The piece's next variable of {@code type}, named {@code chainNKind}. */
  Variable take(String kind, NumericType type) {
    String pool = kind + " " + type;
    int index = taken.merge(pool, 1, Integer::sum) - 1;
    List<Variable> variables = pools.computeIfAbsent(pool, p -> new ArrayList<>());
    if (index == variables.size()) {
      Variable added = builder.generatedVariable("chain" + chainId + kind, type);
      variables.add(added);
      out.add(new Declare(added, Operand.Constant.zero(type), null));
    }
    return variables.get(index);
  }
}
