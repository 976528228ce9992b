package ad4j.processor.testing;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;

/** Diagnostic tests' check of a source of class {@code com.example.F} that has one error. */
public final class SingleErrors {
  private SingleErrors() {}

  /**
   * Compiles {@code lines} with the processor and asserts exactly one error, containing
   * {@code message}, at {@code line} and {@code column} (both from 1).
   */
  public static void assertSingleError(List<String> lines, String message, int line,
      int column) {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(line)
        .atColumn(column);
  }
}
