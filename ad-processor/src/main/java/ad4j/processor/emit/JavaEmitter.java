package ad4j.processor.emit;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.ir.Expr;
import com.palantir.javapoet.CodeBlock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Prints the body of any IR function as Java: one statement per instruction, each value in a
 * local named after the user's names, a {@code // line N:} comment where the user's statement
 * changes, branches and loops as the user wrote them. Formula values are written inline where
 * they are used. The emitter knows nothing about derivatives: the transforms decide what the
 * program computes, the emitter only how it reads.
 */
public final class JavaEmitter {
  private final Function function;
  private final NameAllocator names;
  private final Map<Value, String> valueNames = new HashMap<>();
  private final Map<Variable, String> variableNames = new HashMap<>();
  private final Map<Value, Instruction> formulas = new IdentityHashMap<>();
  private final Map<Integer, String> loopLabels = new HashMap<>();
  private final Map<Integer, String> bodyLabels = new HashMap<>();
  /**
   * Where {@link #body}, {@link #measuredText} or {@link #measuredWithin} writes; one of them is
   * called, once.
   */
  private BodyText code;
  private final Value returnedAtEnd;
  private final ProgramFacts facts;
  private SourceLine commentedLine;
  private String tape;

  /** A printer of {@code function}'s body whose locals take their names from {@code names}. */
  public JavaEmitter(Function function, NameAllocator names) {
    PrintedForms.Form form = names.printedForms().of(function);
    this.function = form.program();
    this.names = names;
    this.returnedAtEnd = finalReturnValue(this.function);
    this.facts = form.facts();
  }

  /** Names the parameters, in order; call first, so that the user's names stay unchanged. */
  public List<String> parameterNames() {
    List<String> result = new ArrayList<>();
    for (Value parameter : function.parameters()) {
      result.add(nameOf(parameter));
    }
    return result;
  }

  /** Whether the program records values on the tape: see {@link #bindTape}. */
  public boolean usesTape() {
    return facts.usesTape();
  }

  /** Whether {@code program}, printed, would record values on the tape. */
  public static boolean usesTape(Function program) {
    return new ProgramFacts(program).usesTape();
  }

  /** The name of the tape the program records on, which the caller declares. */
  public void bindTape(String name) {
    this.tape = name;
  }

  /**
   * The statements of the body, preceded by the values that Java's scopes require to be
   * declared before the block that computes them.
   */
  public CodeBlock body() {
    BodyText.CodeBlockText block = BodyText.codeBlock();
    code = block;
    writeBody();
    return block.build();
  }

  /**
   * The lines {@link #body} prints, without their indentation: for a body that is only
   * measured ({@link PrintedSize}).
   */
  String measuredText() {
    BodyText.Lines lines = BodyText.lines();
    code = lines;
    writeBody();
    return lines.text();
  }

  /**
   * Whether the lines {@link #measuredText} would return are within {@code lines}' budget of
   * estimated bytecode; the printing stops where they pass it.
   */
  boolean measuredWithin(LinesWithinBudget lines) {
    code = lines;
    try {
      writeBody();
    } catch (LinesWithinBudget.PastBudget past) {
      return false;
    }
    return lines.withinBudget();
  }

  private void writeBody() {
    for (Value value : facts.hoisted(function)) {
      code.addStatement("$L $L = $L", value.javaType(), nameOf(value),
          Operand.Constant.zero(value.type()).expression());
    }
    write(function.body());
  }

  private void write(Block block) {
    List<Statement> statements = block.statements();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      if (statement instanceof Declare declare && i + 1 < statements.size()
          && statements.get(i + 1) instanceof Loop loop
          && isCountingLoop(declare, loop, statements.subList(i + 2, statements.size()))) {
        writeCountingLoop(declare, loop);
        i++;
      } else if (statement instanceof Instruction instruction) {
        writeInstruction(instruction);
      } else if (statement instanceof Declare declare) {
        if (facts.subtrahend(declare.variable()) != null) {
          continue; // written where it is subtracted
        }
        comment(declare.line());
        Variable variable = declare.variable();
        code.addStatement("$L $L = $L", variable.javaType(), nameOf(variable),
            operand(declare.initial()));
      } else if (statement instanceof Store store
          && readsVariable(store.value(), store.variable())) {
        continue; // v = v (the tangent of count += 1.0) assigns nothing: not printed
      } else if (statement instanceof Store store) {
        comment(store.line());
        code.addStatement("$L", assignment(store));
      } else if (statement instanceof Push push) {
        comment(push.line());
        code.addStatement("$L.$L($L)", tape, pushMethod(push.value().type()),
            operand(push.value()));
      } else if (statement instanceof ElementStore store) {
        comment(store.line());
        if (store.value() instanceof Operand.Read read
            && facts.subtrahend(read.variable()) != null) {
          // a[i] += xBar with xBar = -y: a[i] -= y
          code.addStatement("$L[$L] -= $L", nameOf(store.array()), operand(store.index()),
              operand(facts.subtrahend(read.variable())));
        } else {
          code.addStatement("$L[$L] $L $L", nameOf(store.array()), operand(store.index()),
              store.add() ? "+=" : "=", operand(store.value()));
        }
      } else if (statement instanceof Return ret) {
        comment(ret.line());
        if (ret.value() != null) {
          code.addStatement("return $L", operand(ret.value()));
        } else if (i < statements.size() - 1 || block != function.body()) {
          code.addStatement("return");
        }
      } else if (statement instanceof If branch) {
        writeIf(branch);
      } else if (statement instanceof Loop loop) {
        writeLoop(loop);
      } else if (statement instanceof Jump jump) {
        comment(jump.line());
        if (jump.kind() == Jump.Kind.BREAK) {
          code.addStatement("break $L", loopLabels.get(jump.loopId()));
        } else if (bodyLabels.containsKey(jump.loopId())) {
          code.addStatement("break $L", bodyLabels.get(jump.loopId()));
        } else {
          code.addStatement("continue $L", loopLabels.get(jump.loopId()));
        }
      } else if (statement instanceof Throw thrown) {
        comment(thrown.line());
        code.addStatement("throw new $L($L)", thrown.exceptionType(), message(thrown));
      } else if (statement instanceof Note note) {
        code.add("// $L\n", note.text());
      }
    }
  }

  private void writeInstruction(Instruction instruction) {
    Value value = instruction.result();
    if (facts.isInline(value)) {
      formulas.put(value, instruction); // written where it is used
      return;
    }
    comment(instruction.line());
    if (facts.uses(value) == 0 && instruction.operation().form() == Operation.Form.POP) {
      // taken off the tape and dropped (a float travels as a double: no cast, which would
      // not be a statement)
      code.addStatement("$L", pop(value.type() == NumericType.FLOAT ? NumericType.DOUBLE
          : value.type()));
    } else if (facts.uses(value) == 0 && InstructionText.isMethodCall(instruction.operation())) {
      code.addStatement("$L", expression(instruction)); // called for its effect
    } else if (facts.uses(value) == 0 && isCheckedRead(instruction)) {
      // read where the user's method reads it, for where it may throw: Java has no statement
      // that only reads, and a local nothing reads is one that compilers warn of
      code.addStatement("$L", checkedRead(instruction));
    } else if (facts.uses(value) == 0 && instruction.operation().form() == Operation.Form.CALL
        && instruction.mayThrow()) {
      // a Math function that may throw ('Math.clamp(v, lo, hi)'), called for where it throws
      code.addStatement("$L", expression(instruction));
    } else if (facts.uses(value) == 0 && isIntegerDivision(instruction)) {
      // divided where the user's method divides, for where it throws: Math's floorDiv and
      // floorMod divide so, and throw the same ArithmeticException ("/ by zero")
      code.addStatement("java.lang.Math.$L($L, $L)",
          instruction.operation().equals(Operation.DIVIDE) ? "floorDiv" : "floorMod",
          operand(instruction.arguments().get(0)), operand(instruction.arguments().get(1)));
    } else if (facts.isHoisted(value)) {
      code.addStatement("$L = $L", nameOf(value), expression(instruction));
    } else {
      code.addStatement("$L $L = $L", value.javaType(), nameOf(value),
          expression(instruction));
    }
  }

  /**
   * Whether {@code read} reads an array's element or length, or a field of an object: a value
   * of the program, or one a static final field holds ({@code CONFIG.scale}, whose receiver is
   * a constant's text).
   */
  private static boolean isCheckedRead(Instruction read) {
    Operation operation = read.operation();
    return operation.form() == Operation.Form.ELEMENT || operation.form() == Operation.Form.LENGTH
        || operation.form() == Operation.Form.PLAIN_CALL
            && (operation.plain() == Operation.Plain.FIELD_READ
                || operation.plain() == Operation.Plain.HANDLE_READ)
            && !read.arguments().isEmpty();
  }

  /** Whether {@code instruction} divides integers by a divisor that may be zero. */
  private static boolean isIntegerDivision(Instruction instruction) {
    return instruction.operation().form() == Operation.Form.INFIX
        && instruction.result().type().isIntegral() && instruction.mayThrow();
  }

  /**
   * The read as a call that throws where it does: {@code ArrayReads.element(a, i)},
   * {@code ArrayReads.length(a)}, and for a field, {@code Objects.requireNonNull(o)} (reading
   * a field of an object of its declared type may throw only that).
   */
  private String checkedRead(Instruction read) {
    if (read.operation().form() == Operation.Form.PLAIN_CALL) {
      return "java.util.Objects.requireNonNull(" + operand(read.arguments().get(0)) + ")";
    }
    List<String> arguments = new ArrayList<>();
    for (Operand argument : read.arguments()) {
      arguments.add(operand(argument).toString());
    }
    return "ad4j.runtime.internal.ArrayReads."
        + (read.operation().form() == Operation.Form.ELEMENT ? "element" : "length")
        + "(" + String.join(", ", arguments) + ")";
  }

  /**
   * {@code v = value}; {@code v += e} and {@code v -= e} where the value adds to or subtracts
   * from the variable itself, and {@code v++} and {@code v--} for integer counters.
   */
  private String assignment(Store store) {
    String name = nameOf(store.variable());
    if (store.value() instanceof Operand.Use use && formulas.containsKey(use.value())) {
      Instruction sum = formulas.get(use.value());
      String operator = sum.operation().name();
      if (sum.operation().form() == Operation.Form.INFIX
          && (operator.equals("+") || operator.equals("-"))
          && readsVariable(sum.arguments().get(0), store.variable())
          && sum.result().type() == store.variable().type()
          && !facts.readOnlyByOwnUpdates(store.variable())) {
        Operand step = sum.arguments().get(1);
        if (store.variable().type().isIntegral() && step instanceof Operand.Constant constant
            && constant.expression().toString().equals("1")) {
          return name + operator + operator;
        }
        return name + " " + operator + "= " + operand(step);
      }
    }
    return name + " = " + operand(store.value());
  }

  /** Whether {@code operand} is the variable's current value, read directly or by a copy. */
  private boolean readsVariable(Operand operand, Variable variable) {
    if (operand instanceof Operand.Read read) {
      return read.variable() == variable;
    }
    if (operand instanceof Operand.Use use && formulas.containsKey(use.value())) {
      Instruction definition = formulas.get(use.value());
      return definition.operation().form() == Operation.Form.COPY
          && readsVariable(definition.arguments().get(0), variable);
    }
    return false;
  }

  /**
   * {@code int i = n;} followed by a loop that tests and steps only {@code i}, which nothing
   * after the loop reads: written as {@code for (int i = n; i > 0; i--)}.
   */
  private boolean isCountingLoop(Declare declare, Loop loop, List<Statement> after) {
    Variable counter = declare.variable();
    if (!loop.testFirst() || loop.test() == null || inlineCondition(loop).isEmpty()
        || loop.body().jumpsTo(loop.id(), Jump.Kind.BREAK, Jump.Kind.CONTINUE)
        || ProgramFacts.mentions(after, counter)) {
      return false;
    }
    List<Statement> update = loop.update().statements();
    if (update.isEmpty() || !(update.get(update.size() - 1) instanceof Store store)
        || store.variable() != counter) {
      return false;
    }
    for (Statement statement : update.subList(0, update.size() - 1)) {
      if (!(statement instanceof Instruction instruction)
          || !facts.isInline(instruction.result())) {
        return false;
      }
    }
    return true;
  }

  private void writeCountingLoop(Declare declare, Loop loop) {
    comment(loop.line()); // the loop's line holds the declaration too
    Variable counter = declare.variable();
    String init = counter.type().keyword() + " " + nameOf(counter) + " = "
        + operand(declare.initial());
    Expr condition = inlineCondition(loop).orElseThrow();
    List<Statement> update = loop.update().statements();
    for (Statement statement : update.subList(0, update.size() - 1)) {
      Instruction instruction = (Instruction) statement;
      formulas.put(instruction.result(), instruction);
    }
    String step = assignment((Store) update.get(update.size() - 1));
    code.beginControlFlow("for ($L; $L; $L)", init, condition, step);
    write(loop.body());
    code.endControlFlow();
  }

  private void writeIf(If branch) {
    comment(branch.line());
    code.beginControlFlow("if ($L)", operand(branch.condition()));
    write(branch.thenBlock());
    Block otherwise = branch.elseBlock();
    for (ElseIf chained = elseIf(otherwise); chained != null; chained = elseIf(otherwise)) {
      // 'else { c = ...; if (c) ... }' written as 'else if': a chain of any length stays one
      // level deep, and its code linear in its length
      code.nextControlFlow("else if ($L)", chained.condition());
      comment(chained.branch().line());
      write(chained.branch().thenBlock());
      otherwise = chained.branch().elseBlock();
    }
    if (!otherwise.statements().isEmpty()) {
      code.nextControlFlow("else");
      write(otherwise);
    }
    code.endControlFlow();
  }

  /** A branch that is all of an else block, with its condition as written in the test. */
  private record ElseIf(If branch, Expr condition) {}

  /**
   * The else block as {@code else if (condition)}: when it is one branch, or one instruction
   * computing the condition of the one branch after it (inline when nothing else reads the
   * condition, else assigned in the test to its local, declared earlier); null otherwise.
   * Instructions before them that are written inline where used (a read of a variable) are
   * no statements and do not count.
   */
  private ElseIf elseIf(Block otherwise) {
    List<Statement> statements = otherwise.statements();
    int first = 0;
    while (first < statements.size() && statements.get(first) instanceof Instruction leading
        && facts.isInline(leading.result())) {
      formulas.put(leading.result(), leading); // as writing it would: read where it is used
      first++;
    }
    return elseIfOf(statements.subList(first, statements.size()));
  }

  private ElseIf elseIfOf(List<Statement> statements) {
    if (statements.size() == 1 && statements.get(0) instanceof If nested) {
      return new ElseIf(nested, operand(nested.condition()));
    }
    if (statements.size() != 2 || !(statements.get(0) instanceof Instruction instruction)
        || !(statements.get(1) instanceof If nested)
        || !(nested.condition() instanceof Operand.Use use)
        || use.value() != instruction.result() || instruction.result().isActive()) {
      return null;
    }
    Value value = instruction.result();
    if (facts.isHoisted(value)) {
      return new ElseIf(nested,
          Expr.source(nameOf(value) + " = " + expression(instruction), Expr.ASSIGNMENT));
    }
    if (facts.uses(value) == 1) {
      formulas.put(value, instruction);
      return new ElseIf(nested, operand(nested.condition()));
    }
    return null;
  }

  private void writeLoop(Loop loop) {
    comment(loop.line());
    Optional<Expr> inlined = inlineCondition(loop);
    boolean needsBodyLabel = loop.body().jumpsTo(loop.id(), Jump.Kind.CONTINUE)
        && (!loop.update().statements().isEmpty() || inlined.isEmpty());
    // a 'continue' that leaves the body's block is 'break body': the loop's own label only
    // where something names it (ECJ warns of a label never referenced)
    boolean labelled = loop.body().jumpsTo(loop.id(), Jump.Kind.BREAK)
        || !needsBodyLabel && loop.body().jumpsTo(loop.id(), Jump.Kind.CONTINUE);
    String label = labelled ? names.fresh("loop" + loop.id()) : null;
    loopLabels.put(loop.id(), label);
    if (needsBodyLabel) {
      bodyLabels.put(loop.id(), names.fresh("body" + loop.id()));
    } else {
      bodyLabels.remove(loop.id()); // an earlier loop of the same id may have had one
    }
    String prefix = labelled ? label + ": " : "";
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
    if (needsBodyLabel) {
      code.beginControlFlow("$L:", bodyLabels.get(loop.id()));
    }
    write(loop.body());
    if (needsBodyLabel) {
      code.endControlFlow();
    }
    if (loop.test() != null && !loop.testFirst() && inlined.isEmpty()) {
      writeTest(loop);
    }
    write(loop.update());
    if (loop.test() != null && !loop.testFirst() && inlined.isPresent()) {
      code.endControlFlow("while ($L)", inlined.get());
    } else {
      code.endControlFlow();
    }
  }

  /** The loop test as instructions then {@code if (!test) break}. */
  private void writeTest(Loop loop) {
    write(loop.condition());
    code.beginControlFlow("if ($L)", operand(loop.test()).not());
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
    // A value may be read more than once ('i * i < n' reads 'i' once): its text is written at
    // each read, which evaluates nothing but pure operations again and is no longer than the
    // user's own condition. A value read nowhere in the condition is needed elsewhere.
    Map<Value, Expr> inline = new HashMap<>();
    Set<Value> unread = new HashSet<>();
    for (Statement statement : loop.condition().statements()) {
      if (!(statement instanceof Instruction instruction) || instruction.result().isActive()
          || InstructionText.isCall(instruction.operation())
          || instruction.operation().form() == Operation.Form.POP) {
        return Optional.empty();
      }
      List<Expr> arguments = new ArrayList<>();
      for (Operand argument : instruction.arguments()) {
        if (argument instanceof Operand.Use use && inline.containsKey(use.value())) {
          arguments.add(inline.get(use.value()));
          unread.remove(use.value());
        } else {
          arguments.add(operand(argument));
        }
      }
      inline.put(instruction.result(), text(instruction, arguments));
      unread.add(instruction.result());
    }
    if (loop.test() instanceof Operand.Use use && inline.containsKey(use.value())) {
      unread.remove(use.value());
      return unread.isEmpty() ? Optional.of(inline.get(use.value())) : Optional.empty();
    }
    return unread.isEmpty() ? Optional.of(operand(loop.test())) : Optional.empty();
  }

  private Expr expression(Instruction instruction) {
    List<Expr> arguments = instruction.arguments().stream().map(this::operand).toList();
    return text(instruction, arguments);
  }

  /**
   * The Java text of {@code instruction}: what works on the tape here, where the tape's name
   * is known; every other family by {@link InstructionText}.
   */
  private Expr text(Instruction instruction, List<Expr> arguments) {
    Operation operation = instruction.operation();
    return switch (operation.form().family()) {
      case TAPE -> tapeText(instruction, arguments);
      case OPERATOR, MATH_CALL, DIFFERENTIATED_CALL, GENERATED_CALL, ARRAY, PLAIN_CALL ->
          InstructionText.of(operation, arguments, function::mathClassName);
    };
  }

  /** A pop, a method of the tape, or a call of a program that works on the tape. */
  private Expr tapeText(Instruction instruction, List<Expr> arguments) {
    Operation operation = instruction.operation();
    if (operation.form() == Operation.Form.POP) {
      return pop(instruction.result().type());
    }
    if (operation.form() == Operation.Form.TAPE_CALL) {
      return Expr.call(tape, operation.name(), arguments.toArray(Expr[]::new));
    }
    List<Expr> withTape = new ArrayList<>();
    withTape.add(Expr.atom(tape));
    withTape.addAll(arguments);
    Expr[] all = withTape.toArray(Expr[]::new);
    return operation.form() == Operation.Form.LOCAL_CALL
        ? Expr.localCall(operation.name(), all)
        : Expr.call(operation.callee().sweepsClass(), operation.name(), all);
  }

  /** An operand as Java text: a name, a constant, or a formula written inline. */
  Expr operand(Operand operand) {
    return InstructionText.inline(operand, formulas, this::leaf, this::text);
  }

  /** Takes a value of {@code type} back from the tape ({@code float}s travel as doubles). */
  private Expr pop(NumericType type) {
    return switch (type) {
      case INT -> Expr.atom(tape + ".popInt()");
      // a char, short or byte travels as the int it widens to
      case CHAR, SHORT, BYTE -> Expr.atom(tape + ".popInt()").castTo(type.keyword());
      case LONG -> Expr.atom(tape + ".popLong()");
      case BOOLEAN -> Expr.atom(tape + ".popBoolean()");
      case FLOAT -> Expr.source("(float) " + tape + ".popDouble()", Expr.unaryPrecedence());
      case DOUBLE_ARRAY -> Expr.atom(tape + ".popDoubleArray()");
      case DOUBLE_MATRIX -> Expr.atom(tape + ".popDoubleMatrix()");
      case INT_ARRAY -> Expr.atom(tape + ".popIntArray()");
      case FLOAT_ARRAY -> Expr.atom(tape + ".popFloatArray()");
      // a string or object a loop passes to a call, by reference, as its declaration types it
      case STRING, OBJECT -> Expr.atom(tape + ".popObject()");
      default -> Expr.atom(tape + ".popDouble()");
    };
  }

  private static String pushMethod(NumericType type) {
    return switch (type) {
      case INT, CHAR, SHORT, BYTE -> "pushInt";
      case LONG -> "pushLong";
      case BOOLEAN -> "pushBoolean";
      // an array made in a loop, by reference
      case DOUBLE_ARRAY, DOUBLE_MATRIX, INT_ARRAY, FLOAT_ARRAY -> "pushArray";
      case STRING, OBJECT -> "pushObject";
      default -> "pushDouble";
    };
  }

  private Expr leaf(Operand operand) {
    if (operand instanceof Operand.Use use) {
      return Expr.atom(nameOf(use.value()));
    }
    if (operand instanceof Operand.Read read) {
      return Expr.atom(nameOf(read.variable()));
    }
    return ((Operand.Constant) operand).expression();
  }

  private CodeBlock message(Throw thrown) {
    if (!thrown.arguments().isEmpty()) {
      return CodeBlock.of("$L", String.join(", ",
          thrown.arguments().stream().map(a -> operand(a).toString()).toList()));
    }
    if (!thrown.hasMessage()) {
      return CodeBlock.of("");
    }
    List<String> parts = new ArrayList<>();
    for (Object part : thrown.messageParts()) {
      // an operand of '+' joined as text: a sum written inline must keep its parentheses
      parts.add(part instanceof Operand operand ? operand(operand).asOperandOfConcatenation()
          : (String) part);
    }
    if (parts.size() == 1 && !(thrown.messageParts().get(0) instanceof String)) {
      // String by its qualified name: a class String of the user's package must not capture it
      return CodeBlock.of("$T.valueOf($L)", String.class, parts.get(0));
    }
    return CodeBlock.of("$L", String.join(" + ", parts));
  }

  private String nameOf(Value value) {
    if (facts.isInline(value) && formulas.containsKey(value)
        && formulas.get(value).arguments().get(0) instanceof Operand.Read read
        && formulas.get(value).operation().form() == Operation.Form.COPY) {
      return nameOf(read.variable()); // a copy written as the variable: named so too
    }
    String name = valueNames.get(value);
    if (name == null) {
      name = switch (value.origin()) {
        case PARAMETER, LOCAL -> names.user(value.nameHint());
        case TEMPORARY -> isReturnedAtEnd(value) ? names.fresh("result") : names.numbered("t");
        case DERIVED -> names.fresh(nameOf(value.base()) + value.nameHint());
        case GENERATED -> names.fresh(value.nameHint());
        case FORMULA -> names.numbered("t"); // a formula used more than once
      };
      valueNames.put(value, name);
    }
    return name;
  }

  private String nameOf(Variable variable) {
    if (variable.parameter() != null) {
      return nameOf(variable.parameter());
    }
    String name = variableNames.get(variable);
    if (name == null) {
      if (variable.base() instanceof Value value) {
        name = names.fresh(nameOf(value) + variable.name());
      } else if (variable.base() instanceof Variable base) {
        name = names.fresh(nameOf(base) + variable.name());
      } else {
        name = variable.isGenerated() ? names.fresh(variable.name()) : names.user(variable.name());
      }
      variableNames.put(variable, name);
    }
    return name;
  }

  /**
   * Whether {@code value}, or a value named after it, is what the function's last statement
   * returns: it is then called {@code result}.
   */
  private boolean isReturnedAtEnd(Value value) {
    for (Value v = returnedAtEnd; v != null; v = v.base()) {
      if (v == value) {
        return true;
      }
    }
    return false;
  }

  private static Value finalReturnValue(Function function) {
    List<Statement> statements = function.body().statements();
    return !statements.isEmpty() && statements.get(statements.size() - 1) instanceof Return ret
        && ret.value() instanceof Operand.Use use ? use.value() : null;
  }

  private void comment(SourceLine line) {
    if (line != null && !line.equals(commentedLine)) {
      code.add("// $Lline $L: $L\n", line.role(), line.number(), line.text());
      commentedLine = line;
    }
  }
}
