package ad4j.processor.front;

import static ad4j.processor.front.RecordLowering.MAX_DEPTH;

import ad4j.processor.front.RecordLowering.Frame;
import ad4j.processor.front.RecordLowering.Tuple;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;

/**
 * {@code new R(...)} of a value record: its arguments as the record's leaves for the canonical
 * constructor javac writes, a compact constructor's checks run as written, and a constructor that
 * computes the components inlined with the record's leaves as its locals. Apart from
 * {@link RecordLowering} because making a record is the one place its constructors' code runs,
 * with rules of its own.
 */
final class RecordConstruction {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final RecordLowering records;
  /** The record methods being inlined, innermost first: {@link RecordLowering}'s. */
  private final Deque<Frame> frames;
  /** How many constructors that compute components are being lowered, one inside another. */
  private int constructors;

  RecordConstruction(LoweringContext context, ExpressionLowering expressions,
      RecordLowering records, Deque<Frame> frames) {
    this.context = context;
    this.expressions = expressions;
    this.records = records;
    this.frames = frames;
  }

  /**
   * {@code new R(a, ...)}: the arguments, as its leaves; a compact constructor that only checks
   * them ({@link RecordConstructors#checksOnly}) runs as written on them, where the record is made.
   */
  Tuple construction(NewClassTree creation) {
    TypeElement record = records.typeOf(creation).orElseThrow();
    if (context.trees().getPath(record) == null) {
      // a class file does not tell the accessors and constructor javac wrote from others
      error(creation, "'new " + record.getSimpleName() + "(...)': record '"
          + record.getSimpleName() + "' is compiled without its source here, and ad4j cannot"
          + " see whether its constructor keeps the values it is given and its accessors return"
          + " them, which it would take them for; make the record where the method is called"
          + " and pass it in, or compile the record's source with this class");
      return null;
    }
    if (InlinedClassInitialization.reportIfSkipped(context, record, creation,
        "new " + record.getSimpleName() + "(...)")) {
      return null;
    }
    ExecutableElement checks = null;
    MethodTree transform = null;
    for (ExecutableElement constructor :
        ElementFilter.constructorsIn(record.getEnclosedElements())) {
      // a value class's one constructor only copies its arguments into the fields
      if (records.isWrittenByTheCompiler(constructor) || record.getKind() != ElementKind.RECORD) {
        continue;
      }
      Optional<MethodTree> compact = context.recordConstructors().compact(constructor);
      if (!context.recordConstructors().checksOnly(constructor) && compact.isPresent()) {
        // it computes the components of its arguments: differentiated like a helper
        transform = compact.get();
        continue;
      }
      if (!context.recordConstructors().checksOnly(constructor)
          && isCanonical(record, constructor)) {
        error(creation, "'new " + record.getSimpleName() + "(...)': record '"
            + record.getSimpleName() + "' declares a canonical constructor that is not a"
            + " compact one, and ad4j does not yet flatten records whose constructors set"
            + " their fields themselves; write it as a compact constructor ('"
            + record.getSimpleName() + " { ... }'), which assigns the components");
        return null;
      }
      if (!context.recordConstructors().checksOnly(constructor)) {
        error(creation, "'new " + record.getSimpleName() + "(...)': record '"
            + record.getSimpleName() + "' declares a constructor besides its canonical one ('"
            + record.getSimpleName() + "(" + constructor.getParameters().stream()
                .map(p -> p.asType().toString()).collect(Collectors.joining(", "))
            + ")'), and ad4j does not yet flatten records with such constructors; make the"
            + " record with a static method of it instead ('static " + record.getSimpleName()
            + " of(...) { return new " + record.getSimpleName() + "(...); }')");
        return null;
      }
      checks = constructor;
    }
    List<ValueRecords.Component> components = ValueRecords.components(record);
    if (creation.getArguments().size() != components.size()) {
      error(creation, "'new " + record.getSimpleName() + "(...)' needs " + components.size()
          + " arguments");
      return null;
    }
    List<Operand> leaves = new ArrayList<>();
    for (int i = 0; i < components.size(); i++) {
      ExpressionTree argument = creation.getArguments().get(i);
      Optional<TypeElement> nested =
          ValueRecords.valueRecord(components.get(i).type());
      if (nested.isPresent()) {
        Tuple part = records.typeOf(argument).isPresent() ? records.lower(argument) : null;
        if (part == null) {
          if (records.typeOf(argument).isEmpty()) {
            error(argument, "'" + context.source().of(argument) + "' is not supported yet as"
                + " a component of value record '" + record.getSimpleName() + "'");
          }
          return null;
        }
        leaves.addAll(part.leaves());
      } else {
        Operand value = scalar(expressions.lower(argument), ValueRecords.leafType(
            components.get(i).type()).orElseThrow(), argument);
        if (value == null) {
          return null;
        }
        leaves.add(value);
      }
    }
    Tuple made = new Tuple(record, leaves);
    if (checks != null && runChecks(made, checks, creation) == null) {
      return null;
    }
    return transform == null ? made : transformed(made, transform, creation);
  }

  /**
   * The record that compact constructor {@code constructor} makes of {@code arguments}: its
   * body lowered like a helper's, statement by statement (branches, checks that throw and
   * loops as anywhere in the method), in an isolated scope where its parameters (named as the
   * components) hold the arguments' leaves; the components are what they hold at its end, as
   * Java assigns the fields after the body. Null after an error.
   */
  private Tuple transformed(Tuple arguments, MethodTree constructor, NewClassTree at) {
    TypeElement record = arguments.type();
    String shown = "new " + record.getSimpleName() + "(...)";
    if (constructors >= MAX_DEPTH) {
      error(at, "'" + shown + "': the constructor of value record '" + record.getSimpleName()
          + "' makes records " + MAX_DEPTH + " deep, which ad4j takes for recursion");
      return null;
    }
    constructors++;
    // a component or local assigned in a branch or loop of the body needs a variable
    context.variables().planInlined(VariablePlanner.plan(constructor,
        ValueRecords.components(record).stream().map(ValueRecords.Component::name).toList()));
    LoweringContext.Position position = context.position();
    context.scopes().pushIsolated();
    // its code calls the record's static methods unqualified, as a static method's does
    frames.push(new Frame(record, null));
    Symbols callers = context.resolution().resolveIn(record);
    try {
      List<ValueRecords.Component> components = ValueRecords.components(record);
      int next = 0;
      for (ValueRecords.Component component : components) {
        Optional<TypeElement> nested = ValueRecords.valueRecord(component.type());
        if (nested.isPresent()) {
          int size = ValueRecords.leaves(nested.get()).size();
          records.locals().declareLocal(component.name(), nested.get(),
              arguments.slice(nested.get(), next, size));
          next += size;
        } else {
          NumericType type = ValueRecords.leafType(component.type()).orElseThrow();
          context.scopes().declareLocal(component.name(), type, context);
          LocalScopes.Local local = context.scopes().lookUp(component.name());
          Operand value = arguments.leaves().get(next++);
          if (local.variable() != null) {
            context.ir().add(new Declare(local.variable(), value, context.line()));
          } else {
            context.bind(local, value);
          }
        }
      }
      int errors = context.diagnostics().errorCount();
      boolean completes = expressions.functions().lowerStatements(
          constructor.getBody().getStatements());
      if (context.diagnostics().errorCount() > errors) {
        return null;
      }
      if (!completes) {
        error(at, "'" + shown + "': the constructor of value record '" + record.getSimpleName()
            + "' always throws");
        return null;
      }
      context.resume(position);
      List<Operand> leaves = new ArrayList<>();
      for (ValueRecords.Component component : components) {
        Optional<TypeElement> nested = ValueRecords.valueRecord(component.type());
        if (nested.isPresent()) {
          Tuple part = records.locals().read(component.name(), nested.get(), at);
          if (part == null) {
            return null;
          }
          leaves.addAll(part.leaves());
        } else {
          Operand leaf = context.read(context.scopes().lookUp(component.name()), at);
          if (leaf == null) {
            return null;
          }
          leaves.add(leaf);
        }
      }
      return new Tuple(record, leaves);
    } finally {
      context.resolution().resolveAs(callers);
      frames.pop();
      context.scopes().pop();
      context.resume(position);
      constructors--;
    }
  }

  /**
   * Runs the checks of {@code value}'s compact constructor {@code constructor} on its leaves:
   * generated code makes the record as written ({@code new V(a, b);}, its value unused), which
   * throws where the user's code would. Null after an error.
   */
  private Operand runChecks(Tuple value, ExecutableElement constructor, Tree at) {
    String record = value.type().getSimpleName().toString();
    if (context.recordConstructors().mayWriteArrays(constructor)) {
      for (Operand leaf : value.leaves()) {
        if (leaf instanceof Operand.Use use && use.value().isActiveArray()) {
          // it runs as written on the array itself, whose writes the derivatives would not see
          error(at, "'new " + record + "(...)': the compact constructor of value record '"
              + record + "' may write into an array it is given (it sets an array element or"
              + " passes a name to a call), and ad4j runs such a constructor as written, here"
              + " on an array that carries derivatives, whose derivatives would miss what it"
              + " writes (an element doubled, a sort); set the elements before making the"
              + " record and keep the constructor to checks of its components");
          return null;
        }
      }
    }
    Optional<TypeElement> changer =
        context.recordConstructors().componentChangerAmongComponents(value.type());
    if (changer.isPresent()) {
      // made as written, it holds records made again of their leaves, whose constructor would
      // run on them a second time
      error(at, "'new " + record + "(...)': ad4j runs the checks of the compact constructor of"
          + " value record '" + record + "' on the record made as written, which makes the"
          + " value record '" + changer.get().getSimpleName() + "' it holds again of its"
          + " components, and the constructor of '" + changer.get().getSimpleName() + "'"
          + " would change them a second time (or write into its array again); keep the"
          + " constructor of '" + changer.get().getSimpleName() + "' to checks of its"
          + " components, or check '" + record + "'s components before making it");
      return null;
    }
    Operand made = records.object(value, at);
    if (made == null) {
      return null;
    }
    String shown = "new " + value.type().getSimpleName();
    context.dependences().runsAsWritten(made, shown, true);
    if (!context.calleeServices().readOnlyMethods().test(constructor)
        && new RepeatedRuns(context).rejectOwnCall(at, shown + "(...)")) {
      return null;
    }
    return made;
  }

  /** {@code value} as a component of {@code type}; null after an error. */
  private Operand scalar(Operand given, NumericType type, Tree at) {
    Operand value = expressions.unboxing().number(given); // new Point(xs.get(i), y)
    if (value == null || !expressions.conversions().assignable(value, type, at)) {
      return null;
    }
    return expressions.conversions().convert(value, type);
  }

  /** Whether {@code constructor} takes the components of {@code record}, in their order. */
  private boolean isCanonical(TypeElement record, ExecutableElement constructor) {
    List<ValueRecords.Component> components = ValueRecords.components(record);
    if (constructor.getParameters().size() != components.size()) {
      return false;
    }
    for (int i = 0; i < components.size(); i++) {
      if (!context.types().isSameType(constructor.getParameters().get(i).asType(),
          components.get(i).type())) {
        return false;
      }
    }
    return true;
  }

  private void error(Tree at, String message) {
    context.diagnostics().error(at, message);
  }
}
