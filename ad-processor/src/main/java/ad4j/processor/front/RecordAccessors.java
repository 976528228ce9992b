package ad4j.processor.front;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.util.Trees;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Accessors of value records written by hand. Generated code reads the components of a record
 * it is given (a parameter, a tangent, a seed, a constant, a {@code @NoDerivative} record)
 * through the accessors, for it cannot read the record's private fields; an accessor that
 * computes something else ({@code public double x() { return 2 * x; }}) would give it that
 * instead of the component, and every derivative taken there would be wrong. A record compiled
 * without its source here (a jar, an earlier build) is judged by its class file's bytecode.
 */
final class RecordAccessors {
  private RecordAccessors() {}

  /**
   * The first accessor of {@code record}, or of a value record among its components (depth
   * first), that is written in its source, or compiled in its class file, to return something
   * other than its component, or of a record compiled without its source whose class file
   * {@code classFiles} cannot give; empty when every accessor returns its component.
   */
  static Optional<Computed> computed(TypeElement record, Trees trees, Elements elements,
      ClassFiles classFiles) {
    Map<String, Boolean> compiled = null;
    if (trees.getPath(record) == null) {
      // a class file (a jar, an earlier build): its bytecode tells what the accessors do
      Optional<Map<String, Boolean>> read = classFiles.read(record)
          .flatMap(RecordClassFileAccessors::returningTheirFields);
      if (read.isEmpty()) {
        return Optional.of(new Computed(record, null, true));
      }
      compiled = read.get();
    }
    for (RecordComponentElement component
        : ElementFilter.recordComponentsIn(record.getEnclosedElements())) {
      ExecutableElement accessor = component.getAccessor();
      String name = component.getSimpleName().toString();
      boolean computes;
      if (compiled != null) {
        computes = !compiled.getOrDefault(name, false);
      } else {
        MethodTree tree = elements.getOrigin(accessor) == Elements.Origin.EXPLICIT
            ? trees.getTree(accessor) : null;
        computes = tree != null && !returnsField(tree, name);
      }
      if (computes) {
        return Optional.of(new Computed(record, name, compiled != null));
      }
      Optional<TypeElement> nested = ValueRecords.valueRecord(accessor.getReturnType());
      if (nested.isPresent()) {
        Optional<Computed> inNested = computed(nested.get(), trees, elements, classFiles);
        if (inNested.isPresent()) {
          return inNested;
        }
      }
    }
    return Optional.empty();
  }

  /**
   * {@code record}, or the first value record among its components (depth first), whose source
   * is not in this compilation (a class file does not tell the accessors and constructor javac
   * wrote from others); empty when every one's source is.
   */
  static Optional<TypeElement> withoutSource(TypeElement record, Trees trees) {
    if (trees.getPath(record) == null) {
      return Optional.of(record);
    }
    for (RecordComponentElement component
        : ElementFilter.recordComponentsIn(record.getEnclosedElements())) {
      Optional<TypeElement> nested = ValueRecords.valueRecord(
          component.getAccessor().getReturnType()).flatMap(n -> withoutSource(n, trees));
      if (nested.isPresent()) {
        return nested;
      }
    }
    return Optional.empty();
  }

  /**
   * Accessor {@code component()} of {@code record}, which computes, as its source or (where
   * {@code fromClassFile}) its class file shows; or, where {@code component} is null, a record
   * compiled without its source whose class file could not be read.
   */
  record Computed(TypeElement record, String component, boolean fromClassFile) {
    /** The error where generated code would read the record's components through it. */
    String message(String use) {
      String name = record.getSimpleName().toString();
      if (component == null) {
        return "record '" + name + "' is compiled without its source here, and ad4j could not"
            + " read its class file to see whether its accessors return its components: " + use
            + " is read through its accessors by generated code, which cannot read the"
            + " record's fields; compile the record's source with this class";
      }
      // also an accessor that returns its component but counts its calls first
      return "record '" + name + "' declares accessor '" + component + "()', whose body is"
          + (fromClassFile ? ", as its class file shows," : "") + " more than 'return "
          + component + ";': " + use + " is read through its accessors by generated code,"
          + " which cannot read the record's fields, and would take what '" + component
          + "()' does for each read of the component; give that code a method of another"
          + " name and leave the accessor as javac writes it";
    }
  }

  /** Whether {@code accessor}'s body is {@code return name;} or {@code return this.name;}. */
  private static boolean returnsField(MethodTree accessor, String name) {
    if (accessor.getBody() == null) {
      return false;
    }
    List<? extends StatementTree> statements = accessor.getBody().getStatements();
    if (statements.size() != 1 || !(statements.get(0) instanceof ReturnTree returned)) {
      return false;
    }
    ExpressionTree value = returned.getExpression();
    while (value instanceof ParenthesizedTree parenthesized) {
      value = parenthesized.getExpression();
    }
    if (value instanceof IdentifierTree identifier) {
      return identifier.getName().contentEquals(name);
    }
    return value instanceof MemberSelectTree select
        && select.getIdentifier().contentEquals(name)
        && select.getExpression() instanceof IdentifierTree self
        && self.getName().contentEquals("this");
  }
}
