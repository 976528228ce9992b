package ad4j.processor.front;

import static ad4j.processor.front.BodyTrees.classOf;

import java.util.Set;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * What this reading knows of the JDK's code, which has no source here: the methods and
 * constructors known to change nothing outside what a body made, and the plain types whose
 * values the JDK's code calls no method of the sources on. Kept in one place so that what is
 * taken for harmless without reading it is seen, and widened, at one place.
 */
final class JdkHarmlessCode {
  private JdkHarmlessCode() {
  }

  /** JDK methods that write only the array given first: harmless where the body made it. */
  static final Set<String> WRITE_FIRST_ARGUMENT = Set.of("java.util.Arrays.fill",
      "java.util.Arrays.setAll", "java.util.Arrays.sort", "java.util.Arrays.parallelPrefix",
      "java.util.Arrays.parallelSetAll", "java.util.Arrays.parallelSort");

  /** JDK methods that make a new array or list view and change nothing. */
  static final Set<String> MAKE_NEW = Set.of("java.util.Arrays.stream",
      "java.util.Arrays.copyOf", "java.util.Arrays.copyOfRange",
      "java.util.Objects.isNull", "java.util.Objects.nonNull",
      "java.util.Objects.requireNonNull", "java.util.List.of", "java.util.List.copyOf",
      "java.util.Set.of", "java.util.Map.of", "java.util.Map.entry");

  /** JDK classes whose objects, made in the body, change nothing but themselves. */
  static final Set<String> PLAIN_CONSTRUCTIONS = Set.of("java.lang.String",
      "java.lang.StringBuilder", "java.lang.Object", "java.util.ArrayList",
      "java.util.HashMap", "java.util.LinkedHashMap", "java.util.HashSet",
      "java.util.LinkedHashSet", "java.util.ArrayDeque", "java.util.TreeMap",
      "java.util.TreeSet", "java.util.LinkedList");

  /** An exception or error: made to be thrown, which ends the @Differentiable method's call. */
  static boolean isThrowable(Elements elements, Types types, TypeElement type) {
    TypeElement throwable = elements.getTypeElement("java.lang.Throwable");
    return throwable != null && types.isSubtype(types.erasure(type.asType()),
        types.erasure(throwable.asType()));
  }

  /** A type of {@code java.util.stream}: its methods change nothing but the stream's state. */
  static boolean isStreamMethod(Elements elements, TypeElement owner) {
    PackageElement pkg = elements.getPackageOf(owner);
    return pkg.getQualifiedName().contentEquals("java.util.stream");
  }

  /**
   * A primitive type, {@code String}, a box, or an array of them: the JDK's code calls no
   * method of the sources on such a value.
   */
  static boolean isPlainType(TypeMirror type) {
    TypeMirror element = type;
    while (element instanceof javax.lang.model.type.ArrayType array) {
      element = array.getComponentType();
    }
    return element.getKind().isPrimitive() || classOf(element)
        .filter(t -> LaunderedDependence.readsArgumentsOnly(t)
            && !t.getQualifiedName().contentEquals("java.lang.Math")
            && !t.getQualifiedName().contentEquals("java.lang.StrictMath")).isPresent();
  }
}
