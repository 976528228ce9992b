package ad4j.processor;

import ad4j.processor.front.DerivativeOfRules;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.tools.StandardLocation;

/**
 * The classes that declare {@code @DerivativeOf} rules, listed in the class output
 * ({@value #RESOURCE}) so that a later compilation into the same output sees them.
 *
 * <p>A call sees the rules of every class of the compilation. A build that compiles only the
 * files that changed (IntelliJ's own builder, Maven with {@code useIncrementalCompilation} off)
 * leaves a project-wide rules class out of the compilation of the file that was edited, and its
 * calls then took the built-in derivative, or the target's own, where a full build takes the
 * rule: a gradient that changed with the files edited. Each compilation therefore reads the
 * list the previous one wrote, keeps the classes that still declare rules, and writes it again
 * with its own. A class compiled earlier whose source file is gone from the source path (a
 * deleted file whose class file Maven leaves in {@code target/classes}) no longer counts, where
 * the source path is known to hold the compilation's sources; where it is not (Gradle and
 * IntelliJ pass none), the build deletes such class files itself.
 */
final class RuleClassIndex {
  /** Where the list is, relative to the class output. */
  static final String RESOURCE = "META-INF/ad4j/rule-classes";

  private final Filer filer;
  private final Elements elements;
  private final Trees trees;
  /** The source file name of each rule class, by qualified name, sorted for a stable file. */
  private final Map<String, String> classes = new TreeMap<>();
  private boolean found;
  private boolean read;

  RuleClassIndex(Filer filer, Elements elements, Trees trees) {
    this.filer = filer;
    this.elements = elements;
    this.trees = trees;
  }

  /**
   * The rule classes that earlier compilations into this output listed and this compilation
   * does not compile, which still declare rules and whose source is not known to be gone;
   * asked once, in the first round ({@code rounds} has its sources).
   */
  List<TypeElement> earlierClasses(Rounds rounds, Collection<? extends Element> roots) {
    if (read) {
      return List.of();
    }
    read = true;
    Map<String, String> listed = readListed();
    found = !listed.isEmpty();
    boolean sourcePathKnown = sourcePathHolds(roots);
    List<TypeElement> earlier = new ArrayList<>();
    for (Map.Entry<String, String> entry : listed.entrySet()) {
      TypeElement type = elements.getTypeElement(entry.getKey());
      if (type == null || rounds.isSource(type) || !declaresRules(type)
          || (sourcePathKnown && !onSourcePath(packageOf(type), entry.getValue()))) {
        continue;
      }
      classes.put(entry.getKey(), entry.getValue());
      earlier.add(type);
    }
    return earlier;
  }

  /** Lists {@code type}, a class of this compilation that declares rules. */
  void add(TypeElement type) {
    classes.put(type.getQualifiedName().toString(), sourceFileName(type));
  }

  /**
   * Writes the list for the next compilation: where there are rule classes, or where one was
   * read (it may have to be emptied). A compiler whose filer cannot write it goes without.
   */
  void write() {
    if (classes.isEmpty() && !found) {
      return;
    }
    List<String> lines = new ArrayList<>();
    classes.forEach((name, file) -> lines.add(name + "\t" + file));
    ClassOutputLists.write(filer, RESOURCE, lines);
  }

  /** The list an earlier compilation wrote into the class output: empty if there is none. */
  private Map<String, String> readListed() {
    Map<String, String> listed = new TreeMap<>();
    for (String line : ClassOutputLists.read(filer, RESOURCE)) {
      String[] parts = line.split("\t");
      if (parts.length == 2 && !parts[0].isBlank() && parts[1].endsWith(".java")) {
        listed.put(parts[0], parts[1]);
      }
    }
    return listed;
  }

  /**
   * Whether the source path holds this compilation's own sources, so that a file missing from
   * it is gone: Maven passes the source roots; javac without {@code -sourcepath}, Gradle and
   * IntelliJ give none, and then nothing can be told from it.
   */
  private boolean sourcePathHolds(Collection<? extends Element> roots) {
    for (TypeElement root : ElementFilter.typesIn(roots)) {
      if (trees.getPath(root) != null) {
        return onSourcePath(packageOf(root), sourceFileName(root));
      }
    }
    return false;
  }

  private boolean onSourcePath(String packageName, String fileName) {
    try {
      filer.getResource(StandardLocation.SOURCE_PATH, packageName, fileName);
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * The name of the file {@code type} is declared in: its compilation unit's where the trees
   * know it (a non-public class may share another's file), else its top-level class's.
   */
  private String sourceFileName(TypeElement type) {
    TreePath path = trees.getPath(type);
    if (path != null && path.getCompilationUnit().getSourceFile() != null) {
      String name = path.getCompilationUnit().getSourceFile().getName();
      String file = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
      if (file.endsWith(".java")) {
        return file;
      }
    }
    Element outermost = type;
    while (outermost.getEnclosingElement() instanceof TypeElement outer) {
      outermost = outer;
    }
    return outermost.getSimpleName() + ".java";
  }

  private String packageOf(TypeElement type) {
    PackageElement pkg = elements.getPackageOf(type);
    return pkg.isUnnamed() ? "" : pkg.getQualifiedName().toString();
  }

  private static boolean declaresRules(TypeElement type) {
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (DerivativeOfRules.annotationOf(method).isPresent()) {
        return true;
      }
    }
    return false;
  }
}
