package ad4j.processor.optimize;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The part of {@link AdjointSums} for adjoints kept in arrays (the gradient, a local array's
 * adjoints): the additions into one element in one block ({@code gradient[i] += a; ...
 * gradient[i] += b}), with nothing reading the array in between, become one addition of their
 * sum where the last one was ({@code gradient[i] += a + b}): one read-modify-write of the
 * element instead of one per contribution. Two elements are the same when their indices are the
 * same constant, value, unchanged variable, or integer formula of this block on such operands
 * ({@code fStart + r} computed twice). Additions into elements commute, so the additions into
 * other elements in between may stay where they are; anything else that reads or overwrites
 * the array, or changes a variable an addition reads, ends the run.
 */
final class ElementAdjointSums {
  /**
   * The additions into one element, by position, and what they read: the variables and arrays
   * of their index and of their values' formulas (printed where the sum is).
   */
  private record Run(Value array, List<Integer> positions, Set<Variable> reads,
      Set<Value> arrays) {}

  private final List<Statement> statements;
  private final IrBuilder builder;
  /** The number of uses of each value in the whole program. */
  private final Map<Value, Integer> uses;
  private final Map<Value, Integer> definedAt = new HashMap<>();
  private final Map<Value, Instruction> definitions = new HashMap<>();
  private final Map<Integer, List<Statement>> replaced = new HashMap<>();
  private final Set<Integer> removed = new HashSet<>();

  private ElementAdjointSums(List<Statement> statements, IrBuilder builder,
      Map<Value, Integer> uses) {
    this.statements = statements;
    this.builder = builder;
    this.uses = uses;
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i) instanceof Instruction instruction && instruction.result() != null) {
        definitions.put(instruction.result(), instruction);
        definedAt.put(instruction.result(), i);
      }
    }
  }

  /**
   * {@code statements} (one block's, nested blocks done) with the additions summed;
   * {@code uses} counts the uses of each value in the whole program.
   */
  static List<Statement> of(List<Statement> statements, IrBuilder builder,
      Map<Value, Integer> uses) {
    return new ElementAdjointSums(statements, builder, uses).result();
  }

  private List<Statement> result() {
    // per array, its open runs by index key, in order of first addition
    Map<Value, Map<Object, Run>> open = new LinkedHashMap<>();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      Set<Variable> reads = new HashSet<>();
      Set<Value> arrays = new HashSet<>();
      if (statement instanceof ElementStore store && store.add()
          && reads(store.value(), reads, arrays)) {
        Object key = key(store.index(), reads);
        // additions into other elements commute with this one; those into an array that a
        // run's formulas read end the run
        closeWhere(open, run -> run.arrays().contains(store.array()));
        Run run = open.computeIfAbsent(store.array(), a -> new LinkedHashMap<>())
            .computeIfAbsent(key, k -> new Run(store.array(), new ArrayList<>(),
                new HashSet<>(), new HashSet<>()));
        run.positions().add(i);
        run.reads().addAll(reads);
        run.arrays().addAll(arrays);
        continue;
      }
      if (open.values().stream().allMatch(Map::isEmpty)) {
        continue; // no run to end: not scanned (a long else-if chain would be, at every level)
      }
      Set<Value> used = new HashSet<>();
      Set<Value> written = new HashSet<>();
      Set<Variable> assigned = new HashSet<>();
      scan(statement, used, written, assigned);
      closeWhere(open, run -> used.contains(run.array()) || written.contains(run.array())
          || run.reads().stream().anyMatch(assigned::contains)
          || run.arrays().stream().anyMatch(written::contains));
    }
    open.values().forEach(runs -> runs.values().forEach(this::close));
    return AdjointSums.rewritten(statements, removed, replaced);
  }

  private void closeWhere(Map<Value, Map<Object, Run>> open, Predicate<Run> ends) {
    for (Map<Object, Run> runs : open.values()) {
      runs.values().removeIf(run -> {
        if (ends.test(run)) {
          close(run);
          return true;
        }
        return false;
      });
    }
  }

  /** One addition of the run's sum where its last addition was. */
  private void close(Run run) {
    List<Integer> positions = run.positions();
    if (positions.size() < 2) {
      return;
    }
    int last = positions.get(positions.size() - 1);
    ElementStore store = (ElementStore) statements.get(last);
    Site site = Site.formulas(builder, store.line());
    List<AdjointSums.Signed> terms = new ArrayList<>();
    for (int position : positions) {
      terms.add(new AdjointSums.Signed(((ElementStore) statements.get(position)).value(), false));
    }
    Operand sum = AdjointSums.balanced(terms, 0, terms.size(), site).operand();
    List<Statement> replacement = new ArrayList<>(site.instructionsFor(List.of(sum)));
    replacement.add(new ElementStore(run.array(), store.index(), sum, true, store.line()));
    removed.addAll(positions);
    replaced.put(last, replacement);
    for (int position : positions.subList(0, positions.size() - 1)) {
      // an index computed for this addition alone goes with it
      if (((ElementStore) statements.get(position)).index() instanceof Operand.Use index
          && definedAt.containsKey(index.value())
          && uses.getOrDefault(index.value(), 0) == 1) {
        removed.add(definedAt.get(index.value()));
      }
    }
  }

  /**
   * What an index computes, equal for indices that compute the same; adds to {@code reads} the
   * variables it reads (the run ends where one of them changes).
   */
  private Object key(Operand index, Set<Variable> reads) {
    if (index instanceof Operand.Constant constant) {
      return List.of(constant.type(), constant.expression().toString());
    }
    if (index instanceof Operand.Read read) {
      reads.add(read.variable());
      return read.variable();
    }
    Value value = ((Operand.Use) index).value();
    Instruction definition = definitions.get(value);
    if (definition == null || value.type() != NumericType.INT
        || definition.operation().form() != ad4j.processor.ir.Operation.Form.INFIX) {
      return value;
    }
    List<Object> key = new ArrayList<>();
    key.add(definition.operation());
    for (Operand argument : definition.arguments()) {
      key.add(key(argument, reads));
    }
    return key;
  }

  /**
   * Adds what a value reads where it is printed: a variable; through a formula of this block
   * (printed inline), what the formula's operands read. Returns false for a formula of another
   * block, whose reads are not known here: such an addition stays as it is.
   */
  private boolean reads(Operand operand, Set<Variable> reads, Set<Value> arrays) {
    if (operand instanceof Operand.Read read) {
      reads.add(read.variable());
      return true;
    }
    if (!(operand instanceof Operand.Use use) || use.value().origin() != Value.Origin.FORMULA) {
      return true; // a constant, or a value computed once into its own local
    }
    Instruction definition = definitions.get(use.value());
    if (definition == null) {
      return false;
    }
    boolean known = true;
    for (Operand argument : definition.arguments()) {
      if (argument instanceof Operand.Use array && array.value().type().isArray()) {
        arrays.add(array.value());
      }
      known &= reads(argument, reads, arrays);
    }
    return known;
  }

  /**
   * Adds the values the statement reads, the arrays it writes and the variables it assigns,
   * nested statements included (an overwrite of the array, or an addition into it in a nested
   * block, ends a run as a read does).
   */
  private static void scan(Statement statement, Set<Value> used, Set<Value> written,
      Set<Variable> assigned) {
    for (Operand operand : statement.operands()) {
      if (operand instanceof Operand.Use use) {
        used.add(use.value());
      }
    }
    if (statement instanceof ElementStore store) {
      written.add(store.array());
    } else if (statement instanceof Declare declare) {
      assigned.add(declare.variable());
    } else if (statement instanceof Store store) {
      assigned.add(store.variable());
    }
    for (Block block : statement.nestedBlocks()) {
      block.statements().forEach(s -> scan(s, used, written, assigned));
    }
  }
}
