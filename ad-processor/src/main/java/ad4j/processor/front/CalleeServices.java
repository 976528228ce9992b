package ad4j.processor.front;

import com.sun.source.util.Trees;
import java.util.List;
import java.util.function.Predicate;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * What lowering consults about the methods a call may reach and the classes they are in:
 * overload resolution, the methods that only read their arguments or state, what callees' code
 * calls as written, the classes that declare {@code @DerivativeOf} rules or have generated
 * classes. Apart from {@link LoweringContext} because these are facts of the compilation, each
 * made once per method when first asked, not state of the lowering.
 */
final class CalleeServices {
  private final Elements elements;
  private final Types types;
  private final Trees trees;
  private final Predicate<TypeElement> hasGradClass;
  private final ClassFiles classFiles;

  CalleeServices(Elements elements, Types types, Trees trees,
      Predicate<TypeElement> hasGradClass, ClassFiles classFiles) {
    this.elements = elements;
    this.classFiles = classFiles;
    this.types = types;
    this.trees = trees;
    this.hasGradClass = hasGradClass;
  }

  private ArgumentOnlyMethods argumentOnlyMethods;

  /** The classes of this compilation that declare {@code @DerivativeOf} rules. */
  private java.util.Collection<TypeElement> ruleClasses = List.of();

  /** Tells the classes of this compilation that declare {@code @DerivativeOf} rules. */
  void setRuleClasses(java.util.Collection<TypeElement> classes) {
    this.ruleClasses = List.copyOf(classes);
  }

  /** The classes of this compilation that declare {@code @DerivativeOf} rules. */
  java.util.Collection<TypeElement> ruleClasses() {
    return ruleClasses;
  }

  private CalleePlainCalls calleePlainCalls;

  /** What the method's {@code @Differentiable} callees' code calls as written. */
  CalleePlainCalls calleePlainCalls() {
    if (calleePlainCalls == null) {
      calleePlainCalls = new CalleePlainCalls(elements, types, trees, hasGradClass,
          classFiles);
    }
    return calleePlainCalls;
  }

  /** Methods that read state and change none ({@link ReadOnlyMethods}). */
  ReadOnlyMethods readOnlyMethods() {
    if (readOnlyMethods == null) {
      readOnlyMethods = new ReadOnlyMethods(elements, trees, argumentOnlyMethods());
    }
    return readOnlyMethods;
  }

  private ReadOnlyMethods readOnlyMethods;

  /** The static methods of the sources that read their arguments only and keep none. */
  ArgumentOnlyMethods argumentOnlyMethods() {
    if (argumentOnlyMethods == null) {
      argumentOnlyMethods = new ArgumentOnlyMethods(elements, types, trees);
    }
    return argumentOnlyMethods;
  }

  private Overloads overloads;

  /** Overload resolution as javac does it. */
  Overloads overloads() {
    if (overloads == null) {
      overloads = new Overloads(types);
    }
    return overloads;
  }

  /** Whether {@code element} is in this compilation's sources, where the user can annotate it. */
  boolean isCompiledFromSource(javax.lang.model.element.Element element) {
    return trees.getPath(element) != null;
  }

  /**
   * Whether the generated class of {@code type} exists or will be written in this compilation:
   * ad4j writes it only for classes among javac's source files, not for those javac compiles
   * implicitly from the source path.
   */
  boolean hasGradClass(TypeElement type) {
    return hasGradClass.test(type);
  }
}
