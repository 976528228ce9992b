package ad4j.processor.analysis;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stores into local arrays whose overwritten element the reverse sweep must put back. The
 * reverse of a call that passed a local array (to another {@code @Differentiable} method or to
 * {@code @DerivativeOf} rules) reads the array as the call saw it, and it meets the reverse of
 * every later store into that array first. So a store keeps the element it writes over only if
 * such a call may have run before it on the same array: earlier in the method, or in an earlier
 * iteration of a loop around both that does not make the array anew. The stores that fill an
 * array before its first call, the common case, record nothing. A local matrix counts as one
 * array with its rows: a call that passes the matrix or any row of it makes every later write
 * through any of its rows keep what it writes over.
 *
 * <p>In a {@code @Checkpointed} method, a loop outside loops reads its arrays' elements again
 * when the reverse sweep computes its iterations anew from a snapshot, after the reverse of
 * every later store: so an element read there counts as such a call, and a later store keeps
 * what it writes over (the loop itself writes no array). The loops a library call's copy or
 * fill is written out as ({@link Loop.Kind#GENERATED}) are not checkpointed, and their reads
 * are not made again.
 */
public final class KeptElements {
  /** Where an instruction is: its rank in the order of the program, and the loops around it. */
  private record Place(int rank, List<Loop> loops) {
    boolean inside(Loop loop) {
      return loops.stream().anyMatch(l -> l == loop);
    }
  }

  private final FlowAnalysis flow;
  private final boolean checkpointed;
  private final Map<Instruction, Place> stores = new IdentityHashMap<>();
  private final Map<Value, Place> makings = new HashMap<>();
  private final Map<Value, List<Place>> calls = new HashMap<>();
  private int rank;

  private KeptElements(FlowAnalysis flow, boolean checkpointed) {
    this.flow = flow;
    this.checkpointed = checkpointed;
  }

  /**
   * The stores of {@code body} that keep what they write over; {@code checkpointed} when the
   * method's loops outside loops are {@code @Checkpointed}.
   */
  public static KeptElements of(Block body, FlowAnalysis flow, boolean checkpointed) {
    KeptElements kept = new KeptElements(flow, checkpointed);
    kept.visit(body, List.of());
    return kept;
  }

  /** Whether {@code store}, a store into an array, keeps the element it writes over. */
  public boolean keeps(Instruction store) {
    Value array = base(((Operand.Use) store.arguments().get(0)).value());
    Place at = stores.get(store);
    Place made = makings.getOrDefault(array, new Place(-1, List.of()));
    for (Place call : calls.getOrDefault(array, List.of())) {
      if (call.rank() < at.rank()) {
        return true;
      }
      for (Loop loop : at.loops()) {
        if (call.inside(loop) && !made.inside(loop)) {
          return true; // an earlier iteration's call saw this array
        }
      }
    }
    return false;
  }

  private void visit(Block block, List<Loop> loops) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        Place place = new Place(rank++, loops);
        if (instruction.result().type().isArray()) {
          makings.putIfAbsent(instruction.result(), place);
        }
        Operation.Form form = instruction.operation().form();
        if (form == Operation.Form.STORE) {
          stores.put(instruction, place);
        } else if (form.callsDifferentiated()
            || form == Operation.Form.ELEMENT && checkpointed && !loops.isEmpty()
                && loops.get(0).kind() == Loop.Kind.WRITTEN) {
          for (Value array : localArraysPassed(instruction)) {
            calls.computeIfAbsent(array, a -> new ArrayList<>()).add(place);
          }
        }
      } else if (statement instanceof If branch) {
        visit(branch.thenBlock(), loops);
        visit(branch.elseBlock(), loops);
      } else if (statement instanceof Loop loop) {
        List<Loop> inside = new ArrayList<>(loops);
        inside.add(loop);
        List<Loop> around = Collections.unmodifiableList(inside);
        visit(loop.condition(), around);
        visit(loop.body(), around);
        visit(loop.update(), around);
      }
    }
  }

  /**
   * The local arrays among a call's arguments: a local matrix for itself and for each of its
   * rows (writes into it go through other reads of its rows), none for parameters and their
   * rows, which are never written.
   */
  private Set<Value> localArraysPassed(Instruction call) {
    Set<Value> arrays = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Operand argument : call.arguments()) {
      if (argument instanceof Operand.Use use && use.value().type().isArray()) {
        Value base = base(use.value());
        if (base.origin() != Value.Origin.PARAMETER) {
          arrays.add(base);
        }
      }
    }
    return arrays;
  }

  /** The array whose elements {@code array} holds: for a row {@code m[i]}, the matrix m. */
  private Value base(Value array) {
    Instruction row = flow.rowRead(array);
    while (row != null && row.arguments().get(0) instanceof Operand.Use matrix) {
      array = matrix.value();
      row = flow.rowRead(array);
    }
    return array;
  }
}
