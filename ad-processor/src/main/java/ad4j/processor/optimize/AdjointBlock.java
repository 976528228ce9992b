package ad4j.processor.optimize;

import static ad4j.processor.optimize.AdjointMentions.isAdjoint;
import static ad4j.processor.optimize.AdjointSums.rewritten;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One block's statements as {@link AdjointSums} rewrites them (nested blocks are done already):
 * where each value and adjoint is defined and each variable assigned, the edits made so far
 * (statements removed, statements replaced), and which formulas may move later in the block.
 * Apart from the rewrites ({@link AdjointRuns}, {@link RunSums}, {@link CommonFactors}) because
 * they share these positions and edits.
 */
final class AdjointBlock {
  /** The block's statements, as they were. */
  final List<Statement> statements;
  /** Where each value defined by an instruction of this block is defined. */
  final Map<Value, Integer> definedAt = new HashMap<>();
  /** Where each adjoint declared in this block (not in its nested blocks) is declared. */
  final Map<Variable, Integer> declaredAt = new HashMap<>();
  /** Per variable, the positions of the statements that assign it (nested ones included). */
  final Map<Variable, List<Integer>> assignedAt = new HashMap<>();
  /** The positions whose statement goes away, and the statements that replace others. */
  final Set<Integer> removed = new HashSet<>();
  final Map<Integer, List<Statement>> replaced = new HashMap<>();
  private final AdjointMentions facts;

  AdjointBlock(List<Statement> statements, AdjointMentions facts) {
    this.statements = statements;
    this.facts = facts;
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i) instanceof Instruction instruction) {
        definedAt.put(instruction.result(), i);
      } else if (statements.get(i) instanceof Declare declare
          && isAdjoint(declare.variable())) {
        declaredAt.put(declare.variable(), i);
      }
      Set<Variable> assigned = new HashSet<>();
      facts.assigned(statements.get(i), assigned);
      for (Variable variable : assigned) {
        assignedAt.computeIfAbsent(variable, v -> new ArrayList<>()).add(i);
      }
    }
  }

  /** The block's statements with the edits made. */
  List<Statement> result() {
    return rewritten(statements, removed, replaced);
  }

  /**
   * Adds to {@code into} the single-use formulas that compute {@code operand} and may be
   * computed at {@code end} instead of before {@code position}. Returns whether every
   * single-use formula of the operand moves, so that the term can be dropped for an equal one
   * without leaving a formula nobody reads.
   */
  boolean collect(Operand operand, int position, int end, Variable variable,
      Map<Integer, Instruction> into) {
    if (!(operand instanceof Operand.Use use) || !definedAt.containsKey(use.value())) {
      return !(operand instanceof Operand.Read read)
          || !writtenBetween(read.variable(), position, end);
    }
    if (use.value().origin() != Value.Origin.FORMULA
        || facts.uses(use.value()) != 1) {
      return true; // a value of its own, which stays
    }
    int at = definedAt.get(use.value());
    Instruction instruction = (Instruction) statements.get(at);
    if (!isPure(instruction)) {
      return false;
    }
    for (Operand argument : instruction.arguments()) {
      if (argument instanceof Operand.Read read
          && (read.variable() == variable || writtenBetween(read.variable(), at, end))) {
        return false;
      }
    }
    into.put(at, instruction);
    boolean all = true;
    for (Operand argument : instruction.arguments()) {
      all &= collect(argument, at, end, variable, into);
    }
    return all;
  }

  /**
   * Whether {@code operand} reads one of {@code adjoints} other than {@code except}, through
   * the formulas of this block and the declarations in it of adjoints never stored into.
   */
  boolean reads(Operand operand, Set<Variable> adjoints, Variable except) {
    if (adjoints.isEmpty()) {
      return false;
    }
    for (Variable adjoint : adjointsRead(operand)) {
      if (adjoint != except && adjoints.contains(adjoint)) {
        return true;
      }
    }
    return false;
  }

  /** Per value of this block and adjoint declared in it, the adjoints it reads; remembered. */
  private final Map<Object, Set<Variable>> adjointsRead = new HashMap<>();

  private Set<Variable> adjointsRead(Operand operand) {
    if (operand instanceof Operand.Read read) {
      Variable variable = read.variable();
      Integer at = declaredAt.get(variable);
      if (at == null || facts.isStored(variable)
          || ((Declare) statements.get(at)).initial() == null) {
        return Set.of(variable);
      }
      Set<Variable> known = adjointsRead.get(variable);
      if (known == null) {
        known = new HashSet<>(adjointsRead(((Declare) statements.get(at)).initial()));
        known.add(variable);
        adjointsRead.put(variable, known);
      }
      return known;
    }
    if (!(operand instanceof Operand.Use use) || !definedAt.containsKey(use.value())) {
      return Set.of();
    }
    Set<Variable> known = adjointsRead.get(use.value());
    if (known == null) {
      Set<Variable> union = Set.of();
      for (Operand argument : ((Instruction) statements.get(definedAt.get(use.value())))
          .arguments()) {
        Set<Variable> read = adjointsRead(argument);
        if (!read.isEmpty()) {
          if (union.isEmpty()) {
            union = read;
          } else if (!union.containsAll(read)) {
            union = new HashSet<>(union);
            union.addAll(read);
          }
        }
      }
      known = union;
      adjointsRead.put(use.value(), known);
    }
    return known;
  }

  /** Whether a statement in {@code (from, to]}, nested ones included, assigns the variable. */
  boolean writtenBetween(Variable variable, int from, int to) {
    List<Integer> positions = assignedAt.getOrDefault(variable, List.of());
    int next = Collections.binarySearch(positions, from + 1);
    int index = next >= 0 ? next : -next - 1; // the first position after from
    return index < positions.size() && positions.get(index) <= to;
  }

  /**
   * Whether an instruction may be computed later than where it stands: arithmetic and math
   * functions of {@code double}s, which neither throw nor read arrays or the tape.
   */
  private static boolean isPure(Instruction instruction) {
    NumericType type = instruction.result().type();
    return (type == NumericType.DOUBLE || type == NumericType.FLOAT
        || type == NumericType.BOOLEAN) && instruction.isPure();
  }
}
