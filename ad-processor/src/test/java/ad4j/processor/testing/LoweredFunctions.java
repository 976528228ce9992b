package ad4j.processor.testing;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.front.Diagnostics;
import ad4j.processor.front.Lowering;
import ad4j.processor.ir.Function;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/** The IR of {@code @Differentiable} methods, lowered by the real front end from Java source. */
public final class LoweredFunctions {
  private LoweredFunctions() {}

  /** The lowered methods of the class {@code className} in {@code source}, by name. */
  public static Map<String, Function> of(String className, String source) {
    Capture capture = new Capture();
    Compilation compilation = Compiler.javac().withProcessors(capture)
        .withOptions("-proc:only")
        .compile(JavaFileObjects.forSourceString(className, source));
    assertThat(compilation.errors()).isEmpty();
    return capture.functions;
  }

  /** Lowers every {@code @Differentiable} method, as the processor does, and keeps the IR. */
  private static final class Capture extends AbstractProcessor {
    final Map<String, Function> functions = new LinkedHashMap<>();

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("ad4j.Differentiable");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      Trees trees = Trees.instance(processingEnv);
      List<Element> methods = new ArrayList<>();
      for (TypeElement annotation : annotations) {
        methods.addAll(round.getElementsAnnotatedWith(annotation));
      }
      for (Element element : methods) {
        ExecutableElement method = (ExecutableElement) element;
        TreePath path = trees.getPath(method);
        Diagnostics diagnostics = new Diagnostics(trees, path.getCompilationUnit());
        Lowering.lower(processingEnv.getElementUtils(), processingEnv.getTypeUtils(), trees,
            path.getCompilationUnit(), method, (MethodTree) path.getLeaf(), diagnostics,
            type -> true)
            .ifPresent(f -> functions.put(method.getSimpleName().toString(), f));
        diagnostics.report();
      }
      return false;
    }
  }
}
