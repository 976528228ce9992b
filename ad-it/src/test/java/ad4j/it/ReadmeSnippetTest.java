package ad4j.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's setup snippets are the ones the integration tests build: every user project
 * under {@code src/it} holds the README's Maven snippet line for line (indented as a child of
 * {@code <project>}), apart from the lines it marks as its own between {@code <!-- it-only -->}
 * and {@code <!-- /it-only -->}. So the README cannot drift from what CI builds. Its Gradle
 * snippets (Kotlin and Groovy DSL), which CI cannot build, name the same artifacts.
 */
class ReadmeSnippetTest {
  private static final Path README = Path.of("..", "README.md");
  private static final Path PROJECTS = Path.of("src", "it");
  private static final String IT_ONLY = "<!-- it-only -->";
  private static final String IT_ONLY_END = "<!-- /it-only -->";

  @Test
  void everyUserProjectHoldsTheReadmesMavenSnippet() throws IOException {
    List<String> snippet = indented(block("maven-setup", "xml"));
    List<Path> poms;
    try (Stream<Path> projects = Files.list(PROJECTS)) {
      poms = projects.map(p -> p.resolve("pom.xml")).filter(Files::isRegularFile).sorted()
          .toList();
    }
    assertTrue(poms.size() >= 5, "user projects found: " + poms);
    for (Path pom : poms) {
      List<String> lines = withoutItOnlyLines(Files.readAllLines(pom));
      if (Collections.indexOfSubList(lines, snippet) < 0) {
        fail(pom + " does not hold the README's Maven snippet line for line (outside its"
            + " it-only blocks); the snippet is:\n" + String.join("\n", snippet));
      }
    }
  }

  @Test
  void theSnippetsNameThisVersionAndTheRuntime() throws IOException {
    String version = System.getProperty("ad4j.version");
    assertFalse(version == null || version.isEmpty(), "the build passes ad4j.version");
    String maven = String.join("\n", block("maven-setup", "xml"));
    assertTrue(maven.contains("<ad4j.version>" + version + "</ad4j.version>"), maven);
    for (String language : List.of("kotlin", "groovy")) {
      String gradle = String.join("\n", block("gradle-setup", language));
      for (String artifact : List.of("ad-annotations", "ad-processor", "ad-runtime")) {
        assertTrue(gradle.contains("io.github.ad4j:" + artifact + ":" + version), gradle);
      }
      assertTrue(gradle.contains("mavenLocal()"), gradle);
      assertTrue(gradle.contains("java"), "the Gradle snippets apply the java plugin: " + gradle);
    }
  }

  @Test
  void itOnlyMarkersArePaired() throws IOException {
    try (Stream<Path> files = Files.walk(PROJECTS)) {
      for (Path pom : files.filter(p -> p.getFileName().toString().equals("pom.xml")).toList()) {
        String text = Files.readString(pom);
        assertEquals(count(text, IT_ONLY), count(text, IT_ONLY_END), pom.toString());
      }
    }
  }

  /** The fenced block of {@code language} that follows {@code <!-- marker -->} in the README. */
  private static List<String> block(String marker, String language) throws IOException {
    String readme = Files.readString(README);
    int at = readme.indexOf("<!-- " + marker + ":");
    assertTrue(at >= 0, "README.md has no <!-- " + marker + ": ... --> marker");
    Matcher fence = Pattern.compile("```" + language + "\\n(.*?)\\n```", Pattern.DOTALL)
        .matcher(readme);
    assertTrue(fence.find(at), "no ```" + language + " block after the " + marker + " marker");
    return List.of(fence.group(1).split("\n", -1));
  }

  /** The snippet as it sits inside a pom's {@code <project>}: two spaces in, blank lines kept. */
  private static List<String> indented(List<String> snippet) {
    return snippet.stream().map(line -> line.isEmpty() ? "" : "  " + line).toList();
  }

  private static List<String> withoutItOnlyLines(List<String> lines) {
    List<String> kept = new ArrayList<>();
    boolean inside = false;
    for (String line : lines) {
      if (line.trim().equals(IT_ONLY)) {
        inside = true;
      } else if (line.trim().equals(IT_ONLY_END)) {
        inside = false;
      } else if (!inside) {
        kept.add(line);
      }
    }
    return kept;
  }

  private static int count(String text, String part) {
    int count = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
      count++;
    }
    return count;
  }
}
