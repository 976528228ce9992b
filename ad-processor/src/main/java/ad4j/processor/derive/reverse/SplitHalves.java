package ad4j.processor.derive.reverse;

import ad4j.processor.derive.ArraySlots;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A callee's pullback onto the tape cut after its forward sweep into a recording half and a
 * replaying half ({@link Adjoint.Split}): what the reverse sweep reads of the forward sweep is
 * handed over on the tape. Apart because it rewrites a finished program, not a sweep.
 */
final class SplitHalves {
  private final SweepState s;

  SplitHalves(SweepState s) {
    this.s = s;
  }

  /**
   * The pullback onto the tape cut after its forward sweep: what the reverse sweep reads of the
   * forward sweep's values and variables is pushed at the end of the first half, in the order
   * the reverse sweep first reads it, and popped at the start of the second; integer
   * arithmetic on parameters is computed again there instead ({@link #recomputedInReplay}).
   */
  Optional<Adjoint.Split> splitProgram() {
    ReverseProgram.Parts parts = s.program.parts(AdjointsOut.of(Adjoint.Output.TAPE, false));
    if (parts.reverse() == null) {
      return Optional.empty();
    }
    java.util.Set<Object> defined = java.util.Collections.newSetFromMap(
        new IdentityHashMap<>());
    java.util.Set<Object> nested = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    defined(parts.preamble(), defined, nested, true);
    defined(parts.forward(), defined, nested, true);
    java.util.Set<Object> read = new java.util.LinkedHashSet<>();
    for (Statement statement : parts.reverse()) {
      reads(statement, read);
    }
    List<Object> handedOver = new ArrayList<>();
    for (Object item : read) {
      if (!defined.contains(item)) {
        continue; // a parameter, or made by the reverse sweep itself
      }
      NumericType type = item instanceof Value value ? value.type()
          : ((Variable) item).type();
      if (!(type.isNumeric() || type == NumericType.BOOLEAN) || nested.contains(item)) {
        return Optional.empty(); // an array or an object; a variable out of the second's scope
      }
      handedOver.add(item);
    }
    List<Instruction> recomputed = recomputedInReplay(parts.forward(), handedOver);
    java.util.Set<Value> again = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    recomputed.forEach(instruction -> again.add(instruction.result()));
    handedOver.removeIf(again::contains);
    List<Statement> first = new ArrayList<>(parts.preamble());
    first.addAll(parts.forward());
    for (Object item : handedOver) {
      first.add(new Push(item instanceof Value value ? new Operand.Use(value)
          : new Operand.Read((Variable) item), null));
    }
    first.add(new Return(parts.returned(), null));
    List<Value> recordParameters = new ArrayList<>(s.primal.parameters().stream()
        .filter(p -> p.origin() == Value.Origin.PARAMETER).toList());
    recordParameters.addAll(starts(s.primal.parameters()));
    List<Statement> second = new ArrayList<>();
    for (int i = handedOver.size() - 1; i >= 0; i--) {
      Object item = handedOver.get(i);
      if (item instanceof Value value) {
        second.add(new Instruction(value, Operation.POP, List.of(), null));
      } else {
        Variable variable = (Variable) item;
        second.add(new Declare(variable, s.statements.pop(variable.type(), null, second), null));
      }
    }
    second.addAll(recomputed);
    second.addAll(parts.reverse());
    second.add(new Return(null, null));
    return Optional.of(new Adjoint.Split(s.primal.with(recordParameters, new Block(first)),
        s.primal.with(parts.parameters(), new Block(second))));
  }

  /**
   * The values among {@code handedOver} that the second half computes again rather than taking
   * back from the tape: {@code int}, {@code long} and {@code boolean} arithmetic and comparisons
   * of the top level of the forward sweep (run whenever it completes) on parameters, constants
   * and other such values ({@code n - 1}, {@code n == 0} of a recursion's depth). One operation
   * costs less than a push and a pop, and it cannot throw where the first half did not.
   */
  private List<Instruction> recomputedInReplay(List<Statement> forward, List<Object> handedOver) {
    java.util.Set<Value> available = java.util.Collections.newSetFromMap(
        new IdentityHashMap<>());
    available.addAll(s.primal.parameters());
    java.util.Set<Object> carried = java.util.Collections.newSetFromMap(
        new IdentityHashMap<>());
    carried.addAll(handedOver);
    List<Instruction> recomputed = new ArrayList<>();
    for (Statement statement : forward) {
      if (!(statement instanceof Instruction instruction)
          || !carried.contains(instruction.result())) {
        continue;
      }
      Operation.Form form = instruction.operation().form();
      NumericType type = instruction.result().type();
      boolean cheap = form.family() == Operation.Family.OPERATOR
          && (type.isIntegral() || type == NumericType.BOOLEAN)
          && instruction.arguments().stream().allMatch(argument ->
              argument instanceof Operand.Constant
                  || argument instanceof Operand.Use use && available.contains(use.value()));
      if (cheap) {
        available.add(instruction.result());
        recomputed.add(instruction);
      }
    }
    return recomputed;
  }

  /**
   * The parameters that {@link ArraySlots#perParameter} added for the slot of each active
   * array's first element: the second of the two it adds per array.
   */
  private static List<Value> starts(List<Value> parameters) {
    List<Value> added = parameters.stream()
        .filter(p -> p.origin() != Value.Origin.PARAMETER).toList();
    List<Value> starts = new ArrayList<>();
    for (int i = 1; i < added.size(); i += 2) {
      starts.add(added.get(i));
    }
    return starts;
  }

  /**
   * The values and variables {@code statements} define, into {@code into}; those inside
   * branches or loops also into {@code nested}.
   */
  private static void defined(List<Statement> statements, java.util.Set<Object> into,
      java.util.Set<Object> nested, boolean top) {
    for (Statement statement : statements) {
      Object item = null;
      if (statement instanceof Instruction instruction) {
        item = instruction.result();
      } else if (statement instanceof Declare declare) {
        item = declare.variable();
      } else if (statement instanceof If branch) {
        defined(branch.thenBlock().statements(), into, nested, false);
        defined(branch.elseBlock().statements(), into, nested, false);
      } else if (statement instanceof Loop loop) {
        defined(loop.condition().statements(), into, nested, false);
        defined(loop.body().statements(), into, nested, false);
        defined(loop.update().statements(), into, nested, false);
      }
      if (item != null) {
        into.add(item);
        // a value defined in a block is declared where later blocks see it (the printer
        // hoists it); a variable is not
        if (!top && item instanceof Variable) {
          nested.add(item);
        }
      }
    }
  }

  /** The values and variables {@code statement} reads or stores to, in order, into {@code into}. */
  private static void reads(Statement statement, java.util.Set<Object> into) {
    if (statement instanceof Loop loop) {
      // the test is read after the condition block
      loop.condition().statements().forEach(s -> reads(s, into));
      statement.operands().forEach(operand -> reads(operand, into));
      loop.body().statements().forEach(s -> reads(s, into));
      loop.update().statements().forEach(s -> reads(s, into));
      return;
    }
    // an element store's operands begin with its array
    statement.operands().forEach(operand -> reads(operand, into));
    if (statement instanceof Store store) {
      into.add(store.variable());
    } else if (statement instanceof If branch) {
      branch.thenBlock().statements().forEach(s -> reads(s, into));
      branch.elseBlock().statements().forEach(s -> reads(s, into));
    }
  }

  private static void reads(Operand operand, java.util.Set<Object> into) {
    if (operand instanceof Operand.Use use) {
      into.add(use.value());
    } else if (operand instanceof Operand.Read read) {
      into.add(read.variable());
    }
  }
}
