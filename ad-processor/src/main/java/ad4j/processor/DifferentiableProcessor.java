package ad4j.processor;

import ad4j.processor.emit.GradClassWriter;
import ad4j.processor.front.Diagnostics;
import ad4j.processor.front.Lowering;
import ad4j.processor.ir.Function;
import com.google.auto.service.AutoService;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * The ad4j annotation processor: for each class with {@code @Differentiable} methods, writes a
 * sibling class {@code FooGrad} with their derivatives.
 *
 * <p>This entry point only dispatches: {@link MethodValidator} checks signatures,
 * {@link Lowering} turns bodies into IR, {@link GradClassWriter} writes the class. No exception
 * escapes to javac; an internal failure becomes an error on the method being processed.
 */
@AutoService(Processor.class)
public final class DifferentiableProcessor extends AbstractProcessor {
  static final String ANNOTATION = "ad4j.Differentiable";

  /**
   * The annotation on every class we write. javac's -Xlint:processing warns about annotations
   * that no processor claims, and our own output would draw that warning in the next round; so
   * ad4j claims it too (it does nothing with it).
   */
  static final String GENERATED = "javax.annotation.processing.Generated";

  private final Supplier<JavaCompiler> parser;
  private Trees trees;
  private GradClassClaims claims;

  /** The processor javac and other compilers load. */
  public DifferentiableProcessor() {
    this(ToolProvider::getSystemJavaCompiler);
  }

  /**
   * A processor that parses sources with {@code parser} where the compiler gives no syntax
   * trees (ECJ); the parser may be null, as on a Java runtime without javac.
   */
  DifferentiableProcessor(Supplier<JavaCompiler> parser) {
    this.parser = parser;
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(ANNOTATION, GENERATED);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public synchronized void init(ProcessingEnvironment environment) {
    super.init(environment);
    trees = TreesLocator.find(environment).orElseGet(() -> parsedTrees(environment));
    claims = new GradClassClaims(environment.getElementUtils(), trees);
  }

  /** Trees parsed by the JDK's javac parser, for compilers that give none (ECJ); else null. */
  private Trees parsedTrees(ProcessingEnvironment environment) {
    JavaCompiler javac = parser.get();
    return javac == null ? null : new ParsedTrees(javac,
        new SourceFileReader(environment.getFiler(), environment.getElementUtils()),
        environment.getMessager());
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    TypeElement annotation = processingEnv.getElementUtils().getTypeElement(ANNOTATION);
    if (annotation == null) {
      return false;
    }
    // ad4j owns its annotation: claiming it keeps -Xlint:processing quiet.
    Set<? extends Element> annotated = round.getElementsAnnotatedWith(annotation);
    if (trees != null) {
      LocalClassMethods.report(trees, processingEnv.getElementUtils(), round.getRootElements());
    }
    if (annotated.isEmpty()) {
      return true;
    }
    if (trees == null) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, Diagnostics.PREFIX
          + "cannot read method bodies: this compiler's processing environment ("
          + processingEnv.getClass().getName() + ") gives no syntax trees, and its Java"
          + " runtime has no javac (module jdk.compiler) to parse the sources with; run the"
          + " compiler, or the IDE, on a JDK 17 or later instead of a JRE",
          annotated.iterator().next());
      return true;
    }
    for (Map.Entry<TypeElement, List<ExecutableElement>> entry : byClass(annotated).entrySet()) {
      processClass(entry.getKey(), entry.getValue());
    }
    return true;
  }

  /** Groups the annotated methods by their class, in the order javac lists them. */
  private static Map<TypeElement, List<ExecutableElement>> byClass(Set<? extends Element> elements) {
    Map<TypeElement, List<ExecutableElement>> byClass = new LinkedHashMap<>();
    for (Element element : elements) {
      if (element.getKind() == ElementKind.METHOD
          && element.getEnclosingElement() instanceof TypeElement type) {
        byClass.computeIfAbsent(type, t -> new ArrayList<>()).add((ExecutableElement) element);
      }
    }
    return byClass;
  }

  private void processClass(TypeElement type, List<ExecutableElement> methods) {
    GradClassWriter writer = new GradClassWriter(processingEnv.getElementUtils());
    Optional<String> taken = claims.claim(type, writer.gradClassName(type).canonicalName());
    if (taken.isPresent()) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
          Diagnostics.PREFIX + taken.get(), type);
      return;
    }
    List<GradClassWriter.Method> lowered = new ArrayList<>();
    boolean failed = false;
    for (ExecutableElement method : methods) {
      Optional<Function> function = processMethod(method);
      if (function.isPresent()) {
        lowered.add(new GradClassWriter.Method(method, function.get()));
      } else {
        failed = true;
      }
    }
    if (failed) {
      return; // javac stops after this round; a partial FooGrad would only add noise
    }
    Optional<String> clash = GeneratedNames.findClash(lowered);
    if (clash.isPresent()) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
          Diagnostics.PREFIX + clash.get(), type);
      return;
    }
    try {
      writer.write(type, lowered).writeTo(processingEnv.getFiler());
    } catch (IOException e) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, Diagnostics.PREFIX
          + "cannot write " + writer.gradClassName(type) + ": " + e, type);
    } catch (RuntimeException | StackOverflowError | AssertionError e) {
      reportInternalError("writing " + writer.gradClassName(type), "the source of this class",
          type, e);
    }
  }

  private Optional<Function> processMethod(ExecutableElement method) {
    TreePath path = trees.getPath(method);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree)) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, Diagnostics.PREFIX
          + "cannot find the source of '" + method.getSimpleName() + "': @Differentiable"
          + " methods must be compiled from source", method);
      return Optional.empty();
    }
    CompilationUnitTree unit = path.getCompilationUnit();
    Diagnostics diagnostics = new Diagnostics(trees, unit);
    try {
      Optional<Function> function = Optional.empty();
      if (MethodValidator.validate(method, tree, diagnostics)) {
        function = Lowering.lower(processingEnv.getElementUtils(), processingEnv.getTypeUtils(),
            trees, unit, method, tree, diagnostics);
      }
      diagnostics.report();
      return function;
    } catch (RuntimeException | StackOverflowError | AssertionError e) {
      reportInternalError("differentiating '" + method.getSimpleName() + "'",
          "this method's source", method, e);
      return Optional.empty();
    }
  }

  /** An exception of ad4j's own becomes an error on the element, never a javac crash. */
  private void reportInternalError(String activity, String source, Element element, Throwable e) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, Diagnostics.PREFIX
        + "internal error while " + activity + "; please report it with " + source + ". "
        + trace, element);
  }
}
