package ad4j.processor.front;

import java.util.Optional;
import javax.lang.model.element.TypeElement;

/**
 * The class files of the types a compilation reads without their source (a jar, an earlier
 * build's output): the language model tells a record's components and accessors but not what
 * an accessor does, which only its bytecode shows ({@link RecordClassFileAccessors}).
 */
@FunctionalInterface
public interface ClassFiles {
  /** None found: every question about a class file is answered "cannot tell". */
  ClassFiles NONE = type -> Optional.empty();

  /** The bytes of {@code type}'s class file, if the compilation's class path has it. */
  Optional<byte[]> read(TypeElement type);
}
