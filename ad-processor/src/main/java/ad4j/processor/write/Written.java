package ad4j.processor.write;

import ad4j.processor.emit.PrintedSize;
import com.palantir.javapoet.MethodSpec;
import java.util.List;
import java.util.Optional;

/**
 * A member as written: the method, and the private method of its body when that records on
 * the tape and is apart ({@link TapeBodies}), which the class lists right after it.
 */
record Written(MethodSpec member, Optional<MethodSpec> body) {
  /** A member whose body is its own. */
  static Written alone(MethodSpec member) {
    return new Written(member, Optional.empty());
  }

  /** The member, then its body's method if apart. */
  List<MethodSpec> methods() {
    return body.map(b -> List.of(member, b)).orElse(List.of(member));
  }

  /** The largest estimated bytecode of the member and of its body's method, if apart. */
  int bytes() {
    return Math.max(PrintedSize.of(member), body.map(PrintedSize::of).orElse(0));
  }
}
