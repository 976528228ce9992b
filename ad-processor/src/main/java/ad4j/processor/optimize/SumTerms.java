package ad4j.processor.optimize;

import static ad4j.processor.analysis.StatementFacts.assignments;
import static ad4j.processor.analysis.StatementFacts.count;
import static ad4j.processor.analysis.StatementFacts.definitions;
import static ad4j.processor.analysis.StatementFacts.newIdentitySet;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the terms of a long sum in a run cut into parts come from: the terms of a sum's tree of
 * additions and subtractions, the last part that makes what a term reads, the last part that
 * reads or writes the variable summed into. Apart from {@link SumSpreading}, which moves the
 * terms, because these only read the parts.
 */
final class SumTerms {
  /**
   * The variables each statement writes or declares, and the values and variables it reads or
   * writes, by the statement's identity. {@link SumSpreading} asks for them for every statement
   * before each store of a sum it spreads, which in a long run was quadratic work, and
   * statements do not change (the parts do, so only per statement). One is made per {@link
   * SumSpreading}, of one run.
   */
  private final Map<Statement, Set<Variable>> written = new IdentityHashMap<>();
  private final Map<Statement, Set<Object>> mentioned = new IdentityHashMap<>();

  /**
   * Where each value and variable is made last before a statement: {@code values}, the part
   * that makes each value (of the whole run), and {@code variables}, the part that last writes
   * or declares each variable before it; -1 when not made in the run.
   */
  record Made(Map<Value, Integer> values, Map<Variable, Integer> variables) {
    int of(Value value) {
      return values.getOrDefault(value, -1);
    }

    int of(Variable variable) {
      return variables.getOrDefault(variable, -1);
    }
  }

  /**
   * Where each value and variable is made last before {@code at}, of part {@code k}: the part
   * that makes a value, or that last writes or declares a variable. A term may move into the
   * last of the parts that make what it reads.
   */
  Made madeBefore(List<List<Statement>> parts, int k, Statement at,
      Map<Value, Integer> partOf) {
    Map<Variable, Integer> made = new IdentityHashMap<>();
    for (int j = 0; j <= k; j++) {
      for (Statement statement : parts.get(j)) {
        if (statement == at) {
          return new Made(partOf, made);
        }
        for (Variable assigned : written(statement)) {
          made.put(assigned, j);
        }
      }
    }
    return new Made(partOf, made);
  }

  /**
   * Whether a term that reads a variable ({@code Operand.Read}, flattened out of the formulas
   * of {@code tree}) would read another value if the sum were written again at {@code at}: a
   * statement of {@code part} after the first of {@code tree}'s formulas and before {@code at}
   * assigns the variable. The formulas read it where they are; the sum written again at
   * {@code at} would read it there ({@code t = aBar + pBar; pBar = 0.0; wBar = t + pBar} is not
   * {@code pBar = 0.0; wBar = aBar + pBar + pBar}).
   */
  boolean readsAssignedBefore(List<Operand> terms, List<Instruction> tree,
      List<Statement> part, Statement at) {
    Set<Variable> read = newIdentitySet();
    for (Operand term : terms) {
      if (term instanceof Operand.Read reading) {
        read.add(reading.variable());
      }
    }
    if (read.isEmpty()) {
      return false;
    }
    int first = indexOf(part, at);
    for (Instruction formula : tree) {
      int index = indexOf(part, formula);
      if (index >= 0 && index < first) {
        first = index;
      }
    }
    for (int i = first + 1; i < indexOf(part, at); i++) {
      for (Variable variable : written(part.get(i))) {
        if (read.contains(variable)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The variables {@code statement} writes or declares, nested statements included. */
  private Set<Variable> written(Statement statement) {
    return written.computeIfAbsent(statement, s -> {
      Set<Variable> variables = newIdentitySet();
      assignments(List.of(s), variables);
      definitions(List.of(s), newIdentitySet(), variables);
      return variables;
    });
  }

  /** Whether {@code statement} reads or writes {@code variable}, nested statements included. */
  private boolean mentions(Statement statement, Variable variable) {
    return mentioned.computeIfAbsent(statement, s -> {
      Map<Object, Integer> referenced = new IdentityHashMap<>();
      count(new Block(List.of(s)), referenced);
      return referenced.keySet();
    }).contains(variable);
  }

  /** The index of {@code statement} itself in {@code statements} (records may be equal). */
  static int indexOf(List<Statement> statements, Statement statement) {
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i) == statement) {
        return i;
      }
    }
    return -1;
  }

  /** The terms of a sum whose additions and subtractions are formulas of {@code part}. */
  static void flatten(Operand operand, boolean negated, Map<Value, Instruction> formulas,
      List<Statement> part, List<Operand> terms, List<Boolean> negative,
      List<Instruction> tree) {
    Instruction definition = operand instanceof Operand.Use use ? formulas.get(use.value())
        : null;
    if (definition != null && part.contains(definition)
        && (definition.operation().equals(Operation.ADD)
            || definition.operation().equals(Operation.SUBTRACT))) {
      tree.add(definition);
      flatten(definition.arguments().get(0), negated, formulas, part, terms, negative, tree);
      flatten(definition.arguments().get(1),
          negated ^ definition.operation().equals(Operation.SUBTRACT), formulas, part, terms,
          negative, tree);
    } else {
      terms.add(operand);
      negative.add(negated);
    }
  }

  /**
   * The last part that makes a value {@code term} reads or writes a variable it reads ({@code
   * made}; -1 when all come from before the run), collecting the formula instructions of
   * {@code part} that compute it.
   */
  static int home(Operand term, Made made,
      Map<Value, Instruction> formulas, List<Statement> part, List<Instruction> instructions) {
    if (term instanceof Operand.Read read) {
      return made.of(read.variable());
    }
    if (!(term instanceof Operand.Use use)) {
      return -1;
    }
    Instruction formula = formulas.get(use.value());
    if (formula == null || !part.contains(formula)) {
      // a value, or a formula made and left in an earlier part: the term is added there
      return made.of(use.value());
    }
    int home = -1;
    for (Operand argument : formula.arguments()) {
      home = Math.max(home, home(argument, made, formulas, part, instructions));
    }
    instructions.add(formula);
    return home;
  }

  /**
   * The last part before {@code store} (of part {@code k}) where a statement reads or writes
   * {@code variable}, -1 if none: the terms may be added there or later. The sum's own
   * instructions do not count, nor other sums added into the variable ({@code v = v + e}
   * where {@code e} does not read {@code v}), which the terms may pass: additions commute.
   */
  int lastReference(List<List<Statement>> parts, int k, Store store,
      List<Instruction> sum, Variable variable, Map<Value, Instruction> formulas) {
    Set<Statement> addingInto = newIdentitySet();
    for (int j = 0; j <= k; j++) {
      for (Statement statement : parts.get(j)) {
        Instruction root = statement instanceof Store other && other.variable() == variable
            && other.value() instanceof Operand.Use use ? formulas.get(use.value()) : null;
        if (root != null && root.operation().equals(Operation.ADD)
            && root.arguments().get(0) instanceof Operand.Read read
            && read.variable() == variable
            && !reads(root.arguments().get(1), variable, formulas)) {
          addingInto.add(statement);
          addingInto.add(root);
        }
      }
    }
    // the sum's instructions by value: an instruction equal to one of them has its value
    // (Instruction.equals), so each statement is compared with those alone, not with the
    // whole sum (a long sum in a long run made this quadratic)
    Map<Value, List<Instruction>> sumByValue = new IdentityHashMap<>();
    for (Instruction instruction : sum) {
      sumByValue.computeIfAbsent(instruction.result(), v -> new ArrayList<>()).add(instruction);
    }
    int last = -1;
    for (int j = 0; j <= k; j++) {
      for (Statement statement : parts.get(j)) {
        if (statement == store) {
          return last;
        }
        if (statement instanceof Instruction instruction
            && sumByValue.getOrDefault(instruction.result(), List.of()).contains(instruction)
            || addingInto.contains(statement)) {
          continue;
        }
        if (mentions(statement, variable)) {
          last = j;
        }
      }
    }
    return last;
  }

  /** Whether {@code operand}, with the formulas it is made of, reads {@code variable}. */
  static boolean reads(Operand operand, Variable variable,
      Map<Value, Instruction> formulas) {
    if (operand instanceof Operand.Read read) {
      return read.variable() == variable;
    }
    Instruction formula = operand instanceof Operand.Use use ? formulas.get(use.value()) : null;
    return formula != null
        && formula.arguments().stream().anyMatch(a -> reads(a, variable, formulas));
  }
}
