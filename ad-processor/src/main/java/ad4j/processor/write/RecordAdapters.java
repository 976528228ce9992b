package ad4j.processor.write;

import ad4j.processor.front.ValueRecords;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * The public members of a method with value record parameters. Its function takes each record
 * flattened, one {@code double} per leaf ({@code front/RecordLowering}), and so do the members
 * the other writers make of it; the contract's members take the record itself, and its tangent
 * as a record of the same type ({@code mTangent(Vec3 p, Vec3 pDot)}). Each such member becomes a
 * private one of the same name, taking the leaves, and a member with the record signature
 * reads the leaves through the accessors and calls it: nothing is allocated, and the
 * JIT inlines the call. Members for the code of callers (those taking a tape first) stay flat.
 */
final class RecordAdapters {
  /** The suffix of a tangent parameter's name ({@code xDot}). */
  private static final String DOT = "Dot";

  private RecordAdapters() {}

  /** {@code members}, with the adapters and private flat members when the method needs them. */
  static List<MethodSpec> of(GradClassWriter.Method method, List<MethodSpec> members) {
    if (method.recordParameters().isEmpty()) {
      return members;
    }
    Map<String, Leaf> leaves = new HashMap<>();
    for (ValueRecords.FlatParameter parameter : method.recordParameters()) {
      for (int i = 0; i < parameter.flatNames().size(); i++) {
        String accessors = parameter.leaves().get(i).accessors();
        leaves.put(parameter.flatNames().get(i), new Leaf(parameter, i == 0, accessors, ""));
        leaves.put(parameter.flatNames().get(i) + DOT,
            new Leaf(parameter, i == 0, accessors, DOT));
      }
    }
    List<MethodSpec> written = new ArrayList<>();
    for (MethodSpec member : members) {
      if (!takesRecords(member, leaves)) {
        written.add(member);
        continue;
      }
      written.add(flat(member));
      written.add(adapter(member, leaves));
    }
    return written;
  }

  /** A flat parameter: its record parameter, whether it is the first leaf, how it is read. */
  private record Leaf(ValueRecords.FlatParameter record, boolean first, String accessors,
      String suffix) {}

  /** Whether {@code member} is one of the contract's, taking leaves of a record parameter. */
  private static boolean takesRecords(MethodSpec member, Map<String, Leaf> leaves) {
    if (member.modifiers().contains(Modifier.PRIVATE) || MethodContext.isForCallers(member)) {
      return false;
    }
    return member.parameters().stream().anyMatch(p -> leaves.containsKey(p.name()));
  }

  /**
   * {@code member}, private (callers of the method in its class call its {@code mTangent} with
   * the leaves of the records they pass), without its javadoc: the adapter carries it.
   */
  private static MethodSpec flat(MethodSpec member) {
    return MethodSpec.methodBuilder(member.name())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .addAnnotations(member.annotations())
        .returns(member.returnType())
        .addParameters(member.parameters())
        .addExceptions(member.exceptions())
        .addCode(member.code())
        .build();
  }

  /** The member with record parameters, calling the flat one. */
  private static MethodSpec adapter(MethodSpec member, Map<String, Leaf> leaves) {
    MethodSpec.Builder adapter = MethodSpec.methodBuilder(member.name())
        .addJavadoc(member.javadoc())
        .addModifiers(member.modifiers())
        .addAnnotations(member.annotations())
        .returns(member.returnType())
        .addExceptions(member.exceptions());
    List<CodeBlock> arguments = new ArrayList<>();
    for (ParameterSpec parameter : member.parameters()) {
      Leaf leaf = leaves.get(parameter.name());
      if (leaf == null) {
        adapter.addParameter(parameter);
        arguments.add(CodeBlock.of("$N", parameter.name()));
        continue;
      }
      String record = leaf.record().name() + leaf.suffix();
      if (leaf.first()) {
        adapter.addParameter(TypeName.get(leaf.record().type()), record);
      }
      arguments.add(CodeBlock.of("$L.$L", record, leaf.accessors()));
    }
    CodeBlock call = CodeBlock.of("$N($L)", member.name(), CodeBlock.join(arguments, ",$W"));
    if (member.returnType().equals(TypeName.VOID)) {
      adapter.addStatement("$L", call);
    } else {
      adapter.addStatement("return $L", call);
    }
    return adapter.build();
  }
}
