package ad4j.processor.testing;

import ad4j.processor.DifferentiableProcessor;
import ad4j.processor.front.ResolutionLog;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Compares what ad4j resolved each name and call of a {@code @Differentiable} method to
 * ({@link ResolutionLog}, recorded while the processor lowers the method) with what javac
 * resolved it to when it attributed the same source after processing ({@link Trees#getElement}
 * at {@code ANALYZE}): the local variable, field, class, method or constructor of each
 * identifier, member select and method invocation. A name ad4j resolved differently is a
 * mismatch; names javac resolved that ad4j did not record (it did not look them up, or the
 * compilation failed) are counted, not compared.
 */
public final class ResolutionCrossCheck {
  /** ad4j's choices by where they are (file, offset, tree kind). */
  private final Map<String, String> ad4jChoices = new HashMap<>();
  private final List<String> mismatches = new ArrayList<>();
  private int compared;
  private int unrecorded;
  /** The part of a source file's URI that names it in keys. */
  private final java.util.function.UnaryOperator<String> fileKey;

  /** A check whose two compilations name the source files alike. */
  public ResolutionCrossCheck() {
    this(uri -> uri);
  }

  /**
   * A check whose compilations name the same source files differently (ECJ's parse and javac's
   * compilation of a file): {@code fileKey} gives what both names share.
   */
  public ResolutionCrossCheck(java.util.function.UnaryOperator<String> fileKey) {
    this.fileKey = fileKey;
  }

  /** Records ad4j's resolutions; set on the compiling thread with {@link ResolutionLog#listen}. */
  public Consumer<ResolutionLog.Resolution> recorder() {
    return resolution -> ad4jChoices.put(
        key(resolution.file(), resolution.start(), resolution.end(), resolution.kind()),
        resolution.element() == null ? "local " + resolution.localName()
            : describe(resolution.element()));
  }

  /** The listener that compares javac's choices as it finishes analyzing each class. */
  public TaskListener comparingListener(Trees trees) {
    return new TaskListener() {
      @Override
      public void finished(TaskEvent event) {
        if (event.getKind() == TaskEvent.Kind.ANALYZE && event.getTypeElement() != null) {
          compareIn(trees, event.getCompilationUnit(), event.getTypeElement());
        }
      }
    };
  }

  /** The names where ad4j and javac chose differently, one line each. */
  public List<String> mismatches() {
    return mismatches;
  }

  /** How many names were compared. */
  public int compared() {
    return compared;
  }

  /** How many names in {@code @Differentiable} methods javac resolved and ad4j did not record. */
  public int unrecorded() {
    return unrecorded;
  }

  private void compareIn(Trees trees, CompilationUnitTree unit, TypeElement type) {
    TreePath classPath = trees.getPath(type);
    if (classPath == null) {
      return;
    }
    String file = unit.getSourceFile().toUri().toString();
    new TreePathScanner<Void, Boolean>() {
      @Override
      public Void visitClass(ClassTree tree, Boolean inDifferentiable) {
        return super.visitClass(tree, false);
      }

      @Override
      public Void visitMethod(MethodTree tree, Boolean inDifferentiable) {
        boolean differentiable = tree.getModifiers().getAnnotations().stream()
            .anyMatch(a -> a.getAnnotationType().toString().endsWith("Differentiable"));
        return differentiable ? scan(tree.getBody(), true) : null;
      }

      @Override
      public Void visitIdentifier(IdentifierTree tree, Boolean inDifferentiable) {
        compare(inDifferentiable, getCurrentPath(), tree);
        return super.visitIdentifier(tree, inDifferentiable);
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree tree, Boolean inDifferentiable) {
        compare(inDifferentiable, getCurrentPath(), tree);
        return super.visitMemberSelect(tree, inDifferentiable);
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree tree, Boolean inDifferentiable) {
        if (Boolean.TRUE.equals(inDifferentiable)) {
          // javac's choice is the element of the method select
          Element element = trees.getElement(new TreePath(getCurrentPath(),
              tree.getMethodSelect()));
          compare(tree, element);
        }
        scan(tree.getTypeArguments(), inDifferentiable);
        scan(tree.getArguments(), inDifferentiable);
        // the select itself: its qualifier, not the method a second time
        if (tree.getMethodSelect() instanceof MemberSelectTree select) {
          scan(select.getExpression(), inDifferentiable);
        }
        return null;
      }

      private void compare(Boolean inDifferentiable, TreePath path, Tree tree) {
        if (Boolean.TRUE.equals(inDifferentiable)) {
          compare(tree, trees.getElement(path));
        }
      }

      private void compare(Tree tree, Element javacChoice) {
        if (javacChoice == null) {
          return;
        }
        long start = trees.getSourcePositions().getStartPosition(unit, tree);
        long end = trees.getSourcePositions().getEndPosition(unit, tree);
        String ad4jChoice = ad4jChoices.get(key(file, start, end, tree.getKind()));
        if (ad4jChoice == null) {
          unrecorded++;
          return;
        }
        compared++;
        String expected = describe(javacChoice);
        if (!expected.equals(ad4jChoice)) {
          long line = unit.getLineMap() == null ? -1
              : unit.getLineMap().getLineNumber(start);
          mismatches.add(unit.getSourceFile().getName() + ":" + line + " '" + tree
              + "': ad4j chose " + ad4jChoice + ", javac " + expected);
        }
      }
    }.scan(classPath, false);
  }

  private String key(String file, long start, long end, Tree.Kind kind) {
    return fileKey.apply(file) + "@" + start + "-" + end + ":" + kind;
  }

  /** An element as the comparison names it: locals by name, members by owner and signature. */
  static String describe(Element element) {
    ElementKind kind = element.getKind();
    if (kind == ElementKind.LOCAL_VARIABLE || kind == ElementKind.PARAMETER
        || kind == ElementKind.EXCEPTION_PARAMETER || kind == ElementKind.RESOURCE_VARIABLE
        || kind.name().equals("BINDING_VARIABLE")) {
      return "local " + element.getSimpleName();
    }
    if (element instanceof TypeElement type) {
      return "class " + type.getQualifiedName();
    }
    String owner = element.getEnclosingElement() instanceof TypeElement type
        ? type.getQualifiedName().toString() : String.valueOf(element.getEnclosingElement());
    if (element instanceof ExecutableElement method) {
      return "method " + owner + "." + method.getSimpleName() + method.getParameters().stream()
          .map(p -> p.asType().toString()).collect(Collectors.joining(", ", "(", ")"));
    }
    return kind.name().toLowerCase(java.util.Locale.ROOT) + " " + owner + "."
        + element.getSimpleName();
  }

  /** The outcome of {@link #compile}: javac's diagnostics and the comparison. */
  public record Outcome(boolean succeeded, List<Diagnostic<? extends JavaFileObject>> diagnostics,
      ResolutionCrossCheck check) {
    /** The errors, one per line. */
    public String errors() {
      return diagnostics.stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
          .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + " " + d.getMessage(null))
          .collect(Collectors.joining("\n"));
    }
  }

  /**
   * Compiles {@code sources} with javac and the ad4j processor, recording ad4j's resolutions
   * and comparing javac's as it analyzes each class.
   */
  public static Outcome compile(List<JavaFileObject> sources) {
    Path output;
    try {
      output = Files.createTempDirectory("ad4j-resolution");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      return compile(sources, output);
    } finally {
      try (Stream<Path> written = Files.walk(output)) {
        written.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** As {@link #compile(List)}, writing the generated sources and classes into {@code output}. */
  public static Outcome compile(List<JavaFileObject> sources, Path output) {
    ResolutionCrossCheck check = new ResolutionCrossCheck();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
      files.setLocationFromPaths(StandardLocation.SOURCE_OUTPUT, List.of(output));
      files.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(output));
      JavacTask task = (JavacTask) javac.getTask(new StringWriter(), files, diagnostics,
          List.of("-Xlint:all"), null, sources);
      task.setProcessors(
          List.of(GeneratedManifest.recording(new DifferentiableProcessor())));
      task.addTaskListener(check.comparingListener(Trees.instance(task)));
      ResolutionLog.listen(check.recorder());
      boolean succeeded;
      try {
        succeeded = task.call();
      } finally {
        ResolutionLog.listen(null);
      }
      return new Outcome(succeeded, diagnostics.getDiagnostics(), check);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A processor that claims nothing and cross-checks a whole compilation it runs in beside ad4j
   * (in {@link InProcessCompiler} when the system property {@code ad4j.crossCheck} is set):
   * mismatches are printed and added to {@link #CORPUS}.
   */
  public static final class CorpusProcessor extends AbstractProcessor {
    private ResolutionCrossCheck check;

    @Override
    public synchronized void init(ProcessingEnvironment environment) {
      super.init(environment);
      check = new ResolutionCrossCheck();
      JavacTask task = JavacTask.instance(environment);
      task.addTaskListener(check.comparingListener(Trees.instance(environment)));
      task.addTaskListener(new TaskListener() {
        @Override
        public void finished(TaskEvent event) {
          if (event.getKind() == TaskEvent.Kind.COMPILATION) {
            ResolutionLog.listen(null);
            CORPUS.add(check);
            report(check.mismatches().stream().map(m -> "mismatch " + m).toList());
          }
        }
      });
      ResolutionLog.listen(check.recorder());
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      return false;
    }
  }

  /** Where the corpus run writes its mismatches and, at exit, its totals. */
  private static final Path CORPUS_REPORT = Path.of("target", "resolution-cross-check.txt");

  static {
    if (System.getProperty("ad4j.crossCheck") != null) {
      Runtime.getRuntime().addShutdownHook(new Thread(
          () -> report(List.of("totals " + corpusTotals()))));
    }
  }

  private static synchronized void report(List<String> lines) {
    if (lines.isEmpty()) {
      return;
    }
    try {
      Files.createDirectories(CORPUS_REPORT.getParent());
      Files.write(CORPUS_REPORT, lines, java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The checks of every compilation of the corpus run so far. */
  public static final List<ResolutionCrossCheck> CORPUS =
      java.util.Collections.synchronizedList(new ArrayList<>());

  /** Totals over {@link #CORPUS}: compared, unrecorded, mismatches. */
  public static Map<String, Integer> corpusTotals() {
    Map<String, Integer> totals = new LinkedHashMap<>();
    synchronized (CORPUS) {
      totals.put("compilations", CORPUS.size());
      totals.put("compared", CORPUS.stream().mapToInt(ResolutionCrossCheck::compared).sum());
      totals.put("unrecorded", CORPUS.stream().mapToInt(ResolutionCrossCheck::unrecorded).sum());
      totals.put("mismatches", CORPUS.stream().mapToInt(c -> c.mismatches().size()).sum());
    }
    return totals;
  }
}
