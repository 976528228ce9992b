package ad4j.processor;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Optional;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Reads the source text of the file that declares a type, for compilers whose processing
 * environment gives no syntax trees (ECJ, in Eclipse and VS Code). ECJ keeps each source type's
 * compilation unit, with its file name and contents, behind its elements; where that is not
 * reachable, the file is looked up on the source path through the {@link Filer}.
 */
final class SourceFileReader {
  /** A source file: the name to show in messages, and its text. */
  record SourceFile(String name, String text) {}

  private final Filer filer;
  private final Elements elements;

  SourceFileReader(Filer filer, Elements elements) {
    this.filer = filer;
    this.elements = elements;
  }

  /** The file declaring {@code element}'s top-level type, if this compilation has its source. */
  Optional<SourceFile> read(Element element) {
    TypeElement topLevel = topLevelType(element);
    if (topLevel == null) {
      return Optional.empty();
    }
    Optional<SourceFile> fromEcj = fromEcjBinding(topLevel);
    return fromEcj.isPresent() ? fromEcj : fromSourcePath(topLevel);
  }

  static TypeElement topLevelType(Element element) {
    Element e = element;
    while (e != null && !(e instanceof TypeElement
        && e.getEnclosingElement() instanceof PackageElement)) {
      e = e.getEnclosingElement();
    }
    return (TypeElement) e;
  }

  /**
   * ECJ's type element holds its binding ({@code _binding}); a type compiled from source has a
   * class scope whose compilation unit carries the file's name and contents. These are public
   * members of ECJ's compiler, read reflectively so that ad4j does not depend on ECJ.
   */
  private static Optional<SourceFile> fromEcjBinding(TypeElement type) {
    try {
      Object binding = publicField(type, "_binding");
      Object scope = publicField(binding, "scope");
      if (scope == null) {
        return Optional.empty(); // a type read from a class file
      }
      Method referenceCompilationUnit = scope.getClass().getMethod("referenceCompilationUnit");
      Object unitDeclaration = referenceCompilationUnit.invoke(scope);
      Object result = publicField(unitDeclaration, "compilationResult");
      Object unit = publicField(result, "compilationUnit");
      char[] contents = (char[]) unit.getClass().getMethod("getContents").invoke(unit);
      char[] fileName = (char[]) unit.getClass().getMethod("getFileName").invoke(unit);
      if (contents == null || fileName == null) {
        return Optional.empty();
      }
      return Optional.of(new SourceFile(new String(fileName), new String(contents)));
    } catch (ReflectiveOperationException | RuntimeException notEcj) {
      return Optional.empty(); // another compiler, or another version of ECJ: try the source path
    }
  }

  private static Object publicField(Object holder, String name)
      throws ReflectiveOperationException {
    if (holder == null) {
      throw new NoSuchFieldException(name);
    }
    Field field = holder.getClass().getField(name);
    return field.get(holder);
  }

  private Optional<SourceFile> fromSourcePath(TypeElement type) {
    String packageName = elements.getPackageOf(type).getQualifiedName().toString();
    String fileName = type.getSimpleName() + ".java";
    try {
      FileObject file = filer.getResource(StandardLocation.SOURCE_PATH, packageName, fileName);
      return Optional.of(new SourceFile(file.getName(), file.getCharContent(true).toString()));
    } catch (IOException | RuntimeException notOnTheSourcePath) {
      return Optional.empty();
    }
  }
}
