package ad4j.processor.emit;

import ad4j.processor.transform.FlowAnalysis;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Site;
import ad4j.processor.rules.Expr;
import ad4j.processor.rules.Partial;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Writes the statements of one generated method: the forward sweep (primal values, and tangents
 * in forward mode) and the reverse sweep (adjoints). One instance serves one generated method,
 * since each method chooses its own names.
 *
 * <p>Straight-line code keeps every intermediate in a local. Where there are branches and
 * loops, the forward sweep follows the primal's control flow; for the reverse sweep, values
 * computed in branches outside loops are declared at method scope, and inside loops each
 * instruction pushes onto the {@code Tape} the primal values its derivative reads, each branch its
 * decision, each inner loop its trip count; the reverse sweep pops them in mirror order.
 */
final class SweepWriter {
  static final ClassName TAPE = ClassName.get("ad4j.runtime", "Tape");

  /** What the method computes besides values. */
  enum Mode {
    /** Tangents alongside values (forward mode). */
    TANGENT,
    /** Values recorded for a reverse sweep. */
    REVERSE
  }

  private final Function function;
  private final NameAllocator names;
  private final Mode mode;
  private final FlowAnalysis flow;
  private final Map<Value, String> valueNames = new HashMap<>();
  private final Map<Variable, String> variableNames = new HashMap<>();
  private final Map<Value, Expr> tangents = new HashMap<>();
  private final Map<Variable, String> variableTangents = new HashMap<>();
  private final Map<Integer, String> loopLabels = new HashMap<>();
  private final Map<Integer, String> bodyLabels = new HashMap<>();
  private final Map<Integer, String> tripCounts = new HashMap<>();
  private final CodeBlock.Builder code = CodeBlock.builder();
  /**
   * In straight-line code, the math calls of the forward sweep computed so far, by their
   * operation and operands, so that derivative formulas reuse them ({@code cos(t)} for the derivative of
   * {@code sin(t)}).
   */
  private final Map<List<Object>, Operand> computedCalls = new HashMap<>();
  /** Creates the values of derivative formulas, which are written inline. */
  private final IrBuilder scratch = new IrBuilder();
  /** Per loop block, after which instruction each recorded value goes on the tape. */
  private final Map<Block, Map<Instruction, List<Value>>> tapePlans =
      new java.util.IdentityHashMap<>();
  /** Per block of the reverse sweep, the locals holding values taken back from the tape. */
  private final Map<Block, Map<Value, String>> restored = new java.util.IdentityHashMap<>();
  /** The branches the forward sweep is inside, innermost first: true in a then-block. */
  private final Deque<Boolean> openBranches = new ArrayDeque<>();
  /** For each enclosing loop, how many open branches lie outside its body. */
  private final Deque<Integer> loopBranchBase = new ArrayDeque<>(List.of(0));
  private SourceLine commentedLine;
  private String tape;
  private String result;
  private Expr seed;

  /** A writer sharing the analysis of {@code function} with the other writers of its members. */
  SweepWriter(Function function, FlowAnalysis flow, NameAllocator names, Mode mode) {
    this.function = function;
    this.names = names;
    this.mode = mode;
    this.flow = flow;
  }

  /** Claims the user's parameter names first, so that they appear unchanged in the signature. */
  List<String> parameterNames() {
    List<String> result = new ArrayList<>();
    for (Value parameter : function.parameters()) {
      result.add(nameOf(parameter));
    }
    return result;
  }

  /** Names the tangent parameters of forward mode, one per {@code double} parameter. */
  List<String> tangentParameterNames() {
    List<String> result = new ArrayList<>();
    for (Value parameter : function.differentiableParameters()) {
      String name = names.fresh(nameOf(parameter) + "Dot");
      result.add(name);
      tangents.put(parameter, Expr.atom(name));
    }
    for (Variable variable : flow.parameterVariables()) {
      if (variable.isActive()) {
        variableTangents.put(variable, tangents.get(variable.parameter()).toString());
      }
    }
    return result;
  }

  CodeBlock.Builder code() {
    return code;
  }

  // ---- the whole method body ---------------------------------------------------------------

  /** Forward mode: the primal with tangents, returning the result's tangent. */
  void writeTangentMethod() {
    if (hasStatements(function.body())) {
      code.add("// forward sweep: values and tangents\n");
    }
    writeForward(function.body());
  }

  /**
   * Reverse mode: the forward sweep, then the reverse sweep seeded with {@code seedExpression};
   * returns the adjoint of each {@code double} parameter (absent when nothing reached it). Empty
   * when the forward sweep never completes (the method only throws, or loops forever): then no
   * code may follow it, and there is no reverse sweep.
   */
  Optional<Map<Value, Expr>> writeReverseMethod(Expr seedExpression) {
    seed = seedExpression;
    if (!flow.isStraightLine()) {
      result = names.fresh("result");
      code.addStatement("double $L = 0.0", result);
      declareHoisted(function.body());
    }
    if (hasStatements(function.body())) {
      code.add("// forward sweep\n");
    }
    writeForward(function.body());
    if (!forwardCompletes(function.body())) {
      return Optional.empty();
    }
    commentedLine = null;
    Map<Value, Adjoint> adjoints = new HashMap<>();
    Map<Variable, String> variableAdjoints = new HashMap<>();
    if (isDifferentiated()) {
      if (hasStatements(function.body())) {
        code.add("// reverse sweep\n");
      }
      writeReverse(function.body(), adjoints, variableAdjoints);
    }
    Map<Value, Expr> parameterAdjoints = new HashMap<>();
    for (Value parameter : function.differentiableParameters()) {
      Adjoint adjoint = adjoints.get(parameter);
      if (adjoint != null) {
        parameterAdjoints.put(parameter, adjoint.expression());
      }
    }
    for (Variable variable : flow.parameterVariables()) {
      if (variable.isActive()) {
        parameterAdjoints.put(variable.parameter(), Expr.atom(variableAdjoints.get(variable)));
      }
    }
    return Optional.of(parameterAdjoints);
  }

  /**
   * Whether the forward sweep written for {@code block} can complete normally by Java's rules
   * (JLS 14.22), so that javac accepts code after it. In reverse mode a {@code return} only
   * stores the result; a loop without a test ends only by a {@code break} of its own.
   */
  private boolean forwardCompletes(Block block) {
    for (Statement statement : block.statements()) {
      boolean completes;
      if (statement instanceof Throw || statement instanceof Jump) {
        completes = false;
      } else if (statement instanceof Return) {
        completes = mode == Mode.REVERSE;
      } else if (statement instanceof If branch) {
        completes = forwardCompletes(branch.thenBlock()) || forwardCompletes(branch.elseBlock());
      } else if (statement instanceof Loop loop) {
        completes = loop.test() != null || loop.body().jumpsTo(loop.id(), Jump.Kind.BREAK);
      } else {
        completes = true;
      }
      if (!completes) {
        return false;
      }
    }
    return true;
  }

  /** What the reverse-mode method returns: the primal result. */
  Expr resultExpression() {
    if (result != null) {
      return Expr.atom(result);
    }
    return operandExpression(finalReturn().value());
  }

  /** Whether any derivative reaches a parameter at all. */
  private boolean isDifferentiated() {
    if (!flow.isStraightLine()) {
      return true;
    }
    return finalReturn().value().isActive();
  }

  private Return finalReturn() {
    List<Statement> statements = function.body().statements();
    return (Return) statements.get(statements.size() - 1);
  }

  private boolean hasStatements(Block block) {
    for (Statement statement : block.statements()) {
      if (!(statement instanceof Return)
          && (!(statement instanceof Instruction instruction) || flow.isLive(instruction))) {
        return true;
      }
    }
    return false;
  }

  /** Method-scope declarations of values the reverse sweep reads from inside branches. */
  private void declareHoisted(Block block) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction && flow.isHoisted(instruction.result())) {
        Value value = instruction.result();
        code.addStatement("$L $L = $L", value.type().keyword(), nameOf(value),
            Operand.Constant.zero(value.type()).expression());
      } else if (statement instanceof If branch) {
        declareHoisted(branch.thenBlock());
        declareHoisted(branch.elseBlock());
      } else if (statement instanceof Loop loop && flow.loopDepth(block) == 0) {
        String count = names.fresh("loop" + loop.id() + "Trips");
        tripCounts.put(loop.id(), count);
        code.addStatement("int $L = 0", count);
      }
    }
  }

  // ---- segments of long straight-line methods ----------------------------------------------

  /** Whether the reverse sweep records on the tape: the caller binds it first. */
  boolean usesTape() {
    return flow.usesTape();
  }

  /** Binds the name of the tape: a segment method's parameter, or a local of the caller's. */
  String tapeParameter() {
    tape = names.fresh("tape");
    return tape;
  }

  /**
   * The body of a segment's forward method: takes the values crossing into it from the tape,
   * computes, records what its reverse needs, and hands the values crossing out to the next
   * segment; the last segment returns the result instead.
   */
  void writeForwardSegment(Segments.Segment segment, boolean last) {
    popAll(segment.carriedIn());
    for (Instruction instruction : segment.instructions()) {
      comment(instruction.line(), "");
      Value value = instruction.result();
      code.addStatement("$L $L = $L", value.type().keyword(), nameOf(value),
          primalExpression(instruction));
    }
    pushAll(segment.needed());
    pushAll(segment.carriedOut());
    if (last) {
      code.addStatement("return $L", operandExpression(finalReturn().value()));
    }
  }

  /**
   * The body of a segment's reverse method: takes the adjoints of the values it handed on (or
   * the seed, in the last segment) and the values its forward method recorded, walks its
   * instructions backwards, and hands the adjoints of the values it took, and of the
   * parameters, to the previous segment.
   */
  void writeReverseSegment(Segments.Segment segment, Expr seedExpression) {
    Map<Value, Adjoint> adjoints = new HashMap<>();
    List<Value> parameters = function.differentiableParameters();
    if (seedExpression == null) {
      List<Value> incoming = new ArrayList<>(segment.carriedOut());
      incoming.addAll(parameters);
      for (int i = incoming.size() - 1; i >= 0; i--) {
        Value value = incoming.get(i);
        String name = names.fresh(nameOf(value) + "Bar");
        code.addStatement("double $L = $L.popDouble()", name, tape);
        adjoints.put(value, new Adjoint(Expr.atom(name), true));
      }
    }
    List<Value> needed = segment.needed();
    for (int i = needed.size() - 1; i >= 0; i--) {
      Value value = needed.get(i);
      code.addStatement("$L $L = $L", value.type().keyword(), nameOf(value), pop(value.type()));
    }
    if (seedExpression != null && finalReturn().value() instanceof Operand.Use use
        && use.isActive()) {
      comment(finalReturn().line(), "adjoint of ");
      accumulate(adjoints, use.value(), seedExpression, false, true);
    }
    List<Instruction> instructions = segment.instructions();
    for (int i = instructions.size() - 1; i >= 0; i--) {
      reverseInstruction(instructions.get(i), function.body(), adjoints, Map.of());
    }
    List<Value> outgoing = new ArrayList<>(segment.carriedIn());
    outgoing.addAll(parameters);
    for (Value value : outgoing) {
      Adjoint adjoint = adjoints.get(value);
      code.addStatement("$L.pushDouble($L)", tape,
          adjoint == null ? Expr.ZERO : adjoint.expression());
    }
  }

  /**
   * The body of a segment's tangent method: values and tangents in from the tape, out to the
   * tape (or the result's tangent returned, in the last segment).
   */
  void writeTangentSegment(Segments.Segment segment, boolean last) {
    List<Value> carriedIn = segment.carriedIn();
    for (int i = carriedIn.size() - 1; i >= 0; i--) {
      Value value = carriedIn.get(i);
      if (value.isActive()) {
        String tangent = names.fresh(nameOf(value) + "Dot");
        code.addStatement("double $L = $L.popDouble()", tangent, tape);
        tangents.put(value, Expr.atom(tangent));
      }
      code.addStatement("$L $L = $L", value.type().keyword(), nameOf(value), pop(value.type()));
    }
    for (Instruction instruction : segment.instructions()) {
      forwardInstruction(instruction, function.body());
    }
    for (Value value : segment.carriedOut()) {
      code.addStatement("$L.$L($L)", tape, pushMethod(value.type()), nameOf(value));
      if (value.isActive()) {
        code.addStatement("$L.pushDouble($L)", tape, tangents.get(value));
      }
    }
    if (last) {
      code.addStatement("return $L", tangentOf(finalReturn().value()));
    }
  }

  private void popAll(List<Value> values) {
    for (int i = values.size() - 1; i >= 0; i--) {
      Value value = values.get(i);
      code.addStatement("$L $L = $L", value.type().keyword(), nameOf(value), pop(value.type()));
    }
  }

  private void pushAll(List<Value> values) {
    for (Value value : values) {
      code.addStatement("$L.$L($L)", tape, pushMethod(value.type()), nameOf(value));
    }
  }

  // ---- forward sweep -----------------------------------------------------------------------

  private void writeForward(Block block) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        if (flow.isLive(instruction)) {
          forwardInstruction(instruction, block);
        }
      } else if (statement instanceof Declare declare) {
        comment(declare.line(), "");
        Variable variable = declare.variable();
        code.addStatement("$L $L = $L", variable.type().keyword(), nameOf(variable),
            operandExpression(declare.initial()));
        if (mode == Mode.TANGENT && variable.isActive()) {
          String tangent = names.fresh(nameOf(variable) + "Dot");
          variableTangents.put(variable, tangent);
          code.addStatement("double $L = $L", tangent, tangentOf(declare.initial()));
        }
      } else if (statement instanceof Store store) {
        comment(store.line(), "");
        Variable variable = store.variable();
        code.addStatement("$L = $L", nameOf(variable), operandExpression(store.value()));
        if (mode == Mode.TANGENT && variable.isActive()) {
          code.addStatement("$L = $L", variableTangents.get(variable), tangentOf(store.value()));
        }
      } else if (statement instanceof Return ret) {
        forwardReturn(ret);
      } else if (statement instanceof If branch) {
        forwardIf(branch, block);
      } else if (statement instanceof Loop loop) {
        forwardLoop(loop, block);
      } else if (statement instanceof Jump jump) {
        comment(jump.line(), "");
        recordBranchesLeft();
        if (jump.kind() == Jump.Kind.BREAK) {
          code.addStatement("break $L", loopLabels.get(jump.loopId()));
        } else if (bodyLabels.containsKey(jump.loopId())) {
          code.addStatement("break $L", bodyLabels.get(jump.loopId()));
        } else {
          code.addStatement("continue $L", loopLabels.get(jump.loopId()));
        }
      } else if (statement instanceof Throw thrown) {
        comment(thrown.line(), "");
        code.addStatement("throw new $L($L)", thrown.exceptionType(), message(thrown));
      }
    }
  }

  private void forwardInstruction(Instruction instruction, Block block) {
    comment(instruction.line(), "");
    Value value = instruction.result();
    if (mode == Mode.REVERSE && flow.isHoisted(value)) {
      code.addStatement("$L = $L", nameOf(value), primalExpression(instruction));
    } else {
      code.addStatement("$L $L = $L", value.type().keyword(), nameOf(value),
          primalExpression(instruction));
    }
    if (mode == Mode.TANGENT && value.isActive()) {
      String tangent = names.fresh(nameOf(value) + "Dot");
      code.addStatement("double $L = $L", tangent, tangentExpression(instruction));
      tangents.put(value, Expr.atom(tangent));
    }
    if (flow.isStraightLine() && instruction.operation().form() == Operation.Form.CALL
        && value.type() == NumericType.DOUBLE) {
      computedCalls.putIfAbsent(callKey(instruction.operation(), instruction.arguments()),
          new Operand.Use(value));
    }
    if (mode == Mode.REVERSE && flow.loopDepth(block) > 0 && !flow.isConditionBlock(block)) {
      for (Value needed : tapedAfter(instruction, block)) {
        code.addStatement("$L.$L($L)", tape, pushMethod(needed.type()), nameOf(needed));
      }
    }
  }

  /**
   * The values recorded after {@code instruction}: those it is the last instruction of its block
   * to need. Each value is recorded once per block, after its last use there, so that the
   * reverse sweep takes it back before the first use it meets and shares it with the others.
   */
  private List<Value> tapedAfter(Instruction instruction, Block block) {
    return tapePlans.computeIfAbsent(block, this::planTape)
        .getOrDefault(instruction, List.of());
  }

  private Map<Instruction, List<Value>> planTape(Block block) {
    Map<Value, Instruction> lastUse = new HashMap<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        for (Value needed : taped(instruction)) {
          lastUse.put(needed, instruction);
        }
      }
    }
    Map<Instruction, List<Value>> plan = new java.util.IdentityHashMap<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        for (Value needed : taped(instruction)) {
          if (lastUse.get(needed) == instruction) {
            List<Value> after = plan.computeIfAbsent(instruction, i -> new ArrayList<>());
            if (!after.contains(needed)) {
              after.add(needed);
            }
          }
        }
      }
    }
    return plan;
  }

  private void forwardReturn(Return ret) {
    comment(ret.line(), "");
    if (mode == Mode.TANGENT) {
      code.addStatement("return $L", tangentOf(ret.value()));
    } else if (result != null) {
      code.addStatement("$L = $L", result, operandExpression(ret.value()));
    }
  }

  /**
   * A branch. Inside a loop its decision goes on the tape when the branch is left, so that it
   * lies above everything the branch recorded: after the statement when it completes normally,
   * and, before a jump out of it, as a constant (the path taken is known there).
   */
  private void forwardIf(If branch, Block block) {
    comment(branch.line(), "");
    Expr condition = operandExpression(branch.condition());
    boolean recorded = mode == Mode.REVERSE && flow.loopDepth(block) > 0
        && !flow.isConditionBlock(block);
    code.beginControlFlow("if ($L)", condition);
    openBranches.push(true);
    writeForward(branch.thenBlock());
    openBranches.pop();
    if (hasAnything(branch.elseBlock())) {
      code.nextControlFlow("else");
      openBranches.push(false);
      writeForward(branch.elseBlock());
      openBranches.pop();
    }
    code.endControlFlow();
    if (recorded && completesNormally(branch)) {
      code.addStatement("$L.pushBoolean($L)", tape, condition);
    }
  }

  /** Before a jump out of the loop body: the decisions of the branches being left. */
  private void recordBranchesLeft() {
    if (mode != Mode.REVERSE) {
      return;
    }
    int inLoop = openBranches.size() - loopBranchBase.peek();
    int i = 0;
    for (boolean taken : openBranches) {
      if (i++ == inLoop) {
        break;
      }
      code.addStatement("$L.pushBoolean($L)", tape, taken);
    }
  }

  private void forwardLoop(Loop loop, Block block) {
    comment(loop.line(), "");
    String label = names.fresh("loop" + loop.id());
    loopLabels.put(loop.id(), label);
    boolean nested = flow.loopDepth(block) > 0;
    String count = null;
    if (mode == Mode.REVERSE) {
      count = tripCounts.get(loop.id());
      if (count == null) {
        count = names.fresh("loop" + loop.id() + "Trips");
        tripCounts.put(loop.id(), count);
        code.addStatement("int $L = 0", count);
      }
    }
    Optional<Expr> inlined = inlineCondition(loop);
    boolean needsBodyLabel = loop.body().jumpsTo(loop.id(), Jump.Kind.CONTINUE)
        && (!loop.update().statements().isEmpty() || inlined.isEmpty());
    if (needsBodyLabel) {
      bodyLabels.put(loop.id(), names.fresh("body" + loop.id()));
    }
    String prefix = loop.body().jumpsTo(loop.id(), Jump.Kind.BREAK, Jump.Kind.CONTINUE)
        ? label + ": " : "";
    if (loop.test() == null) {
      code.beginControlFlow("$Lwhile (true)", prefix);
    } else if (inlined.isPresent() && loop.testFirst()) {
      code.beginControlFlow("$Lwhile ($L)", prefix, inlined.get());
    } else if (inlined.isPresent()) {
      code.beginControlFlow("$Ldo", prefix);
    } else {
      code.beginControlFlow("$Lwhile (true)", prefix);
      if (loop.testFirst()) {
        writeTest(loop);
      }
    }
    if (count != null) {
      code.addStatement("$L++", count);
    }
    if (needsBodyLabel) {
      code.beginControlFlow("$L:", bodyLabels.get(loop.id()));
    }
    loopBranchBase.push(openBranches.size());
    writeForward(loop.body());
    loopBranchBase.pop();
    if (needsBodyLabel) {
      code.endControlFlow();
    }
    if (loop.test() != null && !loop.testFirst() && inlined.isEmpty()) {
      writeTest(loop);
    }
    writeForward(loop.update());
    if (loop.test() != null && !loop.testFirst() && inlined.isPresent()) {
      code.endControlFlow("while ($L)", inlined.get());
    } else {
      code.endControlFlow();
    }
    if (count != null && nested) {
      code.addStatement("$L.pushInt($L)", tape, count);
    }
  }

  /** The loop test as instructions then {@code if (!test) break}. */
  private void writeTest(Loop loop) {
    writeForward(loop.condition());
    code.beginControlFlow("if ($L)", operandExpression(loop.test()).not());
    code.addStatement("break");
    code.endControlFlow();
  }

  /**
   * The loop condition as one expression, when its instructions compute nothing the rest of
   * the method needs and nothing with a derivative: {@code i < n} rather than a temporary.
   */
  private Optional<Expr> inlineCondition(Loop loop) {
    if (loop.test() == null) {
      return Optional.empty();
    }
    Map<Value, Expr> inline = new HashMap<>();
    for (Statement statement : loop.condition().statements()) {
      if (!(statement instanceof Instruction instruction) || instruction.result().isActive()
          || instruction.operation().form() == Operation.Form.USER_CALL
          || instruction.operation().form() == Operation.Form.CALL) {
        return Optional.empty();
      }
      List<Expr> arguments = new ArrayList<>();
      for (Operand argument : instruction.arguments()) {
        if (argument instanceof Operand.Use use && inline.containsKey(use.value())) {
          arguments.add(inline.remove(use.value()));
        } else {
          arguments.add(operandExpression(argument));
        }
      }
      inline.put(instruction.result(), render(instruction, arguments));
    }
    if (loop.test() instanceof Operand.Use use && inline.containsKey(use.value())) {
      Expr condition = inline.remove(use.value());
      return inline.isEmpty() ? Optional.of(condition) : Optional.empty();
    }
    return inline.isEmpty() ? Optional.of(operandExpression(loop.test())) : Optional.empty();
  }

  // ---- reverse sweep -----------------------------------------------------------------------

  /** An adjoint: a local being summed into, or an expression passed on unchanged. */
  private record Adjoint(Expr expression, boolean isLocal) {}

  private void writeReverse(Block block, Map<Value, Adjoint> adjoints,
      Map<Variable, String> variableAdjoints) {
    for (Value value : flow.valuesDefinedIn(block)) {
      boolean parameter = value.origin() == Value.Origin.PARAMETER && !flow.isStraightLine()
          && !flow.isVariableParameter(value);
      if (value.isActive() && (flow.needsDeclaredAdjoint(value) || parameter)) {
        String name = names.fresh(nameOf(value) + "Bar");
        code.addStatement("double $L = 0.0", name);
        adjoints.put(value, new Adjoint(Expr.atom(name), true));
      }
    }
    if (block == function.body()) {
      for (Variable variable : flow.parameterVariables()) {
        declareVariableAdjoint(variable, variableAdjoints);
      }
    }
    for (Statement statement : block.statements()) {
      if (statement instanceof Declare declare) {
        declareVariableAdjoint(declare.variable(), variableAdjoints);
      }
    }
    List<Statement> statements = block.statements();
    for (int i = statements.size() - 1; i >= 0; i--) {
      Statement statement = statements.get(i);
      if (statement instanceof Instruction instruction) {
        if (flow.isLive(instruction)) {
          reverseInstruction(instruction, block, adjoints, variableAdjoints);
        }
      } else if (statement instanceof Declare declare) {
        String adjoint = variableAdjoints.get(declare.variable());
        if (adjoint != null && declare.initial() instanceof Operand.Use use && use.isActive()) {
          comment(declare.line(), "adjoint of ");
          accumulate(adjoints, use.value(), Expr.atom(adjoint), false, false);
        }
      } else if (statement instanceof Store store) {
        String adjoint = variableAdjoints.get(store.variable());
        if (adjoint != null) {
          comment(store.line(), "adjoint of ");
          if (store.value() instanceof Operand.Use use && use.isActive()) {
            accumulate(adjoints, use.value(), Expr.atom(adjoint), false, false);
          }
          code.addStatement("$L = 0.0", adjoint);
        }
      } else if (statement instanceof Return ret) {
        if (ret.value() instanceof Operand.Use use && use.isActive()) {
          comment(ret.line(), "adjoint of ");
          accumulate(adjoints, use.value(), seed, false, true);
        }
      } else if (statement instanceof If branch) {
        comment(branch.line(), "adjoint of ");
        Expr decision = flow.loopDepth(block) > 0
            ? Expr.atom(tape + ".popBoolean()") : operandExpression(branch.condition());
        code.beginControlFlow("if ($L)", decision);
        writeReverse(branch.thenBlock(), adjoints, variableAdjoints);
        if (hasAnything(branch.elseBlock())) {
          code.nextControlFlow("else");
          writeReverse(branch.elseBlock(), adjoints, variableAdjoints);
        }
        code.endControlFlow();
      } else if (statement instanceof Loop loop) {
        comment(loop.line(), "adjoint of ");
        String count = tripCounts.get(loop.id());
        if (flow.loopDepth(block) > 0) {
          count = names.fresh("loop" + loop.id() + "Trips");
          code.addStatement("int $L = $L.popInt()", count, tape);
        }
        String iteration = names.fresh("iteration" + loop.id());
        code.beginControlFlow("for (int $L = $L; $L > 0; $L--)", iteration, count, iteration,
            iteration);
        writeReverse(loop.body(), adjoints, variableAdjoints);
        code.endControlFlow();
      }
    }
  }

  private void declareVariableAdjoint(Variable variable, Map<Variable, String> adjoints) {
    if (variable.isActive() && !adjoints.containsKey(variable)) {
      String name = names.fresh(nameOf(variable) + "Bar");
      code.addStatement("double $L = 0.0", name);
      adjoints.put(variable, name);
    }
  }

  private void reverseInstruction(Instruction instruction, Block block,
      Map<Value, Adjoint> adjoints, Map<Variable, String> variableAdjoints) {
    Value value = instruction.result();
    if (!value.isActive()) {
      return;
    }
    Map<Value, String> popped = restored.computeIfAbsent(block, b -> new HashMap<>());
    if (flow.loopDepth(block) > 0) {
      List<Value> taped = tapedAfter(instruction, block);
      for (int i = taped.size() - 1; i >= 0; i--) {
        Value needed = taped.get(i);
        String name = names.fresh(nameOf(needed));
        code.addStatement("$L $L = $L", needed.type().keyword(), name, pop(needed.type()));
        popped.put(needed, name);
      }
    }
    Adjoint adjoint = adjoints.get(value);
    if (adjoint == null) {
      return; // nothing that reaches the result depends on this value
    }
    comment(instruction.line(), "adjoint of ");
    Operation operation = instruction.operation();
    if (operation.form() == Operation.Form.USER_CALL) {
      reverseCall(instruction, adjoint.expression(), popped, adjoints);
      return;
    }
    if (operation.form() == Operation.Form.COPY
        && instruction.arguments().get(0) instanceof Operand.Read read) {
      code.addStatement("$L += $L", variableAdjoints.get(read.variable()), adjoint.expression());
      return;
    }
    Formulas formulas = new Formulas(instruction, popped);
    DerivativeRules.Rule rule = ruleFor(instruction);
    Map<Integer, Partial> partials = new java.util.TreeMap<>();
    for (int i = 0; i < instruction.arguments().size(); i++) {
      if (instruction.arguments().get(i) instanceof Operand.Use use && use.isActive()) {
        Optional<Partial> partial = rule.partial(i, formulas.site);
        if (partial.isPresent()) {
          partials.put(i, partial.get());
        }
      }
    }
    Operand incoming = formulas.placeholder(adjoint.expression());
    Operand sharedDivisor = sharedDivisor(partials.values(), formulas.site);
    if (sharedDivisor != null) {
      // a / b: both partials divide by b; divide the adjoint once and multiply.
      String scaled = names.fresh(nameOf(value) + "BarOver");
      code.addStatement("double $L = $L", scaled,
          formulas.text(Partial.over(sharedDivisor).applyTo(incoming, formulas.site)));
      incoming = formulas.placeholder(Expr.atom(scaled));
    }
    for (Map.Entry<Integer, Partial> entry : partials.entrySet()) {
      Operand.Use use = (Operand.Use) instruction.arguments().get(entry.getKey());
      Partial p = entry.getValue();
      if (sharedDivisor != null) {
        p = p.undivided();
      }
      boolean aliasable = p.isOne();
      accumulate(adjoints, use.value(), formulas.text(p.applyTo(incoming, formulas.site)),
          p.negative(), aliasable && sharedDivisor == null);
    }
  }

  /** The divisor all of several partials share, if they do. */
  private static Operand sharedDivisor(java.util.Collection<Partial> partials, Site site) {
    if (partials.size() < 2) {
      return null;
    }
    Operand shared = null;
    for (Partial partial : partials) {
      if (partial.divisor() == null || partial.gate() != null) {
        return null;
      }
      if (shared != null && !site.same(shared, partial.divisor())) {
        return null;
      }
      shared = partial.divisor();
    }
    return shared;
  }

  /**
   * The derivative formulas of one instruction, built as IR by its rule at a {@link Site} and
   * written as Java text: operands by their names (or the locals they were taken back into
   * from the tape), placeholders for the incoming derivative by their text.
   */
  private final class Formulas {
    private final Site site;
    private final Map<Value, Expr> placeholders = new HashMap<>();
    private final Map<Value, String> popped;

    Formulas(Instruction instruction, Map<Value, String> popped) {
      this.popped = popped;
      List<Site.Argument> arguments = new ArrayList<>();
      for (Operand operand : instruction.arguments()) {
        arguments.add(new Site.Argument(operand, knownValue(operand)));
      }
      MathOwner owner = instruction.operation().owner() == null
          ? MathOwner.MATH : instruction.operation().owner();
      this.site = new Site(arguments, new Operand.Use(instruction.result()), owner, scratch,
          instruction.line(), this::computed);
    }

    Operand placeholder(Expr text) {
      if (text.isOne()) {
        return Site.number(1.0);
      }
      Value value = scratch.temporary(NumericType.DOUBLE, true);
      placeholders.put(value, text);
      return new Operand.Use(value);
    }

    Expr text(Operand operand) {
      Map<Value, Instruction> definitions = new HashMap<>();
      for (Instruction instruction : site.instructionsFor(List.of(operand))) {
        definitions.put(instruction.result(), instruction);
      }
      return InstructionText.inline(operand, definitions, this::leaf,
          (instruction, arguments) -> render(instruction, arguments));
    }

    private Expr leaf(Operand operand) {
      if (operand instanceof Operand.Use use) {
        Expr placeholder = placeholders.get(use.value());
        if (placeholder != null) {
          return placeholder;
        }
        return Expr.atom(popped.getOrDefault(use.value(), nameOf(use.value())));
      }
      return operandExpression(operand);
    }

    private Optional<Operand> computed(Operation operation, List<Operand> arguments) {
      return Optional.ofNullable(computedCalls.get(callKey(operation, arguments)));
    }
  }

  /** A math call by its operation and operands, constants compared by their text. */
  private static List<Object> callKey(Operation operation, List<Operand> arguments) {
    List<Object> key = new ArrayList<>();
    key.add(operation);
    for (Operand argument : arguments) {
      key.add(argument instanceof Operand.Constant constant
          ? constant.expression().toString() : argument);
    }
    return key;
  }

  /** The reverse of {@code v = g(args)}: g's pullback, seeded with v's adjoint. */
  private void reverseCall(Instruction instruction, Expr adjoint, Map<Value, String> popped,
      Map<Value, Adjoint> adjoints) {
    Callee callee = instruction.operation().callee();
    List<Operand> arguments = instruction.arguments();
    String array = names.fresh(callee.name() + "Adjoints");
    code.addStatement("double[] $L = new double[$L]", array,
        callee.differentiableParameterCount());
    List<String> callArguments = new ArrayList<>();
    for (Operand argument : arguments) {
      callArguments.add(argumentText(argument, popped));
    }
    callArguments.add(adjoint.toString());
    callArguments.add(array);
    code.addStatement("$L.$LPullback($L)", callee.gradClass(), callee.name(),
        String.join(", ", callArguments));
    int slot = 0;
    for (int i = 0; i < arguments.size(); i++) {
      if (callee.parameterTypes().get(i) != NumericType.DOUBLE) {
        continue;
      }
      if (arguments.get(i) instanceof Operand.Use use && use.isActive()) {
        accumulate(adjoints, use.value(), Expr.atom(array + "[" + slot + "]"), false, false);
      }
      slot++;
    }
  }

  /**
   * Adds a contribution to a value's adjoint. {@code mayShare}: the contribution is another
   * adjoint passed on unchanged, which a value with no adjoint yet may share instead of
   * copying (its source is final by now).
   */
  private void accumulate(Map<Value, Adjoint> adjoints, Value target, Expr contribution,
      boolean negated, boolean mayShare) {
    Adjoint existing = adjoints.get(target);
    if (existing != null && existing.isLocal()) {
      code.addStatement("$L $L= $L", existing.expression(), negated ? "-" : "+", contribution);
      return;
    }
    if (existing == null && mayShare && !negated && flow.isStraightLine()) {
      adjoints.put(target, new Adjoint(contribution, false));
      return;
    }
    String name = names.fresh(nameOf(target) + "Bar");
    Expr initial;
    if (existing == null) {
      initial = negated ? contribution.negate() : contribution;
    } else {
      initial = negated ? existing.expression().minus(contribution)
          : existing.expression().plus(contribution);
    }
    code.addStatement("double $L = $L", name, initial);
    adjoints.put(target, new Adjoint(Expr.atom(name), true));
  }

  // ---- expressions -------------------------------------------------------------------------

  private Expr primalExpression(Instruction instruction) {
    List<Expr> arguments = instruction.arguments().stream().map(this::operandExpression).toList();
    return render(instruction, arguments);
  }

  private Expr render(Instruction instruction, List<Expr> arguments) {
    return InstructionText.of(instruction.operation(), arguments, function::mathClassName);
  }

  private Expr tangentExpression(Instruction instruction) {
    Operation operation = instruction.operation();
    if (operation.form() == Operation.Form.USER_CALL) {
      return tangentCall(instruction);
    }
    if (operation.form() == Operation.Form.COPY
        && instruction.arguments().get(0) instanceof Operand.Read read) {
      return Expr.atom(variableTangents.get(read.variable()));
    }
    Formulas formulas = new Formulas(instruction, Map.of());
    DerivativeRules.Rule rule = ruleFor(instruction);
    List<Partial> partials = new ArrayList<>();
    List<Operand> derivatives = new ArrayList<>();
    for (int i = 0; i < instruction.arguments().size(); i++) {
      if (instruction.arguments().get(i) instanceof Operand.Use use && use.isActive()) {
        Optional<Partial> partial = rule.partial(i, formulas.site);
        if (partial.isPresent()) {
          partials.add(partial.get());
          derivatives.add(formulas.placeholder(tangents.get(use.value())));
        }
      }
    }
    Operand sharedDivisor = sharedDivisor(partials, formulas.site);
    Operand sum = null;
    Site site = formulas.site;
    for (int i = 0; i < partials.size(); i++) {
      Partial p = partials.get(i);
      if (sharedDivisor != null) {
        // (aDot - y * bDot) / b: one division for terms over the same divisor
        p = p.undivided();
      }
      Operand term = p.applyTo(derivatives.get(i), site);
      if (sum == null) {
        sum = p.negative() ? site.negate(term) : term;
      } else {
        sum = p.negative() ? site.minus(sum, term) : site.plus(sum, term);
      }
    }
    if (sum == null) {
      return Expr.ZERO;
    }
    return formulas.text(sharedDivisor == null ? sum : site.over(sum, sharedDivisor));
  }

  /** {@code gTangent(args, argument tangents)}: the callee's own forward mode. */
  private Expr tangentCall(Instruction instruction) {
    Callee callee = instruction.operation().callee();
    List<Expr> arguments = new ArrayList<>();
    for (Operand argument : instruction.arguments()) {
      arguments.add(operandExpression(argument));
    }
    for (int i = 0; i < instruction.arguments().size(); i++) {
      if (callee.parameterTypes().get(i) == NumericType.DOUBLE) {
        arguments.add(tangentOf(instruction.arguments().get(i)));
      }
    }
    return Expr.call(callee.gradClass(), callee.name() + "Tangent",
        arguments.toArray(Expr[]::new));
  }

  private Expr tangentOf(Operand operand) {
    if (operand instanceof Operand.Use use && use.isActive()) {
      return tangents.get(use.value());
    }
    return Expr.ZERO;
  }

  private String argumentText(Operand operand, Map<Value, String> popped) {
    if (operand instanceof Operand.Use use && popped.containsKey(use.value())) {
      return popped.get(use.value());
    }
    return operandExpression(operand).toString();
  }

  private static DerivativeRules.Rule ruleFor(Instruction instruction) {
    return DerivativeRules.forOperation(instruction.operation()).orElseThrow(
        () -> new IllegalStateException("no derivative rule for " + instruction.operation()));
  }

  private static OptionalDouble knownValue(Operand operand) {
    return operand instanceof Operand.Constant constant
        ? constant.knownValue() : OptionalDouble.empty();
  }

  Expr operandExpression(Operand operand) {
    if (operand instanceof Operand.Use use) {
      return Expr.atom(nameOf(use.value()));
    }
    if (operand instanceof Operand.Read read) {
      return Expr.atom(nameOf(read.variable()));
    }
    return ((Operand.Constant) operand).expression();
  }

  private String message(Throw thrown) {
    if (!thrown.hasMessage()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    for (Object part : thrown.messageParts()) {
      parts.add(part instanceof Operand operand ? operandExpression(operand).toString()
          : (String) part);
    }
    if (parts.size() == 1 && !(thrown.messageParts().get(0) instanceof String)) {
      return "String.valueOf(" + parts.get(0) + ")";
    }
    return String.join(" + ", parts);
  }

  /** The values an instruction inside a loop records for its reverse. */
  private List<Value> taped(Instruction instruction) {
    return flow.needs(instruction).stream()
        .filter(v -> v.origin() != Value.Origin.PARAMETER
            && flow.loopDepth(flow.definingBlock(v)) > 0)
        .toList();
  }

  String nameOf(Value value) {
    return valueNames.computeIfAbsent(value, v -> switch (v.origin()) {
      case PARAMETER, LOCAL -> names.user(v.nameHint());
      case TEMPORARY -> isReturnedAtEnd(v) ? names.fresh("result") : names.numbered("t");
      case FORMULA, DERIVED, GENERATED ->
          throw new IllegalStateException("not a value of the user's method: " + v);
    });
  }

  private String nameOf(Variable variable) {
    if (variable.parameter() != null) {
      return nameOf(variable.parameter());
    }
    return variableNames.computeIfAbsent(variable, v -> names.user(v.name()));
  }

  private boolean isReturnedAtEnd(Value value) {
    return flow.isStraightLine() && finalReturn().value() instanceof Operand.Use use
        && use.value() == value;
  }

  private static String pushMethod(NumericType type) {
    return switch (type) {
      case INT -> "pushInt";
      case LONG -> "pushLong";
      case BOOLEAN -> "pushBoolean";
      default -> "pushDouble";
    };
  }

  /** Takes a value of {@code type} back from the tape ({@code float}s travel as doubles). */
  private String pop(NumericType type) {
    return switch (type) {
      case INT -> tape + ".popInt()";
      case LONG -> tape + ".popLong()";
      case BOOLEAN -> tape + ".popBoolean()";
      case FLOAT -> "(float) " + tape + ".popDouble()";
      default -> tape + ".popDouble()";
    };
  }

  /** Whether some path through the branch reaches its end (not ending in a jump or throw). */
  private static boolean completesNormally(If branch) {
    return completesNormally(branch.thenBlock()) || completesNormally(branch.elseBlock());
  }

  private static boolean completesNormally(Block block) {
    List<Statement> statements = block.statements();
    if (statements.isEmpty()) {
      return true;
    }
    Statement last = statements.get(statements.size() - 1);
    if (last instanceof Jump || last instanceof Return || last instanceof Throw) {
      return false;
    }
    return !(last instanceof If nested) || completesNormally(nested);
  }

  private static boolean hasAnything(Block block) {
    return !block.statements().isEmpty();
  }

  private void comment(SourceLine line, String prefix) {
    if (!line.equals(commentedLine)) {
      code.add("// $Lline $L: $L\n", prefix, line.number(), line.text());
      commentedLine = line;
    }
  }
}
