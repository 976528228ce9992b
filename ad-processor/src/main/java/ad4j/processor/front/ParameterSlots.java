package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;

/**
 * The parameter slots of the generated members the JVM's limit may rule out: the widest,
 * {@code mTangent}, takes its method's parameters and one direction for each that carries
 * derivatives, and {@code mPullback} a seed and an array besides the parameters. The JVM allows a method 255
 * (JVMS 4.3.3; {@code double} and {@code long} take two), so a method with more than 63
 * {@code double} parameters can have no tangent member. Such a method still gets its other
 * members (they take its parameters and a few more); its callers' generated code, which would
 * call the tangent, cannot be written.
 */
public final class ParameterSlots {
  /** The JVM's limit on the parameter slots of a static method (JVMS 4.3.3). */
  public static final int MAX = 255;

  private ParameterSlots() {}

  /** Whether {@code method}'s generated class can have its {@code mTangent}. */
  public static boolean hasTangent(ExecutableElement method) {
    return ofTangent(method) <= MAX;
  }

  /**
   * The parameter slots of {@code method}'s {@code mTangent}, counting the tape that the
   * segment methods of a long method take as well, and at order 2 the gradient and its tangent
   * that the Hessian sweep takes instead.
   */
  public static int ofTangent(ExecutableElement method) {
    int slots = DerivativeOrder.of(method) == 2 ? 2 : 1;
    if (!StaticMembers.isStatic(method)) {
      // the receiver, the first parameter of every generated member; a value record's, a
      // double and its direction per leaf
      slots += Receivers.valueRecordReceiver(method)
          .map(record -> 4 * ValueRecords.leaves(record).size()).orElse(1);
    }
    for (VariableElement parameter : method.getParameters()) {
      TypeKind kind = parameter.asType().getKind();
      Optional<TypeElement> record = ValueRecords.flattened(parameter);
      if (record.isPresent()) {
        // a value record: a double and its direction per leaf
        slots += 4 * ValueRecords.leaves(record.get()).size();
        continue;
      }
      // a double and its direction take two slots each; a float one, its direction (a
      // double) two
      slots += kind == TypeKind.LONG ? 2 : kind == TypeKind.DOUBLE ? 4
          : kind == TypeKind.FLOAT ? (ActiveParameters.isActive(parameter) ? 3 : 1)
          : ActiveParameters.isActive(parameter) ? 2 : 1; // an array and its direction
    }
    return slots;
  }

  /**
   * The parameter slots of {@code method}'s {@code mPullback}, over the leaves of its value
   * records: its parameters, the seed (a {@code double}, or an array for a vector function) and
   * the adjoints' array. Every method gets it, so past the limit there is no method to
   * generate; the other members but {@code mTangent} take fewer, or as many with a tape, except
   * the private sweeps of a method long enough to be split, which take one more (an error when
   * they are written).
   */
  public static int ofPullback(ExecutableElement method) {
    int slots = 0;
    if (!StaticMembers.isStatic(method)) {
      slots += Receivers.valueRecordReceiver(method).map(ParameterSlots::ofLeaves).orElse(1);
    }
    for (VariableElement parameter : method.getParameters()) {
      TypeKind kind = parameter.asType().getKind();
      slots += ValueRecords.flattened(parameter).map(ParameterSlots::ofLeaves)
          .orElse(kind == TypeKind.DOUBLE || kind == TypeKind.LONG ? 2 : 1);
    }
    TypeKind result = method.getReturnType().getKind();
    boolean scalar = result == TypeKind.DOUBLE || result == TypeKind.FLOAT;
    return slots + (scalar ? 2 : 1) + 1;
  }

  /** The slots of a value record's leaves, each a parameter of the flat members. */
  private static int ofLeaves(TypeElement record) {
    int slots = 0;
    for (ValueRecords.Leaf leaf : ValueRecords.leaves(record)) {
      slots += leaf.type() == NumericType.DOUBLE || leaf.type() == NumericType.LONG ? 2 : 1;
    }
    return slots;
  }
}
