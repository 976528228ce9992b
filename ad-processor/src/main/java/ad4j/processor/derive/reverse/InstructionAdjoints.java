package ad4j.processor.derive.reverse;

import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.analysis.LiveAdjoints;
import ad4j.processor.derive.ArraySlots;
import ad4j.processor.derive.Sites;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Partial;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The reverse of one instruction: the values it needs taken back from the tape or computed
 * again, then its partials from the rule table added into its arguments' adjoints, with the
 * special forms (stores, clones, element reads, vector targets) handled here. Apart because it
 * is the rule application, the same whatever structure holds the instruction.
 */
final class InstructionAdjoints {
  private final SweepState s;
  private final RuledCallAdjoints ruledCalls;

  InstructionAdjoints(SweepState s) {
    this.s = s;
    this.ruledCalls = new RuledCallAdjoints(s);
  }

  /**
   * The values {@code instruction}'s reverse needs that were made in this iteration of the
   * loops around it: popped from the tape in the reverse order of their pushes, or computed
   * again. Returns, per such value, the operand that holds it in the reverse sweep.
   */
  private Map<Value, Operand> restoreRecorded(Instruction instruction, Block block,
      List<Statement> out) {
    Map<Value, Operand> popped = s.restored.computeIfAbsent(block, b -> new HashMap<>());
    if (s.flow.loopDepth(block) == 0 || s.iterationInLocals) {
      return popped; // the forward values are in locals
    }
    List<Value> taped = s.tape.recordedAfter(instruction, block);
    for (int i = taped.size() - 1; i >= 0; i--) {
      Value needed = taped.get(i);
      if (s.recomputation.isRecomputed(needed)) {
        continue;
      }
      // an array made in this iteration comes back as itself, carrying derivatives as it did
      // (an array without derivatives, such as a rule's partials, is named after the one
      // recorded, so that the second-order code knows it: see Tangent)
      Value copy = needed.isActiveArray() ? s.builder.again(needed)
          : s.builder.derived(needed, "", needed.type());
      out.add(new Instruction(copy, Operation.POP, List.of(), null));
      popped.put(needed, new Operand.Use(copy));
    }
    for (Value needed : taped) {
      if (s.recomputation.isRecomputed(needed)) {
        s.recomputation.compute(needed, s.place, popped, s.builder, null, out);
      }
    }
    return popped;
  }

  /**
   * The reverse of {@code c = w.clone()}: the adjoints of c's elements go to w's, in the output
   * array at w's slots (a parameter) or in w's adjoint array (a local array). A row's first
   * slot, inside a loop, is the one in {@code popped}.
   */
  private void reverseClone(Instruction clone, Map<Value, Operand> popped,
      List<Statement> out) {
    if (!(clone.arguments().get(0) instanceof Operand.Use use)) {
      return; // a copy of a constant table: nothing to pass back
    }
    Value source = use.value();
    Value target;
    Operand start;
    if (clone.arguments().size() == 2) {
      target = s.arrays.adjointTarget(source);
      start = clone.arguments().get(1) instanceof Operand.Use rowStart
          ? popped.getOrDefault(rowStart.value(), rowStart)
          : clone.arguments().get(1);
    } else if (s.adjointArrays.containsKey(source)) {
      target = s.adjointArrays.get(source);
      start = Operand.Constant.of(0);
    } else {
      return; // a copy of constants: nothing to pass back
    }
    Value added = s.builder.generated("added", NumericType.INT, false);
    // an array made inside a loop has its adjoints in an array as long as the longest copy
    SlotsCall helper = s.longestLengths.containsKey(clone.result())
        ? SlotsCall.ADD_INTO_WITHIN
        : SlotsCall.ADD_INTO;
    out.add(new Instruction(added, Operation.slotsCall(helper, 3), List.of(
        new Operand.Use(s.adjointArrays.get(clone.result())), new Operand.Use(target), start),
        clone.line().adjoint()));
  }

  /**
   * The reverse of {@code a[i] = v}: v's adjoint takes a's adjoint at i, which then becomes
   * zero (the element written over had no part in what follows), plus the adjoint of the
   * assignment expression's own value where that was used.
   */
  private void reverseStore(Instruction store, List<Operand> arguments, List<Statement> out) {
    Value array = ((Operand.Use) store.arguments().get(0)).value();
    Value arrayAdjoint = s.arrays.adjointTarget(array);
    // a row of a local matrix: the element's slot in the matrix's flat adjoints
    Operand index = arguments.size() > 3 ? arguments.get(3) : arguments.get(1);
    SourceLine line = store.line().adjoint();
    Value moved = s.builder.derived(store.result(), Derivative.ADJOINT, NumericType.DOUBLE);
    out.add(new Instruction(moved, Operation.ELEMENT,
        List.of(new Operand.Use(arrayAdjoint), index), line));
    out.add(new ElementStore(arrayAdjoint, index, Site.number(0.0), false, line));
    if (store.arguments().get(2) instanceof Operand.Use stored && stored.isActive()) {
      Site site = Site.formulas(s.builder, line);
      s.sums.accumulate(stored.value(), new Operand.Use(moved), false, false, site, out);
      Accumulation.AdjointValue own = s.adjoints.get(store.result());
      if (own != null && s.live.isLive(store.result())) {
        s.sums.accumulate(stored.value(), own.expression(), false, false, site, out);
      }
    }
  }

  /**
   * The reverse of {@code instruction}, by its form: an exhaustive {@code switch}, so that a new
   * form does not compile until it says what its reverse is.
   */
  void reverseInstruction(Instruction instruction, Block block, List<Statement> out) {
    boolean activeArray = instruction.result().isActiveArray();
    Runnable reverse = switch (instruction.operation().form()) {
      case NEW_ARRAY -> () -> s.arrays.clearIfMadeInLoop(instruction, out);
      case CLONE -> activeArray
          ? () -> {
            reverseClone(instruction, restoreRecorded(instruction, block, out), out);
            s.arrays.clearIfMadeInLoop(instruction, out);
          }
          : () -> reverseValue(instruction, block, out);
      case USER_CALL, RULED_CALL -> activeArray
          ? () -> reverseVectorFunctionCall(instruction, block, out)
          : () -> reverseValue(instruction, block, out);
      case STORE -> () -> reverseStoreInstruction(instruction, block, out);
      case INFIX, PREFIX, CAST, CALL, TANGENT_CALL, PULLBACK_CALL, LOCAL_CALL, POP, TAPE_CALL,
          COPY, SELECT, WITH_DERIVATIVE_OF, ELEMENT, LENGTH, SLOTS_CALL, PLAIN_CALL ->
          () -> reverseValue(instruction, block, out);
    };
    reverse.run();
  }

  /**
   * A vector function's call: its result's adjoints are the seed; inside a loop, the
   * arguments of this iteration's call come back from the tape.
   */
  private void reverseVectorFunctionCall(Instruction instruction, Block block,
      List<Statement> out) {
    Map<Value, Operand> popped = restoreRecorded(instruction, block, out);
    readRowsAgain(instruction, block, popped, out);
    List<Operand> arguments = restored(instruction.arguments(), popped);
    if (instruction.operation().form() == Operation.Form.USER_CALL) {
      s.calls.reverseCall(instruction, arguments,
          new Operand.Use(s.adjointArrays.get(instruction.result())),
          instruction.line().adjoint(), out);
    } else {
      ruledCalls.reverseVectorCall(instruction, arguments, out);
    }
    s.arrays.clearIfMadeInLoop(instruction, out);
  }

  /** {@code a[i] = v}, whose reverse also puts back an element it wrote over. */
  private void reverseStoreInstruction(Instruction instruction, Block block,
      List<Statement> out) {
    if (!instruction.result().isActive()) {
      restoreOverwritten(instruction, instruction.arguments(), block, out);
      return;
    }
    List<Operand> arguments = restored(instruction.arguments(),
        restoreRecorded(instruction, block, out));
    reverseStore(instruction, arguments, out);
    restoreOverwritten(instruction, arguments, block, out);
  }

  /**
   * Puts back the element {@code instruction} wrote over, where the sweep needs it, at the index
   * among {@code arguments} (as the sweep has them).
   */
  private void restoreOverwritten(Instruction instruction, List<Operand> arguments, Block block,
      List<Statement> out) {
    if (s.overwrittenElements.containsKey(instruction)) {
      s.arrays.restoreOverwritten(instruction, arguments.get(1), block, out);
    }
  }

  /**
   * The reverse of an instruction of a single value: its adjoint passed to its arguments' by
   * the rule table, or, for a call, an element read or a variable's read, as that form does.
   */
  private void reverseValue(Instruction instruction, Block block, List<Statement> out) {
    Value value = instruction.result();
    if (!value.isActive()) {
      restoreOverwritten(instruction, instruction.arguments(), block, out);
      return;
    }
    Map<Value, Operand> popped = restoreRecorded(instruction, block, out);
    if (instruction.operation().form().callsDifferentiated()) {
      readRowsAgain(instruction, block, popped, out);
    }
    if (!s.live.isLive(value) || s.sumReadsAfterFusedLoops.contains(value)) {
      return; // nothing that reaches the result depends on this value, or it is passed back
    }
    Accumulation.AdjointValue adjoint = s.adjoints.get(value);
    if (adjoint == null) {
      throw new IllegalStateException("the reverse sweep reached " + value
          + " before all uses of it that LiveAdjoints found");
    }
    SourceLine line = instruction.line().adjoint();
    List<Operand> arguments = restored(instruction.arguments(), popped);
    Runnable reverse = switch (instruction.operation().form()) {
      case USER_CALL -> () -> s.calls.reverseCall(instruction, arguments, adjoint.expression(),
          line, out);
      // v = w[i]: the element's adjoint, at the slot ArraySlots gave: in the output array for
      // a parameter, in the array's own adjoint array for a local array
      case ELEMENT -> () -> out.add(new ElementStore(
          s.arrays.adjointTarget(((Operand.Use) instruction.arguments().get(0)).value()),
          arguments.get(2), adjoint.expression(), true, line));
      case COPY -> instruction.arguments().get(0) instanceof Operand.Read read
          ? () -> reverseRead(read.variable(), adjoint, line, out)
          : () -> reverseByRule(instruction, arguments, popped, adjoint, line, out);
      case RULED_CALL -> () -> {
        Site site = reverseByRule(instruction, arguments, popped, adjoint, line, out);
        ruledCalls.reverseArrayArguments(instruction, arguments, adjoint.expression(), site,
            out);
      };
      case INFIX, PREFIX, CAST, CALL, TANGENT_CALL, PULLBACK_CALL, LOCAL_CALL, POP, TAPE_CALL,
          SELECT, WITH_DERIVATIVE_OF, LENGTH, SLOTS_CALL, PLAIN_CALL, NEW_ARRAY, CLONE ->
          () -> reverseByRule(instruction, arguments, popped, adjoint, line, out);
      case STORE -> () -> {
        throw new IllegalStateException("a store's reverse is reverseStoreInstruction's: "
            + instruction);
      };
    };
    reverse.run();
  }

  /** {@code v = x}, a read of a variable: v's adjoint is added into x's. */
  private void reverseRead(Variable variable, Accumulation.AdjointValue adjoint, SourceLine line,
      List<Statement> out) {
    Variable target = s.variableAdjoints.get(variable);
    Site site = Site.formulas(s.builder, line);
    Operand sum = site.plus(new Operand.Read(target), adjoint.expression());
    out.addAll(site.instructionsFor(List.of(sum)));
    out.add(new Store(target, sum, line));
  }

  /**
   * The partials of the rule table, times the instruction's adjoint, added into the adjoints
   * of its active arguments; returns the site they were built at.
   */
  private Site reverseByRule(Instruction instruction, List<Operand> arguments,
      Map<Value, Operand> popped, Accumulation.AdjointValue adjoint, SourceLine line,
      List<Statement> out) {
    Value value = instruction.result();
    Operand resultOperand = popped.getOrDefault(value, new Operand.Use(value));
    Site site = Sites.of(instruction, arguments, resultOperand, s.builder, line,
        s.straightLine ? s.computed : Site.Reuse.NONE);
    DerivativeRules.Rule rule = Sites.ruleFor(instruction);
    Map<Integer, Partial> partials = new TreeMap<>();
    for (int i = 0; i < arguments.size(); i++) {
      if (instruction.arguments().get(i) instanceof Operand.Use use && use.isActive()) {
        Optional<Partial> partial = rule.partial(i, site);
        if (partial.isPresent()) {
          partials.put(i, partial.get());
        }
      }
    }
    Operand incoming = adjoint.expression();
    Operand sharedDivisor = Sites.sharedDivisor(partials.values(), site);
    if (sharedDivisor != null) {
      // a / b: both partials divide by b; divide the adjoint once and multiply.
      Value scaled = s.builder.derived(value, "BarOver", NumericType.DOUBLE);
      out.addAll(Sites.define(scaled, Partial.over(sharedDivisor).applyTo(incoming, site), site,
          line));
      incoming = new Operand.Use(scaled);
    }
    for (Map.Entry<Integer, Partial> entry : partials.entrySet()) {
      Operand.Use use = (Operand.Use) instruction.arguments().get(entry.getKey());
      Partial partial = entry.getValue();
      if (sharedDivisor != null) {
        partial = partial.undivided();
      }
      s.sums.accumulate(use.value(), partial.applyTo(incoming, site), partial.negative(),
          partial.isOne() && sharedDivisor == null, site, out);
    }
    return site;
  }

  /** The arguments with the values the reverse sweep took back from the tape in their place. */
  private static List<Operand> restored(List<Operand> arguments, Map<Value, Operand> popped) {
    List<Operand> restored = new ArrayList<>();
    for (Operand argument : arguments) {
      restored.add(argument instanceof Operand.Use use
          ? popped.getOrDefault(use.value(), argument) : argument);
    }
    return restored;
  }

  /**
   * Before the reverse of a call inside a loop (of a {@code @Differentiable} method or of one
   * with {@code @DerivativeOf} rules): each row
   * {@code r = m[i]} it was passed that the loop computed is read again from {@code m} and the
   * recorded {@code i} (the tape holds no arrays; see {@code FlowAnalysis.rowRead}).
   */
  private void readRowsAgain(Instruction call, Block block, Map<Value, Operand> popped,
      List<Statement> out) {
    for (Operand argument : call.arguments()) {
      if (!(argument instanceof Operand.Use use) || popped.containsKey(use.value())) {
        continue;
      }
      Instruction row = s.flow.rowRead(use.value());
      Block home = s.flow.definingBlock(use.value());
      if (row == null || home == null || s.flow.loopDepth(home) == 0) {
        continue; // read outside loops: the reverse sweep reads the same value
      }
      List<Operand> reads = new ArrayList<>();
      for (Operand read : row.arguments()) {
        reads.add(read instanceof Operand.Use source
            ? popped.getOrDefault(source.value(), read) : read);
      }
      // like the row read, it carries derivatives: forward over reverse reads its tangent too
      Value copy = s.builder.again(use.value());
      out.add(new Instruction(copy, row.operation(), reads, call.line().adjoint()));
      popped.put(use.value(), new Operand.Use(copy));
    }
  }
}
