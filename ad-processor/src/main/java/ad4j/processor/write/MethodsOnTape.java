package ad4j.processor.write;

import ad4j.processor.emit.JavaEmitter;
import ad4j.processor.emit.JavaTypes;
import ad4j.processor.emit.NameAllocator;
import ad4j.processor.ir.Function;
import ad4j.processor.methodsize.SegmentCalls;
import ad4j.processor.methodsize.Segments;
import ad4j.processor.plan.PartMethod;
import ad4j.processor.plan.Segmentation;
import ad4j.processor.plan.SweepSegmentation;
import com.palantir.javapoet.MethodSpec;
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

  /** The methods of a split method's segments: per segment, forward, reverse, tangent. */
  List<MethodSpec> segments(Segmentation.Segmented split) {
    Segments segments = split.segments();
    SegmentCalls calls = split.calls();
    List<MethodSpec> methods = new ArrayList<>();
    for (Segments.Segment segment : segments.list()) {
      boolean last = segment.number() == segments.list().size();
      methods.add(methodOnTape(calls.name(SegmentCalls.FORWARD, segment.number()),
          segments.forward(segment), last ? double.class : void.class,
          "Forward sweep of " + lines(segment) + " of " + method.link() + "."));
      methods.add(methodOnTape(calls.name(SegmentCalls.REVERSE, segment.number()),
          segments.reverse(segment), void.class,
          "Reverse sweep of " + lines(segment) + " of " + method.link() + "."));
      methods.add(methodOnTape(calls.name(SegmentCalls.TANGENT, segment.number()),
          segments.tangent(segment), last ? double.class : void.class,
          "Forward mode over " + lines(segment) + " of " + method.link() + "."));
    }
    return methods;
  }

  /**
   * The methods of a split forward-over-reverse sweep: per segment, the forward modes of its
   * forward and of its reverse sweep.
   */
  List<MethodSpec> sweepSegments(SweepSegmentation.SegmentedSweep split) {
    Segments segments = split.segments();
    SegmentCalls calls = split.calls();
    List<MethodSpec> methods = new ArrayList<>();
    for (Segments.Segment segment : segments.list()) {
      boolean last = segment.number() == segments.list().size();
      methods.add(methodOnTape(calls.name(SegmentCalls.HESSIAN_FORWARD, segment.number()),
          segments.forwardWithTangents(segment), last ? double.class : void.class,
          "Forward sweep of " + lines(segment) + " of " + method.link()
              + ", with tangents (second order)."));
      methods.add(methodOnTape(calls.name(SegmentCalls.HESSIAN_REVERSE, segment.number()),
          segments.reverseWithTangents(segment), void.class,
          "Reverse sweep of " + lines(segment) + " of " + method.link()
              + ", with tangents (second order)."));
    }
    return methods;
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
    return methodOnTape(part.name(), part.program(), void.class, javadoc);
  }

  /**
   * A private method: the tape, then the program's parameters (the user's, then the
   * {@code double}s a transform added: tangents, the seed).
   */
  private MethodSpec methodOnTape(String name, Function program, Class<?> returns,
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

  private static String lines(Segments.Segment segment) {
    long first = segment.firstLine();
    long last = segment.lastLine();
    return first == last ? "line " + first : "lines " + first + " to " + last;
  }
}
