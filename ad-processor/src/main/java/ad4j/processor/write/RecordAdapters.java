package ad4j.processor.write;

import ad4j.processor.front.ValueRecords;
import ad4j.processor.ir.Callee;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * The public members of a method with value record parameters. Its function takes each record
 * flattened, one {@code double} per leaf ({@code front/RecordLowering}), and so do the members
 * the other writers make of it; the contract's members take the record itself, and its tangent
 * as a record of the same type ({@code mTangent(Vec3 p, Vec3 pDot)}). Each such member becomes a
 * private one of the same name, taking the leaves, and a member with the record signature
 * reads the leaves through the accessors and calls it: nothing is allocated, and the
 * JIT inlines the call. Members for the code of callers (those taking a tape first) stay flat.
 *
 * <p>A method returning a value record is a vector function over the record's leaves: its
 * members return them as a {@code double[]}, and {@code mPullback} takes its seed as one. The
 * contract's {@code mValueAndJacobian} and {@code mTangent} return the record (made by its
 * canonical constructor), {@code mPullback} takes the seed as a record too. The record's
 * components that carry no derivative are not among the leaves it returns: each is the
 * parameter (or constant) the method returns it from ({@code ValueRecords.Carried}), the same
 * object or number as the method's value, in the record of tangents too. Such a method's
 * flat members are named apart ({@link Callee#FLAT}), for without record parameters their
 * parameters are the adapters'.
 */
final class RecordAdapters {
  /** The suffix of a tangent parameter's name ({@code xDot}). */
  private static final String DOT = "Dot";

  private RecordAdapters() {}

  /**
   * {@code members}, with the adapters and private flat members when the method needs them;
   * the flat tangent, which the forward sweep of callers calls, is package-private and handed
   * to {@code flatTangent} too (callers of other classes call it through the companion,
   * {@link SweepsClass#addFlat}), and so is the value over the leaves
   * ({@code Callee.valueName}) when the method has one.
   */
  static List<MethodSpec> of(GradClassWriter.Method method, List<MethodSpec> members,
      java.util.function.Consumer<MethodSpec> flatTangent) {
    Optional<TypeElement> result = ValueRecords.valueRecord(method.element().getReturnType());
    if (method.recordParameters().isEmpty() && result.isEmpty()) {
      return members;
    }
    Map<String, Leaf> leaves = new HashMap<>();
    for (ValueRecords.FlatParameter parameter : method.recordParameters()) {
      boolean firstTangent = true;
      for (int i = 0; i < parameter.flatNames().size(); i++) {
        ValueRecords.Leaf leaf = parameter.leaves().get(i);
        leaves.put(parameter.flatNames().get(i),
            new Leaf(parameter, i == 0, leaf.accessors(), ""));
        if (leaf.active()) { // an int, long or boolean leaf has no tangent
          leaves.put(parameter.flatNames().get(i) + DOT,
              new Leaf(parameter, firstTangent, leaf.accessors(), DOT));
          firstTangent = false;
        }
      }
    }
    String name = method.function().name();
    List<MethodSpec> written = new ArrayList<>();
    for (MethodSpec member : members) {
      if (member.name().equals(name + Callee.VALUE_FLAT)) {
        // the value over the leaves, for callers' code only
        written.add(member);
        flatTangent.accept(member);
        continue;
      }
      Optional<Result> returned = result.flatMap(record -> Result.of(name, member, record));
      if (!isContracts(member) || !takesRecords(member, leaves) && returned.isEmpty()) {
        written.add(member);
        continue;
      }
      // a method returning a record: its flat members are named apart, for their parameters
      // may be the adapters' ('fTangent(double x, double xDot)' returning V and double[])
      MethodSpec flat = flat(member, member.name() + (result.isPresent() ? Callee.FLAT : ""),
          member.name().equals(name + "Tangent"));
      if (member.name().equals(name + "Tangent")) {
        flatTangent.accept(flat);
      }
      written.add(flat);
      written.add(adapter(member, leaves, returned, result.isPresent(),
          method.carriedResult()));
    }
    return written;
  }

  /**
   * The private member that gives the leaves of a record of value record {@code record}, depth
   * first, as a {@code double[]} ({@link ValueRecords#leavesMember}): the code of callers makes
   * them of the value of a method returning the record.
   */
  static MethodSpec leavesMember(TypeElement record, Modifier... modifiers) {
    String value = "value";
    List<CodeBlock> leaves = ValueRecords.activeLeaves(record).stream()
        .map(leaf -> CodeBlock.of("$L.$L", value, leaf.accessors())).toList();
    return MethodSpec.methodBuilder(ValueRecords.leavesMember(record))
        .addJavadoc("The leaves of {@code $L}, depth first: the value of a vector function.\n",
            value)
        .addModifiers(modifiers)
        .addModifiers(Modifier.STATIC)
        .returns(double[].class)
        .addParameter(TypeName.get(record.asType()), value)
        .addStatement("return new double[] {$L}", CodeBlock.join(leaves, ",$W"))
        .build();
  }

  /**
   * How a member of a method returning value record {@code record} takes or gives it:
   * {@code mValueAndJacobian} and {@code mTangent} return it (the value, the tangents),
   * {@code mPullback} returns it and takes the seed as one ({@code seed}: its index).
   */
  private record Result(TypeElement record, int seed) {
    static Optional<Result> of(String method, MethodSpec member, TypeElement record) {
      if (member.name().equals(method + "Pullback")) {
        return Optional.of(new Result(record, member.parameters().size() - 2));
      }
      if (member.name().equals(method + "ValueAndJacobian")
          || member.name().equals(method + "Tangent")) {
        return Optional.of(new Result(record, -1));
      }
      return Optional.empty(); // mJacobian: its matrix is over the leaves, as the flat one's
    }
  }

  /** A flat parameter: its record parameter, whether it is the first leaf, how it is read. */
  private record Leaf(ValueRecords.FlatParameter record, boolean first, String accessors,
      String suffix) {}

  /** Whether {@code member} is one of the contract's (not private, not for callers' code). */
  private static boolean isContracts(MethodSpec member) {
    return !member.modifiers().contains(Modifier.PRIVATE) && !MethodContext.isForCallers(member);
  }

  /** Whether {@code member} takes leaves of a record parameter. */
  private static boolean takesRecords(MethodSpec member, Map<String, Leaf> leaves) {
    return member.parameters().stream().anyMatch(p -> leaves.containsKey(p.name()));
  }

  /**
   * {@code member}, private, or package-private when it is the {@code tangent} (callers of the
   * method call its {@code mTangent} with the leaves of the records they pass, those of other
   * classes through the companion), without its javadoc: the adapter carries it.
   */
  private static MethodSpec flat(MethodSpec member, String name, boolean tangent) {
    return MethodSpec.methodBuilder(name)
        .addModifiers(tangent ? new Modifier[] {Modifier.STATIC}
            : new Modifier[] {Modifier.PRIVATE, Modifier.STATIC})
        .addAnnotations(member.annotations())
        .returns(member.returnType())
        .addParameters(member.parameters())
        .addExceptions(member.exceptions())
        .addCode(member.code())
        .build();
  }

  /**
   * The member with record parameters and result ({@code returned}), calling the flat one
   * ({@code named apart}: its name ends with {@link Callee#FLAT}).
   */
  private static MethodSpec adapter(MethodSpec member, Map<String, Leaf> leaves,
      Optional<Result> returned, boolean namedApart, List<ValueRecords.Carried> carried) {
    CodeBlock notes = CodeBlock.builder().add(carriedAlong(member, leaves))
        .add(returned.map(r -> carriedOut(r.record(), member.name().endsWith("Tangent")))
            .orElse(CodeBlock.of("")))
        .build();
    MethodSpec.Builder adapter = MethodSpec.methodBuilder(member.name())
        .addJavadoc(withNote(member.javadoc(), notes))
        .addModifiers(member.modifiers())
        .addAnnotations(member.annotations())
        .returns(returned.map(r -> TypeName.get(r.record().asType()))
            .orElse(member.returnType()))
        .addExceptions(member.exceptions());
    List<CodeBlock> arguments = new ArrayList<>();
    List<String> names = new ArrayList<>();
    Map<String, String> tangentRecords = tangentRecordNames(member, leaves, returned);
    for (int k = 0; k < member.parameters().size(); k++) {
      ParameterSpec parameter = member.parameters().get(k);
      Leaf leaf = leaves.get(parameter.name());
      if (returned.isPresent() && returned.get().seed() == k) {
        // the seed, a record of the result's type: its leaves
        TypeElement record = returned.get().record();
        adapter.addParameter(TypeName.get(record.asType()), parameter.name());
        names.add(parameter.name());
        List<CodeBlock> seed = ValueRecords.activeLeaves(record).stream()
            .map(l -> CodeBlock.of("$N.$L", parameter.name(), l.accessors())).toList();
        arguments.add(CodeBlock.of("new double[] {$L}", CodeBlock.join(seed, ",$W")));
        continue;
      }
      if (leaf == null) {
        adapter.addParameter(parameter);
        names.add(parameter.name());
        arguments.add(CodeBlock.of("$N", parameter.name()));
        continue;
      }
      String record = leaf.suffix().isEmpty() ? leaf.record().name()
          : tangentRecords.get(leaf.record().name());
      if (leaf.first()) {
        adapter.addParameter(TypeName.get(leaf.record().type()), record);
        names.add(record);
      }
      arguments.add(CodeBlock.of("$L.$L", record, leaf.accessors()));
    }
    String flat = member.name() + (namedApart ? Callee.FLAT : "");
    CodeBlock call = CodeBlock.of("$N($L)", flat, CodeBlock.join(arguments, ",$W"));
    if (returned.isPresent()) {
      // the record of the leaves the flat member returns, made by its canonical constructor
      String local = "leaves";
      for (int k = 2; names.contains(local); k++) {
        local = "leaves" + k;
      }
      adapter.addStatement("double[] $L = $L", local, call);
      adapter.addStatement("return $L", construction(returned.get().record(), local,
          new Carrying(carried, arguments)));
    } else if (member.returnType().equals(TypeName.VOID)) {
      adapter.addStatement("$L", call);
    } else {
      adapter.addStatement("return $L", call);
    }
    return adapter.build();
  }

  /**
   * The names of the adapter's tangent records, by the name of their record parameter:
   * {@code pDot}, or {@code pDot2}, {@code pDot3}, ... where a parameter the adapter keeps has
   * that name ({@code f(Vec2 v, double vDot)}, whose flat member names the tangent of the user's
   * {@code vDot} {@code vDotDot}: the adapter's {@code Vec2 vDot} declared {@code vDot} twice,
   * and the generated class did not compile).
   */
  private static Map<String, String> tangentRecordNames(MethodSpec member,
      Map<String, Leaf> leaves, Optional<Result> returned) {
    Set<String> kept = new HashSet<>();
    List<String> records = new ArrayList<>();
    for (int k = 0; k < member.parameters().size(); k++) {
      String name = member.parameters().get(k).name();
      Leaf leaf = leaves.get(name);
      boolean seed = returned.isPresent() && returned.get().seed() == k;
      if (seed || leaf == null) {
        kept.add(name);
      } else if (leaf.suffix().isEmpty()) {
        kept.add(leaf.record().name());
      } else if (leaf.first()) {
        records.add(leaf.record().name());
      }
    }
    Map<String, String> names = new HashMap<>();
    for (String record : records) {
      String name = record + DOT;
      for (int k = 2; kept.contains(name); k++) {
        name = record + DOT + k;
      }
      kept.add(name);
      names.put(record, name);
    }
    return names;
  }

  /** {@code javadoc} with {@code note} at the end of its description, before its tags. */
  private static CodeBlock withNote(CodeBlock javadoc, CodeBlock note) {
    if (note.isEmpty()) {
      return javadoc;
    }
    String text = javadoc.toString();
    int tags = text.startsWith("@") ? 0 : text.indexOf("\n@") + 1;
    if (tags <= 0 && !text.startsWith("@")) {
      return CodeBlock.builder().add(javadoc).add(note).build();
    }
    return CodeBlock.of("$L$L$L", text.substring(0, tags).stripTrailing() + "\n", note,
        "\n" + text.substring(tags));
  }

  /**
   * The javadoc's note on the components of {@code member}'s record parameters that carry no
   * derivative ({@code p.name()}): they take no slot and are passed along as the record holds
   * them; a tangent record's are ignored. Empty when there are none.
   */
  private static CodeBlock carriedAlong(MethodSpec member, Map<String, Leaf> leaves) {
    List<String> carried = new ArrayList<>();
    boolean tangents = false;
    for (ParameterSpec parameter : member.parameters()) {
      Leaf leaf = leaves.get(parameter.name());
      if (leaf == null) {
        continue;
      }
      tangents |= !leaf.suffix().isEmpty();
      boolean active = leaves.containsKey(parameter.name() + DOT);
      if (leaf.suffix().isEmpty() && !active) {
        carried.add("{@code " + leaf.record().name() + "." + leaf.accessors() + "}");
      }
    }
    if (carried.isEmpty()) {
      return CodeBlock.of("");
    }
    return CodeBlock.of("\n<p>$L carr$L no derivative: passed along as given, in no slot$L.\n",
        String.join(", ", carried), carried.size() == 1 ? "ies" : "y",
        tangents ? "; the tangent records' are ignored" : "");
  }

  /**
   * The javadoc's note on the components of returned value record {@code record} that carry no
   * derivative ({@code name}): the member returns them as the method's value holds them, in
   * the record of tangents too ({@code tangent}). Empty when there are none.
   */
  private static CodeBlock carriedOut(TypeElement record, boolean tangent) {
    List<String> carried = ValueRecords.leaves(record).stream().filter(l -> !l.active())
        .map(l -> "{@code " + l.accessors() + "}").toList();
    if (carried.isEmpty()) {
      return CodeBlock.of("");
    }
    String named = String.join(", ", carried);
    return tangent
        ? CodeBlock.of("\n<p>In the returned record of tangents, $L, which carr$L no derivative,"
            + " $L the method's value's (the same object or number), not a tangent.\n", named,
            carried.size() == 1 ? "ies" : "y", carried.size() == 1 ? "is" : "are")
        : CodeBlock.of("\n<p>The returned record's $L, which carr$L no derivative, $L what the"
            + " method's run returns (the same object or number).\n", named,
            carried.size() == 1 ? "ies" : "y", carried.size() == 1 ? "is" : "are");
  }

  /**
   * What makes the returned record's leaves that carry no derivative: where each comes from,
   * in order ({@code carried}), the adapter's arguments to the flat member (parameter
   * {@code k}'s at {@code k}), and how many leaves of each kind are made so far.
   */
  private static final class Carrying {
    private final List<ValueRecords.Carried> carried;
    private final List<CodeBlock> arguments;
    private int nextActive;
    private int nextCarried;

    Carrying(List<ValueRecords.Carried> carried, List<CodeBlock> arguments) {
      this.carried = carried;
      this.arguments = arguments;
    }

    /** The next leaf that carries no derivative: its parameter's argument, or its constant. */
    CodeBlock nextCarried() {
      ValueRecords.Carried leaf = carried.get(nextCarried++);
      return leaf.parameter() >= 0 ? arguments.get(leaf.parameter())
          : CodeBlock.of("$L", leaf.constant());
    }
  }

  /**
   * {@code new R(leaves[0], new S(leaves[1], ...), p.name())}: value record {@code record}'s
   * leaves that carry derivatives from {@code array}, a {@code float} one narrowed back
   * ({@code (float) leaves[2]}), and the others from where {@code carrying} says.
   */
  private static CodeBlock construction(TypeElement record, String array, Carrying carrying) {
    List<CodeBlock> parts = new ArrayList<>();
    for (ValueRecords.Component component : ValueRecords.components(record)) {
      TypeMirror type = component.type();
      Optional<TypeElement> nested = ValueRecords.valueRecord(type);
      if (nested.isPresent()) {
        parts.add(construction(nested.get(), array, carrying));
      } else if (type.getKind() == TypeKind.DOUBLE || type.getKind() == TypeKind.FLOAT) {
        parts.add(CodeBlock.of(type.getKind() == TypeKind.FLOAT ? "(float) $L[$L]" : "$L[$L]",
            array, carrying.nextActive++));
      } else {
        parts.add(carrying.nextCarried());
      }
    }
    return CodeBlock.of("new $T($L)", TypeName.get(record.asType()),
        CodeBlock.join(parts, ",$W"));
  }
}
