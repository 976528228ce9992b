package ad4j.processor.write;

import ad4j.processor.emit.GeneratedAnnotation;
import ad4j.processor.ir.Callee;
import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * {@code FooGradSweeps}, the companion of {@code FooGrad}: the members that the generated code
 * of callers calls ({@code mPullback(Tape, ...)}, {@code mRecord}, {@code mReplay},
 * {@code mPullbackTangent}), which are no part of the design contract and so no public members
 * of {@code FooGrad}. Callers may be in other packages and other compilations, so these stay
 * public where the user's method is; each calls the package-private member of {@code FooGrad}
 * that holds its code, beside the private methods (segments, parts, copies of private fields)
 * that code shares with the contract's members. The JIT inlines the call.
 */
final class SweepsClass {
  private final ClassName gradClass;
  private final TypeSpec.Builder sweeps;
  /** The names of the {@link #addLeaves leaves members} written. */
  private final Set<String> leaves = new HashSet<>();

  /**
   * The companion of {@code gradClass}, which is written for {@code type} (named
   * {@code userType} in its package): public when {@code type} is, with {@code @Generated}
   * when {@code generated}, naming the classes {@code qualified} by their qualified names.
   */
  SweepsClass(ClassName gradClass, TypeElement type, String userType, boolean generated,
      String[] qualified) {
    this.gradClass = gradClass;
    this.sweeps = TypeSpec.classBuilder(name(gradClass))
        .addOriginatingElement(type)
        .addJavadoc("Generated support for calls between {@code @Differentiable} methods, not"
            + " API: the sweeps\nof the methods of {@link $L} that ad4j's code for their"
            + " callers calls. For their\nderivatives, use {@link $L}.\n", userType,
            gradClass.simpleName())
        .addJavadoc("\n<p>Do not edit: this file is generated again at each compilation.\n")
        .addModifiers(Modifier.FINAL)
        .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build())
        .alwaysQualify(qualified);
    if (generated) {
      sweeps.addAnnotation(AnnotationSpec.builder(
              ClassName.get(GeneratedAnnotation.PACKAGE, GeneratedAnnotation.SIMPLE_NAME))
          .addMember("value", "$S", GradClassWriter.GENERATOR)
          .build());
    }
    if (type.getModifiers().contains(Modifier.PUBLIC)) {
      sweeps.addModifiers(Modifier.PUBLIC);
    }
  }

  /** The companion's name: {@code FooGradSweeps} for {@code FooGrad}. */
  static ClassName name(ClassName gradClass) {
    return gradClass.peerClass(gradClass.simpleName() + Callee.SWEEPS);
  }

  /**
   * {@code members} for the generated class: those for callers' code
   * ({@link MethodContext#isForCallers}) keep their code there, package-private, and get a
   * member here of the same signature and the visibility of {@code userMethod}, carrying
   * their javadoc, that calls them.
   */
  List<MethodSpec> split(ExecutableElement userMethod, List<MethodSpec> members) {
    List<MethodSpec> kept = new ArrayList<>();
    for (MethodSpec member : members) {
      if (!MethodContext.isForCallers(member)) {
        kept.add(member);
        continue;
      }
      sweeps.addMethod(calling(userMethod, member));
      kept.add(MethodSpec.methodBuilder(member.name())
          .addJavadoc("The code of {@code $L.$L}, here beside the private methods it calls.\n",
              name(gradClass).simpleName(), member.name())
          .addModifiers(member.modifiers())
          .addAnnotations(member.annotations())
          .returns(member.returnType())
          .addParameters(member.parameters())
          .addExceptions(member.exceptions())
          .addCode(member.code())
          .build());
    }
    return kept;
  }

  /**
   * For callers in other classes of a method taking or returning value records: a member of the
   * companion calling {@code flatTangent}, the method's package-private tangent (or value) over
   * the records' leaves, which their forward sweep calls.
   */
  void addFlat(ExecutableElement userMethod, MethodSpec flatTangent) {
    sweeps.addMethod(calling(userMethod, flatTangent.toBuilder()
        .addJavadoc("For the generated code of callers in other classes, not for direct use:"
            + " what {@code $T.$L}\ncomputes over the leaves of its value records.\n",
            gradClass, flatTangent.name())
        .build()));
  }

  /**
   * For callers in other classes of a method returning value record {@code record}: the member
   * that gives the leaves of the record the method returns, once per record.
   */
  void addLeaves(ExecutableElement userMethod, TypeElement record) {
    String name = ad4j.processor.front.ValueRecords.leavesMember(record);
    if (!leaves.add(name)) {
      return;
    }
    List<Modifier> visibility = userMethod.getModifiers().stream()
        .filter(m -> m == Modifier.PUBLIC || m == Modifier.PROTECTED).toList();
    sweeps.addMethod(RecordAdapters.leavesMember(record, visibility.toArray(Modifier[]::new)));
  }

  /** The companion's class, once {@link #split} has seen every method's members. */
  TypeSpec build() {
    return sweeps.build();
  }

  /**
   * {@code member}'s signature, with the user's method's visibility, calling it. A parameter
   * named as the generated class ({@code double FooGrad}: the user's names are kept) would
   * obscure it in the call, so it is renamed here.
   */
  private MethodSpec calling(ExecutableElement userMethod, MethodSpec member) {
    List<ParameterSpec> parameters = new ArrayList<>();
    Set<String> names = new HashSet<>();
    member.parameters().forEach(p -> names.add(p.name()));
    for (ParameterSpec parameter : member.parameters()) {
      String name = parameter.name();
      if (name.equals(gradClass.simpleName())) {
        while (names.contains(name)) {
          name = name + "_";
        }
        names.add(name);
      }
      parameters.add(ParameterSpec.builder(parameter.type(), name)
          .addModifiers(parameter.modifiers())
          .addAnnotations(parameter.annotations())
          .build());
    }
    MethodSpec.Builder caller = MethodSpec.methodBuilder(member.name())
        .addJavadoc(member.javadoc())
        .addAnnotations(member.annotations())
        .returns(member.returnType())
        .addParameters(parameters)
        .addExceptions(member.exceptions());
    for (Modifier modifier : userMethod.getModifiers()) {
      if (modifier == Modifier.PUBLIC || modifier == Modifier.PROTECTED) {
        caller.addModifiers(modifier);
      }
    }
    caller.addModifiers(Modifier.STATIC);
    CodeBlock call = CodeBlock.of("$T.$N($L)", gradClass, member.name(),
        parameters.stream().map(p -> CodeBlock.of("$N", p))
            .collect(CodeBlock.joining(", ")));
    if (member.returnType().equals(TypeName.VOID)) {
      caller.addStatement("$L", call);
    } else {
      caller.addStatement("return $L", call);
    }
    return caller.build();
  }
}
