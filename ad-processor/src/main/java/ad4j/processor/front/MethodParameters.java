package ad4j.processor.front;

import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Value;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * Declares the parameters of the method being lowered as the IR's parameters: the receiver of
 * an instance method, each value record parameter as parameters of its leaves, and the others
 * as they are. Apart from {@link Lowering}'s statement walk because it is done once, before the
 * body, and decides which names of the method generated code may not take.
 */
final class MethodParameters {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  /**
   * The names a record parameter's leaves may not take: the method's own, and earlier leaves'
   * ({@link RecordLocals#parameterLeafNames}).
   */
  private java.util.Set<String> namesTaken = java.util.Set.of();

  MethodParameters(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
  }

  /**
   * Declares the parameters of {@code method} ({@code element}) and returns them in order:
   * the receiver of an instance method first, a value record's leaves in place of the record.
   */
  List<Value> declare(MethodTree method, ExecutableElement element) {
    List<Value> parameters = new ArrayList<>();
    namesTaken = new java.util.HashSet<>(userNames(method));
    if (Receivers.hasReceiver(element)) {
      declareReceiver(method, element, parameters);
    }
    for (int i = 0; i < method.getParameters().size(); i++) {
      VariableTree parameter = method.getParameters().get(i);
      String name = parameter.getName().toString();
      VariableElement parameterElement = element.getParameters().get(i);
      Optional<NumericType> declared = ActiveParameters.typeProblem(parameterElement).isPresent()
          ? Optional.empty() : context.javaTypes().irType(parameterElement.asType());
      Optional<String> text = declared.isPresent() && declared.get() == NumericType.OBJECT
          ? context.javaTypes().javaText(parameterElement.asType()) : Optional.of("");
      if (declared.isPresent() && text.isEmpty()) {
        diagnostics.error(parameter.getType(), "parameter '" + name + "' has type '"
            + parameterElement.asType() + "', which generated code cannot name: "
            + context.javaTypes().typeProblem(parameterElement.asType()));
      }
      if (declared.isEmpty() || text.isEmpty()) {
        // the signature's error is reported already; the body is checked all the same
        context.scopes().declareBroken(name);
        continue;
      }
      Optional<TypeElement> record = ValueRecords.valueRecord(parameterElement.asType())
          .filter(r -> !ActiveParameters.isMarkedNoDerivative(parameterElement));
      if (record.isPresent()) {
        // a value record: one active parameter per leaf, in place of the record
        expressions.records().checkAccessors(record.get(), parameter,
            "value record parameter '" + name + "'");
        expressions.records().locals().declareParameter(name, record.get(),
            flatten(name, record.get(), parameterElement.asType(), parameters, parameter));
        continue;
      }
      NumericType type = declared.get();
      boolean active = ActiveParameters.isActive(parameterElement);
      Value value = ir.parameter(name, type, active, parameters.size());
      if (type == NumericType.OBJECT) {
        value.declareAs(parameterElement.asType(), text.get());
      }
      if (type.isArray()) {
        context.arrays().markReadOnly(value);
      }
      parameters.add(value);
      context.scopes().declareParameter(name, value, context);
    }
    return parameters;
  }

  /** The names the method's code and its record parameters' leaves take. */
  java.util.Set<String> namesTaken() {
    return namesTaken;
  }

  /**
   * The receiver of an instance method: the first parameter of every generated member, an
   * object that carries no derivative, which {@code this} (written or implied) names.
   */
  private void declareReceiver(MethodTree method, ExecutableElement element,
      List<Value> parameters) {
    TypeElement owner = (TypeElement) element.getEnclosingElement();
    javax.lang.model.type.TypeMirror type = owner.asType();
    if (Receivers.valueRecordReceiver(element).isPresent()) {
      // a value record's own method: its receiver carries derivatives, flattened, first
      expressions.records().checkAccessors(owner, method, "the receiver of '"
          + method.getName() + "'");
      expressions.records().enterOwnMethod(owner,
          flatten(Receivers.name(method, owner), owner, type, parameters, method));
      return;
    }
    Optional<String> text = context.javaTypes().javaText(type);
    if (text.isEmpty()) {
      diagnostics.error(method, "method '" + method.getName() + "' is an instance method of '"
          + owner.getSimpleName() + "', which generated code cannot name: "
          + context.javaTypes().typeProblem(type));
      context.scopes().declareBroken(Receivers.THIS);
      return;
    }
    Value receiver = ir.parameter(Receivers.name(method, owner), NumericType.OBJECT, false, 0);
    receiver.declareAs(type, text.get());
    parameters.add(receiver);
    context.scopes().declareParameter(Receivers.THIS, receiver, context);
  }

  /**
   * The leaves of value record parameter {@code name} (of {@code record}, declared as
   * {@code type}, at {@code declaration}) as parameters of their own, each of its leaf's type
   * (a {@code double} active), added to {@code parameters}; the members that take the record are
   * told of them.
   */
  private List<Value> flatten(String name, TypeElement record,
      javax.lang.model.type.TypeMirror type, List<Value> parameters, Tree declaration) {
    List<String> leafNames = RecordLocals.parameterLeafNames(name, record, namesTaken);
    List<ValueRecords.Leaf> types = ValueRecords.leaves(record);
    List<Value> leaves = new ArrayList<>();
    for (int i = 0; i < leafNames.size(); i++) {
      // a double or float carries a derivative, an int, long or boolean none
      Value value = ir.parameter(leafNames.get(i), types.get(i).type(), types.get(i).active(),
          parameters.size());
      if (types.get(i).type().isArray()) {
        context.arrays().markReadOnly(value); // as an array parameter is
      }
      if (types.get(i).type() == NumericType.OBJECT) {
        // a component that carries nothing, of an object type: passed along as declared
        javax.lang.model.type.TypeMirror declared = types.get(i).declared();
        Optional<String> text = context.javaTypes().javaText(declared);
        if (text.isEmpty()) {
          diagnostics.error(declaration, "component '"
              + String.join(".", types.get(i).path()) + "' of value record '"
              + record.getSimpleName() + "' has type '" + declared + "', which generated code"
              + " cannot name: " + context.javaTypes().typeProblem(declared));
        }
        value.declareAs(declared, text.orElse("Object"));
      }
      parameters.add(value);
      leaves.add(value);
    }
    context.flatRecords().flattensParameter(new ValueRecords.FlatParameter(name, type, leafNames,
        ValueRecords.leaves(record)));
    return leaves;
  }

  /** Every parameter and local name the user wrote; generated names must avoid them. */
  static Set<String> userNames(MethodTree method) {
    Set<String> names = new LinkedHashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree variable, Void unused) {
        names.add(variable.getName().toString());
        return super.visitVariable(variable, unused);
      }
    }.scan(method, null);
    return names;
  }
}
