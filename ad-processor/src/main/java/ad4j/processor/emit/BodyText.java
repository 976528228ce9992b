package ad4j.processor.emit;

import com.palantir.javapoet.CodeBlock;
import java.util.function.BiConsumer;

/**
 * Where {@link JavaEmitter} writes a body's statements, in JavaPoet's calls and formats (only
 * {@code $L}): JavaPoet's builder for a member the class prints ({@link #codeBlock}), or plain
 * lines for a body that is only measured ({@link #lines}). The planner measures every cut it
 * tries, and JavaPoet's builder and printer were a sixth of measuring one (parsing each format
 * twice, wrapping and indenting lines that {@link BytecodeEstimate} reads trimmed); the lines
 * are those JavaPoet would print, without their indentation.
 */
abstract class BodyText {
  abstract void addStatement(String format, Object... args);

  abstract void add(String format, Object... args);

  abstract void beginControlFlow(String format, Object... args);

  abstract void nextControlFlow(String format, Object... args);

  abstract void endControlFlow();

  abstract void endControlFlow(String format, Object... args);

  /** JavaPoet's builder: {@link #build} gives the block the class prints. */
  static CodeBlockText codeBlock() {
    return new CodeBlockText();
  }

  /** Plain lines: {@link Lines#text} gives them, one statement or brace per line. */
  static Lines lines() {
    return new Lines();
  }

  /**
   * JavaPoet's builder, given each statement as one literal where its arguments allow: JavaPoet
   * prints every piece of a format ({@code "$L $L = $L"} is five) through a split of it into
   * lines by a regular expression, the most frequent work of printing the class. The same
   * characters come out: a piece's text is printed as it is, and the lines of one literal as
   * those of several. A {@code CodeBlock} argument (which may name a type that the file
   * imports) goes to JavaPoet as it is.
   */
  static final class CodeBlockText extends BodyText {
    private final CodeBlock.Builder code = CodeBlock.builder();

    @Override
    void addStatement(String format, Object... args) {
      asLiteral(code::addStatement, format, args);
    }

    @Override
    void add(String format, Object... args) {
      asLiteral(code::add, format, args);
    }

    @Override
    void beginControlFlow(String format, Object... args) {
      asLiteral(code::beginControlFlow, format, args);
    }

    @Override
    void nextControlFlow(String format, Object... args) {
      asLiteral(code::nextControlFlow, format, args);
    }

    @Override
    void endControlFlow() {
      code.endControlFlow();
    }

    @Override
    void endControlFlow(String format, Object... args) {
      asLiteral(code::endControlFlow, format, args);
    }

    CodeBlock build() {
      return code.build();
    }

    /** Gives {@code format} to {@code call}, as one literal where its arguments are all text. */
    private static void asLiteral(BiConsumer<String, Object[]> call, String format,
        Object[] args) {
      if (isText(args)) {
        call.accept("$L", new Object[] {substituted(format, args)});
      } else {
        call.accept(format, args);
      }
    }

    private static boolean isText(Object[] args) {
      for (Object arg : args) {
        if (arg instanceof CodeBlock) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * The text JavaPoet prints for the same calls, less indentation: a statement ends in
   * {@code ;}, a control flow opens with {@code " {"} and closes with {@code "}"} (then the
   * {@code while} of a {@code do}), each on its line; {@code $L} is the argument's {@code
   * toString()}, as JavaPoet writes an argument that is no {@code CodeBlock} (and a {@code
   * CodeBlock}'s text is its {@code toString()}).
   */
  static final class Lines extends BodyText {
    private final StringBuilder text = new StringBuilder();

    @Override
    void addStatement(String format, Object... args) {
      format(format, args);
      text.append(";\n");
    }

    @Override
    void add(String format, Object... args) {
      format(format, args);
    }

    @Override
    void beginControlFlow(String format, Object... args) {
      format(format, args);
      text.append(" {\n");
    }

    @Override
    void nextControlFlow(String format, Object... args) {
      text.append("} ");
      format(format, args);
      text.append(" {\n");
    }

    @Override
    void endControlFlow() {
      text.append("}\n");
    }

    @Override
    void endControlFlow(String format, Object... args) {
      text.append("} ");
      format(format, args);
      text.append(";\n");
    }

    String text() {
      return text.toString();
    }

    /** The text written so far, which later calls only append to. */
    CharSequence written() {
      return text;
    }

    private void format(String format, Object[] args) {
      substitute(format, args, text);
    }
  }

  /** {@code format} with each {@code $L} replaced by its argument's text. */
  private static String substituted(String format, Object[] args) {
    StringBuilder text = new StringBuilder(format.length() + 16 * args.length);
    substitute(format, args, text);
    return text.toString();
  }

  /** Appends {@code format} to {@code text}, each {@code $L} replaced by its argument's text. */
  private static void substitute(String format, Object[] args, StringBuilder text) {
    int next = 0;
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c != '$') {
        text.append(c);
      } else if (i + 1 < format.length() && format.charAt(i + 1) == 'L') {
        text.append(args[next++]);
        i++;
      } else {
        throw new IllegalArgumentException("only $L is written as text: " + format);
      }
    }
    if (next != args.length) {
      throw new IllegalArgumentException("unused arguments: " + format);
    }
  }
}
