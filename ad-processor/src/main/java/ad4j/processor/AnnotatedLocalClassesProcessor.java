package ad4j.processor;

import com.google.auto.service.AutoService;
import com.sun.source.util.Trees;
import java.util.Optional;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;

/**
 * Reports {@code @Differentiable} on methods of local and anonymous classes
 * ({@link LocalClassMethods}) in every compilation javac runs it in. javac calls a processor
 * only in rounds where one of its annotations is present on the elements it enters, and it
 * enters local and anonymous classes only after processing: a source whose only
 * {@code @Differentiable} methods are in such classes would not wake
 * {@link DifferentiableProcessor}, and the annotations would be ignored without a word. This
 * processor supports {@code "*"} and claims nothing, so other processors see every annotation
 * as before. javac calls it in a round only while some annotation there is left unclaimed by the
 * processors before it (or none is present at all), so it must come before
 * {@link DifferentiableProcessor}, which claims ad4j's: javac calls processors in the order of
 * the jar's service file, which AutoService sorts by name, hence this class's name. Where the compiler gives no syntax trees (ECJ),
 * {@link DifferentiableProcessor} reports these methods itself, in the trees it parses.
 */
@AutoService(Processor.class)
public final class AnnotatedLocalClassesProcessor extends AbstractProcessor {
  private Trees trees;

  /** The processor javac loads next to {@link DifferentiableProcessor}. */
  public AnnotatedLocalClassesProcessor() {}

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of("*");
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public synchronized void init(ProcessingEnvironment environment) {
    super.init(environment);
    trees = compilerTrees(environment).orElse(null);
  }

  /** The compiler's own syntax trees, as {@link DifferentiableProcessor} finds them; or none. */
  static Optional<Trees> compilerTrees(ProcessingEnvironment environment) {
    return TreesLocator.find(environment);
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    if (trees != null) {
      LocalClassMethods.report(trees, processingEnv.getElementUtils(), round.getRootElements());
    }
    return false; // claims nothing: every annotation stays for the processors that own it
  }
}
