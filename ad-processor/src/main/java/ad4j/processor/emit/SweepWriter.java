package ad4j.processor.emit;

import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.DerivativeRules.Argument;
import ad4j.processor.rules.Expr;
import ad4j.processor.rules.Partial;
import com.palantir.javapoet.CodeBlock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Writes the statements of one generated method: the forward sweep (primal values, and tangents
 * in forward mode) and the reverse sweep (adjoints). One instance serves one generated method,
 * since each method chooses its own names.
 */
final class SweepWriter {
  private final Function function;
  private final NameAllocator names;
  private final Map<Value, String> valueNames = new HashMap<>();
  private final List<Instruction> live;
  private final CodeBlock.Builder code = CodeBlock.builder();
  private SourceLine commentedLine;

  SweepWriter(Function function, NameAllocator names) {
    this.function = function;
    this.names = names;
    this.live = liveInstructions(function);
  }

  /** Claims the user's parameter names first, so that they appear unchanged in the signature. */
  List<String> parameterNames() {
    List<String> result = new ArrayList<>();
    for (Value parameter : function.parameters()) {
      result.add(nameOf(parameter));
    }
    return result;
  }

  CodeBlock.Builder code() {
    return code;
  }

  /** Whether the forward sweep has any statement (a method may just return a parameter). */
  boolean hasForwardSweep() {
    return !live.isEmpty();
  }

  /** The value the method returns, as an expression of the forward sweep's locals. */
  Expr resultExpression() {
    return operandExpression(function.result().value());
  }

  /** The returned value if derivatives flow to it, else empty (the function is constant). */
  Optional<Value> activeResult() {
    return function.result().value() instanceof Operand.Use use && use.value().isActive()
        ? Optional.of(use.value()) : Optional.empty();
  }

  // ---- forward sweep -----------------------------------------------------------------------

  /** Writes the primal statements; with {@code tangents}, each active value's tangent after it. */
  void writeForwardSweep(Map<Value, Expr> tangents) {
    for (Instruction instruction : live) {
      comment(instruction.line(), "");
      Value result = instruction.result();
      code.addStatement("double $L = $L", nameOf(result), primalExpression(instruction));
      if (tangents != null && result.isActive()) {
        String tangent = names.fresh(nameOf(result) + "Dot");
        code.addStatement("double $L = $L", tangent, tangentExpression(instruction, tangents));
        tangents.put(result, Expr.atom(tangent));
      }
    }
  }

  private Expr primalExpression(Instruction instruction) {
    List<Expr> arguments = instruction.arguments().stream().map(this::operandExpression).toList();
    Operation operation = instruction.operation();
    return switch (operation.form()) {
      case INFIX -> Expr.binary(operation.name(), arguments.get(0), arguments.get(1));
      case PREFIX -> arguments.get(0).negate();
      case CALL -> Expr.call(function.mathClassName(operation.owner()), operation.name(),
          arguments.toArray(Expr[]::new));
      case COPY -> arguments.get(0);
    };
  }

  private Expr tangentExpression(Instruction instruction, Map<Value, Expr> tangents) {
    DerivativeRules.Site site = site(instruction);
    DerivativeRules.Rule rule = ruleFor(instruction);
    Expr sum = null;
    for (int i = 0; i < instruction.arguments().size(); i++) {
      if (!(instruction.arguments().get(i) instanceof Operand.Use use) || !use.isActive()) {
        continue;
      }
      Optional<Partial> partial = rule.partial(i, site);
      if (partial.isEmpty()) {
        continue;
      }
      Expr term = partial.get().applyTo(tangents.get(use.value()));
      if (sum == null) {
        sum = partial.get().negative() ? term.negate() : term;
      } else {
        sum = partial.get().negative() ? sum.minus(term) : sum.plus(term);
      }
    }
    return sum == null ? Expr.ZERO : sum;
  }

  // ---- reverse sweep -----------------------------------------------------------------------

  /**
   * Writes the reverse sweep: starting from {@code seed} as the adjoint of the result, visits the
   * live instructions backwards and adds each one's contributions to its arguments' adjoints.
   * Adjoints that never reach the result are never created. Returns the adjoint of each
   * parameter that received any.
   */
  Map<Value, Expr> writeReverseSweep(Value result, Expr seed) {
    Map<Value, Adjoint> adjoints = new HashMap<>();
    adjoints.put(result, new Adjoint(seed, false));
    commentedLine = null;
    List<Instruction> reversed = new ArrayList<>(live);
    Collections.reverse(reversed);
    for (Instruction instruction : reversed) {
      Adjoint adjoint = adjoints.get(instruction.result());
      if (adjoint == null || !instruction.result().isActive()) {
        continue;
      }
      DerivativeRules.Site site = site(instruction);
      DerivativeRules.Rule rule = ruleFor(instruction);
      for (int i = 0; i < instruction.arguments().size(); i++) {
        if (!(instruction.arguments().get(i) instanceof Operand.Use use) || !use.isActive()) {
          continue;
        }
        Optional<Partial> partial = rule.partial(i, site);
        if (partial.isEmpty()) {
          continue;
        }
        comment(instruction.line(), "adjoint of ");
        Partial p = partial.get();
        if (p.equals(Partial.ONE) && !adjoints.containsKey(use.value())) {
          // y = a + b passes yBar on unchanged: a and b share it rather than copy it.
          adjoints.put(use.value(), new Adjoint(adjoint.expression(), false));
          continue;
        }
        accumulate(adjoints, use.value(), p.applyTo(adjoint.expression()), p.negative());
      }
    }
    Map<Value, Expr> parameterAdjoints = new HashMap<>();
    for (Value parameter : function.parameters()) {
      Adjoint adjoint = adjoints.get(parameter);
      if (adjoint != null) {
        parameterAdjoints.put(parameter, adjoint.expression());
      }
    }
    return parameterAdjoints;
  }

  /** An adjoint: a local being summed into, or the seed itself before any sum. */
  private record Adjoint(Expr expression, boolean isLocal) {}

  private void accumulate(Map<Value, Adjoint> adjoints, Value target, Expr contribution,
      boolean negated) {
    Adjoint existing = adjoints.get(target);
    if (existing != null && existing.isLocal()) {
      code.addStatement("$L $L= $L", existing.expression(), negated ? "-" : "+", contribution);
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

  // ---- shared ------------------------------------------------------------------------------

  private DerivativeRules.Site site(Instruction instruction) {
    List<Argument> arguments = new ArrayList<>();
    for (Operand operand : instruction.arguments()) {
      arguments.add(new Argument(derivativeOperand(operand), operandExpression(operand),
          knownValue(operand)));
    }
    String mathClass = function.mathClassName(
        instruction.operation().owner() == null
            ? ad4j.processor.ir.MathOwner.MATH : instruction.operation().owner());
    return new DerivativeRules.Site(arguments, Expr.atom(nameOf(instruction.result())), mathClass);
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
    return ((Operand.Constant) operand).expression();
  }

  /**
   * An operand as it appears in derivative formulas, converted to {@code double}: formulas such
   * as {@code c * c} must not be evaluated in {@code int} arithmetic, which could overflow.
   */
  private Expr derivativeOperand(Operand operand) {
    if (!(operand instanceof Operand.Constant constant)
        || constant.type() == NumericType.DOUBLE) {
      return operandExpression(operand);
    }
    if (constant.knownValue().isPresent()) {
      return Expr.number(constant.knownValue().getAsDouble());
    }
    return constant.expression().castToDouble();
  }

  String nameOf(Value value) {
    return valueNames.computeIfAbsent(value, v -> switch (v.origin()) {
      case PARAMETER, LOCAL -> names.user(v.nameHint());
      case TEMPORARY -> isReturned(v) ? names.fresh("result") : names.numbered("t");
    });
  }

  private boolean isReturned(Value value) {
    return function.result().value() instanceof Operand.Use use && use.value() == value;
  }

  private void comment(SourceLine line, String prefix) {
    if (!line.equals(commentedLine)) {
      code.add("// $Lline $L: $L\n", prefix, line.number(), line.text());
      commentedLine = line;
    }
  }

  /** The instructions the result depends on; the others cannot affect value or derivatives. */
  private static List<Instruction> liveInstructions(Function function) {
    Set<Value> needed = new HashSet<>();
    if (function.result().value() instanceof Operand.Use use) {
      needed.add(use.value());
    }
    List<Instruction> instructions = new ArrayList<>();
    for (Statement statement : function.body().statements()) {
      if (statement instanceof Instruction instruction) {
        instructions.add(instruction);
      }
    }
    List<Instruction> live = new ArrayList<>();
    for (int i = instructions.size() - 1; i >= 0; i--) {
      Instruction instruction = instructions.get(i);
      if (needed.contains(instruction.result())) {
        live.add(instruction);
        for (Operand argument : instruction.arguments()) {
          if (argument instanceof Operand.Use use) {
            needed.add(use.value());
          }
        }
      }
    }
    Collections.reverse(live);
    return live;
  }
}
