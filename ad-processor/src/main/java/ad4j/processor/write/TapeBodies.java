package ad4j.processor.write;

import ad4j.processor.emit.JavaEmitter;
import ad4j.processor.emit.NameAllocator;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Modifier;

/**
 * A member with its printed body: in the member itself, or, when the body records on the tape,
 * in a private method of its own, {@code <member>OnTape(Tape tape, <member's parameters>)},
 * which the member calls inside the handler that puts the thread's tape back when the body
 * throws. Why apart: a handler around the sweeps themselves keeps the tape's mark alive
 * through all their loops and gives every call in them an edge to the handler; measured on
 * the ADBench GMM's gradient, that cost up to 6 % (BENCHMARKS.md, observations, "The tape's
 * handler out of the sweeps' method"). A small body is inlined back by the JIT.
 */
final class TapeBodies {
  private TapeBodies() {}

  /** {@code method} with the emitted body, apart when it records on the tape. */
  static Written withBody(MethodSpec.Builder method, JavaEmitter emitter,
      NameAllocator names) {
    if (!emitter.usesTape()) {
      return Written.alone(method.addCode(emitter.body()).build());
    }
    MethodSpec signature = method.build();
    String tape = names.fresh("tape");
    emitter.bindTape(tape);
    MethodSpec body = MethodSpec.methodBuilder(signature.name() + "OnTape")
        .addAnnotations(signature.annotations())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .addJavadoc("The body of {@code $L}, which puts the thread's tape back when this"
            + " throws.\nRecords on {@code $L}.\n", signature.name(), tape)
        .returns(signature.returnType())
        .addParameter(MethodContext.TAPE, tape)
        .addParameters(signature.parameters())
        .addCode(emitter.body())
        .build();
    List<String> arguments = new ArrayList<>(List.of(tape));
    signature.parameters().forEach(parameter -> arguments.add(parameter.name()));
    CodeBlock call = CodeBlock.of("$L($L)", body.name(), String.join(", ", arguments));
    MethodSpec member = method.addCode(tapeHandler(names, tape,
        signature.returnType().equals(TypeName.VOID)
            ? CodeBlock.builder().addStatement("$L", call).build()
            : CodeBlock.builder().addStatement("return $L", call).build())).build();
    return new Written(member, Optional.of(body));
  }

  /**
   * {@code call}, which records on the thread's tape, with the tape bound to {@code tape};
   * when it ends by an exception, the tape is reset to where the member found it, so that a
   * thread that catches the exception and goes on keeps nothing of the failed call. The
   * normal path pays for one mark; a try block itself costs nothing until something throws.
   */
  static CodeBlock tapeHandler(NameAllocator names, String tape, CodeBlock call) {
    String mark = names.fresh("tapeMark");
    String thrown = names.fresh("thrown");
    return CodeBlock.builder()
        .addStatement("$T $L = $T.current()", MethodContext.TAPE, tape, MethodContext.TAPE)
        .addStatement("long $L = $L.mark()", mark, tape)
        .beginControlFlow("try")
        .add(call)
        .nextControlFlow("catch ($T $L)", Throwable.class, thrown)
        .add("// leave the thread's tape as this call found it\n")
        .addStatement("$L.reset($L)", tape, mark)
        .addStatement("throw $L", thrown)
        .endControlFlow()
        .build();
  }
}
