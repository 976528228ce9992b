package ad4j.processor.methodsize;

import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Throw;
import ad4j.processor.optimize.SumsAcrossParts;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The long blocks of a generated program, cut into parts that are methods of their own.
 *
 * <p>HotSpot compiles no method over 8000 bytes of bytecode, and javac rejects one over 64 KB.
 * {@link Segments} cuts a long straight-line method before it is differentiated. A loop whose
 * body is long, or a long method with a branch outside its loops (a {@code ?:}, an {@code if}),
 * gives members whose sweeps {@code Segments} cannot cut: a forward and a reverse sweep of each
 * body, with a local per intermediate value. This pass works on any finished program instead (a
 * forward or reverse sweep, a tangent program, a half of a split pullback), after every
 * transform, just before it is printed: it knows nothing of derivatives (what it lets rewrite
 * a run's parts, {@link PartRegrouping}, is handed in: {@link SumsAcrossParts}). In every block
 * (the method's own, a branch, a loop body), a run of consecutive statements longer than a part
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
 *
 * <p>This class is the entry: {@link LongRuns} chooses the runs, {@link Outliner} makes each
 * part, {@link ValuesLeftOnTape} keeps what parts leave on the tape, and {@link LoopNests} is
 * the policy that gives loop nests methods of their own.
 */
public final class LongBlocks {
  /**
   * Statements per part, nested ones counted: measured on a chain of sin, multiply and add in a
   * loop, a reverse sweep takes about 12 bytes of bytecode per statement, so a part stays near
   * 2000 bytes, well under HotSpot's 8000.
   */
  public static final int PART_SIZE = 160;

  /** One part: the name of its program and the program, which returns nothing. */
  public record Part(String name, Function program) {}

  /** The program with its long loop bodies cut, and the parts it calls, in order. */
  public record Cut(Function program, List<Part> parts) {}

  /**
   * What the parts of a long run of a derivative program need before they become methods: its
   * long sums spread across them and its formulas kept whole ({@link SumsAcrossParts}, in
   * {@code optimize/}, which this package uses and which does not know this one).
   */
  private static final PartRegrouping SUMS_ACROSS_PARTS = new PartRegrouping() {
    @Override
    public boolean keepsWithReader(Instruction instruction, Map<Object, Integer> uses) {
      return SumsAcrossParts.isFormula(instruction, uses);
    }

    @Override
    public void regroup(List<List<Statement>> parts, Map<Object, Integer> uses,
        IrBuilder builder) {
      SumsAcrossParts.spread(parts, uses, builder);
    }
  };

  private LongBlocks() {}

  /**
   * {@code program} with its long runs of statements cut into parts named {@code namePrefix}
   * and a number; empty when nothing is long enough to cut. The terms of a long sum move into
   * the parts that make what they read ({@link SumsAcrossParts}).
   */
  public static Optional<Cut> of(Function program, String namePrefix, int partSize) {
    return LongRuns.of(program, namePrefix, partSize, SUMS_ACROSS_PARTS);
  }

  /**
   * {@code program} with each loop nest of its own block (a loop that holds another loop) moved
   * into a part of its own, named {@code namePrefix} and a number, when the program records on
   * the tape and its block holds two nests or more of at least 40 statements ({@link LoopNests})
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
    return LoopNests.of(program, namePrefix);
  }

  /**
   * How many of the pushes that end {@code program}, before its final {@code return}, stay in
   * it whatever cut {@link #of} makes: all of them where its parts may leave their values on
   * the tape (the record half of a pullback, which pushes every value its replay half reads
   * back), none where a part may take them along. The planner bounds the printed size of a
   * program from below with them before it cuts it.
   */
  public static int pushesKeptAtEnd(Function program) {
    return ValuesLeftOnTape.resultPushesKept(program.body().statements());
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
}
