package ad4j.processor;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.processing.Filer;
import javax.tools.StandardLocation;

/**
 * The lists ad4j keeps in the class output for a later compilation into it, a line each
 * ({@link RuleClassIndex}, {@link CodeReadIndex}). Neither is needed by the compilation that
 * writes it: a compiler that cannot read or write them goes without.
 */
final class ClassOutputLists {
  private ClassOutputLists() {}

  /**
   * The lines of {@code resource} as an earlier compilation wrote it: none where there is no
   * list (a first or clean build), or the compiler cannot read the output.
   */
  static List<String> read(Filer filer, String resource) {
    List<String> lines = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(
        filer.getResource(StandardLocation.CLASS_OUTPUT, "", resource).openReader(true))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    return lines;
  }

  /** Writes {@code lines} as {@code resource}, or nothing where the compiler cannot. */
  static void write(Filer filer, String resource, List<String> lines) {
    try (Writer out = filer.createResource(StandardLocation.CLASS_OUTPUT, "", resource)
        .openWriter()) {
      for (String line : lines) {
        out.write(line + "\n");
      }
    } catch (IOException | RuntimeException e) {
      // only a later partial compilation needs the list; this one's output is complete
    }
  }
}
