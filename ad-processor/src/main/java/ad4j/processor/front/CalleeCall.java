package ad4j.processor.front;

import ad4j.processor.ir.Operand;
import com.sun.source.tree.Tree;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * A call of a {@code @Differentiable} method being resolved ({@link CalleeResolver}): what the
 * user wrote ({@code shown}, at {@code tree}), the method it calls, and what the checks of the
 * call ({@link CalleeChecks}) and the flattening of its records ({@link CalleeRecordFlattening})
 * ask of it again and again.
 *
 * @param owner the class the user's code reached the method by (not always its declaring one)
 * @param declaring the class that declares the method, whose generated class has its members
 * @param qualified {@code Declaring.name}, as the messages name the method: where it is
 *     declared, which is where a message's advice (annotate it, make it package-private) applies,
 *     also for an inherited static method called through a subclass
 * @param privateHere whether the method is a private one of the class being lowered, whose
 *     value its generated class computes with a copy of it
 * @param receiver 1 for an instance method, whose receiver is the first argument
 *     ({@link CalleeResolver#resolveOnReceiver}), else 0
 */
record CalleeCall(TypeElement owner, String name, ExecutableElement method,
    List<Operand> arguments, Tree tree, String shown, TypeElement declaring, String qualified,
    boolean privateHere, int receiver) {

  /**
   * The value record an instance method of a value record is called on: its generated members
   * take the receiver flattened, as a record parameter (RecordLowering); empty for an object's
   * method or a static one.
   */
  Optional<TypeElement> valueReceiver() {
    return receiver == 1 ? ValueRecords.valueRecord(declaring.asType()) : Optional.empty();
  }
}
