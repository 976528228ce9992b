package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.TypeElement;

/**
 * Value records held as objects (a {@code @NoDerivative} parameter's, a field's, a local given
 * one) that a call passes to a {@code @Differentiable} callee whose members take them flattened.
 * Java reads such a record's components where the callee reads them: a null record throws
 * there, or nowhere when the callee's path does not read it. Read all at the call, a null one
 * threw in every member, also where the method returns. So when one of them is null, the call
 * first runs the callee as written, as the method would call it: it throws where the callee
 * reads the null record, or it returns, and then the callee's path reads none of that record's
 * components, which its members get as zeros and so never read: their values and derivatives are
 * the method's. (Where generated code makes a record again of such zeros, to call a method as
 * written for its value, no code of the record's runs: a record whose making runs code is
 * passed to callers' value calls as its leaves, {@code LoweringContext.runsCodeWhenMade}.)
 * Records that are not null are read as before. The callee runs as written only
 * on that path; it may run again, for callers run it more than once (the value in forward mode,
 * then its tangent) and reject what would differ ({@code CalleePlainCalls}).
 *
 * <p>Only records whose leaves are all primitive ({@code double}, {@code float}, {@code int},
 * {@code long}, {@code boolean}) have zeros for leaves; the others are read at the call as
 * before ({@link #zeroable}).
 */
final class ObjectRecordArguments {
  /** A record argument held as an object: its place among the flat arguments, its type. */
  record Pending(int at, Operand object, TypeElement record, Tree tree) {}

  /** How a record held as an object is read: through its accessors ({@code ofObject}). */
  interface Reader {
    RecordLowering.Tuple read(Operand object, TypeElement record, Tree tree);
  }

  private final LoweringContext context;

  ObjectRecordArguments(LoweringContext context) {
    this.context = context;
  }

  /** Whether every leaf of {@code record} is a primitive number or boolean. */
  static boolean zeroable(TypeElement record) {
    return ValueRecords.leaves(record).stream().allMatch(leaf -> leaf.type().isNumeric()
        || leaf.type() == NumericType.BOOLEAN);
  }

  /**
   * Reads the records of {@code pending}, in order, their leaves zeros where a record is null,
   * after running {@code callee} (a static method's {@code Owner.g(...)}, an object's
   * {@code o.g(...)}) as written on {@code arguments} (the call's, records as objects, an
   * object's receiver first) when one of them is null. Null after an error.
   */
  List<List<Operand>> read(List<Pending> pending, Operation callee, List<Operand> arguments,
      Reader reader) {
    IrBuilder ir = context.ir();
    Operand nullRecord = null;
    for (Pending record : pending) {
      Operand isNull = isNull(record.object());
      nullRecord = nullRecord == null ? isNull
          : context.emit(Operation.infix("|"), List.of(nullRecord, isNull),
              NumericType.BOOLEAN, false);
    }
    List<List<Variable>> variables = new ArrayList<>();
    for (Pending record : pending) {
      List<Variable> leaves = new ArrayList<>();
      for (ValueRecords.Leaf leaf : ValueRecords.leaves(record.record())) {
        Variable variable = ir.variable(String.join("", leaf.path()), leaf.type(), null);
        ir.add(new Declare(variable, Operand.Constant.zero(leaf.type()), context.line()));
        leaves.add(variable);
      }
      variables.add(leaves);
    }
    ir.openBlock();
    // the callee as the method calls it: it throws where it reads a null record. Its
    // result is dropped, and its code keeps nothing (CalleePlainCalls): what it is given
    // comes back nowhere
    Operand ran = context.emit(callee, arguments, NumericType.VOID, false);
    context.dependences().runsAsWritten(ran, callee.name(), true);
    if (pending.size() > 1) {
      for (int k = 0; k < pending.size(); k++) {
        ir.openBlock();
        if (!readInto(pending.get(k), variables.get(k), reader)) {
          ir.closeBlock();
          ir.closeBlock();
          return null;
        }
        Block present = ir.closeBlock();
        Operand isNull = isNull(pending.get(k).object());
        Operand notNull = context.emit(Operation.NOT, List.of(isNull), NumericType.BOOLEAN,
            false);
        ir.add(new If(ir.nextStatementId(), notNull, present, new Block(List.of()),
            context.line()));
      }
    }
    Block someNull = ir.closeBlock();
    ir.openBlock();
    for (int k = 0; k < pending.size(); k++) {
      if (!readInto(pending.get(k), variables.get(k), reader)) {
        ir.closeBlock();
        return null;
      }
    }
    Block allPresent = ir.closeBlock();
    ir.add(new If(ir.nextStatementId(), nullRecord, someNull, allPresent, context.line()));
    List<List<Operand>> read = new ArrayList<>();
    for (List<Variable> leaves : variables) {
      read.add(leaves.stream()
          .map(v -> (Operand) new Operand.Use(context.readVariable(v))).toList());
    }
    return read;
  }

  private Operand isNull(Operand object) {
    return context.emit(Operation.infix("=="), List.of(object,
        context.javaTypes().referenceConstant("null", context.types().getNullType())),
        NumericType.BOOLEAN, false);
  }

  /** Reads {@code record}'s leaves into {@code variables}; false after an error. */
  private boolean readInto(Pending record, List<Variable> variables, Reader reader) {
    RecordLowering.Tuple tuple = reader.read(record.object(), record.record(), record.tree());
    if (tuple == null) {
      return false;
    }
    for (int i = 0; i < variables.size(); i++) {
      context.ir().add(new Store(variables.get(i), tuple.leaves().get(i), context.line()));
    }
    return true;
  }
}
