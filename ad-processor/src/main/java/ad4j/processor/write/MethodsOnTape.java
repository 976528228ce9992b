package ad4j.processor.write;

import ad4j.processor.emit.JavaEmitter;
import ad4j.processor.emit.JavaTypes;
import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Function;
import ad4j.processor.plan.PartMethod;
import ad4j.processor.plan.SegmentMethod;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.List;

/**
 * The private methods that take the caller's tape first, then their program's parameters: the
 * methods of a split method's segments (first-order, and those of its forward-over-reverse
 * sweep) and the part methods of long members. Apart because they are printed alike, whatever
 * member calls them.
 */
final class MethodsOnTape {
  private final MethodContext method;

  MethodsOnTape(MethodContext method) {
    this.method = method;
  }

  /** The methods of a split method's segments, or of its split sweep's, in order. */
  List<MethodSpec> segments(List<SegmentMethod> segments) {
    List<MethodSpec> methods = new ArrayList<>();
    for (SegmentMethod segment : segments) {
      methods.add(segment(segment));
    }
    return methods;
  }

  private MethodSpec segment(SegmentMethod segment) {
    String lines = segment.firstLine() == segment.lastLine() ? "line " + segment.firstLine()
        : "lines " + segment.firstLine() + " to " + segment.lastLine();
    String javadoc = switch (segment.sweep()) {
      case FORWARD -> "Forward sweep of " + lines + " of " + method.link() + ".";
      case REVERSE -> "Reverse sweep of " + lines + " of " + method.link() + ".";
      case TANGENT -> "Forward mode over " + lines + " of " + method.link() + ".";
      case HESSIAN_FORWARD -> "Forward sweep of " + lines + " of " + method.link()
          + ", with tangents (second order).";
      case HESSIAN_REVERSE -> "Reverse sweep of " + lines + " of " + method.link()
          + ", with tangents (second order).";
    };
    // the forward sweep returns the method's value (a float method's float); the others a
    // tangent, a double
    TypeName returns = !segment.returnsValue() ? TypeName.VOID
        : segment.sweep() == SegmentMethod.Sweep.FORWARD ? method.valueType() : TypeName.DOUBLE;
    return methodOnTape(segment.name(), segment.program(), returns, javadoc);
  }

  /** The methods of {@code parts}, in order. */
  List<MethodSpec> parts(List<PartMethod> parts) {
    List<MethodSpec> methods = new ArrayList<>();
    for (PartMethod part : parts) {
      methods.add(part(part));
    }
    return methods;
  }

  /** The method of one part of a member. */
  MethodSpec part(PartMethod part) {
    String javadoc = switch (part.kind()) {
      case PART -> "Part of {@code " + part.member() + "}: takes the values it reads as"
          + " arguments and the rest from\nthe tape, and leaves on the tape what is"
          + " read after it.";
      case LOOP_NEST -> "A loop nest of {@code " + part.member() + "}, in a method of its own:"
          + " takes the values it reads as\narguments and the rest from the tape, and leaves"
          + " on the tape what is read after it.";
    };
    return methodOnTape(part.name(), part.program(), TypeName.VOID, javadoc);
  }

  /**
   * A private method: the tape, then the program's parameters (the user's, then the
   * {@code double}s a transform added: tangents, the seed).
   */
  private MethodSpec methodOnTape(String name, Function program, TypeName returns,
      String javadoc) {
    NameAllocator names = method.names();
    JavaEmitter emitter = new JavaEmitter(program, names);
    List<String> parameters = emitter.parameterNames();
    String tape = names.fresh("tape");
    emitter.bindTape(tape);
    MethodSpec.Builder builder = method.privateMethod(name)
        .addJavadoc("$L\n", javadoc)
        .returns(returns)
        .addParameter(MethodContext.TAPE, tape);
    for (int i = 0; i < parameters.size(); i++) {
      builder.addParameter(JavaTypes.parameterType(program.parameters().get(i)),
          parameters.get(i));
    }
    return builder.addCode(emitter.body()).build();
  }
}
