package ad4j.processor;

import ad4j.processor.front.ActiveParameters;
import ad4j.processor.front.DerivativeOfRules;
import ad4j.processor.front.Diagnostics;
import ad4j.processor.front.Lowering;
import ad4j.processor.front.StaticInitialization;
import ad4j.processor.front.ValueClasses;
import ad4j.processor.ir.Function;
import ad4j.processor.plan.Unsupported;
import ad4j.processor.write.CalleesRunAgain;
import ad4j.processor.write.GradClassWriter;
import com.google.auto.service.AutoService;
import com.palantir.javapoet.JavaFile;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
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
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.ElementFilter;
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
  /** Whether {@link #trees} are the compiler's own (javac's), not parsed by ad4j (ECJ). */
  private boolean compilerTrees;
  private GradClassClaims claims;
  private Rounds rounds;
  /**
   * The classes of this compilation that declare {@code @DerivativeOf} rules, gathered over the
   * rounds: every call sees their rules.
   */
  private final Set<TypeElement> ruleClasses = new java.util.LinkedHashSet<>();
  /** The classes whose methods {@code @DerivativeOf} rules of the compilation target. */
  private final Set<TypeElement> ruledClasses = new java.util.HashSet<>();
  /** The rule classes of earlier compilations into the same output, and of this one. */
  private RuleClassIndex ruleClassIndex;
  /** {@link #trees}, noting what each class's processing reads of other files. */
  private RecordingTrees recording;
  /** What the generated classes of this compilation and earlier ones were made from. */
  private CodeReadIndex codeRead;
  private DeclarationDigests digests;
  /** The class files of records the compilation has without their source. */
  private ClassPathClassFiles classFiles;

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

  /** Read by {@code front/CheckpointedLoops} on the methods it marks; claimed here. */
  private static final String CHECKPOINTED = "ad4j.Checkpointed";

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(ANNOTATION, DerivativeOfRules.ANNOTATION, DerivativeOfRules.USES,
        ActiveParameters.NO_DERIVATIVE, CHECKPOINTED, GENERATED);
  }

  /**
   * {@code -Aad4j.partSize=N}, for the processor's own tests: cut every block (the method's, a
   * branch, a loop body) of the order-1 members into parts of N statements
   * ({@code transform/LongBlocks}), long or not, so
   * that any program can exercise the cut. Not for users: it only makes code slower.
   */
  static final String PART_SIZE = "ad4j.partSize";

  /**
   * {@code -Aad4j.methodLimit=N}, for the processor's own tests: a generated member whose
   * estimated bytecode passes N bytes counts as past the JVM's limit for one method, so that
   * the error for such methods can be tested on a short program. Not for users.
   */
  static final String METHOD_LIMIT = "ad4j.methodLimit";

  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(PART_SIZE, METHOD_LIMIT);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public synchronized void init(ProcessingEnvironment environment) {
    super.init(environment);
    Optional<Trees> found = AnnotatedLocalClassesProcessor.compilerTrees(environment);
    compilerTrees = found.isPresent();
    Trees given = found.orElseGet(() -> parsedTrees(environment));
    recording = given == null ? null : new RecordingTrees(given);
    trees = recording;
    codeRead = new CodeReadIndex(environment.getFiler());
    digests = given == null ? null : new DeclarationDigests(given,
        environment.getElementUtils(), environment.getTypeUtils());
    claims = new GradClassClaims(environment.getElementUtils(), trees);
    rounds = new Rounds(environment.getElementUtils());
    ruleClassIndex = trees == null ? null : new RuleClassIndex(environment.getFiler(),
        environment.getElementUtils(), trees);
    classFiles = new ClassPathClassFiles(environment.getFiler(), environment.getElementUtils());
  }

  /** Trees parsed by the JDK's javac parser, for compilers that give none (ECJ); else null. */
  private Trees parsedTrees(ProcessingEnvironment environment) {
    return ParsedTrees.of(parser.get(), environment);
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    TypeElement annotation = processingEnv.getElementUtils().getTypeElement(ANNOTATION);
    if (annotation == null) {
      return false;
    }
    rounds.start(round);
    // ad4j owns its annotation: claiming it keeps -Xlint:processing quiet.
    Set<? extends Element> annotated = round.getElementsAnnotatedWith(annotation);
    if (trees == null) {
      if (!annotated.isEmpty()) {
        processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, Diagnostics.PREFIX
            + "cannot read method bodies: this compiler's processing environment ("
            + processingEnv.getClass().getName() + ") gives no syntax trees, and its Java"
            + " runtime has no javac (module jdk.compiler) to parse the sources with; run the"
            + " compiler, or the IDE, on a JDK 17 or later instead of a JRE",
            annotated.iterator().next());
      }
      return true;
    }
    if (!compilerTrees) {
      // with the compiler's trees, AnnotatedLocalClassesProcessor reports these in every round
      LocalClassMethods.report(trees, processingEnv.getElementUtils(), round.getRootElements());
    }
    TypeElement rules = processingEnv.getElementUtils()
        .getTypeElement(DerivativeOfRules.ANNOTATION);
    if (rules != null) {
      Set<? extends Element> ruleMethods = round.getElementsAnnotatedWith(rules);
      DerivativeOfRules found = new DerivativeOfRules(
          processingEnv.getElementUtils(), processingEnv.getTypeUtils());
      RuleValidator validator = new RuleValidator(found, processingEnv.getMessager());
      validator.validate(ruleMethods);
      for (Element method : ruleMethods) {
        if (method.getEnclosingElement() instanceof TypeElement type) {
          ruleClasses.add(type);
          ruleClassIndex.add(type);
        }
        if (method instanceof ExecutableElement rule) {
          found.ownerOf(rule).ifPresent(ruledClasses::add);
        }
      }
      // a build that compiles only the edited files leaves the other rule classes out
      for (TypeElement earlier : ruleClassIndex.earlierClasses(rounds, round.getRootElements())) {
        ruleClasses.add(earlier);
        for (ExecutableElement rule : ElementFilter.methodsIn(earlier.getEnclosedElements())) {
          if (DerivativeOfRules.annotationOf(rule).isPresent()) {
            found.ownerOf(rule).ifPresent(ruledClasses::add);
          }
        }
      }
      if (round.processingOver()) {
        ruleClassIndex.write();
      }
      TypeElement uses = processingEnv.getElementUtils().getTypeElement(DerivativeOfRules.USES);
      if (uses != null) {
        validator.validateUses(round.getElementsAnnotatedWith(uses));
      }
    }
    Map<TypeElement, List<ExecutableElement>> work = rounds.work(annotated, ANNOTATION);
    onLargeStack(() -> {
      for (Map.Entry<TypeElement, List<ExecutableElement>> entry : work.entrySet()) {
        recording.start();
        List<String> written = new ArrayList<>(1);
        // value classes are told apart by their constructors' and getters' trees, found afresh
        // for each class, so that what it reads of them is noted for it
        ValueClasses.during(trees, ruledClasses, () -> processClass(entry.getKey(),
            entry.getValue(), round.processingOver()).ifPresent(written::add));
        Set<Element> read = new java.util.LinkedHashSet<>(recording.stop());
        // a call takes the rule of any rule class there is: the class was made from their rules,
        // and from the absence of others, also where it looked none of them up
        read.addAll(ruleClasses);
        for (String generated : written) {
          codeRead.generated(generated, entry.getKey(), read, recording.unrecorded(), digests,
              rounds::isSource);
        }
      }
    });
    if (round.processingOver()) {
      // a build that compiles only the files that changed checks them against this list
      codeRead.write(rounds::isSource);
    }
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

  /** The option {@code name} as a positive number, or 0 when it is not given (or not one). */
  private int positiveOption(String name) {
    String value = processingEnv.getOptions().get(name);
    try {
      return value == null ? 0 : Math.max(0, Integer.parseInt(value.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Writes {@code FooGrad} for {@code type}, and answers its name if it did. When a method
   * names something that does not resolve and this is not the last round, the class waits for
   * the next round: another processor may generate that class in this one. Its errors are
   * reported in the last round.
   */
  private Optional<String> processClass(TypeElement type, List<ExecutableElement> methods,
      boolean lastRound) {
    GradClassWriter writer = new GradClassWriter(processingEnv.getElementUtils(),
        positiveOption(PART_SIZE), positiveOption(METHOD_LIMIT));
    Optional<String> taken = claims.claim(type, writer.gradClassName(type).canonicalName())
        .or(() -> claims.claim(type, writer.sweepsClassName(type).canonicalName()));
    if (taken.isPresent()) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
          Diagnostics.PREFIX + taken.get(), type);
      return Optional.empty();
    }
    List<Diagnostics> reports = new ArrayList<>();
    List<GradClassWriter.Method> lowered = new ArrayList<>();
    boolean failed = false;
    boolean unresolved = false;
    TreePath source = trees.getPath(type);
    CompilationUnitTree unit = source == null ? null : source.getCompilationUnit();
    for (ExecutableElement method : methods) {
      if (Lowering.takesFunction(method, processingEnv.getElementUtils())) {
        processingEnv.getMessager().printMessage(Diagnostic.Kind.NOTE, Diagnostics.PREFIX + "'"
            + method.getSimpleName() + "' takes a function: it is differentiated at each call"
            + " from a @Differentiable method compiled with its source, for the function passed"
            + " there, and gets no generated members of its own", method);
        continue;
      }
      Diagnostics diagnostics = new Diagnostics(trees, unit);
      Optional<Lowering.Lowered> function = processMethod(method, diagnostics);
      reports.add(diagnostics);
      unresolved |= diagnostics.hasUnresolvedNames();
      if (function.isPresent()) {
        lowered.add(new GradClassWriter.Method(method, function.get().function(),
            function.get().callRunAsWritten(), function.get().privateFields(),
            function.get().recordParameters(), function.get().carriedResult(),
            function.get().unrepeatableCalls()));
      } else {
        failed = true;
      }
    }
    if (unresolved && !lastRound) {
      rounds.defer(type);
      return Optional.empty();
    }
    Diagnostics.reportAll(reports);
    if (failed) {
      return Optional.empty(); // javac stops after this round; a partial FooGrad adds noise
    }
    if (lowered.isEmpty()) {
      return Optional.empty(); // only methods taking functions: no members of their own
    }
    try {
      boolean initializeFirst = StaticInitialization.mustInitializeFirst(type,
          processingEnv.getElementUtils(), processingEnv.getTypeUtils(), trees);
      for (JavaFile file : writer.write(type, lowered, initializeFirst)) {
        file.writeTo(processingEnv.getFiler());
      }
      return Optional.of(writer.gradClassName(type).canonicalName());
    } catch (IOException e) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, Diagnostics.PREFIX
          + "cannot write " + writer.gradClassName(type) + ": " + e, type);
    } catch (Unsupported e) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
          Diagnostics.PREFIX + e.getMessage(), e.method());
    } catch (CalleesRunAgain e) {
      // at the calls, in the class's source, as the lowering's errors are
      Diagnostics errors = new Diagnostics(trees, unit);
      e.calls().forEach(call -> errors.error(call.call().at(), call.message()));
      errors.report();
    } catch (RuntimeException | StackOverflowError | AssertionError e) {
      reportInternalError("writing " + writer.gradClassName(type), "the source of this class",
          type, e);
    }
    return Optional.empty();
  }

  /** Lowers one method; its errors are recorded in {@code diagnostics}, not reported yet. */
  private Optional<Lowering.Lowered> processMethod(ExecutableElement method,
      Diagnostics diagnostics) {
    TreePath path = trees.getPath(method);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree)) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, Diagnostics.PREFIX
          + "cannot find the source of '" + method.getSimpleName() + "': @Differentiable"
          + " methods must be compiled from source", method);
      return Optional.empty();
    }
    CompilationUnitTree unit = path.getCompilationUnit();
    try {
      boolean valid = MethodValidator.validate(method, tree, diagnostics);
      if (!valid && (tree.getBody() == null
          || method.getReturnType().getKind() == TypeKind.VOID)) {
        return Optional.empty();
      }
      // Also after a rejected signature: the body's errors are reported in the same compilation.
      Optional<Lowering.Lowered> function = Lowering.lowerMethod(
          processingEnv.getElementUtils(), processingEnv.getTypeUtils(), trees, unit, method,
          tree, diagnostics, this::hasGradClass, ruleClasses, classFiles);
      return valid ? function : Optional.empty();
    } catch (RuntimeException | StackOverflowError | AssertionError e) {
      reportInternalError("differentiating '" + method.getSimpleName() + "'",
          "this method's source", method, e);
      return Optional.empty();
    }
  }

  /**
   * Whether the generated class of {@code type} exists or ad4j writes it in this compilation:
   * only for source files javac was given, not for classes it compiles from the source path.
   */
  private boolean hasGradClass(TypeElement type) {
    String gradClass = new GradClassWriter(processingEnv.getElementUtils()).gradClassName(type)
        .canonicalName();
    return rounds.isSource(type)
        || processingEnv.getElementUtils().getTypeElement(gradClass) != null;
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
