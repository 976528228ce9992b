package ad4j.processor.emit;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the printer needs to know about a program before it prints: how often each value is
 * read, which values are read outside the block that defines them (Java's scopes then need
 * their declaration earlier), which values are written inline instead of as locals, and
 * whether the program uses the tape.
 */
final class ProgramFacts {
  /** What is known of one value. */
  private static final class Facts {
    Block home;
    int definedAt;
    int uses;
    int localUses;
    int firstLocalUse;
    int lastLocalUse;
    /** Blocks other than its home where it is read; null while there are none. */
    List<Block> readIn;
  }

  private final Map<Value, Facts> facts = new IdentityHashMap<>();
  private final Map<Block, Block> parents = new IdentityHashMap<>();
  private final Set<Value> inline = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Set<Value> hoisted = Collections.newSetFromMap(new IdentityHashMap<>());
  /** The variables stored into after their declaration, anywhere in the program. */
  private final Set<Variable> storedVariables =
      Collections.newSetFromMap(new IdentityHashMap<>());
  /** How many operands read each variable, in the whole program. */
  private final Map<Variable, Integer> variableReads = new IdentityHashMap<>();
  /**
   * Adjoints declared as a negation and read once, by an addition into an element of the same
   * block, with what they negate: written {@code a[i] -= x}, and not declared.
   */
  private final Map<Variable, Operand> subtracted = new IdentityHashMap<>();
  /** Per variable, how many of its stores add to or subtract from itself, written inline. */
  private final Map<Variable, Integer> ownUpdates = new IdentityHashMap<>();
  /** Every block with the values it defines, for decisions that need all reads first. */
  private final List<BlockValues> blocks = new ArrayList<>();
  private boolean usesTape;

  ProgramFacts(Function function) {
    visit(function.body(), null);
    for (BlockValues block : blocks) {
      decideInline(block.statements(), block.defined());
    }
    for (BlockValues block : blocks) {
      findSubtractions(block.statements());
    }
    countOwnUpdates();
    for (Map.Entry<Value, Facts> entry : facts.entrySet()) {
      Facts value = entry.getValue();
      if (value.home == null || value.home == function.body() || value.readIn == null) {
        continue;
      }
      for (Block use : value.readIn) {
        if (!isWithin(use, value.home)) {
          hoisted.add(entry.getKey());
          break;
        }
      }
    }
  }

  /** How many operands read {@code value}. */
  int uses(Value value) {
    Facts known = facts.get(value);
    return known == null ? 0 : known.uses;
  }

  /** Whether the value is written inline where it is read, not as a local of its own. */
  boolean isInline(Value value) {
    return inline.contains(value);
  }

  /**
   * What {@code variable} negates, when it is declared {@code double xBar = -y} and read once,
   * as what a later statement of its block adds into an array's element: that statement is
   * written {@code a[i] -= y} ({@code a - b} is {@code a + (-b)} in IEEE arithmetic, bit for
   * bit) and the variable is not declared, as one would write it by hand. Null for other
   * variables.
   */
  Operand subtrahend(Variable variable) {
    return subtracted.get(variable);
  }

  /**
   * Whether every read of {@code variable} is in an update of its own, {@code v = v + e}: an
   * update written {@code v += e} would leave a local whose value nothing reads, which ECJ
   * warns of (the tangent's copy of a sum whose value the result does not need), so such
   * updates are written out.
   */
  boolean readOnlyByOwnUpdates(Variable variable) {
    Integer updates = ownUpdates.get(variable);
    return updates != null && updates >= variableReads.getOrDefault(variable, 0);
  }

  /** Counts, per variable, the stores {@code v = v + e} and {@code v = v - e} written inline. */
  private void countOwnUpdates() {
    for (BlockValues block : blocks) {
      for (Statement statement : block.statements()) {
        if (statement instanceof Store store && store.value() instanceof Operand.Use use
            && inline.contains(use.value()) && facts.get(use.value()).home != null) {
          Instruction sum = definition(use.value());
          String operator = sum.operation().name();
          if (sum.operation().form() == Operation.Form.INFIX
              && (operator.equals("+") || operator.equals("-"))
              && readsDirectly(sum.arguments().get(0), store.variable())) {
            ownUpdates.merge(store.variable(), 1, Integer::sum);
          }
        }
      }
    }
  }

  private boolean readsDirectly(Operand operand, Variable variable) {
    if (operand instanceof Operand.Read read) {
      return read.variable() == variable;
    }
    return operand instanceof Operand.Use use && inline.contains(use.value())
        && facts.get(use.value()).home != null && isCopyOfVariable(definition(use.value()))
        && readsDirectly(definition(use.value()).arguments().get(0), variable);
  }

  /** Whether {@code value} must be declared before its block, at the start of the method. */
  boolean isHoisted(Value value) {
    return hoisted.contains(value);
  }

  /** The values to declare at the start of the method, in the order they are defined. */
  List<Value> hoisted(Function function) {
    List<Value> ordered = new ArrayList<>();
    if (!hoisted.isEmpty()) {
      collect(function.body(), ordered);
    }
    return ordered;
  }

  boolean usesTape() {
    return usesTape;
  }

  private void collect(Block block, List<Value> ordered) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction && hoisted.contains(instruction.result())) {
        ordered.add(instruction.result());
      } else if (statement instanceof If branch) {
        collect(branch.thenBlock(), ordered);
        collect(branch.elseBlock(), ordered);
      } else if (statement instanceof Loop loop) {
        collect(loop.condition(), ordered);
        collect(loop.body(), ordered);
        collect(loop.update(), ordered);
      }
    }
  }

  private boolean isWithin(Block block, Block ancestor) {
    for (Block b = block; b != null; b = parents.get(b)) {
      if (b == ancestor) {
        return true;
      }
    }
    return false;
  }

  private Facts factsOf(Value value) {
    return facts.computeIfAbsent(value, v -> new Facts());
  }

  private void visit(Block block, Block parent) {
    parents.put(block, parent);
    List<Statement> statements = block.statements();
    List<Value> defined = new ArrayList<>();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      for (Operand operand : operands(statement)) {
        if (operand instanceof Operand.Use use) {
          read(use.value(), block, i);
        } else if (operand instanceof Operand.Read read) {
          variableReads.merge(read.variable(), 1, Integer::sum);
        }
      }
      if (statement instanceof Instruction instruction) {
        Facts value = factsOf(instruction.result());
        value.home = block;
        value.definedAt = i;
        defined.add(instruction.result());
        if (instruction.operation().form().usesTape()) {
          usesTape = true;
        }
      } else if (statement instanceof Store store) {
        storedVariables.add(store.variable());
      } else if (statement instanceof Push) {
        usesTape = true;
      } else if (statement instanceof If branch) {
        visit(branch.thenBlock(), block);
        visit(branch.elseBlock(), block);
      } else if (statement instanceof Loop loop) {
        visit(loop.condition(), block);
        visit(loop.body(), block);
        visit(loop.update(), block);
        if (loop.test() instanceof Operand.Use use) {
          // the test is read at the end of the condition block
          read(use.value(), loop.condition(), loop.condition().statements().size());
        }
      }
    }
    blocks.add(new BlockValues(statements, defined));
  }

  /** A block's statements and the values it defines. */
  private record BlockValues(List<Statement> statements, List<Value> defined) {}

  private void read(Value value, Block block, int index) {
    Facts known = factsOf(value);
    known.uses++;
    if (known.home == block) {
      if (known.localUses++ == 0) {
        known.firstLocalUse = index;
      }
      known.lastLocalUse = index;
    } else if (known.home != null) {
      // only reads outside the defining block can need an earlier declaration (a value read
      // before any definition is a parameter, in scope everywhere)
      if (known.readIn == null) {
        known.readIn = new ArrayList<>();
      }
      known.readIn.add(block);
    }
  }

  /**
   * Which values of a block are written inline rather than as locals: formula values and
   * temporaries of the user's expressions (and their derivatives, {@code t1Dot}) read once, and
   * inactive integer temporaries read once; and copies of a variable ({@code int k2 = k}) read
   * only in this block before the variable changes, which are written as the variable itself
   * (and not at all when unread). A value written inline is evaluated where it is read, or,
   * when that is inline too, where that is read ({@link #evaluatedAt}). A pure value (an
   * operator or a {@code Math} function, which cannot throw) may move there past printed
   * statements that do not assign a variable it reads, as in {@code x = x * a + Math.sin(y)};
   * any other, and a read of a static field that is not final ({@link Instruction#readsState},
   * which a call run as written between may set), only past statements that are not printed.
   */
  private void decideInline(List<Statement> statements, List<Value> defined) {
    Set<Value> candidates = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Value value : defined) {
      Facts known = facts.get(value);
      if (known.readIn != null) {
        continue;
      }
      Instruction instruction = (Instruction) statements.get(known.definedAt);
      if (isCopyOfVariable(instruction)) {
        Variable variable = ((Operand.Read) instruction.arguments().get(0)).variable();
        if (known.localUses == 0 || !writes(
            statements.subList(known.definedAt + 1, known.lastLocalUse), variable)) {
          inline.add(value); // unread, it is not written at all
        }
      } else if (known.localUses == 1 && (value.origin() == Value.Origin.FORMULA
          || value.origin() == Value.Origin.TEMPORARY && !value.isActive()
              && value.type().isIntegral()
              // a call run as written stays where the user's method makes it
              && instruction.operation().form() != Operation.Form.PLAIN_CALL
          || isTemporary(value) && instruction.isPure()
              && (value.type().isNumeric() || value.type() == NumericType.BOOLEAN))) {
        candidates.add(value);
      }
    }
    if (candidates.isEmpty()) {
      return;
    }
    // what each statement assigns, found when a move past it is asked: a value moves past the
    // few statements up to its reader, and walking every statement of a long block (with its
    // nested ones) for each of the block's few candidates was most of the printer's setup
    List<Set<Variable>> assigned = new ArrayList<>(statements.size());
    for (int k = 0; k < statements.size(); k++) {
      assigned.add(null);
    }
    // removing a value only brings the point where others are evaluated closer: repeat until
    // every value left may move to where it is evaluated
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Value value : List.copyOf(candidates)) {
        Facts known = facts.get(value);
        Instruction instruction = (Instruction) statements.get(known.definedAt);
        int evaluated = evaluatedAt(value, statements, candidates);
        boolean movable = instruction.isPure() && !instruction.readsState()
            ? noneAssigned(statements, assigned, known.definedAt + 1, evaluated,
                variablesRead(instruction))
            : onlyUnprinted(statements, known.definedAt + 1, evaluated, candidates);
        if (!movable) {
          candidates.remove(value);
          changed = true;
        }
      }
    }
    inline.addAll(candidates);
  }

  /**
   * Where an inline value of the block is evaluated: at the statement that reads it, or, when
   * that is an inline value too, where that one is evaluated.
   */
  private int evaluatedAt(Value value, List<Statement> statements, Set<Value> candidates) {
    int at = facts.get(value).firstLocalUse;
    while (at < statements.size() && statements.get(at) instanceof Instruction reader
        && candidates.contains(reader.result())) {
      at = facts.get(reader.result()).firstLocalUse;
    }
    return at;
  }

  /** Whether the statements from {@code from} to before {@code to} are all written inline. */
  private boolean onlyUnprinted(List<Statement> statements, int from, int to,
      Set<Value> candidates) {
    for (int k = from; k < to && k < statements.size(); k++) {
      if (!(statements.get(k) instanceof Instruction between)
          || !(candidates.contains(between.result()) || inline.contains(between.result()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether no statement from {@code from} to before {@code to} assigns one of the variables;
   * {@code assigned} holds what each statement assigns, null until asked.
   */
  private static boolean noneAssigned(List<Statement> statements, List<Set<Variable>> assigned,
      int from, int to, Set<Variable> variables) {
    if (variables.isEmpty()) {
      return true;
    }
    for (int k = from; k < to && k < assigned.size(); k++) {
      if (assigned.get(k) == null) {
        assigned.set(k, assignedBy(statements.get(k)));
      }
      for (Variable variable : assigned.get(k)) {
        if (variables.contains(variable)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The variables an instruction's text reads: those it reads itself and those of the copies
   * it reads that are written as the variable.
   */
  private Set<Variable> variablesRead(Instruction instruction) {
    Set<Variable> read = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Operand operand : instruction.arguments()) {
      if (operand instanceof Operand.Read variable) {
        read.add(variable.variable());
      } else if (operand instanceof Operand.Use use && inline.contains(use.value())
          && facts.get(use.value()).home != null
          && isCopyOfVariable(definition(use.value()))) {
        read.add(((Operand.Read) definition(use.value()).arguments().get(0)).variable());
      }
    }
    return read;
  }

  /** The variables a statement assigns, nested statements included. */
  private static Set<Variable> assignedBy(Statement statement) {
    Set<Variable> assigned = Collections.newSetFromMap(new IdentityHashMap<>());
    any(List.of(statement), nested -> {
      if (nested instanceof Declare declare) {
        assigned.add(declare.variable());
      } else if (nested instanceof Store store) {
        assigned.add(store.variable());
      }
      return false;
    });
    return assigned.isEmpty() ? Set.of() : assigned;
  }

  /** The subtractions among {@code statements} (see {@link #subtrahend}). */
  private void findSubtractions(List<Statement> statements) {
    Map<Variable, Integer> negations = new IdentityHashMap<>();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      if (statement instanceof Declare declare && declare.initial() instanceof Operand.Use use
          && inline.contains(use.value()) && !storedVariables.contains(declare.variable())
          && variableReads.getOrDefault(declare.variable(), 0) == 1
          && facts.get(use.value()).home != null
          && definition(use.value()).operation().equals(Operation.NEGATE)) {
        negations.put(declare.variable(), i);
      } else if (statement instanceof ElementStore store && store.add()
          && store.value() instanceof Operand.Read read && negations.containsKey(read.variable())) {
        int declared = negations.remove(read.variable());
        Operand negated = definition(((Operand.Use) ((Declare) statements.get(declared))
            .initial()).value()).arguments().get(0);
        // what the negation reads must be what it was where the variable was declared
        boolean unchanged = negated instanceof Operand.Use use ? !inline.contains(use.value())
            : negated instanceof Operand.Read variable
                && !writes(statements.subList(declared + 1, i), variable.variable());
        if (unchanged) {
          subtracted.put(read.variable(), negated);
        }
      }
    }
  }

  /** The instruction that defines {@code value}. */
  private Instruction definition(Value value) {
    Facts known = facts.get(value);
    return (Instruction) known.home.statements().get(known.definedAt);
  }

  /** A temporary of the user's expressions, or a derivative named after one ({@code t1Dot}). */
  private static boolean isTemporary(Value value) {
    Value named = value;
    while (named.origin() == Value.Origin.DERIVED && named.base() != null) {
      named = named.base();
    }
    return named.origin() == Value.Origin.TEMPORARY;
  }

  private static boolean isCopyOfVariable(Instruction instruction) {
    return instruction.operation().form() == Operation.Form.COPY
        && instruction.arguments().get(0) instanceof Operand.Read;
  }

  /** Whether a statement of {@code statements}, nested ones included, assigns the variable. */
  private static boolean writes(List<Statement> statements, Variable variable) {
    return any(statements, statement -> assigns(statement, variable));
  }

  private static boolean assigns(Statement statement, Variable variable) {
    return statement instanceof Declare declare && declare.variable() == variable
        || statement instanceof Store store && store.variable() == variable;
  }

  /** Whether some statement of {@code statements}, nested ones included, passes the test. */
  private static boolean any(List<Statement> statements, Predicate<Statement> test) {
    for (Statement statement : statements) {
      if (test.test(statement)) {
        return true;
      }
      if (statement instanceof If branch && (any(branch.thenBlock().statements(), test)
          || any(branch.elseBlock().statements(), test))) {
        return true;
      }
      if (statement instanceof Loop loop && (any(loop.condition().statements(), test)
          || any(loop.body().statements(), test) || any(loop.update().statements(), test))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The operands a statement reads where it stands: a loop's test is read at the end of its
   * condition block instead (see {@code visit}).
   */
  private static List<Operand> operands(Statement statement) {
    return statement instanceof Loop ? List.of() : statement.operands();
  }

  /** Whether any statement of {@code statements}, nested ones included, mentions the variable. */
  static boolean mentions(List<Statement> statements, Variable variable) {
    return any(statements, statement -> assigns(statement, variable)
        || operands(statement).stream().anyMatch(
            operand -> operand instanceof Operand.Read read && read.variable() == variable));
  }
}
