package ad4j.processor.front;

import ad4j.processor.front.RecordLowering.Tuple;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Value;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.TypeElement;

/**
 * Value record parameters and locals as one variable per leaf ({@code Vec3 p} is {@code pX, pY,
 * pZ}): their leaves' names, declared, read and assigned, and the error where a record value is
 * used as an object. Apart from {@link RecordLowering} because the leaves' variables are the
 * scopes' and follow Java's rules for locals, whatever made the record.
 */
final class RecordLocals {
  private final LoweringContext context;
  private final RecordLowering records;

  RecordLocals(LoweringContext context, RecordLowering records) {
    this.context = context;
    this.records = records;
  }

  /** The names generated code gives the leaves of record local or parameter {@code name}. */
  static List<String> leafNames(String name, TypeElement record) {
    return ValueRecords.leaves(record).stream().map(leaf -> name + leaf.suffix()).toList();
  }

  /** Declares record local {@code name} holding {@code value} (null: not yet assigned). */
  void declareLocal(String name, TypeElement record, Tuple value) {
    List<LocalScopes.Local> leaves = context.scopes().declareRecord(name, record,
        leafNames(name, record), null, context);
    for (int i = 0; i < leaves.size(); i++) {
      LocalScopes.Local leaf = leaves.get(i);
      if (leaf.variable() != null) {
        Operand initial = value != null ? value.leaves().get(i)
            : Operand.Constant.zero(leaf.variable().type());
        context.ir().add(new Declare(leaf.variable(), initial, context.line()));
      } else if (value != null) {
        context.bind(leaf, value.leaves().get(i));
      }
    }
  }

  /**
   * The names of the flat parameters of record parameter {@code name}: {@link #leafNames}, each
   * made distinct from {@code taken} (the method's own names and earlier leaves', to which it is
   * added) with a number, so that no name of generated code or of the user's coincides with a
   * parameter's, and the members that take the records pass each leaf where it belongs
   * ({@code write/RecordAdapters} finds the leaves by these names).
   */
  static List<String> parameterLeafNames(String name, TypeElement record,
      java.util.Set<String> taken) {
    List<String> names = new ArrayList<>();
    for (String leaf : leafNames(name, record)) {
      String unique = leaf;
      for (int k = 2; clashes(unique, taken); k++) {
        unique = leaf + k;
      }
      taken.add(unique);
      names.add(unique);
    }
    return names;
  }

  /**
   * Whether leaf name {@code leaf}, or its tangent's name ({@code leafDot}), is a name of
   * {@code taken} or a tangent's of one.
   */
  private static boolean clashes(String leaf, java.util.Set<String> taken) {
    String dot = "Dot";
    return taken.contains(leaf) || taken.contains(leaf + dot)
        || leaf.endsWith(dot) && taken.contains(leaf.substring(0, leaf.length() - dot.length()));
  }

  /** Declares the flattened record parameter {@code name}, whose leaves are {@code values}. */
  void declareParameter(String name, TypeElement record, List<Value> values) {
    context.scopes().declareRecord(name, record,
        values.stream().map(Value::nameHint).toList(), values, context);
  }

  /** The current value of record local {@code name}. */
  Tuple read(String name, TypeElement record, Tree use) {
    List<Operand> leaves = new ArrayList<>();
    int count = ValueRecords.leaves(record).size();
    for (int i = 0; i < count; i++) {
      Operand leaf = context.read(context.scopes().lookUp(LocalScopes.leafKey(name, i)), use);
      if (leaf == null) {
        return null;
      }
      leaves.add(leaf);
    }
    return new Tuple(record, leaves);
  }

  /** {@code p = value} of record local {@code p}. */
  void assign(AssignmentTree assignment, String assignedName, LocalScopes.Local target) {
    TypeElement record = target.valueRecord();
    ExpressionTree expression = assignment.getExpression();
    Optional<TypeElement> type = records.typeOf(expression);
    if (type.isEmpty() || !type.get().equals(record)) {
      error(expression, "'" + context.source().quoted(expression) + "' cannot be assigned to value"
          + " record local '" + assignedName + "': ad4j assigns it values of its record made"
          + " in the method " + RecordLowering.valueSources(
          "a local, 'new', a call of the record's methods"));
      return;
    }
    Tuple value = records.lower(expression);
    if (value == null) {
      return;
    }
    List<LocalScopes.Local> leaves = new ArrayList<>();
    for (int i = 0; i < value.leaves().size(); i++) {
      leaves.add(context.scopes().lookUp(LocalScopes.leafKey(assignedName, i)));
    }
    for (int i = 0; i < leaves.size(); i++) {
      LocalScopes.Local leaf = leaves.get(i);
      if (leaf != null && leaf.variable() != null && leaf.type() == NumericType.DOUBLE_ARRAY) {
        // the leaf is a variable because the record is assigned in a branch or loop inside its
        // scope: an array variable stands for one array at each point of the code
        error(assignment.getVariable(), "value record local '" + assignedName + "' cannot be"
            + " assigned in a branch or loop inside its scope: its component '"
            + ValueRecords.leaves(record).get(i).accessors() + "' is a 'double[]', and a"
            + " differentiable method binds an array variable to one array at each point of"
            + " the code; assign it outside the branch or loop, or declare another local there");
        return;
      }
    }
    for (int i = 0; i < leaves.size(); i++) {
      context.bind(leaves.get(i), value.leaves().get(i));
    }
  }

  /** The error for a record value used where ad4j does not take one. */
  void misused(Tree at, String name) {
    error(at, "'" + name + "' is a value record, which ad4j flattens into its components:"
        + " read them through its accessors, assign it, or pass it to its own methods; passing"
        + " it elsewhere (to other methods, as an object) is not supported yet");
  }

  private void error(Tree at, String message) {
    context.diagnostics().error(at, message);
  }
}
