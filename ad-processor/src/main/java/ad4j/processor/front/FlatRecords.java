package ad4j.processor.front;

import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the leaves of flattened value records go across the method's boundary and its calls:
 * the record parameters its members take flattened, the leaves carrying no derivative of a
 * record a call returns or the method returns, and the stand-ins for records among a call's
 * arguments while its method is chosen. Apart from {@link LoweringContext} because only the
 * lowering of records writes and reads them, and the generated class records what is noted.
 */
final class FlatRecords {
  private final LoweringContext context;

  FlatRecords(LoweringContext context) {
    this.context = context;
  }

  private final List<ValueRecords.FlatParameter> flatParameters = new ArrayList<>();

  private final Map<Variable, String> leafSources = new java.util.IdentityHashMap<>();

  /**
   * Records that {@code leaf}, a variable of a record local's leaf, is {@code source} in the
   * user's code ({@code r.name()}): generated code names it by the flattened leaf
   * ({@code rName}), a name the user never wrote.
   */
  void namesLeaf(Variable leaf, String source) {
    leafSources.put(leaf, source);
  }

  /** How the user's code writes {@code variable}: its own name, or a record leaf's accessors. */
  String sourceOf(Variable variable) {
    return leafSources.getOrDefault(variable, variable.name());
  }

  /** Records that parameter {@code parameter}, a value record, is flattened. */
  void flattensParameter(ValueRecords.FlatParameter parameter) {
    flatParameters.add(parameter);
  }

  /** The value record parameters the method's members take flattened, in order. */
  List<ValueRecords.FlatParameter> flatParameters() {
    return List.copyOf(flatParameters);
  }

  private final Map<Value, List<Operand>> carriedByCalls = new java.util.IdentityHashMap<>();

  /**
   * Records that the call whose result is {@code result} returns a value record whose leaves
   * that carry no derivative are {@code leaves}, in order: operands of the caller's.
   */
  void carriesCallResult(Value result, List<Operand> leaves) {
    carriedByCalls.put(result, List.copyOf(leaves));
  }

  /**
   * The operands that the leaves carrying no derivative of the value record a call returns are
   * ({@link #carriesCallResult}); empty for other values.
   */
  Optional<List<Operand>> carriedByCall(Value result) {
    return Optional.ofNullable(carriedByCalls.get(result));
  }

  private List<ValueRecords.Carried> carriedResult = List.of();

  /**
   * Records where the leaves that carry no derivative of the value record the method returns
   * come from, in the order of the record's leaves.
   */
  void carriesResult(List<ValueRecords.Carried> carried) {
    carriedResult = List.copyOf(carried);
  }

  /**
   * Where the leaves that carry no derivative of the value record the method returns come
   * from ({@link ValueRecords.Carried}), in order; none for other methods.
   */
  List<ValueRecords.Carried> carriedResult() {
    return carriedResult;
  }

  private final Map<Operand, Object> recordPlaceholders = new java.util.IdentityHashMap<>();

  /**
   * A stand-in for a flattened value record ({@code value}, a {@link RecordLowering.Tuple})
   * among a call's arguments, of the record's type, while the call's method is chosen; the
   * call then passes the record's leaves instead.
   */
  Operand.Constant recordPlaceholder(RecordLowering.Tuple value) {
    Operand.Constant placeholder = context.javaTypes().referenceConstant("null",
        value.type().asType());
    recordPlaceholders.put(placeholder, value);
    return placeholder;
  }

  /** The record {@code operand} stands for, if it is a {@link #recordPlaceholder}. */
  Optional<RecordLowering.Tuple> recordOf(Operand operand) {
    return Optional.ofNullable((RecordLowering.Tuple) recordPlaceholders.get(operand));
  }
}
