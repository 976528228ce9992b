package ad4j.processor.emit;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simple names that generated code of one function writes at the start of a qualified name
 * ({@code Math} in {@code Math.sin}, {@code geo} in {@code geo.LibGrad}, {@code Tape},
 * {@code java} in {@code java.lang.Math}). A parameter or local of that name would capture the
 * reference (JLS 6.5.2 reads a variable before a type or package), so no variable of generated
 * code may take one.
 */
final class ReservedNames {
  /** What generated code may always refer to: runtime classes, java.lang, packages. */
  private static final Set<String> ALWAYS = Set.of("java", "javax", "ad4j", "Tape", "Math",
      "StrictMath", "Double", "Float", "String", "IllegalArgumentException", "Throwable");

  /** An identifier followed by a dot, not itself preceded by a dot or a name character. */
  private static final Pattern QUALIFIER = Pattern.compile("(?<![\\w$.'\"\\\\])([A-Za-z_$][\\w$]*)\\s*\\.(?!\\d)");

  private ReservedNames() {}

  static Set<String> of(Function function) {
    Set<String> names = new HashSet<>(ALWAYS);
    collect(function.body(), names);
    return names;
  }

  private static void collect(Block block, Set<String> names) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        if (instruction.operation().callee() != null) {
          names.add(firstSegment(instruction.operation().callee().userClass()));
          names.add(firstSegment(instruction.operation().callee().gradClass()));
          names.add(firstSegment(instruction.operation().callee().sweepsClass()));
        }
        operands(instruction.arguments(), names);
      } else if (statement instanceof Declare declare) {
        operands(List.of(declare.initial()), names);
      } else if (statement instanceof Store store) {
        operands(List.of(store.value()), names);
      } else if (statement instanceof Return ret) {
        operands(List.of(ret.value()), names);
      } else if (statement instanceof Throw thrown) {
        names.add(firstSegment(thrown.exceptionType()));
        for (Object part : thrown.messageParts()) {
          if (part instanceof Operand operand) {
            operands(List.of(operand), names);
          }
        }
      } else if (statement instanceof If branch) {
        operands(List.of(branch.condition()), names);
        collect(branch.thenBlock(), names);
        collect(branch.elseBlock(), names);
      } else if (statement instanceof Loop loop) {
        collect(loop.condition(), names);
        if (loop.test() != null) {
          operands(List.of(loop.test()), names);
        }
        collect(loop.body(), names);
        collect(loop.update(), names);
      }
    }
  }

  /** The qualifiers in constant subexpressions: {@code Other} in {@code Other.K * 2}. */
  private static void operands(List<Operand> operands, Set<String> names) {
    for (Operand operand : operands) {
      if (operand instanceof Operand.Constant constant) {
        Matcher matcher = QUALIFIER.matcher(constant.expression().toString());
        while (matcher.find()) {
          names.add(matcher.group(1));
        }
      }
    }
  }

  private static String firstSegment(String qualifiedName) {
    int dot = qualifiedName.indexOf('.');
    return dot < 0 ? qualifiedName : qualifiedName.substring(0, dot);
  }
}
