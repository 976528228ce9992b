package ad4j.processor.testing;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.InProcessCompiler.Compiled;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of a generated class, of one of its methods and of one declaration, for the tests
 * that assert how generated code reads (the adjoint sums' tests).
 */
public final class GeneratedText {
  private GeneratedText() {}

  /** The source the processor wrote for {@code className} in {@code compiled}. */
  public static String of(Compiled compiled, String className) {
    try {
      return compiled.compilation().generatedSourceFile(className).orElseThrow()
          .getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The body of the generated {@code static double} method {@code name} of {@code source}. */
  public static String method(String source, String name) {
    Matcher start = Pattern.compile("static double " + name + "\\(").matcher(source);
    assertWithMessage("generated method %s", name).that(start.find()).isTrue();
    int end = source.indexOf("\n  }\n", start.end());
    return source.substring(start.end(), end);
  }

  /** The statement of {@code code} that declares the {@code double} {@code variable}, trimmed. */
  public static String line(String variable, String code) {
    Matcher matcher = Pattern.compile("double " + variable + " = [^\n]*").matcher(code);
    assertWithMessage("declaration of %s", variable).that(matcher.find()).isTrue();
    return matcher.group();
  }
}
