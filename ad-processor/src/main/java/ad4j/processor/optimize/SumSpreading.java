package ad4j.processor.optimize;

import static ad4j.processor.analysis.StatementFacts.definitions;
import static ad4j.processor.analysis.StatementFacts.newIdentitySet;
import static ad4j.processor.optimize.SumTerms.flatten;
import static ad4j.processor.optimize.SumTerms.home;
import static ad4j.processor.optimize.SumTerms.indexOf;

import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * Moves the terms of the long sums of a run, cut into parts, into the parts that make what they
 * read, so that a part that sums does not take the values of every other part as arguments.
 * Apart from {@link SumTerms}, which finds where each term comes from, because this is the
 * rewrite: it moves statements and writes the new, balanced sums.
 */
final class SumSpreading {
  private final IrBuilder builder;
  /** How often each value is read in the whole program, for {@link SumsAcrossParts#isFormula}. */
  private final Map<Object, Integer> uses;
  private final SumTerms sumTerms = new SumTerms();

  SumSpreading(IrBuilder builder, Map<Object, Integer> uses) {
    this.builder = builder;
    this.uses = uses;
  }

  private boolean isFormula(Instruction instruction) {
    return SumsAcrossParts.isFormula(instruction, uses);
  }

  /**
   * Moves the terms of a long sum into the parts that make what they read: {@code v += a * x1 +
   * b * x2 + ...} (an adjoint summed over the whole body, as {@link AdjointSums} writes it)
   * would otherwise read values of every part, each handed over on the tape. A term whose
   * values come from an earlier part is added into {@code v} at that part's end, with the
   * other terms from there ({@code v += a * x1 + ...}), when nothing in between reads or
   * writes {@code v} (but other sums added into it) nor writes a variable the term reads. The
   * sum is then added in other groups, which rounds differently, as any reordering of a sum
   * does.
   */
  void spreadSums(List<List<Statement>> parts) {
    Map<Value, Integer> partOf = new IdentityHashMap<>();
    Map<Value, Instruction> formulas = new IdentityHashMap<>();
    for (int k = 0; k < parts.size(); k++) {
      Set<Value> defined = newIdentitySet();
      definitions(parts.get(k), defined, newIdentitySet());
      for (Value value : defined) {
        partOf.put(value, k);
      }
      for (Statement statement : parts.get(k)) {
        if (statement instanceof Instruction instruction && isFormula(instruction)) {
          formulas.put(instruction.result(), instruction);
        }
      }
    }
    for (int k = 1; k < parts.size(); k++) {
      for (Statement statement : List.copyOf(parts.get(k))) {
        if (statement instanceof Store store && !spreadSum(parts, k, store, partOf, formulas)
            || statement instanceof Instruction || statement instanceof Declare) {
          spreadDefinedSum(parts, k, statement, partOf, formulas);
        }
      }
    }
  }

  /**
   * {@link #spreadSums} for one store {@code v = v + sum} of part {@code k}; false when the
   * store is not of that form.
   */
  private boolean spreadSum(List<List<Statement>> parts, int k, Store store,
      Map<Value, Integer> partOf, Map<Value, Instruction> formulas) {
    Variable variable = store.variable();
    if (!(store.value() instanceof Operand.Use use) || !formulas.containsKey(use.value())) {
      return false;
    }
    Instruction root = formulas.get(use.value());
    if (!root.operation().equals(Operation.ADD)
        || !(root.arguments().get(0) instanceof Operand.Read read)
        || read.variable() != variable || !parts.get(k).contains(root)) {
      return false;
    }
    // the signed terms, and the formula instructions of the sum's tree above them
    List<Operand> terms = new ArrayList<>();
    List<Boolean> negative = new ArrayList<>();
    List<Instruction> tree = new ArrayList<>(List.of(root));
    flatten(root.arguments().get(1), false, formulas, parts.get(k), terms, negative, tree);
    if (terms.size() < 2) {
      return true; // one term: one value handed over at most
    }
    if (sumTerms.readsAssignedBefore(terms, tree, parts.get(k), store)) {
      return true; // summed again here, a term would read a variable written since
    }
    SumTerms.Made made = sumTerms.madeBefore(parts, k, store, partOf);
    int referenced = sumTerms.lastReference(parts, k, store, tree, variable, formulas);
    Map<Integer, List<Integer>> byHome = new TreeMap<>();
    List<List<Instruction>> termInstructions = new ArrayList<>();
    for (int i = 0; i < terms.size(); i++) {
      List<Instruction> instructions = new ArrayList<>();
      int home = home(terms.get(i), made, formulas, parts.get(k), instructions);
      termInstructions.add(instructions);
      int target = Math.max(home, referenced);
      if (target >= 0 && target < k) {
        byHome.computeIfAbsent(target, h -> new ArrayList<>()).add(i);
      }
    }
    if (byHome.isEmpty()) {
      return true;
    }
    List<Operand> rest = new ArrayList<>();
    List<Boolean> restSigns = new ArrayList<>();
    moveTerms(parts.get(k), parts, byHome, terms, negative, termInstructions, rest, restSigns,
        (groupTerms, groupSigns) -> addInto(variable, root.result(), groupTerms, groupSigns));
    // the terms that stay, summed where the store was
    List<Statement> part = parts.get(k);
    int at = indexOf(part, store);
    part.remove(at);
    if (!rest.isEmpty()) {
      part.addAll(at, addInto(variable, root.result(), rest, restSigns));
    }
    part.removeAll(tree);
    return true;
  }

  /**
   * {@link #spreadSums} for a value or variable that part {@code k} defines as a long sum,
   * {@code aBar = t1Bar * x1 + t2Bar * x2 + ...}: the adjoint of a parameter that every
   * statement of a long method reads, summed once at the end of its reverse sweep. The terms
   * whose values come from an earlier part are summed there, into a value of that part, and the
   * definition adds up those partial sums, one per part, instead of reading the values of every
   * term. The sum is then added in other groups, which rounds differently, as any reordering of
   * a sum does.
   */
  private void spreadDefinedSum(List<List<Statement>> parts, int k, Statement statement,
      Map<Value, Integer> partOf, Map<Value, Instruction> formulas) {
    List<Statement> part = parts.get(k);
    List<Instruction> tree = new ArrayList<>();
    Instruction root;
    if (statement instanceof Instruction instruction) {
      if (isFormula(instruction)) {
        return; // a piece of a sum, or a sum written where it is read
      }
      root = instruction;
    } else {
      Operand value = statement instanceof Declare declare ? declare.initial()
          : ((Store) statement).value();
      root = value instanceof Operand.Use use ? formulas.get(use.value()) : null;
      if (root == null || !part.contains(root)) {
        return;
      }
      tree.add(root);
    }
    boolean subtract = root.operation().equals(Operation.SUBTRACT);
    if (!subtract && !root.operation().equals(Operation.ADD)) {
      return;
    }
    List<Operand> terms = new ArrayList<>();
    List<Boolean> negative = new ArrayList<>();
    flatten(root.arguments().get(0), false, formulas, part, terms, negative, tree);
    flatten(root.arguments().get(1), subtract, formulas, part, terms, negative, tree);
    if (terms.size() < 3 || sumTerms.readsAssignedBefore(terms, tree, part, statement)) {
      return; // too short to spread; or, summed again here, a term would read another value
    }
    SumTerms.Made made = sumTerms.madeBefore(parts, k, statement, partOf);
    Map<Integer, List<Integer>> byHome = new TreeMap<>();
    List<List<Instruction>> termInstructions = new ArrayList<>();
    for (int i = 0; i < terms.size(); i++) {
      List<Instruction> instructions = new ArrayList<>();
      int home = home(terms.get(i), made, formulas, part, instructions);
      termInstructions.add(instructions);
      if (home >= 0 && home < k) {
        byHome.computeIfAbsent(home, h -> new ArrayList<>()).add(i);
      }
    }
    if (byHome.isEmpty()) {
      return;
    }
    Value like = root.result();
    List<Operand> rest = new ArrayList<>();
    List<Boolean> restSigns = new ArrayList<>();
    List<Operand> partials = new ArrayList<>();
    List<Boolean> partialSigns = new ArrayList<>();
    moveTerms(part, parts, byHome, terms, negative, termInstructions, rest, restSigns,
        (groupTerms, groupSigns) -> {
          // a value of its own, not a formula: it is handed to part k
          Value partial = builder.generated("partialSum", like.type(), like.isActive());
          List<Statement> sum = new ArrayList<>();
          SignedSum signed = signedSum(groupTerms, groupSigns, like, sum);
          sum.add(new Instruction(partial, Operation.COPY, List.of(signed.sum()), null));
          partials.add(new Operand.Use(partial));
          partialSigns.add(signed.negated());
          return sum;
        });
    rest.addAll(0, partials);
    restSigns.addAll(0, partialSigns);
    List<Statement> sum = new ArrayList<>();
    SignedSum signed = signedSum(rest, restSigns, like, sum);
    Operand total = signed.sum();
    if (signed.negated()) {
      Value negated = builder.formula(like.type(), like.isActive());
      sum.add(new Instruction(negated, Operation.NEGATE, List.of(total), null));
      total = new Operand.Use(negated);
    }
    if (statement instanceof Instruction) {
      sum.add(new Instruction(like, Operation.COPY, List.of(total), root.line()));
    } else if (statement instanceof Declare declare) {
      sum.add(new Declare(declare.variable(), total, declare.line()));
    } else {
      Store store = (Store) statement;
      sum.add(new Store(store.variable(), total, store.line()));
    }
    int at = indexOf(part, statement);
    part.remove(at);
    part.addAll(at, sum);
    part.removeAll(tree);
  }

  /**
   * Moves each group of a sum's terms ({@code byHome}: their indices by the part they move to)
   * out of {@code part} into its home part, with the formulas that compute them, and adds there
   * what {@code sumOf} makes of the group's terms and signs; the terms that stay go to
   * {@code rest} and {@code restSigns}. A formula that several terms read, or one term reads
   * twice (the exponent of {@code Math.pow}, read by a partial and by its tangent), is in each
   * term's list, as often as it is read: it moves once, to the first part that takes a term
   * reading it, which hands it over to the parts after it.
   */
  private static void moveTerms(List<Statement> part, List<List<Statement>> parts,
      Map<Integer, List<Integer>> byHome, List<Operand> terms, List<Boolean> negative,
      List<List<Instruction>> termInstructions, List<Operand> rest, List<Boolean> restSigns,
      BiFunction<List<Operand>, List<Boolean>, List<Statement>> sumOf) {
    Set<Integer> moved = new HashSet<>();
    Set<Instruction> movedInstructions = newIdentitySet();
    for (Map.Entry<Integer, List<Integer>> group : byHome.entrySet()) {
      List<Statement> home = parts.get(group.getKey());
      List<Operand> groupTerms = new ArrayList<>();
      List<Boolean> groupSigns = new ArrayList<>();
      for (int i : group.getValue()) {
        part.removeAll(termInstructions.get(i));
        for (Instruction instruction : termInstructions.get(i)) {
          if (movedInstructions.add(instruction)) {
            home.add(instruction);
          }
        }
        groupTerms.add(terms.get(i));
        groupSigns.add(negative.get(i));
        moved.add(i);
      }
      home.addAll(sumOf.apply(groupTerms, groupSigns));
    }
    for (int i = 0; i < terms.size(); i++) {
      if (!moved.contains(i)) {
        rest.add(terms.get(i));
        restSigns.add(negative.get(i));
      }
    }
  }

  /** A sum, and whether it is the sum's negation (all its terms were negative). */
  private record SignedSum(Operand sum, boolean negated) {}

  /**
   * The sum of the positive terms minus the sum of the negative ones, each balanced, as
   * formulas; when all are negative, their sum, negated.
   */
  private SignedSum signedSum(List<Operand> terms, List<Boolean> negative, Value like,
      List<Statement> statements) {
    List<Operand> positives = new ArrayList<>();
    List<Operand> negatives = new ArrayList<>();
    for (int i = 0; i < terms.size(); i++) {
      (negative.get(i) ? negatives : positives).add(terms.get(i));
    }
    if (positives.isEmpty()) {
      return new SignedSum(balanced(negatives, like, statements), true);
    }
    Operand plus = balanced(positives, like, statements);
    return new SignedSum(negatives.isEmpty() ? plus
        : formula(Operation.SUBTRACT, plus, balanced(negatives, like, statements), like,
            statements), false);
  }

  /**
   * {@code variable = variable + (sum of the positive terms - sum of the negative ones)}, each
   * sum balanced, as formulas and a store.
   */
  private List<Statement> addInto(Variable variable, Value like, List<Operand> terms,
      List<Boolean> negative) {
    List<Statement> statements = new ArrayList<>();
    SignedSum signed = signedSum(terms, negative, like, statements);
    Operand total = formula(signed.negated() ? Operation.SUBTRACT : Operation.ADD,
        new Operand.Read(variable), signed.sum(), like, statements);
    statements.add(new Store(variable, total, null));
    return statements;
  }

  private Operand balanced(List<Operand> terms, Value like, List<Statement> statements) {
    if (terms.size() == 1) {
      return terms.get(0);
    }
    int half = terms.size() / 2;
    Operand left = balanced(terms.subList(0, half), like, statements);
    Operand right = balanced(terms.subList(half, terms.size()), like, statements);
    return formula(Operation.ADD, left, right, like, statements);
  }

  private Operand formula(Operation operation, Operand left, Operand right, Value like,
      List<Statement> statements) {
    Value result = builder.formula(like.type(), like.isActive());
    statements.add(new Instruction(result, operation, List.of(left, right), null));
    return new Operand.Use(result);
  }
}
