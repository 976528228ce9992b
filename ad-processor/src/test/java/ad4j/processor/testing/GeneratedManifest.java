package ad4j.processor.testing;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import javax.annotation.processing.Completion;
import javax.annotation.processing.Filer;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileObject;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;

/**
 * The manifest of every source file the processor generates in the test corpus: with the system
 * property {@code ad4j.manifest} set to a file, each compilation the tests make through this
 * package's utilities records its generated sources, and when the test JVM exits the file gets
 * one sorted line per distinct (user sources, generated file, content):
 *
 * <pre>{@code
 * <hash of the user sources, 16 hex digits> <generated file, e.g. com.example.FGrad> <SHA-256 of its text> <times generated>
 * }</pre>
 *
 * <p>Two runs of the suite (with {@code CI=true}, so that the random properties draw the same
 * programs) give the same manifest; a refactoring that keeps every generated file byte for byte
 * the same leaves it unchanged. {@code ad-processor/src/test/scripts/generated-manifest.sh} adds
 * the samples' generated sources; docs/ARCHITECTURE.md says how to use both.
 *
 * <p>Without the property, {@link #recording} returns the processor itself and nothing is kept.
 */
public final class GeneratedManifest {
  /** The system property naming the manifest file. */
  public static final String PROPERTY = "ad4j.manifest";

  /** Line (without its count) to times generated, for the whole JVM. */
  private static final ConcurrentMap<String, Integer> LINES = new ConcurrentHashMap<>();

  static {
    String file = System.getProperty(PROPERTY);
    if (file != null && !file.isBlank()) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> write(Path.of(file.trim()))));
    }
  }

  private GeneratedManifest() {}

  /**
   * {@code processor}, recording every source file it generates when the property is set; else
   * {@code processor} itself. Its processing environment is a wrapper that keeps javac's in a
   * field, as Gradle's does, which the processor's {@code TreesLocator} unwraps.
   */
  public static Processor recording(Processor processor) {
    String file = System.getProperty(PROPERTY);
    return file == null || file.isBlank() ? processor : new Recording(processor);
  }

  private static void write(Path file) {
    List<String> sorted = new ArrayList<>();
    new TreeSet<>(LINES.keySet()).forEach(line -> sorted.add(line + " " + LINES.get(line)));
    try {
      Files.write(file, sorted, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A processor that records what its delegate writes through the Filer. */
  private static final class Recording implements Processor {
    private final Processor delegate;
    /** The hash of the first round's sources: which compilation a generated file comes from. */
    private String sources;
    private ProcessingEnvironment environment;

    Recording(Processor delegate) {
      this.delegate = delegate;
    }

    @Override
    public Set<String> getSupportedOptions() {
      return delegate.getSupportedOptions();
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return delegate.getSupportedAnnotationTypes();
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return delegate.getSupportedSourceVersion();
    }

    @Override
    public void init(ProcessingEnvironment processingEnv) {
      environment = processingEnv;
      sources = null;
      delegate.init(new RecordingEnvironment(processingEnv, this));
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      if (sources == null) {
        sources = sourcesHash(round.getRootElements());
      }
      return delegate.process(annotations, round);
    }

    @Override
    public Iterable<? extends Completion> getCompletions(Element element,
        AnnotationMirror annotation, ExecutableElement member, String userText) {
      return delegate.getCompletions(element, annotation, member, userText);
    }

    /**
     * The texts of the files declaring {@code roots}, sorted, hashed; under a compiler without
     * syntax trees (ECJ) their qualified names instead.
     */
    private String sourcesHash(Set<? extends Element> roots) {
      Set<String> texts = new TreeSet<>();
      Trees trees;
      try {
        trees = Trees.instance(environment);
      } catch (IllegalArgumentException notJavac) {
        trees = null;
      }
      for (Element root : roots) {
        TreePath path = trees == null ? null : trees.getPath(root);
        if (path == null) {
          texts.add(root.toString());
          continue;
        }
        CompilationUnitTree unit = path.getCompilationUnit();
        try {
          texts.add(unit.getSourceFile().getCharContent(true).toString());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return sha256(String.join("\u0000", texts)).substring(0, 16);
    }

    void record(String generatedFile, String text) {
      String key = (sources == null ? "-" : sources) + " " + generatedFile + " " + sha256(text);
      LINES.merge(key, 1, Integer::sum);
    }
  }

  /** javac's environment with a recording Filer; {@code delegate} is what TreesLocator finds. */
  private static final class RecordingEnvironment implements ProcessingEnvironment {
    private final ProcessingEnvironment delegate;
    private final RecordingFiler filer;

    RecordingEnvironment(ProcessingEnvironment delegate, Recording recording) {
      this.delegate = delegate;
      this.filer = new RecordingFiler(delegate.getFiler(), recording);
    }

    @Override
    public Map<String, String> getOptions() {
      return delegate.getOptions();
    }

    @Override
    public Messager getMessager() {
      return delegate.getMessager();
    }

    @Override
    public Filer getFiler() {
      return filer;
    }

    @Override
    public Elements getElementUtils() {
      return delegate.getElementUtils();
    }

    @Override
    public Types getTypeUtils() {
      return delegate.getTypeUtils();
    }

    @Override
    public SourceVersion getSourceVersion() {
      return delegate.getSourceVersion();
    }

    @Override
    public Locale getLocale() {
      return delegate.getLocale();
    }

    @Override
    public boolean isPreviewEnabled() {
      return delegate.isPreviewEnabled();
    }
  }

  /** A Filer whose source files record their text when their writer closes. */
  private static final class RecordingFiler implements Filer {
    private final Filer delegate;
    private final Recording recording;

    RecordingFiler(Filer delegate, Recording recording) {
      this.delegate = delegate;
      this.recording = recording;
    }

    @Override
    public JavaFileObject createSourceFile(CharSequence name, Element... originatingElements)
        throws IOException {
      String generatedFile = name.toString();
      return new ForwardingJavaFileObject<>(
          delegate.createSourceFile(name, originatingElements)) {
        @Override
        public Writer openWriter() throws IOException {
          StringWriter copy = new StringWriter();
          return new FilterWriter(super.openWriter()) {
            private boolean closed;

            @Override
            public void write(int c) throws IOException {
              super.write(c);
              copy.write(c);
            }

            @Override
            public void write(char[] chars, int offset, int length) throws IOException {
              super.write(chars, offset, length);
              copy.write(chars, offset, length);
            }

            @Override
            public void write(String text, int offset, int length) throws IOException {
              super.write(text, offset, length);
              copy.write(text, offset, length);
            }

            @Override
            public void close() throws IOException {
              super.close();
              if (!closed) {
                closed = true;
                recording.record(generatedFile, copy.toString());
              }
            }
          };
        }

        @Override
        public OutputStream openOutputStream() throws IOException {
          throw new UnsupportedOperationException(
              "GeneratedManifest records sources written as text (JavaPoet's openWriter)");
        }
      };
    }

    @Override
    public JavaFileObject createClassFile(CharSequence name, Element... originatingElements)
        throws IOException {
      return delegate.createClassFile(name, originatingElements);
    }

    @Override
    public FileObject createResource(JavaFileManager.Location location, CharSequence moduleAndPkg,
        CharSequence relativeName, Element... originatingElements) throws IOException {
      return delegate.createResource(location, moduleAndPkg, relativeName, originatingElements);
    }

    @Override
    public FileObject getResource(JavaFileManager.Location location, CharSequence moduleAndPkg,
        CharSequence relativeName) throws IOException {
      return delegate.getResource(location, moduleAndPkg, relativeName);
    }
  }
}
