package ad4j.processor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * What ad4j remembers from one round of annotation processing to the next: the classes javac
 * was given as sources (ad4j writes generated classes for these only), and the classes whose
 * methods named something that did not resolve yet, which another processor may generate.
 */
final class Rounds {
  private final Elements elements;
  private final Set<String> sourceTypes = new HashSet<>();
  private final Set<String> deferred = new LinkedHashSet<>();

  Rounds(Elements elements) {
    this.elements = elements;
  }

  /** Records this round's source classes. */
  void start(RoundEnvironment round) {
    for (TypeElement type : ElementFilter.typesIn(round.getRootElements())) {
      sourceTypes.add(type.getQualifiedName().toString());
    }
  }

  /** Whether {@code type}'s top-level class is one of the sources of this compilation. */
  boolean isSource(TypeElement type) {
    TypeElement outermost = type;
    while (outermost.getEnclosingElement() instanceof TypeElement outer) {
      outermost = outer;
    }
    return isSource(outermost.getQualifiedName().toString());
  }

  /** Whether the top-level class named {@code qualifiedName} is a source of this compilation. */
  boolean isSource(String qualifiedName) {
    return sourceTypes.contains(qualifiedName);
  }

  /** Processes {@code type} again in the next round, when more names may resolve. */
  void defer(TypeElement type) {
    deferred.add(type.getQualifiedName().toString());
  }

  /**
   * The annotated methods of this round by class, in the order javac lists them, then those of
   * the classes deferred from the previous round (looked up again: elements of an earlier round
   * may be stale). Each class's methods come in the order the class declares them, so that its
   * generated members do: javac lists them so, ECJ as a hash set of its elements, which hash by
   * identity and so came in another order at each compilation.
   */
  Map<TypeElement, List<ExecutableElement>> work(Set<? extends Element> annotated,
      String annotation) {
    Map<TypeElement, List<ExecutableElement>> byClass = new LinkedHashMap<>();
    for (ExecutableElement method : ElementFilter.methodsIn(annotated)) {
      if (method.getEnclosingElement() instanceof TypeElement type) {
        byClass.computeIfAbsent(type, t -> new ArrayList<>()).add(method);
      }
    }
    byClass.replaceAll(Rounds::inDeclarationOrder);
    for (String name : deferred) {
      TypeElement type = elements.getTypeElement(name);
      if (type != null && byClass.keySet().stream()
          .noneMatch(t -> t.getQualifiedName().contentEquals(name))) {
        List<ExecutableElement> methods = ElementFilter.methodsIn(type.getEnclosedElements())
            .stream().filter(m -> isAnnotated(m, annotation)).toList();
        byClass.put(type, new ArrayList<>(methods));
      }
    }
    deferred.clear();
    return byClass;
  }

  private static List<ExecutableElement> inDeclarationOrder(TypeElement type,
      List<ExecutableElement> methods) {
    List<? extends Element> declared = type.getEnclosedElements();
    List<ExecutableElement> ordered = new ArrayList<>(methods);
    ordered.sort(Comparator.comparingInt(declared::indexOf));
    return ordered;
  }

  private static boolean isAnnotated(Element element, String annotation) {
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName()
          .contentEquals(annotation)) {
        return true;
      }
    }
    return false;
  }
}
