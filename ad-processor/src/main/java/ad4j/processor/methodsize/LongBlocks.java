package ad4j.processor.methodsize;

import ad4j.processor.analysis.Ids;
import ad4j.processor.derive.forward.Tangent;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.optimize.AdjointSums;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The long blocks of a generated program, cut into parts that are methods of their own.
 *
 * <p>HotSpot compiles no method over 8000 bytes of bytecode, and javac rejects one over 64 KB.
 * {@link Segments} cuts a long straight-line method before it is differentiated. A loop whose
 * body is long, or a long method with a branch outside its loops (a {@code ?:}, an {@code if}),
 * gives members whose sweeps {@code Segments} cannot cut: a forward and a reverse sweep of each
 * body, with a local per intermediate value. This pass works on any finished program instead (a
 * forward or reverse sweep, a tangent program, a half of a split pullback), after every
 * transform, just before it is printed: it knows nothing of derivatives. In every block (the
 * method's own, a branch, a loop body), a run of consecutive statements longer than a part
 * ({@code partSize} statements, nested ones counted) is cut into parts of about equal size, and
 * each part becomes a program of its own, called with the operation {@code LOCAL_CALL} where it
 * stood:
 *
 * <ul>
 *   <li>what the part reads that is made before it (values, the current value of variables,
 *       the tape and output arrays) it takes as arguments; when they would not fit the JVM's
 *       limit on parameters the last ones travel on the tape, pushed by the caller and popped
 *       first by the part;
 *   <li>what it makes that is read after it (values, and variables it assigns: the state the
 *       loop carries) it pushes onto the tape at its end, and the caller takes them back at
 *       once, so the tape is as it would be without the cut;
 *   <li>a part holds no {@code return} and no {@code break} or {@code continue} of a loop
 *       outside it: such statements stay in the caller (their nested blocks may be cut in turn);
 *   <li>where the parts' calls, with what they hand back, are still longer than a part, they
 *       are cut in turn: parts then call parts.
 * </ul>
 *
 * <p>Values taken off the tape that the printer would write inline where they are read (formula
 * values, integer temporaries) are taken into a value of their own first, so that pops stay in
 * the order of the pushes. A part that would hand over a value the tape cannot hold (a string,
 * an object) leaves its statements where they are. The parts are private to the generated class;
 * the program that calls them is the same program, cut, so every member that prints a program
 * can be cut alike. (Cutting the user's loop body before differentiating it, as {@code Segments}
 * cuts a method, would make each part a call with several results, whose reverse and tangent
 * every transform would have to know; cut afterwards, a part is plain code.)
 */
public final class LongBlocks {
  /**
   * Statements per part, nested ones counted: measured on a chain of sin, multiply and add in a
   * loop, a reverse sweep takes about 12 bytes of bytecode per statement, so a part stays near
   * 2000 bytes, well under HotSpot's 8000.
   */
  public static final int PART_SIZE = 160;

  /**
   * The most parameter slots a part takes as arguments ({@code double} and {@code long} take
   * two): the JVM allows 255, and arguments beyond this travel on the tape.
   */
  private static final int ARGUMENT_SLOTS = 120;

  /**
   * The most values and variables an {@code if} that calls parts may hand over and still move
   * into a part ({@link #handsOverLittle}).
   */
  private static final int HANDED_OVER_LITTLE = 16;

  /**
   * Statements, nested ones counted, from which a loop nest gets a method of its own ({@link
   * #loopNestsOf}): at about 12 bytes of bytecode per statement, past the 325 bytes up to which
   * HotSpot inlines a hot call, so that the nest's method is compiled apart, not inlined back.
   */
  private static final int NEST_SIZE = 40;

  /** One part: the name of its program and the program, which returns nothing. */
  public record Part(String name, Function program) {}

  /** The program with its long loop bodies cut, and the parts it calls, in order. */
  public record Cut(Function program, List<Part> parts) {}

  private final Function program;
  private final String namePrefix;
  private final int partSize;
  private final IrBuilder builder;
  private final List<Part> parts = new ArrayList<>();
  /**
   * How often each value is read, and each variable read or written, in the whole program as
   * cut so far: a part's statements leave it for the part's program, its call and what takes
   * back its results come in.
   */
  private final Map<Object, Integer> uses = new IdentityHashMap<>();

  /**
   * Whether the parts of the method's own block leave the numbers they make for later parts on
   * the tape, where those read them ({@code tape.doubleAt(mark, i)}), instead of handing them
   * back to the caller. A long method with a branch outside loops keeps every value of its
   * forward sweep for its reverse sweep: handed back, each would be a local of the caller and
   * the caller would pass HotSpot's limit again. Only where nothing else in the program uses
   * the tape (no loop, no recorded value, no callee's pullback, which leaves its adjoints
   * there) but to push its results last: then nothing takes anything off the tape below those
   * values before the program drops them all, at its end.
   */
  private final boolean inPlace;
  /** Where a value left on the tape by a part lies: its part's mark and its place above it. */
  private record Handed(Value mark, int index) {}

  /**
   * The values, and variables, left on the tape by parts. A variable is left there by the
   * part that declares it when nothing stores into it after that part (an adjoint a later sum
   * reads), and read in place as a value is.
   */
  private final Map<Object, Handed> handed = new IdentityHashMap<>();
  /** How many statements store into each variable, in the whole program. */
  private final Map<Variable, Integer> stores = new IdentityHashMap<>();
  /** The values and variables each part's call leaves on the tape, by the call. */
  private final Map<Instruction, List<Object>> handedBy = new IdentityHashMap<>();
  /** The mark of the first part that leaves values on the tape: the program resets to it. */
  private Value firstMark;

  private LongBlocks(Function program, String namePrefix, int partSize) {
    this.program = program;
    this.namePrefix = namePrefix;
    this.partSize = partSize;
    this.builder = new IrBuilder(Ids.next(program));
    count(program.body(), uses);
    countStores(program.body().statements(), stores);
    List<Statement> statements = program.body().statements();
    this.inPlace = returns(statements) == 1
        && statements.get(statements.size() - 1) instanceof Return
        && !usesTape(statements.subList(0, resultPushesStart(statements)));
  }

  /**
   * Where the pushes just before the final {@code return} start: a pullback that leaves its
   * results on the tape ({@code mPullback(Tape, ...)}) pushes them there last, above the values
   * its parts left, which are dropped before those pushes.
   */
  private static int resultPushesStart(List<Statement> statements) {
    int start = statements.size() - 1;
    while (start > 0 && statements.get(start - 1) instanceof Push) {
      start--;
    }
    return start;
  }

  /**
   * {@code program} with its long runs of statements cut into parts named {@code namePrefix}
   * and a number; empty when nothing is long enough to cut.
   */
  public static Optional<Cut> of(Function program, String namePrefix, int partSize) {
    LongBlocks cut = new LongBlocks(program, namePrefix, partSize);
    Block body = cut.finishHandOver(cut.rewrite(program.body(), false));
    if (cut.parts.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Cut(program.with(program.parameters(), body),
        List.copyOf(cut.parts)));
  }

  /**
   * {@code program} with each loop nest of its own block (a loop that holds another loop) moved
   * into a part of its own, named {@code namePrefix} and a number, when the program records on
   * the tape and its block holds two nests or more of at least {@link #NEST_SIZE} statements
   * (smaller ones stay); empty otherwise. A part takes what it reads and hands back what is
   * read after it as the parts of {@link #of} do.
   *
   * <p>Why, though the program fits a method: the reverse gradient of ADBench's GMM, a forward
   * and a reverse sweep of two loop nests each, took 10 to 16 % less time with each nest in a
   * method of its own than with all in one (BENCHMARKS.md, observations, "Loop nests in
   * methods of their own"), about the time of the hand-written gradient, which has one nest
   * per pass. A nest's part is called once per call of the
   * member, so the call costs nothing measurable.
   */
  public static Optional<Cut> loopNestsOf(Function program, String namePrefix) {
    List<Statement> statements = program.body().statements();
    if (!usesTape(statements)
        || statements.stream().filter(LongBlocks::isLoopNest).count() < 2) {
      return Optional.empty();
    }
    LongBlocks cut = new LongBlocks(program, namePrefix, Integer.MAX_VALUE);
    List<Statement> apart = new ArrayList<>();
    for (Statement statement : statements) {
      if (isLoopNest(statement) && movable(statement, Set.of())) {
        // the counter's declaration goes with its loop, which the part then writes as a for
        List<Statement> nest = new ArrayList<>(List.of(statement));
        if (!apart.isEmpty() && apart.get(apart.size() - 1) instanceof Declare counter
            && stepsCounter((Loop) statement, counter.variable())) {
          nest.add(0, apart.remove(apart.size() - 1));
        }
        apart.addAll(cut.outline(nest, false));
      } else {
        apart.add(statement);
      }
    }
    if (cut.parts.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Cut(program.with(program.parameters(), new Block(apart)),
        List.copyOf(cut.parts)));
  }

  /** Whether the loop's update ends by storing into {@code counter}. */
  private static boolean stepsCounter(Loop loop, Variable counter) {
    List<Statement> update = loop.update().statements();
    return !update.isEmpty() && update.get(update.size() - 1) instanceof Store store
        && store.variable() == counter;
  }

  /**
   * Whether the statement is a loop that holds a loop, at any depth of its body, and has at
   * least {@link #NEST_SIZE} statements.
   */
  private static boolean isLoopNest(Statement statement) {
    return statement instanceof Loop loop && holdsLoop(loop.body().statements())
        && size(List.of(statement)) >= NEST_SIZE;
  }

  private static boolean holdsLoop(List<Statement> statements) {
    return statements.stream().anyMatch(s -> s instanceof Loop
        || s.nestedBlocks().stream().anyMatch(b -> holdsLoop(b.statements())));
  }

  /**
   * Whether this pass may have something to cut in {@code program}: a loop or a branch other
   * than an argument check ({@code if (c) throw ...}). A straight-line method of numbers is cut
   * before it is differentiated, by {@link Segments}, into smaller pieces than this pass makes.
   */
  public static boolean mayCut(Function program) {
    return program.body().statements().stream().anyMatch(statement ->
        statement instanceof Loop
            || statement instanceof If branch && !(branch.elseBlock().statements().isEmpty()
                && branch.thenBlock().statements().stream().anyMatch(s -> s instanceof Throw)));
  }

  /**
   * The block with its nested blocks rewritten first, then cut itself: every block is cut, at
   * any depth of branches and loops. The condition and the update of a loop stay whole: the
   * printer writes them in the loop's head.
   *
   * <p>Outside loops, an {@code if} that holds a part's call after its branches were cut stays
   * in its block: it is not moved into a part of the block around it. An {@code else if} chain
   * nests each {@code if} in the {@code else} of the one before; moved level by level into
   * parts, each level would hand over again, through its own part, what the levels inside it
   * hand over, which grows with the square of the chain's length.
   */
  private Block rewrite(Block block, boolean insideLoop) {
    List<Statement> statements = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Loop loop) {
        statements.add(new Loop(loop.id(), loop.condition(), loop.test(), loop.testFirst(),
            rewrite(loop.body(), true), loop.update(), loop.line()));
      } else if (statement instanceof If branch) {
        statements.add(new If(branch.id(), branch.condition(),
            rewrite(branch.thenBlock(), insideLoop), rewrite(branch.elseBlock(), insideLoop),
            branch.line()));
      } else {
        statements.add(statement);
      }
    }
    return cut(statements, !insideLoop);
  }

  /**
   * The method's block as cut, made whole where parts left values on the tape: the values the
   * program's own statements read are read there after the call of their part, in whichever
   * block it stands, and the tape is reset to where it was before the first such part just
   * before the final {@code return} (before the pushes of the results, if any). When that part
   * is called in a branch, the mark it resets to is taken at the start of the method instead,
   * where every path passes.
   */
  private Block finishHandOver(Block body) {
    if (firstMark == null) {
      return body;
    }
    Map<Object, Integer> read = new IdentityHashMap<>();
    count(body, read);
    Block withReads = readBackAfterCalls(body, read);
    Value resetTo = firstMark;
    List<Statement> statements = new ArrayList<>();
    if (withReads.statements().stream().noneMatch(s -> s instanceof Instruction mark
        && mark.result() == firstMark)) {
      resetTo = builder.generated("handedAt", NumericType.LONG, false);
      statements.add(new Instruction(resetTo, Operation.tapeCall("mark", 0), List.of(), null));
    }
    List<Statement> rest = withReads.statements();
    int resultPushes = resultPushesStart(rest);
    statements.addAll(rest.subList(0, resultPushes));
    statements.add(new Instruction(builder.temporary(NumericType.VOID, false),
        Operation.tapeCall("reset", 1), List.of(new Operand.Use(resetTo)), null));
    statements.addAll(rest.subList(resultPushes, rest.size()));
    return new Block(statements);
  }

  /**
   * The block with {@link #readBack}s of the values in {@code read} after each call of a part
   * that left them on the tape, branches included (a program whose parts leave values on the
   * tape has no loops).
   */
  private Block readBackAfterCalls(Block block, Map<Object, Integer> read) {
    List<Statement> statements = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch) {
        statements.add(new If(branch.id(), branch.condition(),
            readBackAfterCalls(branch.thenBlock(), read),
            readBackAfterCalls(branch.elseBlock(), read), branch.line()));
        continue;
      }
      statements.add(statement);
      List<Object> left = statement instanceof Instruction call ? handedBy.get(call) : null;
      for (Object value : left == null ? List.of() : left) {
        if (read.containsKey(value)) {
          statements.addAll(readBack(value));
        }
      }
    }
    return new Block(statements);
  }

  /**
   * {@code value = tape.doubleAt(mark, i)} (or {@code intAt}, ...) where its part left it; for
   * a variable, {@code double v = tape.doubleAt(mark, i)}.
   */
  private List<Statement> readBack(Object left) {
    Handed at = handed.get(left);
    Value value = left instanceof Variable variable
        ? builder.formula(variable.type(), variable.isActive()) : (Value) left;
    Instruction read = new Instruction(value, Operation.tapeCall(readMethod(value.type()), 2),
        List.of(new Operand.Use(at.mark()), Operand.Constant.of(at.index())), null);
    return left instanceof Variable variable
        ? List.of(read, new Declare(variable, new Operand.Use(value), null)) : List.of(read);
  }

  /** Whether a value of this type can be left on the tape and read there. */
  private static boolean readsInPlace(NumericType type) {
    return switch (type) {
      case DOUBLE, INT, LONG, BOOLEAN -> true;
      default -> false;
    };
  }

  private static String readMethod(NumericType type) {
    return switch (type) {
      case DOUBLE -> "doubleAt";
      case INT -> "intAt";
      case LONG -> "longAt";
      case BOOLEAN -> "booleanAt";
      default -> throw new IllegalArgumentException("not read in place: " + type);
    };
  }

  /**
   * Whether the statements use the tape: a loop (whose sweeps record), a push, or an operation
   * that takes from the tape or leaves something there.
   */
  private static boolean usesTape(List<Statement> statements) {
    for (Statement statement : statements) {
      if (statement instanceof Loop || statement instanceof Push
          || statement instanceof Instruction instruction && switch (
              instruction.operation().form()) {
            case POP, TAPE_CALL, PULLBACK_CALL, LOCAL_CALL -> true;
            default -> false;
          }
          || statement.nestedBlocks().stream().anyMatch(b -> usesTape(b.statements()))) {
        return true;
      }
    }
    return false;
  }

  /** The number of {@code return} statements, nested ones counted. */
  private static int returns(List<Statement> statements) {
    int returns = 0;
    for (Statement statement : statements) {
      returns += statement instanceof Return ? 1 : 0;
      for (Block nested : statement.nestedBlocks()) {
        returns += returns(nested.statements());
      }
    }
    return returns;
  }

  /**
   * Cuts every run of movable statements longer than a part into parts; {@code outsideLoops}
   * for a block that no loop encloses, whose parts may leave their values on the tape ({@link
   * #inPlace}) and whose branches holding parts' calls stay where they are ({@link #rewrite}).
   */
  private Block cut(List<Statement> statements, boolean outsideLoops) {
    List<Statement> result = new ArrayList<>();
    List<Statement> run = new ArrayList<>();
    for (Statement statement : statements) {
      // the results pushed last stay in the program, above where its parts' values are dropped
      boolean resultPush = inPlace && statement instanceof Push;
      if (movable(statement, Set.of()) && !resultPush
          && !(outsideLoops && statement instanceof If && callsPart(statement.nestedBlocks())
              && !handsOverLittle(statement))) {
        run.add(statement);
      } else {
        result.addAll(cutRun(run, outsideLoops));
        run.clear();
        result.add(statement);
      }
    }
    result.addAll(cutRun(run, outsideLoops));
    return new Block(result);
  }

  /**
   * Whether an {@code if} whose branches call parts may move into a part of the block around it
   * all the same: when it hands over at most {@link #HANDED_OVER_LITTLE} values and variables,
   * and no part it calls leaves values on the tape for later statements (those are read back
   * where the program's own statements are, see {@link #finishHandOver}). The links of a long
   * {@code if / else if} chain that records the number of its piece hand over only what the
   * chain assigns: moved level by level, each level hands over the same few values, and the
   * chain becomes parts that call parts, not one member as long as the chain.
   */
  private boolean handsOverLittle(Statement branch) {
    // one whose inner links were moved into parts is short; a long one is not looked through
    // (at every level of a chain that cannot be cut, that would take time quadratic in it)
    if (longerThan(branch.nestedBlocks(), 2 * Math.max(partSize, PART_SIZE))
        || leavesValuesInPlace(branch.nestedBlocks())) {
      return false;
    }
    // what a part of the if alone would hand over (outline's rules)
    Handover handover = handover(List.of(branch));
    // nor may it read what parts left on the tape, through their marks
    for (Handed at : handed.values()) {
      if (handover.inside().containsKey(at.mark())) {
        return false;
      }
    }
    return handover.outValues().size() + handover.outVariables().size()
        <= HANDED_OVER_LITTLE;
  }

  /** Whether the blocks hold more than {@code limit} statements, nested ones counted. */
  private static boolean longerThan(List<Block> blocks, int limit) {
    int[] left = {limit};
    return longerThan(blocks, left);
  }

  private static boolean longerThan(List<Block> blocks, int[] left) {
    for (Block block : blocks) {
      for (Statement statement : block.statements()) {
        if (--left[0] < 0 || longerThan(statement.nestedBlocks(), left)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a call of a part in the blocks, nested ones included, left values on the tape. */
  private boolean leavesValuesInPlace(List<Block> blocks) {
    for (Block block : blocks) {
      for (Statement statement : block.statements()) {
        if (statement instanceof Instruction call && handedBy.containsKey(call)
            || leavesValuesInPlace(statement.nestedBlocks())) {
          return true;
        }
      }
    }
    return false;
  }

  /** A run of movable statements: as it is when short, else its parts' calls. */
  private List<Statement> cutRun(List<Statement> run, boolean outsideLoops) {
    int size = size(run);
    if (size <= partSize) {
      return List.copyOf(run);
    }
    int count = (size + partSize - 1) / partSize;
    int target = (size + count - 1) / count;
    List<List<Statement>> cut = new ArrayList<>();
    List<Statement> part = new ArrayList<>();
    int partStatements = 0;
    // formulas of the part not read yet: a formula is written where it is read, not cut off
    // from it (a long sum stays whole, and so does its tangent, stored after the sum)
    Set<Value> unread = newIdentitySet();
    for (Statement statement : run) {
      part.add(statement);
      partStatements += size(List.of(statement));
      Map<Object, Integer> reads = new IdentityHashMap<>();
      count(new Block(List.of(statement)), reads);
      unread.removeAll(reads.keySet());
      if (statement instanceof Instruction instruction && isFormula(instruction)) {
        unread.add(instruction.result());
      }
      if (partStatements >= target && unread.isEmpty()) {
        cut.add(part);
        part = new ArrayList<>();
        partStatements = 0;
      }
    }
    if (!part.isEmpty()) {
      cut.add(part);
    }
    // the sums' terms move and new sums come in: counted again
    Map<Object, Integer> before = new IdentityHashMap<>();
    count(new Block(run), before);
    spreadSums(cut);
    before.forEach((used, reads) -> uses.merge(used, -reads, Integer::sum));
    for (List<Statement> statements : cut) {
      count(new Block(statements), uses);
    }
    List<Statement> result = new ArrayList<>();
    for (List<Statement> statements : cut) {
      if (!statements.isEmpty()) { // a part whose sum moved to earlier parts
        result.addAll(outline(statements, outsideLoops && inPlace));
      }
    }
    // The parts' calls, with the values each hands back, are a run of their own. Where it is
    // still longer than a part (a loop body of some hundreds of statements, or a second-order
    // sweep's, whose parts hand back many values), it is cut in turn, into parts that call the
    // first ones; only when longer than a part of the default size, so that the tiny parts the
    // processor's tests ask for (-Aad4j.partSize=3) are not cut again and again, and only while
    // that shortens it.
    if (!(outsideLoops && inPlace) && size(result) > Math.max(partSize, PART_SIZE)
        && size(result) < size) {
      return cutRun(result, outsideLoops);
    }
    return result;
  }

  /**
   * Whether the instruction makes a piece of a formula, read once where it is used: a formula
   * value, or the tangent of one that is read once (a second-order sweep's {@code aBarDot =
   * aBarDot + (t1BarDot * x1 + x1Dot * t1Bar + ...)}, whose pieces {@link Tangent} names after
   * the formulas they are the tangents of). Its sum is spread and kept whole as the formula's.
   */
  private boolean isFormula(Instruction instruction) {
    Value result = instruction.result();
    return result.origin() == Value.Origin.FORMULA
        || result.origin() == Value.Origin.DERIVED && result.base() != null
            && result.base().origin() == Value.Origin.FORMULA
            && uses.getOrDefault(result, 0) == 1;
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
  private void spreadSums(List<List<Statement>> parts) {
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
    Map<Object, Integer> made = madeBefore(parts, k, store, partOf);
    int referenced = lastReference(parts, k, store, tree, variable, formulas);
    Map<Integer, List<Integer>> byHome = new java.util.TreeMap<>();
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
   * Where each value and variable is made last before {@code at}, of part {@code k}: the part
   * that makes a value, or that last writes or declares a variable. A term may move into the
   * last of the parts that make what it reads.
   */
  private static Map<Object, Integer> madeBefore(List<List<Statement>> parts, int k,
      Statement at, Map<Value, Integer> partOf) {
    Map<Object, Integer> made = new IdentityHashMap<>(partOf);
    for (int j = 0; j <= k; j++) {
      for (Statement statement : parts.get(j)) {
        if (statement == at) {
          return made;
        }
        Set<Variable> written = newIdentitySet();
        assignments(List.of(statement), written);
        definitions(List.of(statement), newIdentitySet(), written);
        for (Variable assigned : written) {
          made.put(assigned, j);
        }
      }
    }
    return made;
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
    if (terms.size() < 3) {
      return;
    }
    Map<Object, Integer> made = madeBefore(parts, k, statement, partOf);
    Map<Integer, List<Integer>> byHome = new java.util.TreeMap<>();
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
   * {@code rest} and {@code restSigns}.
   */
  private static void moveTerms(List<Statement> part, List<List<Statement>> parts,
      Map<Integer, List<Integer>> byHome, List<Operand> terms, List<Boolean> negative,
      List<List<Instruction>> termInstructions, List<Operand> rest, List<Boolean> restSigns,
      java.util.function.BiFunction<List<Operand>, List<Boolean>, List<Statement>> sumOf) {
    Set<Integer> moved = new HashSet<>();
    for (Map.Entry<Integer, List<Integer>> group : byHome.entrySet()) {
      List<Statement> home = parts.get(group.getKey());
      List<Operand> groupTerms = new ArrayList<>();
      List<Boolean> groupSigns = new ArrayList<>();
      for (int i : group.getValue()) {
        part.removeAll(termInstructions.get(i));
        home.addAll(termInstructions.get(i));
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

  /** The index of {@code statement} itself in {@code statements} (records may be equal). */
  private static int indexOf(List<Statement> statements, Statement statement) {
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i) == statement) {
        return i;
      }
    }
    return -1;
  }

  /** The terms of a sum whose additions and subtractions are formulas of {@code part}. */
  private static void flatten(Operand operand, boolean negated, Map<Value, Instruction> formulas,
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
  private static int home(Operand term, Map<Object, Integer> made,
      Map<Value, Instruction> formulas, List<Statement> part, List<Instruction> instructions) {
    if (term instanceof Operand.Read read) {
      return made.getOrDefault(read.variable(), -1);
    }
    if (!(term instanceof Operand.Use use)) {
      return -1;
    }
    Instruction formula = formulas.get(use.value());
    if (formula == null || !part.contains(formula)) {
      // a value, or a formula made and left in an earlier part: the term is added there
      return made.getOrDefault(use.value(), -1);
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
  private static int lastReference(List<List<Statement>> parts, int k, Store store,
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
    int last = -1;
    for (int j = 0; j <= k; j++) {
      for (Statement statement : parts.get(j)) {
        if (statement == store) {
          return last;
        }
        if (sum.contains(statement) || addingInto.contains(statement)) {
          continue;
        }
        Map<Object, Integer> referenced = new IdentityHashMap<>();
        count(new Block(List.of(statement)), referenced);
        if (referenced.containsKey(variable)) {
          last = j;
        }
      }
    }
    return last;
  }

  /** Whether {@code operand}, with the formulas it is made of, reads {@code variable}. */
  private static boolean reads(Operand operand, Variable variable,
      Map<Value, Instruction> formulas) {
    if (operand instanceof Operand.Read read) {
      return read.variable() == variable;
    }
    Instruction formula = operand instanceof Operand.Use use ? formulas.get(use.value()) : null;
    return formula != null
        && formula.arguments().stream().anyMatch(a -> reads(a, variable, formulas));
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

  /**
   * What a part made of {@code statements} would take and hand over: {@code inside} counts
   * their reads, stores and declarations; {@code declared} are the variables they declare (at
   * any depth), {@code topDeclared} those declared among them directly.
   */
  private record Handover(Map<Object, Integer> inside, Set<Variable> declared,
      Set<Variable> topDeclared, List<Value> inValues, List<Variable> inVariables,
      List<Value> outValues, List<Variable> outVariables) {}

  private Handover handover(List<Statement> part) {
    Map<Object, Integer> inside = new IdentityHashMap<>();
    count(new Block(part), inside);
    Set<Value> defined = newIdentitySet();
    Set<Variable> declared = newIdentitySet();
    definitions(part, defined, declared);
    Set<Variable> topDeclared = newIdentitySet();
    for (Statement statement : part) {
      if (statement instanceof Declare declare) {
        topDeclared.add(declare.variable());
      }
    }
    List<Value> inValues = new ArrayList<>();
    List<Variable> inVariables = new ArrayList<>();
    List<Value> outValues = new ArrayList<>();
    List<Variable> outVariables = new ArrayList<>();
    Set<Variable> assigned = newIdentitySet();
    assignments(part, assigned);
    for (Object used : inside.keySet()) {
      if (used instanceof Value value && !defined.contains(value)) {
        inValues.add(value);
      } else if (used instanceof Variable variable && !declared.contains(variable)) {
        inVariables.add(variable);
        if (assigned.contains(variable)) {
          outVariables.add(variable);
        }
      }
    }
    // what is read after the part: read more often in the whole program than in the part
    for (Value value : defined) {
      if (uses.getOrDefault(value, 0) > inside.getOrDefault(value, 0)) {
        outValues.add(value);
      }
    }
    for (Variable variable : topDeclared) {
      if (uses.getOrDefault(variable, 0) > inside.getOrDefault(variable, 0)) {
        outVariables.add(variable);
      }
    }
    return new Handover(inside, declared, topDeclared, inValues, inVariables, outValues,
        outVariables);
  }

  /**
   * The statements that stand for {@code part} in the caller: its call, and the values and
   * variables it hands back taken off the tape; {@code part} itself when it cannot be a method.
   * With {@code inPlace}, the numbers it makes for later parts stay on the tape instead, where
   * those parts read them ({@link #handed}).
   */
  private List<Statement> outline(List<Statement> part, boolean inPlace) {
    Handover handover = handover(part);
    Map<Object, Integer> inside = handover.inside();
    Set<Variable> declared = handover.declared();
    Set<Variable> topDeclared = handover.topDeclared();
    List<Value> inValues = handover.inValues();
    List<Variable> inVariables = handover.inVariables();
    List<Value> outValues = handover.outValues();
    List<Variable> outVariables = handover.outVariables();
    inValues.sort(Comparator.comparingInt(Value::id));
    inVariables.sort(Comparator.comparingInt(Variable::id));
    outValues.sort(Comparator.comparingInt(Value::id));
    outVariables.sort(Comparator.comparingInt(Variable::id));
    // values and variables an earlier part left on the tape: read there, through the mark of
    // that part
    List<Object> readInPlace = new ArrayList<>();
    List<Value> marks = new ArrayList<>();
    for (Object used : concat(inValues, inVariables)) {
      Handed at = handed.get(used);
      if (at != null) {
        readInPlace.add(used);
        if (!marks.contains(at.mark())) {
          marks.add(at.mark());
        }
      }
    }
    inValues.removeAll(readInPlace);
    inVariables.removeAll(readInPlace);
    inValues.addAll(0, marks);
    List<Object> leftInPlace = new ArrayList<>();
    if (inPlace) {
      outValues.stream().filter(v -> readsInPlace(v.type())).forEach(leftInPlace::add);
      // a variable declared here that nothing stores into after the part: its value is final
      Map<Variable, Integer> storesHere = new IdentityHashMap<>();
      countStores(part, storesHere);
      outVariables.stream()
          .filter(v -> topDeclared.contains(v) && readsInPlace(v.type())
              && storesHere.getOrDefault(v, 0).equals(stores.getOrDefault(v, 0)))
          .forEach(leftInPlace::add);
      outValues.removeAll(leftInPlace);
      outVariables.removeAll(leftInPlace);
    }
    if (declared.stream().anyMatch(variable -> variable.parameter() != null)
        || !inValues.stream().allMatch(v -> onTape(v.type()))
        || !outValues.stream().allMatch(v -> onTape(v.type()))
        || !inVariables.stream().allMatch(v -> onTape(v.type()))
        || !outVariables.stream().allMatch(v -> onTape(v.type()))) {
      return part;
    }

    // the part's parameters: the variables' current values first (those standing for a
    // parameter always: they are written as the parameter), then the values read; what does
    // not fit travels on the tape
    List<Value> parameters = new ArrayList<>();
    List<Operand> arguments = new ArrayList<>();
    List<Statement> body = new ArrayList<>();
    List<Object> onTape = new ArrayList<>();
    int slots = 1; // the tape
    List<Variable> ordered = new ArrayList<>();
    inVariables.stream().filter(v -> v.parameter() != null).forEach(ordered::add);
    inVariables.stream().filter(v -> v.parameter() == null).forEach(ordered::add);
    for (Variable variable : ordered) {
      Value parameter = variable.parameter();
      if (parameter != null) {
        // the part takes the variable's current value as that parameter, also where it reads
        // the parameter's value, which the printer writes alike
        inValues.remove(parameter);
      } else if (slots + slotsOf(variable.type()) > ARGUMENT_SLOTS) {
        onTape.add(variable);
        continue;
      } else {
        parameter = builder.generated("carried", variable.type(), variable.isActive());
        body.add(new Declare(variable, new Operand.Use(parameter), null));
      }
      parameters.add(parameter);
      arguments.add(new Operand.Read(variable));
      slots += slotsOf(variable.type());
    }
    if (slots > ARGUMENT_SLOTS) {
      return part;
    }
    for (Value value : inValues) {
      if (slots + slotsOf(value.type()) <= ARGUMENT_SLOTS) {
        parameters.add(value);
        arguments.add(new Operand.Use(value));
        slots += slotsOf(value.type());
      } else {
        onTape.add(value);
      }
    }
    List<Statement> caller = new ArrayList<>();
    Value mark = null;
    if (!leftInPlace.isEmpty()) {
      // where the part's values will lie: it takes back what the caller pushes for it first
      mark = builder.generated("handedAt", NumericType.LONG, false);
      caller.add(new Instruction(mark, Operation.tapeCall("mark", 0), List.of(), null));
      if (firstMark == null) {
        firstMark = mark;
      }
    }
    for (Object pushed : onTape) {
      caller.add(new Push(pushed instanceof Variable variable ? new Operand.Read(variable)
          : new Operand.Use((Value) pushed), null));
    }
    for (int i = onTape.size() - 1; i >= 0; i--) {
      if (onTape.get(i) instanceof Variable variable) {
        // popped where it is declared: written inline, in the order of the pops
        Value popped = builder.formula(variable.type(), variable.isActive());
        body.add(new Instruction(popped, Operation.POP, List.of(), null));
        body.add(new Declare(variable, new Operand.Use(popped), null));
      } else {
        body.addAll(popInto((Value) onTape.get(i)));
      }
    }
    for (Object used : readInPlace) {
      body.addAll(readBack(used));
    }
    body.addAll(part);
    int doubles = 0;
    int longs = 0;
    for (Object left : leftInPlace) {
      Operand pushed = left instanceof Variable variable ? new Operand.Read(variable)
          : new Operand.Use((Value) left);
      body.add(new Push(pushed, null));
      boolean isDouble = pushed.type() == NumericType.DOUBLE;
      handed.put(left, new Handed(mark, isDouble ? doubles++ : longs++));
    }
    for (Value value : outValues) {
      body.add(new Push(new Operand.Use(value), null));
    }
    for (Variable variable : outVariables) {
      body.add(new Push(new Operand.Read(variable), null));
    }
    body.add(new Return(null, null));
    String name = namePrefix + (parts.size() + 1);
    parts.add(new Part(name, program.with(parameters, new Block(body))));

    Instruction call = new Instruction(builder.temporary(NumericType.VOID, false),
        Operation.localCall(name, arguments.size()), arguments, null);
    caller.add(call);
    if (!leftInPlace.isEmpty()) {
      handedBy.put(call, leftInPlace);
    }
    for (int i = outVariables.size() - 1; i >= 0; i--) {
      Variable variable = outVariables.get(i);
      // popped where it is stored: written inline, in the order of the pops
      Value popped = builder.formula(variable.type(), variable.isActive());
      caller.add(new Instruction(popped, Operation.POP, List.of(), null));
      caller.add(declared.contains(variable)
          ? new Declare(variable, new Operand.Use(popped), null)
          : new Store(variable, new Operand.Use(popped), null));
    }
    for (int i = outValues.size() - 1; i >= 0; i--) {
      caller.addAll(popInto(outValues.get(i)));
    }
    inside.forEach((used, reads) -> uses.merge(used, -reads, Integer::sum));
    count(new Block(caller), uses);
    return caller;
  }

  /**
   * Defines {@code value} from the tape. A value the printer may write inline where it is read
   * (a formula, an integer temporary) would be popped there, out of order: it is popped into a
   * value of its own first.
   */
  private List<Statement> popInto(Value value) {
    boolean inline = value.origin() == Value.Origin.FORMULA
        || value.origin() == Value.Origin.TEMPORARY && value.type().isIntegral();
    if (!inline) {
      return List.of(new Instruction(value, Operation.POP, List.of(), null));
    }
    Value popped = builder.generated("handedOver", value.type(), value.isActive());
    return List.of(new Instruction(popped, Operation.POP, List.of(), null),
        new Instruction(value, Operation.COPY, List.of(new Operand.Use(popped)), null));
  }

  /** Whether a value of this type can be pushed onto the tape and taken back. */
  private static boolean onTape(NumericType type) {
    return switch (type) {
      case INT, LONG, FLOAT, DOUBLE, BOOLEAN, DOUBLE_ARRAY, DOUBLE_MATRIX, INT_ARRAY -> true;
      default -> false;
    };
  }

  private static int slotsOf(NumericType type) {
    return type == NumericType.DOUBLE || type == NumericType.LONG ? 2 : 1;
  }

  /**
   * Whether a statement can move into a part: it neither returns nor leaves a loop that is not
   * nested in it ({@code loops}: the loops inside it that enclose the statement).
   */
  private static boolean movable(Statement statement, Set<Integer> loops) {
    if (statement instanceof Return) {
      return false;
    } else if (statement instanceof Jump jump) {
      return loops.contains(jump.loopId());
    } else if (statement instanceof If branch) {
      return movable(branch.thenBlock(), loops) && movable(branch.elseBlock(), loops);
    } else if (statement instanceof Loop loop) {
      Set<Integer> inner = new HashSet<>(loops);
      inner.add(loop.id());
      return movable(loop.condition(), inner) && movable(loop.body(), inner)
          && movable(loop.update(), inner);
    }
    return true;
  }

  private static boolean movable(Block block, Set<Integer> loops) {
    return block.statements().stream().allMatch(s -> movable(s, loops));
  }

  /** Statements, nested ones included. */
  private static int size(List<Statement> statements) {
    int size = 0;
    for (Statement statement : statements) {
      size++;
      for (Block nested : statement.nestedBlocks()) {
        size += size(nested.statements());
      }
    }
    return size;
  }

  /** Whether the blocks, nested ones included, hold the call of a part. */
  private static boolean callsPart(List<Block> blocks) {
    for (Block block : blocks) {
      for (Statement statement : block.statements()) {
        if (statement instanceof Instruction instruction
            && instruction.operation().form() == Operation.Form.LOCAL_CALL
            || callsPart(statement.nestedBlocks())) {
          return true;
        }
      }
    }
    return false;
  }


  /** Counts each read of a value, and each read, store or declaration of a variable. */
  private static void count(Block block, Map<Object, Integer> counts) {
    for (Statement statement : block.statements()) {
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Use use) {
          counts.merge(use.value(), 1, Integer::sum);
        } else if (operand instanceof Operand.Read read) {
          counts.merge(read.variable(), 1, Integer::sum);
        }
      }
      if (statement instanceof Store store) {
        counts.merge(store.variable(), 1, Integer::sum);
      } else if (statement instanceof Declare declare) {
        counts.merge(declare.variable(), 1, Integer::sum);
      }
      for (Block nested : statement.nestedBlocks()) {
        count(nested, counts);
      }
    }
  }

  private static void definitions(List<Statement> statements, Set<Value> values,
      Set<Variable> variables) {
    for (Statement statement : statements) {
      if (statement instanceof Instruction instruction) {
        values.add(instruction.result());
      } else if (statement instanceof Declare declare) {
        variables.add(declare.variable());
      }
      for (Block nested : statement.nestedBlocks()) {
        definitions(nested.statements(), values, variables);
      }
    }
  }

  /** Counts the statements that store into each variable, nested ones included. */
  private static void countStores(List<Statement> statements, Map<Variable, Integer> counts) {
    for (Statement statement : statements) {
      if (statement instanceof Store store) {
        counts.merge(store.variable(), 1, Integer::sum);
      }
      for (Block nested : statement.nestedBlocks()) {
        countStores(nested.statements(), counts);
      }
    }
  }

  /** Adds the variables the statements store into, nested ones included. */
  private static void assignments(List<Statement> statements, Set<Variable> variables) {
    Map<Variable, Integer> counts = new IdentityHashMap<>();
    countStores(statements, counts);
    variables.addAll(counts.keySet());
  }

  private static List<Object> concat(List<?> first, List<?> second) {
    List<Object> both = new ArrayList<>(first);
    both.addAll(second);
    return both;
  }

  private static <T> Set<T> newIdentitySet() {
    return java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  }
}
