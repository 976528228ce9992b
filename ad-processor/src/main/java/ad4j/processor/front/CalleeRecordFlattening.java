package ad4j.processor.front;

import ad4j.processor.ir.Callee;
import ad4j.processor.ir.NumericType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;

/**
 * The parameters of a {@code @Differentiable} callee as its generated members take them: a value
 * record parameter (and a value record receiver) flattened to one number a leaf, and how
 * generated code computes the callee's value of those leaves, making the record again or calling
 * the callee's value over the leaves.
 *
 * <p>Apart from {@link CalleeResolver}, whose checks decide whether a call may be made at all:
 * this decides how the arguments of an accepted call are passed.
 */
final class CalleeRecordFlattening {
  private final LoweringContext context;

  CalleeRecordFlattening(LoweringContext context) {
    this.context = context;
  }

  /**
   * The flattened parameters: their IR types, whether each takes derivatives, and where each
   * value record's leaves begin.
   */
  record FlatParameters(List<NumericType> types, List<Boolean> active,
      List<Callee.RecordArgument> records) {}

  /**
   * The parameters of {@code site}'s callee with value records flattened, from its
   * {@code parameterTypes} and {@code active} flags (one a parameter, the receiver first); empty
   * after an error when generated code cannot name a record, or would need the callee's value
   * over the leaves and its generated class, compiled earlier, has none.
   */
  Optional<FlatParameters> flatten(CalleeCall site,
      List<NumericType> parameterTypes, List<Boolean> active) {
    int receiver = site.receiver();
    Optional<TypeElement> valueReceiver = site.valueReceiver();
    List<NumericType> flatTypes = new ArrayList<>();
    List<Boolean> flatActive = new ArrayList<>();
    List<Callee.RecordArgument> records = new ArrayList<>();
    for (int i = 0; i < parameterTypes.size(); i++) {
      Optional<TypeElement> record = i < receiver ? valueReceiver
          : ValueRecords.flattened(site.method().getParameters().get(i - receiver));
      if (record.isEmpty()) {
        flatTypes.add(parameterTypes.get(i));
        flatActive.add(active.get(i));
        continue;
      }
      Optional<Callee.RecordArgument> argument =
          recordArgument(site, record.get(), i < receiver, flatTypes.size());
      if (argument.isEmpty()) {
        return Optional.empty();
      }
      records.add(argument.get());
      for (ValueRecords.Leaf leaf : ValueRecords.leaves(record.get())) {
        flatTypes.add(leaf.type());
        flatActive.add(leaf.active());
      }
    }
    return Optional.of(new FlatParameters(flatTypes, flatActive, records));
  }

  /**
   * How value record {@code record}, passed as the receiver or as a parameter whose leaves
   * begin at {@code first}, reaches the callee: made again of its leaves by the construction
   * text, or (no construction) through the callee's value over the leaves. Empty after an error.
   */
  private Optional<Callee.RecordArgument> recordArgument(CalleeCall site,
      TypeElement record, boolean isReceiver, int first) {
    String shown = site.shown();
    String qualified = site.qualified();
    String name = site.name();
    TypeElement declaring = site.declaring();
    List<ValueRecords.Leaf> leaves = ValueRecords.leaves(record);
    Optional<String> construction = construction(record);
    if (construction.isEmpty()) {
      diagnostics().error(site.tree(), "call to '" + shown + "': generated code cannot name value"
          + " record '" + record.getSimpleName() + "': "
          + context.javaTypes().typeProblem(record.asType()));
      return Optional.empty();
    }
    // an instance method cannot be called on a record made again by a static call: its
    // value is the one over the leaves, as for a record its constructor changes
    boolean changed = context.recordConstructors().changesComponents(record) || isReceiver;
    if (isReceiver && !hasValueOverLeaves(declaring, name)) {
      diagnostics().error(site.tree(), "call to '" + shown + "': '" + qualified + "' is an"
          + " instance method of value record '" + record.getSimpleName() + "', and '"
          + gradClassName(declaring) + "', compiled earlier, has no member '" + name
          + Callee.VALUE_FLAT + "' that computes its value of the receiver's components;"
          + " compile '" + qualified + "' with this version of ad4j, or with this class");
      return Optional.empty();
    }
    if (changed && !hasValueOverLeaves(declaring, name)) {
      // its generated class, compiled earlier, has no value over the leaves: generated code
      // would call the method itself with the record made again of its leaves
      diagnostics().error(site.tree(), "call to '" + shown + "': '" + qualified + "' takes value"
          + " record '" + record.getSimpleName() + "', "
          + context.recordConstructors().changerText(record) + ", and '"
          + gradClassName(declaring) + "', compiled earlier, has no member '" + name
          + Callee.VALUE_FLAT + "' that computes its value of their leaves: generated code"
          + " would make the record again of its components to call '" + qualified + "', and"
          + " run the constructor's code on them again; compile '" + qualified + "' with"
          + " this version of ad4j, or with this class");
      return Optional.empty();
    }
    // a record its constructor would change again: the callee's value over the leaves; so
    // too a record whose making runs code (checks), for the leaves may be no record's, zeros
    // for a null one (ObjectRecordArguments), where the method made none
    boolean checked = context.recordConstructors().runsCodeWhenMade(record)
        && hasValueOverLeaves(declaring, name);
    return Optional.of(new Callee.RecordArgument(first, leaves.size(),
        changed || checked ? null : construction.get()));
  }

  /**
   * Whether the generated code of {@code declaring} has the value over the leaves of method
   * {@code name} ({@link Callee#valueName}): written with it when its source is in this
   * compilation; compiled earlier, when its companion holds the member.
   */
  private boolean hasValueOverLeaves(TypeElement declaring, String name) {
    if (context.trees().getPath(declaring) != null) {
      return true;
    }
    TypeElement sweeps = context.elements().getTypeElement(
        gradClassName(declaring) + Callee.SWEEPS);
    return sweeps != null && ElementFilter.methodsIn(sweeps.getEnclosedElements()).stream()
        .anyMatch(m -> m.getSimpleName().contentEquals(name + Callee.VALUE_FLAT));
  }

  /** {@code new Body(new Vec3(%s, %s, %s), %s)}: record {@code record} made of its leaves. */
  private Optional<String> construction(TypeElement record) {
    Optional<String> type = context.javaTypes().javaText(record.asType());
    if (type.isEmpty()) {
      return Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    for (var component : ValueRecords.components(record)) {
      Optional<TypeElement> nested = ValueRecords.valueRecord(component.type());
      if (nested.isPresent()) {
        Optional<String> inner = construction(nested.get());
        if (inner.isEmpty()) {
          return Optional.empty();
        }
        parts.add(inner.get());
      } else {
        parts.add("%s");
      }
    }
    return Optional.of("new " + type.get() + "(" + String.join(", ", parts) + ")");
  }

  /** The qualified name of the class ad4j generates for {@code owner}. */
  private String gradClassName(TypeElement owner) {
    return GradClassNames.gradClassName(context.elements(), owner);
  }

  private Diagnostics diagnostics() {
    return context.diagnostics();
  }
}
