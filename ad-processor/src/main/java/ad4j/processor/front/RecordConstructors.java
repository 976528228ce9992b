package ad4j.processor.front;

import com.sun.source.util.Trees;
import java.util.Optional;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Whether making a value record runs code of its own, and whether that code changes the
 * record's components: generated code makes records again of their leaves (the result of a
 * method, a record passed to a callee), which runs their constructors again. Apart from
 * {@link LoweringContext} because it reads the records' declarations only, never the method
 * being lowered.
 */
final class RecordConstructors {
  private final LoweringContext context;
  private final Elements elements;
  private final Trees trees;

  RecordConstructors(LoweringContext context, Elements elements, Trees trees) {
    this.context = context;
    this.elements = elements;
    this.trees = trees;
  }

  /**
   * Whether record {@code record} declares a constructor that may change its components (any
   * but a compact one that only checks them, {@link #checksOnly}), or holds a value record
   * that does: its code would run again, on the components, where generated code makes the
   * record of its leaves ({@code new W(new V(a, b), c)}), and change them.
   */
  boolean changesComponents(TypeElement record) {
    return componentChanger(record).isPresent();
  }

  /**
   * The record whose constructor would change the components of {@code record} made again of
   * its leaves ({@link #changesComponents}): {@code record} itself, or a value record it holds.
   */
  Optional<TypeElement> componentChanger(TypeElement record) {
    if (trees.getPath(record) == null) {
      // a class file does not tell a compact constructor that changes the components from one
      // javac wrote
      return Optional.of(record);
    }
    if (ValueClasses.isValueClass(record)) {
      // its constructor copies its arguments into the fields, unchanged
      return componentChangerAmongComponents(record);
    }
    for (javax.lang.model.element.ExecutableElement constructor :
        javax.lang.model.util.ElementFilter.constructorsIn(record.getEnclosedElements())) {
      if (trees.getPath(constructor) != null
          && elements.getOrigin(constructor) == javax.lang.model.util.Elements.Origin.EXPLICIT
          && !checksOnly(constructor)) {
        return Optional.of(record);
      }
    }
    return componentChangerAmongComponents(record);
  }

  /**
   * Whether making {@code record} runs code of its own: a constructor written in it (a compact
   * one that only checks the components too), or in a value record it holds; a value class's,
   * or a record compiled without its source here. Generated code that makes such a record again
   * of leaves that are no record's (zeros for a null record: {@link ObjectRecordArguments})
   * would run its checks on them, where the method made no record.
   */
  boolean runsCodeWhenMade(TypeElement record) {
    if (trees.getPath(record) == null || ValueClasses.isValueClass(record)) {
      return true;
    }
    for (javax.lang.model.element.ExecutableElement constructor :
        javax.lang.model.util.ElementFilter.constructorsIn(record.getEnclosedElements())) {
      if (elements.getOrigin(constructor) == javax.lang.model.util.Elements.Origin.EXPLICIT) {
        return true;
      }
    }
    return ValueRecords.components(record).stream().anyMatch(component ->
        ValueRecords.valueRecord(component.type()).map(this::runsCodeWhenMade).orElse(false));
  }

  private Optional<TypeElement> componentChangerAmongComponents(TypeElement record) {
    for (ValueRecords.Component component : ValueRecords.components(record)) {
      Optional<TypeElement> changer = ValueRecords.valueRecord(component.type())
          .flatMap(this::componentChanger);
      if (changer.isPresent()) {
        return changer;
      }
    }
    return Optional.empty();
  }

  /**
   * How messages name the constructor {@link #componentChanger} found for {@code record}:
   * {@code whose constructor changes its components}, {@code which holds value record 'V',
   * whose constructor changes its components}, or one compiled without its source.
   */
  String changerText(TypeElement record) {
    TypeElement changer = componentChanger(record).orElse(record);
    String constructor = trees.getPath(changer) == null
        ? "whose constructor, compiled without its source here, may change its components"
        : "whose constructor changes its components";
    return changer.equals(record) ? constructor
        : "which holds value record '" + changer.getSimpleName() + "', " + constructor;
  }

  /**
   * The tree of {@code constructor} when it is a compact canonical constructor of a file of
   * this compilation ({@code V { ... }}: it cannot set the fields itself, and its parameters are
   * the components, assigned to the fields after its body); empty for any other.
   */
  Optional<com.sun.source.tree.MethodTree> compact(
      javax.lang.model.element.ExecutableElement constructor) {
    com.sun.source.util.TreePath path = trees.getPath(constructor);
    if (path == null || !(path.getLeaf() instanceof com.sun.source.tree.MethodTree tree)
        || tree.getBody() == null) {
      return Optional.empty();
    }
    context.resolution().adopt(tree, path.getCompilationUnit());
    // compact: no parameter list written ('V {')
    String text = context.source().of(tree);
    int body = text.indexOf('{');
    if (body < 0 || text.substring(0, body).indexOf('(') >= 0) {
      return Optional.empty();
    }
    return Optional.of(tree);
  }

  /**
   * Whether {@code constructor} is a compact canonical constructor, in a file of this
   * compilation, that leaves the components as given (it assigns none of them): its checks may
   * run as written, and the record's components are its arguments.
   */
  boolean checksOnly(javax.lang.model.element.ExecutableElement constructor) {
    Optional<com.sun.source.tree.MethodTree> compact = compact(constructor);
    if (compact.isEmpty()) {
      return false;
    }
    com.sun.source.tree.MethodTree tree = compact.get();
    java.util.Set<String> components = new java.util.HashSet<>();
    constructor.getParameters().forEach(p -> components.add(p.getSimpleName().toString()));
    return java.util.Collections.disjoint(AssignedNames.in(tree.getBody()), components);
  }
}
