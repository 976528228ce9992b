package ad4j.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ad4j.processor.testing.GeneratedManifest;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code ```java} block of the README and of the user guide ({@code docs/guide}) is
 * compiled with javac and the ad4j processor, so that no example in the documentation can stop
 * compiling, and the output the documentation shows for examples that fail is javac's own. Their
 * relative links must find their files and headings.
 *
 * <h2>The convention</h2>
 *
 * <p>A block is one snippet. What it is, is said by an HTML comment on the nearest non-blank line
 * before its fence, invisible on GitHub: {@code <!-- snippet: key key=value key="a value" -->}.
 * Without such a comment a block is a whole source file.
 *
 * <ul>
 *   <li><b>A source file</b> (no {@code class=}): compiled as it stands. When it has no
 *       {@code package} line, {@value #PRELUDE} is put in front of its first line, on that line,
 *       so that line numbers stay the block's own. The file is named after its first type.
 *   <li>{@code class=Name}: the block is the members of {@code final class Name}, whose
 *       declaration (with the same prelude) goes on the block's first line.
 *   <li>{@code usage="text"}: the lines of the block from the first one that starts with
 *       {@code text} (or, as {@code usage} alone, the whole block) are statements, compiled as the
 *       body of a method of another class; {@code given="..."} is Java put before them (the
 *       variables the prose assumes: {@code given="double x = 1, y = 2;"}).
 *   <li>{@code requires=A,B}: the classes {@code A} and {@code B} of earlier snippets of the same
 *       document are compiled with this one.
 *   <li>{@code fails}: the source must not compile, and the next fenced block (any language)
 *       must be exactly what javac prints for it, file names relative to the source root. When
 *       it differs the test fails with javac's output, to paste into the document.
 *   <li>{@code excerpt=path}: not compiled; the block's lines must appear, one after the other
 *       and each with the same indentation change, in that file of {@code src/test/resources}
 *       (generated code kept by a golden test, say).
 *   <li>{@code module=name}: not compiled here, since it needs a library this module's tests
 *       do not have (Apache Spark); the test of that module of the repository finds the block by
 *       this directive and compiles it. Here the module must exist.
 * </ul>
 *
 * <p>Every snippet is compiled on its own (with what it {@code requires}), in the test's class
 * path: {@code ad-annotations} and {@code ad-runtime}, no third-party library.
 */
class DocSnippetsTest {
  /** Put before a source file's first line (on it) when the snippet has no package. */
  static final String PRELUDE = "package com.example; import ad4j.*; import ad4j.runtime.*; ";

  private static final Path ROOT = Path.of("..");
  private static final Path RESOURCES = Path.of("src", "test", "resources");
  private static final Pattern FENCE = Pattern.compile("^```(\\S*)\\s*$");
  private static final Pattern DIRECTIVE = Pattern.compile("^<!-- snippet:(.*)-->\\s*$");
  private static final Pattern OPTION =
      Pattern.compile("([a-z]+)(?:=(?:\"([^\"]*)\"|(\\S+)))?");
  private static final Pattern TYPE = Pattern.compile(
      "^(?:(?:public|final|abstract|sealed|strictfp)\\s+)*(?:class|record|enum|interface)\\s+(\\w+)",
      Pattern.MULTILINE);

  /** A fenced block: the document, the line of its opening fence, language, text, directive. */
  record Block(Path document, int line, String language, List<String> lines,
      Map<String, String> options) {
    String where() {
      return ROOT.relativize(document) + ":" + line;
    }

    String text() {
      return String.join("\n", lines);
    }
  }

  @TestFactory
  Stream<DynamicTest> everyJavaSnippetCompilesAsItsDirectiveSays() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    List<Path> documents = documents();
    assertTrue(documents.size() >= 2, "documents found: " + documents);
    int java = 0;
    for (Path document : documents) {
      List<Block> blocks = blocks(document);
      Map<String, String> classes = new LinkedHashMap<>();
      for (int i = 0; i < blocks.size(); i++) {
        Block block = blocks.get(i);
        if (!block.language().equals("java")) {
          continue;
        }
        java++;
        Block next = i + 1 < blocks.size() ? blocks.get(i + 1) : null;
        tests.add(test(block, next, classes));
      }
    }
    assertTrue(java >= 20, "java snippets found: " + java);
    return tests.stream();
  }

  /**
   * Every relative link of the README and the guide names a file that exists and, with
   * {@code #anchor}, a heading of that file (GitHub's anchors: the heading in lower case,
   * punctuation but {@code -} and {@code _} dropped, spaces as {@code -}).
   */
  @Test
  void everyRelativeLinkFindsItsFileAndHeading() throws IOException {
    Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    List<String> broken = new ArrayList<>();
    for (Path document : documents()) {
      String text = Pattern.compile("```.*?```", Pattern.DOTALL).matcher(Files.readString(document))
          .replaceAll("");
      Matcher found = link.matcher(text);
      while (found.find()) {
        String target = found.group(1);
        if (target.matches("[a-z]+:.*")) {
          continue;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path path = file.isEmpty() ? document : document.resolveSibling(file).normalize();
        if (!Files.exists(path)) {
          broken.add(document + ": " + target + " (no such file)");
        } else if (hash >= 0 && !anchors(path).contains(target.substring(hash + 1))) {
          broken.add(document + ": " + target + " (no such heading)");
        }
      }
    }
    assertEquals(List.of(), broken);
  }

  private static List<String> anchors(Path document) throws IOException {
    List<String> anchors = new ArrayList<>();
    for (String line : Files.readAllLines(document)) {
      Matcher heading = Pattern.compile("^#+ (.*)").matcher(line);
      if (heading.matches()) {
        anchors.add(heading.group(1).strip().toLowerCase(java.util.Locale.ROOT)
            .replaceAll("[^\\w\\- ]", "").replace(' ', '-'));
      }
    }
    return anchors;
  }

  /** README.md and every Markdown file of the user guide. */
  private static List<Path> documents() throws IOException {
    List<Path> documents = new ArrayList<>();
    documents.add(ROOT.resolve("README.md"));
    try (Stream<Path> guide = Files.walk(ROOT.resolve("docs").resolve("guide"))) {
      guide.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    return documents;
  }

  private static DynamicTest test(Block block, Block next, Map<String, String> classes) {
    Map<String, String> options = block.options();
    if (options.containsKey("module")) {
      Path module = ROOT.resolve(options.get("module"));
      return DynamicTest.dynamicTest(block.where() + " is built by " + module, () ->
          assertTrue(Files.isRegularFile(module.resolve("pom.xml")), "no module " + module));
    }
    if (options.containsKey("excerpt")) {
      return DynamicTest.dynamicTest(block.where() + " is an excerpt of " + options.get("excerpt"),
          () -> assertExcerpt(block, RESOURCES.resolve(options.get("excerpt"))));
    }
    Map<String, String> sources = new LinkedHashMap<>();
    for (String required : options.getOrDefault("requires", "").split(",")) {
      if (required.isEmpty()) {
        continue;
      }
      String source = classes.get(required);
      if (source == null) {
        return DynamicTest.dynamicTest(block.where(),
            () -> fail("requires " + required + ", which no earlier snippet declares"));
      }
      sources.put(required, source);
    }
    String declarations = declarations(block);
    String name;
    String source;
    if (options.containsKey("class")) {
      name = options.get("class");
      source = PRELUDE + "final class " + name + " { " + declarations + "\n}\n";
    } else if (declarations.isBlank()) {
      name = null;
      source = null;
    } else {
      Matcher type = TYPE.matcher(declarations);
      if (!type.find()) {
        return DynamicTest.dynamicTest(block.where(),
            () -> fail("a snippet without class= must declare a type"));
      }
      name = type.group(1);
      source = declarations.contains("package ") ? declarations : PRELUDE + declarations;
    }
    if (name != null) {
      sources.put(name, source);
      if (!options.containsKey("fails")) {
        classes.put(name, source);
      }
    }
    String statements = statements(block);
    if (statements != null) {
      sources.put("Usage", PRELUDE + "final class Usage { static void run() throws Exception { "
          + options.getOrDefault("given", "") + "\n" + statements + "\n} }\n");
    }
    if (options.containsKey("fails")) {
      return DynamicTest.dynamicTest(block.where() + " fails as shown", () -> {
        assertTrue(next != null, "a failing snippet is followed by the output it gets");
        Javac javac = compile(sources);
        assertFalse(javac.success(), block.where() + " compiled, but should fail");
        assertEquals(next.text(), javac.output().strip(),
            block.where() + ": javac prints something else; the block after the snippet should be"
                + " (line " + next.line() + "):\n<<<\n" + javac.output().strip() + "\n>>>\n");
      });
    }
    return DynamicTest.dynamicTest(block.where() + " compiles", () -> {
      Javac javac = compile(sources);
      assertTrue(javac.success(), block.where() + " does not compile:\n" + javac.output()
          + "\nsources:\n" + String.join("\n----\n", sources.values()));
    });
  }

  /** The lines of the block before its statements, as one text. */
  private static String declarations(Block block) {
    int from = statementsStart(block);
    return String.join("\n", block.lines().subList(0, from));
  }

  /** The block's statements, or null when it has none. */
  private static String statements(Block block) {
    int from = statementsStart(block);
    if (from == block.lines().size()) {
      return null;
    }
    return String.join("\n", block.lines().subList(from, block.lines().size()));
  }

  private static int statementsStart(Block block) {
    if (!block.options().containsKey("usage")) {
      return block.lines().size();
    }
    String start = block.options().get("usage");
    if (start.isEmpty()) {
      return 0;
    }
    for (int i = 0; i < block.lines().size(); i++) {
      if (block.lines().get(i).strip().startsWith(start)) {
        return i;
      }
    }
    throw new AssertionError(block.where() + ": no line starts with usage=\"" + start + "\"");
  }

  private static void assertExcerpt(Block block, Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    String first = block.lines().get(0);
    for (int at = 0; at < lines.size(); at++) {
      String line = lines.get(at);
      if (!line.strip().equals(first.strip())) {
        continue;
      }
      String indent = line.substring(0, line.length() - line.stripLeading().length());
      String own = first.substring(0, first.length() - first.stripLeading().length());
      List<String> expected = block.lines().stream()
          .map(l -> l.isEmpty() ? l : indent + l.substring(Math.min(own.length(), l.length())))
          .toList();
      if (Collections.indexOfSubList(lines.subList(at, lines.size()), expected) == 0) {
        return;
      }
    }
    fail(block.where() + " is not, line for line, a part of " + file);
  }

  /** What javac did: whether it succeeded and everything it printed. */
  record Javac(boolean success, String output) {}

  /** Compiles the sources (class name to text) in a scratch folder, as a build would. */
  private static Javac compile(Map<String, String> sources) throws IOException {
    Path scratch = Files.createTempDirectory("ad4j-doc-snippet");
    try {
      Path src = scratch.resolve("src");
      List<Path> files = new ArrayList<>();
      for (Map.Entry<String, String> source : sources.entrySet()) {
        Path file = src.resolve(packageFolder(source.getValue())).resolve(source.getKey() + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source.getValue());
        files.add(file);
      }
      Path classes = Files.createDirectories(scratch.resolve("classes"));
      Path generated = Files.createDirectories(scratch.resolve("generated"));
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      StringWriter output = new StringWriter();
      boolean success;
      try (StandardJavaFileManager fileManager = javac.getStandardFileManager(null, null, null)) {
        Iterable<? extends JavaFileObject> units = fileManager.getJavaFileObjectsFromPaths(files);
        JavaCompiler.CompilationTask task = javac.getTask(output, fileManager, null,
            List.of("-d", classes.toString(), "-s", generated.toString(), "-classpath",
                System.getProperty("java.class.path")),
            null, units);
        task.setProcessors(
            List.of(GeneratedManifest.recording(new DifferentiableProcessor())));
        success = task.call();
      }
      String printed = output.toString().replace(src + java.io.File.separator, "")
          .replace(java.io.File.separatorChar, '/');
      return new Javac(success, printed);
    } finally {
      try (Stream<Path> all = Files.walk(scratch)) {
        all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (UncheckedIOException e) {
        // a leftover scratch folder is harmless
      }
    }
  }

  private static Path packageFolder(String source) {
    Matcher pkg = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE)
        .matcher(source);
    return pkg.find() ? Path.of(pkg.group(1).replace('.', '/')) : Path.of("");
  }

  /** The fenced blocks of a Markdown document, with the snippet directive before each. */
  static List<Block> blocks(Path document) throws IOException {
    List<String> lines = Files.readAllLines(document);
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher open = FENCE.matcher(lines.get(i).strip());
      if (!open.matches()) {
        continue;
      }
      String indent = lines.get(i).substring(0, lines.get(i).indexOf('`'));
      int end = i + 1;
      while (end < lines.size() && !lines.get(end).strip().equals("```")) {
        end++;
      }
      List<String> body = new ArrayList<>();
      for (String line : lines.subList(i + 1, Math.min(end, lines.size()))) {
        body.add(line.startsWith(indent) ? line.substring(indent.length()) : line.strip());
      }
      blocks.add(new Block(document, i + 1, open.group(1), body, directive(lines, i)));
      i = end;
    }
    return blocks;
  }

  private static Map<String, String> directive(List<String> lines, int fence) {
    Map<String, String> options = new LinkedHashMap<>();
    int at = fence - 1;
    while (at >= 0 && lines.get(at).isBlank()) {
      at--;
    }
    if (at < 0) {
      return options;
    }
    Matcher directive = DIRECTIVE.matcher(lines.get(at).strip());
    if (!directive.matches()) {
      return options;
    }
    Matcher option = OPTION.matcher(directive.group(1));
    while (option.find()) {
      String value = option.group(2) != null ? option.group(2)
          : option.group(3) != null ? option.group(3) : "";
      options.put(option.group(1), value);
    }
    return options;
  }
}
