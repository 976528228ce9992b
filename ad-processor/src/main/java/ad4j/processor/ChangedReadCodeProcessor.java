package ad4j.processor;

import ad4j.processor.front.Diagnostics;
import com.google.auto.service.AutoService;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.ToolProvider;

/**
 * Reports, in a compilation of some of a project's files, a change to code that an earlier
 * compilation read to write a generated class that this one does not write again
 * ({@link CodeReadIndex}): that class's derivatives would silently follow the old code. A build
 * that compiles only the files that changed (IntelliJ's own builder) compiles a record's file
 * alone when only an accessor's body changed; the error at the changed declaration asks for the
 * file of the class that reads it to be compiled too (in an IDE, a rebuild).
 *
 * <p>The edited file may hold no ad4j annotation at all, so this processor supports
 * {@code "*"} and claims nothing. javac calls it in a round only while some annotation there is
 * left unclaimed by the processors before it (or none is present at all), so, as
 * {@link AnnotatedLocalClassesProcessor}, it must come before {@link DifferentiableProcessor},
 * which claims ad4j's: javac calls processors in the order of the jar's service file, which
 * AutoService sorts by name, hence this class's name. It looks once, at the sources of the
 * first round.
 */
@AutoService(Processor.class)
public final class ChangedReadCodeProcessor extends AbstractProcessor {
  private Trees trees;
  private boolean checked;

  /** The processor javac loads next to {@link DifferentiableProcessor}. */
  public ChangedReadCodeProcessor() {}

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
    trees = AnnotatedLocalClassesProcessor.compilerTrees(environment).orElseGet(
        () -> ParsedTrees.of(ToolProvider.getSystemJavaCompiler(), environment));
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    if (checked || trees == null) {
      return false;
    }
    checked = true;
    Rounds compiled = new Rounds(processingEnv.getElementUtils());
    compiled.start(round);
    DeclarationDigests digests = new DeclarationDigests(trees,
        processingEnv.getElementUtils(), processingEnv.getTypeUtils());
    Set<String> reported = new HashSet<>();
    for (CodeReadIndex.Entry entry : new CodeReadIndex(processingEnv.getFiler()).earlier()) {
      if (!compiled.isSource(entry.readClass()) || compiled.isSource(entry.origin())
          || processingEnv.getElementUtils().getTypeElement(entry.generated()) == null) {
        continue; // not read here, or generated again, or gone with its class
      }
      Optional<Element> declaration = digests.find(entry.read());
      boolean same = declaration.flatMap(digests::digest)
          .filter(entry.digest()::equals).isPresent();
      if (!same && reported.add(entry.generated() + "\t" + entry.read())) {
        report(entry, declaration.orElseGet(() ->
            processingEnv.getElementUtils().getTypeElement(entry.readClass())));
      }
    }
    return false; // claims nothing: every annotation stays for the processors that own it
  }

  private void report(CodeReadIndex.Entry entry, Element at) {
    String origin = entry.origin().substring(entry.origin().lastIndexOf('.') + 1);
    String generated = entry.generated().substring(entry.generated().lastIndexOf('.') + 1);
    String message = Diagnostics.PREFIX + generated + ", the derivatives of class " + origin
        + ", was generated from this code as an earlier compilation found it; this compilation"
        + " changes the code but does not compile " + origin + ", so " + generated + " would"
        + " follow the old code: compile " + origin + " with this file (in an IDE, rebuild the"
        + " project)";
    // at the declaration's tree: where the compiler gives none (ECJ), the parsed trees put the
    // line and column in the message
    TreePath path = trees.getPath(at);
    if (path != null) {
      trees.printMessage(Diagnostic.Kind.ERROR, message, path.getLeaf(),
          path.getCompilationUnit());
    } else {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, message, at);
    }
  }
}
