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

  private Trees trees;

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
    trees = TreesLocator.find(environment).orElse(null);
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    TypeElement annotation = processingEnv.getElementUtils().getTypeElement(ANNOTATION);
    if (annotation == null) {
      return false;
    }
    // ad4j owns its annotation: claiming it keeps -Xlint:processing quiet.
    Set<? extends Element> annotated = round.getElementsAnnotatedWith(annotation);
    if (annotated.isEmpty()) {
      return true;
    }
    if (trees == null) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, Diagnostics.PREFIX
          + "cannot read method bodies: this compiler's processing environment ("
          + processingEnv.getClass().getName() + ") does not give access to javac's syntax"
          + " trees; ad4j needs javac (JDK 17 or later)", annotated.iterator().next());
      return true;
    }
    onLargeStack(() -> {
      for (Map.Entry<TypeElement, List<ExecutableElement>> entry
          : byClass(annotated).entrySet()) {
        processClass(entry.getKey(), entry.getValue());
      }
    });
    return true;
  }

  /**
   * The stack for processing: lowering, analysis and writing recurse once per nesting level of
   * the user's code (an else-if chain of 1,000 pieces is 1,000 levels deep), past what javac's
   * own thread has. Only reserved: a thread uses what it touches.
   */
  private static final long STACK_BYTES = 1L << 30;

  /**
   * Runs {@code work} on a thread of its own with a large stack, while javac's thread waits:
   * javac is never used by two threads at once, and start and join order their memory.
   */
  private static void onLargeStack(Runnable work) {
    Throwable[] failure = new Throwable[1];
    Thread thread = new Thread(null, () -> {
      try {
        work.run();
      } catch (Throwable t) {
        failure[0] = t;
      }
    }, "ad4j", STACK_BYTES);
    thread.start();
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure[0] instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure[0] instanceof Error error) {
      throw error;
    }
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
