package ad4j.processor.testing;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.DifferentiableProcessor;
import ad4j.processor.AnnotatedLocalClassesProcessor;
import ad4j.processor.ChangedReadCodeProcessor;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * Compiles Java sources in memory with the ad4j processor, and loads the compiled classes (the
 * user's and the generated {@code FooGrad}) so that tests can call them.
 *
 * <pre>{@code
 * Compiled compiled = InProcessCompiler.compile("com.example.F", "package com.example; ...");
 * CompiledFunction f = compiled.function("com.example.F", "f", 2);
 * double[] gradient = f.gradient(1.0, 2.0);
 * }</pre>
 */
public final class InProcessCompiler {
  private InProcessCompiler() {}

  /**
   * javac with the ad4j processors, in the order javac loads them from the jar, and the given options (e.g. {@code -Xlint:all}). With the
   * system property {@code ad4j.crossCheck} set, every compilation also compares ad4j's name
   * resolution with javac's ({@link ResolutionCrossCheck.CorpusProcessor}).
   */
  public static Compiler javac(String... options) {
    Compiler compiler = System.getProperty("ad4j.crossCheck") == null
        ? Compiler.javac()
            .withProcessors(new AnnotatedLocalClassesProcessor(), new ChangedReadCodeProcessor(),
                GeneratedManifest.recording(new DifferentiableProcessor()))
        // first: javac initializes a processor when a round first reaches it, and ad4j
        // claims every annotation it processes
        : Compiler.javac().withProcessors(new ResolutionCrossCheck.CorpusProcessor(),
            new AnnotatedLocalClassesProcessor(), new ChangedReadCodeProcessor(),
            GeneratedManifest.recording(new DifferentiableProcessor()));
    return compiler.withOptions((Object[]) options);
  }

  /**
   * Writes the class files {@code library} produced under {@code directory}, and returns a
   * class path of that directory and this test's own (the annotations and the runtime): for a
   * compilation against a library compiled earlier, whose sources it does not see.
   */
  public static List<java.io.File> classpathWithClassesOf(Compilation library, Path directory)
      throws IOException {
    for (JavaFileObject output : library.generatedFiles()) {
      if (output.getKind() == JavaFileObject.Kind.CLASS) {
        String name = output.getName().replaceFirst("^.*?/com/", "com/");
        Path target = directory.resolve(name);
        Files.createDirectories(target.getParent());
        try (InputStream in = output.openInputStream()) {
          Files.copy(in, target);
        }
      }
    }
    List<java.io.File> path = new java.util.ArrayList<>();
    path.add(directory.toFile());
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      path.add(new java.io.File(entry));
    }
    return path;
  }

  /** Compiles one source; the compilation is not required to succeed. */
  public static Compilation compileUnchecked(String qualifiedName, String source) {
    return javac().compile(JavaFileObjects.forSourceString(qualifiedName, source));
  }

  /**
   * Compiles sources given as alternating (qualified name, source text) pairs, requires success
   * without errors, and loads every class produced.
   */
  public static Compiled compile(String... namesAndSources) {
    return compileWith(List.of(), namesAndSources);
  }

  /**
   * As {@link #compile(String...)}, with javac options (e.g. {@code -Xlint:all -Werror}); with
   * {@code -Werror} a warning anywhere, generated code included, fails the compilation.
   */
  public static Compiled compileWith(List<String> options, String... namesAndSources) {
    if (namesAndSources.length % 2 != 0) {
      throw new IllegalArgumentException("expected (name, source) pairs");
    }
    JavaFileObject[] files = new JavaFileObject[namesAndSources.length / 2];
    for (int i = 0; i < files.length; i++) {
      files[i] = JavaFileObjects.forSourceString(namesAndSources[2 * i], namesAndSources[2 * i + 1]);
    }
    return loaded(javac(options.toArray(String[]::new)).compile(files));
  }

  /**
   * Requires a compilation made elsewhere (with other processors, say) to have succeeded, and
   * loads every class produced.
   */
  public static Compiled loaded(Compilation compilation) {
    requireSuccess(compilation);
    return new Compiled(compilation, load(compilation));
  }

  /**
   * The one generated class {@code FooGrad} of a compilation of one user's class, without its
   * companion {@code FooGradSweeps}.
   */
  public static JavaFileObject gradSource(Compilation compilation) {
    List<JavaFileObject> grad = compilation.generatedSourceFiles().stream()
        .filter(file -> !file.getName().endsWith("GradSweeps.java")).toList();
    assertWithMessage("generated classes besides companions").that(grad).hasSize(1);
    return grad.get(0);
  }

  /** Fails with every diagnostic in the message unless the compilation succeeded. */
  public static void requireSuccess(Compilation compilation) {
    assertWithMessage("compilation failed:\n%s", describe(compilation.diagnostics()))
        .that(compilation.status())
        .isEqualTo(Compilation.Status.SUCCESS);
  }

  /** One diagnostic per line, as {@code KIND file:line:column message}. */
  public static String describe(List<Diagnostic<? extends JavaFileObject>> diagnostics) {
    return diagnostics.stream()
        .map(d -> d.getKind() + " " + (d.getSource() == null ? "?" : d.getSource().getName())
            + ":" + d.getLineNumber() + ":" + d.getColumnNumber() + " " + d.getMessage(null))
        .collect(Collectors.joining("\n"));
  }

  /**
   * The classes whose source the processor asked javac's Filer to create, also when the
   * compilation fails (compile-testing hides generated files of a failed compilation).
   */
  public static Set<String> generatedSourceNames(JavaFileObject... sources) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Set<String> created = new TreeSet<>();
    try (StandardJavaFileManager standard = javac.getStandardFileManager(null, null, null)) {
      Path output = Files.createTempDirectory("ad4j-test");
      try {
        standard.setLocationFromPaths(StandardLocation.SOURCE_OUTPUT, List.of(output));
        standard.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(output));
        JavaFileManager recording = new ForwardingJavaFileManager<>(standard) {
          @Override
          public JavaFileObject getJavaFileForOutput(Location location, String className,
              JavaFileObject.Kind kind, FileObject sibling) throws IOException {
            if (kind == JavaFileObject.Kind.SOURCE) {
              created.add(className);
            }
            return super.getJavaFileForOutput(location, className, kind, sibling);
          }
        };
        JavaCompiler.CompilationTask task = javac.getTask(new StringWriter(), recording,
            diagnostic -> { }, List.of("-proc:only"), null, List.of(sources));
        task.setProcessors(
            List.of(GeneratedManifest.recording(new DifferentiableProcessor())));
        task.call();
      } finally {
        try (Stream<Path> files = Files.walk(output)) {
          files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return created;
  }

  /**
   * The classes of a successful compilation in a class loader of their own, where the classes
   * named in {@code assertions} have their assertions enabled or disabled (set before any is
   * loaded, as {@code -ea:com.example.F} would).
   */
  public static Compiled loadedWithAssertions(Compilation compilation,
      Map<String, Boolean> assertions) {
    requireSuccess(compilation);
    ClassLoader loader = load(compilation);
    assertions.forEach(loader::setClassAssertionStatus);
    return new Compiled(compilation, loader);
  }

  /**
   * Requires {@code compilation}, made against the class files of {@code library} (a library
   * compiled earlier, {@link #classpathWithClassesOf}), to have succeeded, and loads the
   * classes of both.
   */
  public static Compiled loadedWithLibrary(Compilation compilation, Compilation library) {
    requireSuccess(compilation);
    return new Compiled(compilation, load(compilation, library));
  }

  /**
   * A class loader over the class files of compilations, delegating to the test's loader.
   */
  private static ClassLoader load(Compilation... compilations) {
    Map<String, byte[]> classes = new HashMap<>();
    for (JavaFileObject file : java.util.Arrays.stream(compilations)
        .flatMap(compilation -> compilation.generatedFiles().stream()).toList()) {
      if (file.getKind() != JavaFileObject.Kind.CLASS) {
        continue;
      }
      String path = file.toUri().getPath(); // /CLASS_OUTPUT/com/example/Foo.class
      String binaryName = path.substring(path.indexOf('/', 1) + 1, path.length() - ".class".length())
          .replace('/', '.');
      try (InputStream in = file.openInputStream()) {
        classes.put(binaryName, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new ClassLoader(InProcessCompiler.class.getClassLoader()) {
      @Override
      protected Class<?> findClass(String name) throws ClassNotFoundException {
        byte[] bytes = classes.get(name);
        if (bytes == null) {
          throw new ClassNotFoundException(name);
        }
        return defineClass(name, bytes, 0, bytes.length);
      }
    };
  }

  /** A successful compilation and its loaded classes. */
  public static final class Compiled {
    private final Compilation compilation;
    private final ClassLoader loader;

    Compiled(Compilation compilation, ClassLoader loader) {
      this.compilation = compilation;
      this.loader = loader;
    }

    public Compilation compilation() {
      return compilation;
    }

    /** A compiled class by binary name ({@code com.example.Outer$Inner}). */
    public Class<?> load(String binaryName) {
      try {
        return Class.forName(binaryName, true, loader);
      } catch (ClassNotFoundException e) {
        throw new AssertionError("not compiled: " + binaryName, e);
      }
    }

    /**
     * Calls the static method {@code name} of the class {@code binaryName} that takes
     * {@code arguments.length} parameters, the first not a {@code Tape} (generated classes
     * overload members with the tape first for the code of callers); private ones included.
     *
     * @throws java.lang.reflect.InvocationTargetException what the method throws, wrapped
     */
    public Object invoke(String binaryName, String name, Object... arguments) throws Exception {
      for (java.lang.reflect.Method method : load(binaryName).getDeclaredMethods()) {
        if (method.getName().equals(name) && method.getParameterCount() == arguments.length
            && (arguments.length == 0
                || method.getParameterTypes()[0] != ad4j.runtime.internal.Tape.class)) {
          method.setAccessible(true); // generated classes are package-private, as the user's
          return method.invoke(null, arguments);
        }
      }
      throw new AssertionError("no method " + name + " with " + arguments.length
          + " parameters in " + binaryName);
    }

    /**
     * The method {@code name} with {@code arity} double parameters of the class
     * {@code userClass} (binary name), with its generated derivatives in {@code gradClass}.
     */
    public CompiledFunction function(String userClass, String gradClass, String name, int arity) {
      return new CompiledFunction(load(userClass), load(gradClass), name, arity);
    }

    /** As above, with the generated class named {@code userClass + "Grad"}. */
    public CompiledFunction function(String userClass, String name, int arity) {
      return function(userClass, userClass + "Grad", name, arity);
    }

    /**
     * The method {@code name} of {@code userClass} with these parameter types, each
     * {@code double.class} or {@code float.class}, its derivatives in {@code userClass +
     * "Grad"}.
     */
    public CompiledFunction function(String userClass, String name,
        Class<?>... parameterTypes) {
      return new CompiledFunction(load(userClass), load(userClass + "Grad"), name,
          parameterTypes);
    }
  }
}
