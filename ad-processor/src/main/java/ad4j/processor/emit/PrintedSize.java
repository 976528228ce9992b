package ad4j.processor.emit;

import ad4j.processor.ir.Function;
import com.palantir.javapoet.MethodSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The estimated bytecode ({@link BytecodeEstimate}) of a program as {@link JavaEmitter} prints
 * it, or of a printed method. Apart from the printer because the plan of a method asks it: a
 * member is cut, split or rejected by how long its program would be once printed, and only the
 * printer knows that.
 */
public final class PrintedSize {
  /** How JavaPoet writes the runtime's tape class in a signature. */
  private static final String TAPE = "ad4j.runtime.internal.Tape";

  private PrintedSize() {}

  /** The estimated bytecode of {@code program} printed as a method body, the tape bound. */
  public static int ofBody(Function program, NameScope scope) {
    NameAllocator names = scope.allocator();
    JavaEmitter emitter = new JavaEmitter(program, names);
    List<String[]> parameters = bodyParameters(program, emitter, names);
    return BytecodeEstimate.of(parameters, emitter.measuredText());
  }

  /**
   * Whether {@link #ofBody} of {@code program} is at most {@code limit}, found by printing
   * {@code program} only until its estimate passes the limit.
   */
  public static boolean bodyFits(Function program, NameScope scope, int limit) {
    NameAllocator names = scope.allocator();
    JavaEmitter emitter = new JavaEmitter(program, names);
    List<String[]> parameters = bodyParameters(program, emitter, names);
    return emitter.measuredWithin(new LinesWithinBudget(parameters, limit));
  }

  /**
   * The parameters of {@code program} printed as a method body by {@code emitter}, named in
   * order, with the tape bound to a name of its own, as pairs of type and name.
   */
  private static List<String[]> bodyParameters(Function program, JavaEmitter emitter,
      NameAllocator names) {
    List<String> parameterNames = emitter.parameterNames();
    emitter.bindTape(names.fresh("tape"));
    List<String[]> parameters = new ArrayList<>();
    for (int i = 0; i < parameterNames.size(); i++) {
      parameters.add(new String[] {
          JavaTypes.parameterType(program.parameters().get(i)).toString(),
          parameterNames.get(i)});
    }
    return parameters;
  }

  /**
   * The estimated bytecode of {@code program} printed as a private method that takes the tape
   * first, then the program's parameters: a segment's or a part's method.
   */
  public static int ofMethodOnTape(Function program, NameScope scope) {
    NameAllocator names = scope.allocator();
    JavaEmitter emitter = new JavaEmitter(program, names);
    List<String> parameterNames = emitter.parameterNames();
    String tape = names.fresh("tape");
    emitter.bindTape(tape);
    List<String[]> parameters = new ArrayList<>();
    parameters.add(new String[] {TAPE, tape});
    for (int i = 0; i < parameterNames.size(); i++) {
      parameters.add(new String[] {
          JavaTypes.parameterType(program.parameters().get(i)).toString(),
          parameterNames.get(i)});
    }
    return BytecodeEstimate.of(parameters, emitter.measuredText());
  }

  /** The estimated bytecode of a printed method. */
  public static int of(MethodSpec method) {
    List<String[]> parameters = new ArrayList<>();
    method.parameters().forEach(p -> parameters.add(
        new String[] {p.type().toString(), p.name()}));
    return BytecodeEstimate.of(parameters, method.code().toString());
  }
}
