package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Filer;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Build tools hand processors a wrapper around javac's environment (Gradle, IntelliJ); ad4j must
 * find javac's trees through it; where it cannot and no javac parser is at hand either, fail with
 * one clear error. (Parsing the sources where a compiler gives no trees is EcjTest's subject.)
 */
class TreesLocatorTest {
  private static final JavaFileObject SOURCE = JavaFileObjects.forSourceString(
      "com.example.Rosenbrock", GoldenTest.ROSENBROCK);

  @Test
  void unwrapsAProxyWhoseHandlerHoldsTheEnvironment() {
    assertGenerates(ProxyEnvironment::wrap);
  }

  @Test
  void unwrapsADelegatingEnvironment() {
    assertGenerates(ForwardingEnvironment::new);
  }

  @Test
  void unwrapsNestedWrappers() {
    assertGenerates(env -> ProxyEnvironment.wrap(new ForwardingEnvironment(env)));
  }

  @Test
  void anEnvironmentWithoutJavacOnARuntimeWithoutJavacGivesOneClearError() {
    Compilation compilation = Compiler.javac()
        .withProcessors(new WrappingProcessor(CopyingEnvironment::new, () -> null))
        .compile(SOURCE);

    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: cannot read method bodies")
        .inFile(SOURCE).onLine(7);
    assertThat(compilation).hadErrorContaining(CopyingEnvironment.class.getName());
    assertThat(compilation).hadErrorContaining("run the compiler, or the IDE, on a JDK 17 or later");
  }

  @Test
  void anEnvironmentWithoutJavacParsesTheSourceFromTheSourcePath(@TempDir Path sources)
      throws IOException {
    Path file = sources.resolve("com/example/Rosenbrock.java");
    Files.createDirectories(file.getParent());
    Files.writeString(file,
        GoldenTest.ROSENBROCK.replace("return a * a", "return Math.random() + a * a"));

    JavaFileObject source = JavaFileObjects.forResource(file.toUri().toURL());

    Compilation compilation = Compiler.javac()
        .withProcessors(new WrappingProcessor(CopyingEnvironment::new,
            ToolProvider::getSystemJavaCompiler))
        .withOptions("-sourcepath", sources.toString())
        .compile(source);

    // the error is reported at the method (line 7), its own position in the text
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: Rosenbrock.java:10:23: call to"
        + " 'Math.random()' is not differentiable").inFile(source).onLine(7);
  }

  @Test
  void findsJavacsOwnEnvironmentDirectly() {
    assertGenerates(UnaryOperator.identity());
  }

  private static void assertGenerates(UnaryOperator<ProcessingEnvironment> wrap) {
    Compilation compilation = compile(wrap);
    InProcessCompiler.requireSuccess(compilation);
    assertThat(compilation).generatedSourceFile("com.example.RosenbrockGrad")
        .contentsAsUtf8String().contains("static double valueValueAndGradient(double x, double y,"
            + " double[] gradient)");
  }

  private static Compilation compile(UnaryOperator<ProcessingEnvironment> wrap) {
    return Compiler.javac()
        .withProcessors(new WrappingProcessor(wrap, ToolProvider::getSystemJavaCompiler))
        .compile(SOURCE);
  }

  /** Runs ad4j with a wrapped environment, as a build tool would. */
  private static final class WrappingProcessor extends AbstractProcessor {
    private final DifferentiableProcessor delegate;
    private final UnaryOperator<ProcessingEnvironment> wrap;

    WrappingProcessor(UnaryOperator<ProcessingEnvironment> wrap, Supplier<JavaCompiler> parser) {
      this.wrap = wrap;
      this.delegate = new DifferentiableProcessor(parser);
    }

    @Override
    public synchronized void init(ProcessingEnvironment environment) {
      super.init(environment);
      delegate.init(wrap.apply(environment));
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
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      return delegate.process(annotations, round);
    }
  }

  /** A dynamic proxy, as IntelliJ makes; the handler keeps the real environment in a field. */
  private static final class ProxyEnvironment implements InvocationHandler {
    private final ProcessingEnvironment real;

    private ProxyEnvironment(ProcessingEnvironment real) {
      this.real = real;
    }

    static ProcessingEnvironment wrap(ProcessingEnvironment real) {
      return (ProcessingEnvironment) Proxy.newProxyInstance(
          TreesLocatorTest.class.getClassLoader(), new Class<?>[] {ProcessingEnvironment.class},
          new ProxyEnvironment(real));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] arguments) throws Throwable {
      try {
        return method.invoke(real, arguments);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }

  /** A delegating class, as Gradle's incremental processing makes. */
  private static final class ForwardingEnvironment implements ProcessingEnvironment {
    private final ProcessingEnvironment delegate;

    ForwardingEnvironment(ProcessingEnvironment delegate) {
      this.delegate = delegate;
    }

    @Override public Map<String, String> getOptions() { return delegate.getOptions(); }
    @Override public Messager getMessager() { return delegate.getMessager(); }
    @Override public Filer getFiler() { return delegate.getFiler(); }
    @Override public Elements getElementUtils() { return delegate.getElementUtils(); }
    @Override public Types getTypeUtils() { return delegate.getTypeUtils(); }
    @Override public SourceVersion getSourceVersion() { return delegate.getSourceVersion(); }
    @Override public Locale getLocale() { return delegate.getLocale(); }
  }

  /** An environment of another compiler: it works, but holds nothing of javac's. */
  private static final class CopyingEnvironment implements ProcessingEnvironment {
    private final Map<String, String> options;
    private final Messager messager;
    private final Filer filer;
    private final Elements elements;
    private final Types types;
    private final SourceVersion sourceVersion;
    private final Locale locale;

    CopyingEnvironment(ProcessingEnvironment javac) {
      options = javac.getOptions();
      messager = javac.getMessager();
      filer = javac.getFiler();
      elements = javac.getElementUtils();
      types = javac.getTypeUtils();
      sourceVersion = javac.getSourceVersion();
      locale = javac.getLocale();
    }

    @Override public Map<String, String> getOptions() { return options; }
    @Override public Messager getMessager() { return messager; }
    @Override public Filer getFiler() { return filer; }
    @Override public Elements getElementUtils() { return elements; }
    @Override public Types getTypeUtils() { return types; }
    @Override public SourceVersion getSourceVersion() { return sourceVersion; }
    @Override public Locale getLocale() { return locale; }
  }
}
