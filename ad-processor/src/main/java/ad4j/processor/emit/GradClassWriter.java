package ad4j.processor.emit;

import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.analysis.ResultLength;
import ad4j.processor.derive.ArraySlots;
import ad4j.processor.derive.forward.Tangent;
import ad4j.processor.derive.jacobian.JacobianRows;
import ad4j.processor.derive.jacobian.RowsWithoutValue;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.front.DerivativeOrder;
import ad4j.processor.front.Lowering;
import ad4j.processor.front.PrivateStaticFields;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Value;
import ad4j.processor.methodsize.Guards;
import ad4j.processor.methodsize.LongBlocks;
import ad4j.processor.methodsize.SegmentCalls;
import ad4j.processor.methodsize.Segments;
import ad4j.processor.methodsize.SingleReturn;
import ad4j.processor.optimize.DeadCode;
import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Writes {@code FooGrad}: for each differentiable method of {@code Foo}, the four members of the
 * design contract ({@code mGradient}, {@code mValueAndGradient}, {@code mTangent},
 * {@code mPullback}).
 */
public final class GradClassWriter {
  /** The processor named in {@code @Generated}. */
  public static final String GENERATOR = "ad4j.processor.DifferentiableProcessor";

  /** A lowered method with the element it came from. */
  /**
   * An annotated method and its IR. {@code callRunAsWritten}: the first call its code makes that
   * runs as written and may give another result or do something again when it runs again
   * ({@code "RNG.nextGaussian() (line 8)"}), if it makes one. {@code privateFields}: the
   * private static fields it reads, which the generated class copies.
   */
  public record Method(ExecutableElement element, Function function,
      Optional<String> callRunAsWritten, List<PrivateStaticFields.Copy> privateFields) {
    /** A method whose code makes no such call and reads no private static field. */
    public Method(ExecutableElement element, Function function) {
      this(element, function, Optional.empty(), List.of());
    }
  }


  private final Elements elements;
  /** When positive, every block is cut into parts of this many statements (tests only). */
  private final int forcedPartSize;
  private final int methodLimit;

  public GradClassWriter(Elements elements) {
    this(elements, 0);
  }

  /**
   * A writer that cuts every block of the order-1 members into parts of
   * {@code forcedPartSize} statements, long or not, when it is positive: for the processor's
   * tests ({@code -Aad4j.partSize}).
   */
  public GradClassWriter(Elements elements, int forcedPartSize) {
    this(elements, forcedPartSize, 0);
  }

  /**
   * As {@link #GradClassWriter(Elements, int)}; when {@code methodLimit} is positive, a member
   * whose estimated bytecode passes it counts as past the JVM's limit for one method: for the
   * processor's tests of that error ({@code -Aad4j.methodLimit}), which no program they can
   * afford to compile reaches otherwise.
   */
  public GradClassWriter(Elements elements, int forcedPartSize, int methodLimit) {
    this.elements = elements;
    this.forcedPartSize = forcedPartSize;
    this.methodLimit = methodLimit;
  }

  /** The generated class's name: {@code FooGrad}, or {@code Outer_InnerGrad} when nested. */
  public ClassName gradClassName(TypeElement type) {
    String packageName = elements.getPackageOf(type).getQualifiedName().toString();
    return ClassName.get(packageName, nestedName(type).replace('.', '_') + "Grad");
  }

  /** The generated file for {@code type}'s differentiable methods, in source order. */
  public JavaFile write(TypeElement type, List<Method> methods) {
    ClassName className = gradClassName(type);
    String userType = nestedName(type);
    TypeSpec.Builder gradClass = TypeSpec.classBuilder(className)
        .addOriginatingElement(type)
        .addJavadoc("Derivatives of the {@code @Differentiable} methods of {@link $L},\n"
            + "written by ad4j at compile time.\n", userType)
        .addJavadoc("\n<p>Do not edit: this file is generated again at each compilation.\n")
        .addModifiers(Modifier.FINAL)
        .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    if (GeneratedAnnotation.isVisibleTo(elements, type)) {
      gradClass.addAnnotation(AnnotationSpec.builder(
              ClassName.get(GeneratedAnnotation.PACKAGE, GeneratedAnnotation.SIMPLE_NAME))
          .addMember("value", "$S", GENERATOR)
          .build());
    }
    if (type.getModifiers().contains(Modifier.PUBLIC)) {
      gradClass.addModifiers(Modifier.PUBLIC);
    }
    gradClass.alwaysQualify(hiddenNames(className.packageName()).toArray(String[]::new));
    Map<String, Integer> overloads = new java.util.HashMap<>();
    for (Method method : methods) {
      overloads.merge(method.function().name(), 1, Integer::sum);
    }
    Map<String, Integer> seen = new java.util.HashMap<>();
    java.util.Set<String> marked = new java.util.HashSet<>();
    for (Method method : methods) {
      String name = method.function().name();
      if (method.callRunAsWritten().isPresent() && marked.add(name)) {
        gradClass.addField(FieldSpec.builder(String.class,
                name + Lowering.Lowered.CONSTANT_SUFFIX, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc("For ad4j, compiling callers of {@code $L} later: the first call its"
                + " code makes that runs as\nwritten and may give another result or do"
                + " something again when run again. Generated code that\nwould run {@code $L}"
                + " more than once per call of a member (a caller's tangent) is an error.\n",
                name, name)
            .initializer("$S", method.callRunAsWritten().get())
            .build());
      }
    }
    addPrivateFieldCopies(gradClass, methods);
    for (Method method : methods) {
      String name = method.function().name();
      int ordinal = seen.merge(name, 1, Integer::sum);
      // Overloads split into segments would give segment methods of the same name, and their
      // parameter lists may coincide (fReverse3(Tape, double, double) is the last segment of
      // f(double) and a middle one of f(double, double)): each overload numbers its own.
      String segmentSuffix = overloads.get(name) > 1 ? "Of" + ordinal : "";
      MethodWriter writer = new MethodWriter(userType, className.simpleName(), method,
          segmentSuffix, forcedPartSize, methodLimit);
      writer.members().forEach(gradClass::addMethod);
    }
    return JavaFile.builder(className.packageName(), gradClass.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  /**
   * The classes generated code names by their simple names ({@code java.lang}'s, and imported
   * ones) that a class of the user's package hides: a class {@code Double} or
   * {@code IllegalArgumentException} beside the user's would capture a simple name, so these
   * are written qualified.
   */
  /**
   * The copies of the private static fields the methods read ({@link PrivateStaticFields}):
   * {@code private static final} fields of the generated class, read once in its static
   * initializer through a private lookup of each field's class.
   */
  private static void addPrivateFieldCopies(TypeSpec.Builder gradClass, List<Method> methods) {
    Map<String, PrivateStaticFields.Copy> copies = new java.util.LinkedHashMap<>();
    methods.forEach(method -> method.privateFields().forEach(c -> copies.putIfAbsent(c.copy(), c)));
    if (copies.isEmpty()) {
      return;
    }
    ClassName handles = ClassName.get("java.lang.invoke", "MethodHandles");
    CodeBlock.Builder reads = CodeBlock.builder()
        .add("// generated code cannot name these private fields: it reads each once, through\n")
        .add("// a private lookup of its class (this class is in the same package and module)\n")
        .beginControlFlow("try");
    Map<TypeElement, String> lookups = new java.util.LinkedHashMap<>();
    for (PrivateStaticFields.Copy copy : copies.values()) {
      TypeName type = TypeName.get(copy.field().asType());
      gradClass.addField(FieldSpec.builder(type, copy.copy(), Modifier.PRIVATE, Modifier.STATIC,
              Modifier.FINAL)
          .addJavadoc("{@code $L.$L}, private there.\n", copy.owner().getSimpleName(),
              copy.field().getSimpleName())
          .build());
      String lookup = lookups.get(copy.owner());
      if (lookup == null) {
        lookup = "lookup" + (lookups.size() + 1);
        lookups.put(copy.owner(), lookup);
        reads.addStatement("$T.Lookup $L = $T.privateLookupIn($T.class, $T.lookup())", handles,
            lookup, handles, ClassName.get(copy.owner()), handles);
      }
      reads.addStatement("$L = ($T) $L.findStaticVarHandle($T.class, $S, $T.class).get()",
          copy.copy(), type, lookup, ClassName.get(copy.owner()),
          copy.field().getSimpleName().toString(), type); // never generic
    }
    reads.nextControlFlow("catch ($T e)", ReflectiveOperationException.class)
        .addStatement("throw new $T(e)", ExceptionInInitializerError.class)
        .endControlFlow();
    gradClass.addStaticBlock(reads.build());
  }

  private Set<String> hiddenNames(String packageName) {
    Set<String> hidden = new java.util.TreeSet<>();
    for (String name : List.of("Double", "Float", "IllegalArgumentException", "Object", "String",
        "System", "Throwable", "Tape", "Generated", "Arrays")) {
      String qualified = packageName.isEmpty() ? name : packageName + "." + name;
      if (elements.getTypeElement(qualified) != null) {
        hidden.add(name);
      }
    }
    return hidden;
  }

  /** {@code Outer.Inner} for a nested type, as code in its package names it. */
  private String nestedName(TypeElement type) {
    String qualified = type.getQualifiedName().toString();
    String packageName = elements.getPackageOf(type).getQualifiedName().toString();
    return packageName.isEmpty() ? qualified : qualified.substring(packageName.length() + 1);
  }

  static final ClassName TAPE = ClassName.get("ad4j.runtime", "Tape");

  /**
   * A method that ad4j cannot generate for the user's: the message says why, and the processor
   * reports it as a compile error at the method.
   */
  public static final class Unsupported extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient ExecutableElement method;

    Unsupported(ExecutableElement method, String message) {
      super(message);
      this.method = method;
    }

    /** The user's method the error is about. */
    public ExecutableElement method() {
      return method;
    }
  }

  /**
   * The JVM takes at most 65535 bytes of bytecode per method (JVMS 4.7.3); a margin for the
   * estimate, as for {@link #BYTECODE_LIMIT}.
   */
  private static final int JVM_METHOD_LIMIT = 57000;

  /**
   * An estimate above which a generated member is certainly past the JVM's 65535 bytes per
   * method: on long chains of branches the estimate was 4 to 5 % under javac's count (a
   * {@code ?:} chain of 600 pieces: 58,819 estimated, 61,632 compiled). Between the limit and
   * this, javac decides.
   */
  private static final int PAST_JVM_METHOD_LIMIT = 70000;

  /** HotSpot compiles no method over 8000 bytes of bytecode; a margin for the estimate. */
  private static final int BYTECODE_LIMIT = 7000;

  /**
   * The least bytecode one instruction of the user's method costs in a whole value-and-gradient
   * member: its forward statement alone loads, computes and stores.
   */
  private static final int MIN_BYTES_PER_INSTRUCTION = 3;

  /** Writes the four members for one method. */
  private static final class MethodWriter {
    private final String gradType;
    /** The user's class, as generated code names it. */
    private final String userType;
    private final ExecutableElement element;
    private final Function function;
    private final String link;
    private final int slots;
    /** The split of a long straight-line method into segments; null when it stays whole. */
    private Segments segments;
    /** The programs that call the segments' programs; null when the method stays whole. */
    private SegmentCalls segmentCalls;
    /** The argument checks before the segments of a split method; null when none. */
    private Guards guards;
    /**
     * The segments of the forward-over-reverse sweep (second order), smaller than those of the
     * first-order members, and their calls, after the argument checks if any; null when the
     * sweep is whole.
     */
    private Segments sweepSegments;
    private SegmentCalls sweepCalls;
    private Guards sweepGuards;
    /** The analysis of the function, shared by all its writers: it is the same for each. */
    private final FlowAnalysis flow;
    /** What reverse mode differentiates: the function, with slots on its reads of arrays. */
    private final Function reverseFunction;
    private final FlowAnalysis reverseFlow;
    /**
     * What ends the names of segment methods ({@code fForward3Of2}): empty unless the method
     * has overloads.
     */
    private final String segmentSuffix;
    /** The names no variable of these members may take. */
    private final Set<String> reserved;
    /**
     * The private methods of the parts of long blocks ({@link LongBlocks}), by the member
     * whose program calls them: a member printed again replaces its parts.
     */
    private final Map<String, List<MethodSpec>> partMethods = new java.util.LinkedHashMap<>();
    /**
     * The private methods holding the bodies of the members that record on the tape, by the
     * member ({@link #withBody}); by identity, since a member printed again is a new one.
     */
    private final Map<MethodSpec, MethodSpec> tapeBodies = new java.util.IdentityHashMap<>();
    /** When positive, every block is cut into parts this long (tests only). */
    private final int forcedPartSize;
    /** When positive, the estimate past which a member counts as too long (tests only). */
    private final int methodLimit;
    /**
     * A vector function's Jacobian by rows after one forward sweep ({@link JacobianRows}); null
     * when its reverse sweep cannot run again or the program would pass HotSpot's limit.
     */
    private Function rowsProgram;
    /**
     * The body of {@code fJacobian}: the rows of {@link #rowsProgram} into a matrix just made
     * ({@link JacobianRows#intoNewRows}) without the value, where the method fixes its result's
     * length and only writes the array ({@link RowsWithoutValue}) and the program records
     * nothing on the tape; else null.
     */
    private Function rowsWithoutValue;
    /** {@link #perParameter()}, made at its first use, and its analysis. */
    private Function perParameter;
    private FlowAnalysis perParameterFlow;

    MethodWriter(String userType, String gradType, Method method, String segmentSuffix,
        int forcedPartSize, int methodLimit) {
      this.forcedPartSize = forcedPartSize;
      this.methodLimit = methodLimit;
      this.userType = userType;
      this.segmentSuffix = segmentSuffix;
      this.gradType = gradType;
      this.element = method.element();
      this.function = method.function();
      this.slots = function.differentiableParameters().size();
      String parameterTypes = element.getParameters().stream()
          .map(p -> p.asType().toString())
          .collect(Collectors.joining(", "));
      this.link = "{@link " + userType + "#" + function.name() + "(" + parameterTypes + ")}";
      this.flow = new FlowAnalysis(function);
      this.reverseFunction = ArraySlots.of(function);
      this.reverseFlow = reverseFunction == function ? flow : new FlowAnalysis(reverseFunction);
      this.reserved = ReservedNames.of(function);
    }

    /** The names of one member: each member chooses its own. */
    private NameAllocator names() {
      return new NameAllocator(function.userNames(), reserved);
    }

    /**
     * The four members, then the segment methods when the method is split: a long
     * straight-line method is split only if its whole members would pass HotSpot's limit, so
     * those are written first and kept when they do not.
     */
    List<MethodSpec> members() {
      if (function.returnsArray()) {
        return vectorMembers();
      }
      Optional<Split> splittable = splittable(Segments::of);
      Segments candidate = splittable.map(Split::segments).orElse(null);
      guards = splittable.map(Split::guards).orElse(null);
      MethodSpec valueAndGradient;
      MethodSpec tangent;
      if (candidate != null
          && candidate.instructionCount() * MIN_BYTES_PER_INSTRUCTION > BYTECODE_LIMIT) {
        // so long that the whole members would pass the limit for certain: not written first
        split(candidate);
        valueAndGradient = valueAndGradient();
        tangent = tangent();
      } else {
        valueAndGradient = valueAndGradient();
        tangent = tangent();
        if (candidate != null
            && (exceedsHotSpotLimit(valueAndGradient) || exceedsHotSpotLimit(tangent))) {
          split(candidate);
          valueAndGradient = valueAndGradient();
          tangent = tangent();
        }
      }
      List<MethodSpec> members = new ArrayList<>(
          List.of(gradient(), valueAndGradient, tangent, pullback(), pullbackOntoTape()));
      members.addAll(splitMembers());
      members.addAll(segmentMethods());
      partMethods.values().forEach(members::addAll);
      if (DerivativeOrder.of(element) == 2) {
        members.addAll(secondOrderMembers());
      }
      if (element.getModifiers().contains(Modifier.PRIVATE)) {
        members.add(privateValue());
      }
      return withinJvmLimit(withTapeBodies(members));
    }

    /**
     * {@code members}, or an error at the user's method when one of them would be past the
     * JVM's limit for one method: javac would reject the generated class with "code too large"
     * at a line of code the user did not write. What {@link LongBlocks} and {@link Segments}
     * cannot cut stays that long (no program of the processor's tests is known to stay so; they
     * lower the limit with {@code -Aad4j.methodLimit}).
     */
    private List<MethodSpec> withinJvmLimit(List<MethodSpec> members) {
      for (MethodSpec member : members) {
        int bytes = estimatedBytes(member);
        if (bytes > (methodLimit > 0 ? methodLimit : PAST_JVM_METHOD_LIMIT)) {
          throw new Unsupported(element, "@Differentiable method '" + function.name()
              + "' is too long to differentiate: its generated " + member.name() + " would take"
              + " about " + bytes + " bytes of bytecode, past the JVM's limit of 65535 for one"
              + " method, and ad4j cannot cut it into parts that fit; move parts of the method"
              + " into methods of their own");
        }
      }
      return members;
    }

    /**
     * {@code private static double m(params)} for a private {@code @Differentiable} method: the
     * user's method as written, computed here, because the generated members of its callers,
     * in this class, cannot call the private method of the user's class for its value.
     */
    private MethodSpec privateValue() {
      NameAllocator names = names();
      JavaEmitter emitter = new JavaEmitter(function, names);
      List<String> parameters = emitter.parameterNames();
      MethodSpec.Builder method = suppressingWarnings(MethodSpec.methodBuilder(function.name()))
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .addJavadoc("Returns the value of $L, bit for bit, computed here: generated code"
              + " cannot call\nthe private method.\n", link)
          .returns(double.class);
      for (int i = 0; i < parameters.size(); i++) {
        method.addParameter(parameterType(function.parameters().get(i)), parameters.get(i));
      }
      return withBody(method, emitter, names);
    }

    // ---- second order (DESIGN.md, "Second order") ------------------------------------------

    /**
     * The Hessian members of an order-2 method: the Hessian-vector product, the Hessian, the
     * value with gradient and Hessian, and their private helpers: the forward-over-reverse
     * sweep and the Hessian by one sweep per slot.
     */
    private List<MethodSpec> secondOrderMembers() {
      MethodSpec sweep = hessianSweep();
      if (exceedsHotSpotLimit(sweep)) {
        // the sweep is about three times as long as the first-order members: it is split on its
        // own, into smaller segments, even where they fit whole
        splitSweep();
        if (sweepSegments != null) {
          sweep = hessianSweep();
        }
      }
      // the sweep, or a part of it where a long branch is cut whole into one
      int bytes = estimatedBytesWithBody(sweep);
      for (MethodSpec part : partMethods.getOrDefault(function.name() + "HessianSweep",
          List.of())) {
        bytes = Math.max(bytes, estimatedBytes(part));
      }
      if (bytes > (methodLimit > 0 ? methodLimit : JVM_METHOD_LIMIT)) {
        throw new Unsupported(element, "@Differentiable(order = 2) method '" + function.name()
            + "' is too long for second derivatives: its forward-over-reverse sweep, which is"
            + " not split into segments, would take about " + bytes + " bytes of bytecode,"
            + " past the JVM's limit of 65535 for one method; shorten the method, or use"
            + " order 1");
      }
      // with what the second-order code of order-2 callers calls
      List<MethodSpec> members = new ArrayList<>(List.of(hessian(), hessianVector(),
          valueGradientAndHessian(), sweep, hessianInto(), pullbackTangentOntoTape()));
      members.addAll(secondOrderSegmentMethods());
      // the parts of the sweeps' long blocks, made while they were printed above
      for (String member : List.of("HessianSweep", "PullbackTangent")) {
        members.addAll(partMethods.getOrDefault(function.name() + member, List.of()));
      }
      return members;
    }

    /**
     * The private methods of a split method's forward-over-reverse sweep: per segment, the
     * forward modes of its forward and of its reverse sweep. None when it is not split.
     */
    private List<MethodSpec> secondOrderSegmentMethods() {
      List<MethodSpec> methods = new ArrayList<>();
      if (sweepSegments == null) {
        return methods;
      }
      for (Segments.Segment segment : sweepSegments.list()) {
        boolean last = segment.number() == sweepSegments.list().size();
        methods.add(segmentMethod(
            sweepCalls.name(SegmentCalls.HESSIAN_FORWARD, segment.number()),
            sweepSegments.forwardWithTangents(segment), last ? double.class : void.class,
            "Forward sweep of " + segmentLines(segment) + " of " + link
                + ", with tangents (second order)."));
        methods.add(segmentMethod(
            sweepCalls.name(SegmentCalls.HESSIAN_REVERSE, segment.number()),
            sweepSegments.reverseWithTangents(segment), void.class,
            "Reverse sweep of " + segmentLines(segment) + " of " + link
                + ", with tangents (second order)."));
      }
      return methods;
    }

    /**
     * {@code mPullbackTangent(Tape tape, params, [aAdjoints, aStart, ...], double seed,
     * directions..., double seedDot, [aAdjointsDot, ...])}: the forward mode of {@link
     * #pullbackOntoTape}, with the seed's tangent too. It pushes, for each {@code double}
     * parameter in order, the tangent of its adjoint and then the adjoint; it adds the
     * adjoints of each array parameter {@code a}'s elements into {@code aAdjoints} and their
     * tangents into {@code aAdjointsDot}, both from slot {@code aStart} on (the caller's
     * gradient and its tangent, or a local array's adjoint array and its tangent); it returns
     * the tangent of the value. The second-order sweeps of callers call it.
     */
    private MethodSpec pullbackTangentOntoTape() {
      NameAllocator names = names();
      MethodSpec.Builder method = withVisibility(function.name() + "PullbackTangent");
      Function pullback = function.hasActiveArrays() ? ArraySlots.perParameter(function)
          : reverseFunction;
      FlowAnalysis pullbackFlow = function.hasActiveArrays() ? new FlowAnalysis(pullback)
          : reverseFlow;
      Function program = withParts(sweepSegments != null
          ? sweepCheckedFirst(sweepCalls.pullbackTangent())
          : Tangent.of(Adjoint.withActiveSeed(pullback, pullbackFlow, Adjoint.Output.TAPE)),
          function.name() + "PullbackTangent");
      JavaEmitter emitter = new JavaEmitter(program, names);
      List<String> all = emitter.parameterNames();
      String tape = names.fresh("tape");
      emitter.bindTape(tape);
      method.addJavadoc("For the second-order code of callers: the forward mode of"
              + " {@code $LPullback(Tape, ...)}\nfor $L along the given directions"
              + " of the parameters and of the seed: pushes,\nfor each {@code double} parameter"
              + " in order, the tangent of its adjoint and then the adjoint,\nonto {@code $L}$L;"
              + " returns the tangent of the value.\n", function.name(), link, tape,
              function.hasActiveArrays() ? ", and adds those of each element of an array"
                  + " parameter {@code a}\ninto {@code aAdjoints} and their tangents into"
                  + " {@code aAdjointsDot}, from slot\n{@code aStart} on" : "")
          .returns(double.class)
          .addParameter(TAPE, tape);
      for (int i = 0; i < all.size(); i++) {
        method.addParameter(parameterType(program.parameters().get(i)), all.get(i));
      }
      return method.addCode(emitter.body()).build();
    }

    private String hessianSweepName() {
      return function.name() + "HessianSweep" + segmentSuffix;
    }

    private String hessianIntoName() {
      return function.name() + "HessianInto" + segmentSuffix;
    }

    /**
     * {@code private static double fHessianSweep(params, double[] gradient, directions...,
     * double[] gradientDot)}: the forward mode of the gradient program (forward over reverse).
     * It writes the gradient into {@code gradient} and the Hessian times the direction into
     * {@code gradientDot}, and returns the directional derivative. With array parameters both
     * arrays must hold zeros on entry (their elements' adjoints are added into them). For a
     * method split into segments it calls the forward modes of the segments' sweeps.
     */
    private MethodSpec hessianSweep() {
      NameAllocator names = names();
      // a split method's sweep calls the segments' forward modes; long blocks are cut into
      // parts
      Function program = withParts(sweepSegments != null
          ? sweepCheckedFirst(sweepCalls.hessianSweep())
          : Tangent.of(Adjoint.of(reverseFunction, reverseFlow, Adjoint.Output.GRADIENT)),
          function.name() + "HessianSweep");
      JavaEmitter emitter = new JavaEmitter(program, names);
      List<String> parameters = emitter.parameterNames();
      MethodSpec.Builder method = suppressingWarnings(MethodSpec.methodBuilder(
              hessianSweepName()))
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .addJavadoc("Forward over reverse for $L: writes the gradient into {@code $L} and the"
              + "\nHessian times the direction into {@code $L}; returns the directional"
              + " derivative.\n", link, parameters.get(function.parameters().size()),
              parameters.get(parameters.size() - 1))
          .returns(double.class);
      for (int i = 0; i < parameters.size(); i++) {
        method.addParameter(parameterType(program.parameters().get(i)), parameters.get(i));
      }
      return withBody(method, emitter, names);
    }

    /** The direction variables of the active parameters: zeros of each one's shape. */
    private List<String> declareDirections(List<String> parameters, NameAllocator names,
        CodeBlock.Builder code) {
      List<String> directions = new ArrayList<>();
      List<Value> all = function.parameters();
      for (int k = 0; k < all.size(); k++) {
        Value parameter = all.get(k);
        String p = parameters.get(k);
        if (parameter.isActive()) {
          String d = names.fresh(p + "Direction");
          code.addStatement("double $L = 0", d);
          directions.add(d);
        } else if (parameter.isActiveArray() && parameter.type() == NumericType.DOUBLE_ARRAY) {
          String d = names.fresh(p + "Direction");
          code.addStatement("double[] $L = new double[$L.length]", d, p);
          directions.add(d);
        } else if (parameter.isActiveArray()) {
          String d = names.fresh(p + "Direction");
          String r = names.fresh("row");
          code.addStatement("double[][] $L = new double[$L.length][]", d, p)
              .beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", r, r, p, r)
              .addStatement("$L[$L] = new double[$L[$L].length]", d, r, p, r)
              .endControlFlow();
          directions.add(d);
        }
      }
      return directions;
    }

    /**
     * {@code private static void fHessianInto(params, double[][] hessian, int n)}: one sweep
     * per slot j along the unit direction e_j, whose H·e_j goes into row j; then each pair
     * {@code [i][j]}, {@code [j][i]} is replaced by their mean, so that the matrix is exactly
     * symmetric.
     */
    private MethodSpec hessianInto() {
      NameAllocator names = names();
      List<String> parameters = userParameterNames(names);
      String hessian = names.fresh("hessian");
      String count = names.fresh("slots");
      String i = names.fresh("i");
      String j = names.fresh("j");
      String slot = names.fresh("slot");
      String gradient = names.fresh("gradient");
      String mean = names.fresh("mean");
      MethodSpec.Builder method = suppressingWarnings(MethodSpec.methodBuilder(hessianIntoName()))
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .addJavadoc("Overwrites the first {@code $L} elements of the first {@code $L} rows of"
              + " {@code $L}\nwith the Hessian of $L.\n", count, count, hessian, link);
      for (int k = 0; k < parameters.size(); k++) {
        method.addParameter(parameterType(function.parameters().get(k)), parameters.get(k));
      }
      method.addParameter(double[][].class, hessian).addParameter(int.class, count);
      CodeBlock.Builder code = CodeBlock.builder();
      code.beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, count, i)
          .beginControlFlow("if ($L[$L].length < $L)", hessian, i, count)
          .addStatement("throw new $T($S + $L + $S + $L[$L].length + $S + $L + $S)",
              IllegalArgumentException.class, gradType + "." + function.name()
                  + "ValueGradientAndHessian: row ", i, " of '" + hessian + "' has length ",
              hessian, i, ", needs ", count, " (" + slotsInWords() + ")")
          .endControlFlow()
          .endControlFlow();
      code.addStatement("double[] $L = new double[$L]", gradient, count);
      code.add("// one forward-over-reverse sweep per slot: row j is H times the unit"
          + " direction e_j\n");
      List<String> directions = declareDirections(parameters, names, code);
      List<String> arguments = new ArrayList<>(parameters);
      arguments.add(gradient);
      arguments.addAll(directions);
      arguments.add(hessian + "[" + slot + "]");
      CodeBlock sweep = CodeBlock.builder()
          .addStatement("$T.fill($L[$L], 0, $L, 0.0)", java.util.Arrays.class, hessian, slot,
              count)
          .addStatement("$T.fill($L, 0.0)", java.util.Arrays.class, gradient)
          .addStatement("$L($L)", hessianSweepName(), String.join(", ", arguments))
          .addStatement("$L++", slot)
          .build();
      code.addStatement("int $L = 0", slot);
      eachUnitDirection(parameters, directions, names, sweep, code);
      code.add("// exactly symmetric: each pair replaced by its mean\n")
          .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, count, i)
          .beginControlFlow("for (int $L = 0; $L < $L; $L++)", j, j, i, j)
          .addStatement("double $L = ($L[$L][$L] + $L[$L][$L]) / 2", mean, hessian, i, j,
              hessian, j, i)
          .addStatement("$L[$L][$L] = $L", hessian, i, j, mean)
          .addStatement("$L[$L][$L] = $L", hessian, j, i, mean)
          .endControlFlow()
          .endControlFlow();
      return method.addCode(code.build()).build();
    }

    /** {@code perDirection} once per slot, with that slot's direction element set to 1. */
    private void eachUnitDirection(List<String> parameters, List<String> directions,
        NameAllocator names, CodeBlock perDirection, CodeBlock.Builder code) {
      List<Value> all = function.parameters();
      int d = 0;
      for (int k = 0; k < all.size(); k++) {
        Value parameter = all.get(k);
        String p = parameters.get(k);
        if (parameter.isActive()) {
          String direction = directions.get(d++);
          code.addStatement("$L = 1", direction).add(perDirection)
              .addStatement("$L = 0", direction);
        } else if (parameter.isActiveArray() && parameter.type() == NumericType.DOUBLE_ARRAY) {
          String direction = directions.get(d++);
          String e = names.fresh("element");
          code.beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", e, e, p, e)
              .addStatement("$L[$L] = 1", direction, e).add(perDirection)
              .addStatement("$L[$L] = 0", direction, e)
              .endControlFlow();
        } else if (parameter.isActiveArray()) {
          String direction = directions.get(d++);
          String r = names.fresh("row");
          String e = names.fresh("element");
          code.beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", r, r, p, r)
              .beginControlFlow("for (int $L = 0; $L < $L[$L].length; $L++)", e, e, p, r, e)
              .addStatement("$L[$L][$L] = 1", direction, r, e).add(perDirection)
              .addStatement("$L[$L][$L] = 0", direction, r, e)
              .endControlFlow()
              .endControlFlow();
        }
      }
    }

    MethodSpec hessian() {
      NameAllocator names = names();
      List<String> parameters = userParameterNames(names);
      String hessian = names.fresh("hessian");
      String count = names.fresh("slots");
      String row = names.fresh("row");
      return start(function.name() + "Hessian", parameters)
          .addJavadoc("Returns the Hessian of $L\nat the given point: a new matrix whose"
              + " element {@code [i][j]} is the second partial derivative\nwith respect to"
              + " slots {@code i} and {@code j}, exactly symmetric. Computed by one"
              + " forward-over-reverse\nsweep per slot.\n$L", link, layoutNote())
          .returns(double[][].class)
          .addStatement("int $L = $L", count, slotCount(parameters))
          .addCode(newMatrix(hessian, count, count, row))
          .addStatement("$L($L)", hessianIntoName(),
              String.join(", ", append(append(parameters, hessian), count)))
          .addStatement("return $L", hessian)
          .build();
    }

    MethodSpec hessianVector() {
      NameAllocator names = names();
      List<String> parameters = userParameterNames(names);
      String v = names.fresh("v");
      String count = names.fresh("slots");
      String gradient = names.fresh("gradient");
      String product = names.fresh("hessianVector");
      String methodName = function.name() + "HessianVector";
      MethodSpec.Builder method = start(methodName, parameters)
          .addJavadoc("Returns the Hessian of $L\nat the given point times {@code $L}: a new"
              + " array, computed in one forward-over-reverse sweep\n(the directional"
              + " derivative of the gradient along {@code $L}).\n$L", link, v, v, layoutNote())
          .addJavadoc("\n@throws IllegalArgumentException if the length of {@code $L} is not"
              + " the number of slots\n", v)
          .returns(double[].class)
          .addParameter(double[].class, v);
      CodeBlock.Builder code = CodeBlock.builder()
          .addStatement("int $L = $L", count, slotCount(parameters))
          .beginControlFlow("if ($L.length != $L)", v, count)
          .addStatement("throw new $T($S + $L.length + $S + $L + $S)",
              IllegalArgumentException.class,
              gradType + "." + methodName + ": '" + v + "' has length ", v, ", needs ", count,
              " (" + slotsInWords() + ")")
          .endControlFlow();
      // the flat v taken apart into one direction per parameter, of its shape
      List<String> directions = new ArrayList<>();
      List<Value> all = function.parameters();
      boolean arrays = function.hasActiveArrays();
      String at = arrays ? names.fresh("at") : null;
      if (arrays) {
        code.addStatement("int $L = 0", at);
      }
      int constantSlot = 0;
      for (int k = 0; k < all.size(); k++) {
        Value parameter = all.get(k);
        String p = parameters.get(k);
        if (!parameter.isActive() && !parameter.isActiveArray()) {
          continue;
        }
        String d = names.fresh(p + "Direction");
        if (parameter.isActive()) {
          if (arrays) {
            code.addStatement("double $L = $L[$L++]", d, v, at);
          } else {
            code.addStatement("double $L = $L[$L]", d, v, constantSlot++);
          }
          directions.add(d);
        } else if (parameter.isActiveArray() && parameter.type() == NumericType.DOUBLE_ARRAY) {
          code.addStatement("double[] $L = $T.copyOfRange($L, $L, $L + $L.length)", d,
                  java.util.Arrays.class, v, at, at, p)
              .addStatement("$L += $L.length", at, p);
          directions.add(d);
        } else if (parameter.isActiveArray()) {
          String r = names.fresh("row");
          code.addStatement("double[][] $L = new double[$L.length][]", d, p)
              .beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", r, r, p, r)
              .addStatement("$L[$L] = $T.copyOfRange($L, $L, $L + $L[$L].length)", d, r,
                  java.util.Arrays.class, v, at, at, p, r)
              .addStatement("$L += $L[$L].length", at, p, r)
              .endControlFlow();
          directions.add(d);
        }
      }
      List<String> arguments = new ArrayList<>(parameters);
      arguments.add(gradient);
      arguments.addAll(directions);
      arguments.add(product);
      // the gradient, computed on the way, is thrown away: where the sweep is inlined, C2's
      // escape analysis removes the array and its stores
      code.addStatement("double[] $L = new double[$L]", gradient, count)
          .addStatement("double[] $L = new double[$L]", product, count)
          .addStatement("$L($L)", hessianSweepName(), String.join(", ", arguments))
          .addStatement("return $L", product);
      return method.addCode(code.build()).build();
    }

    MethodSpec valueGradientAndHessian() {
      NameAllocator names = names();
      List<String> parameters = userParameterNames(names);
      String gradient = names.fresh("gradient");
      String hessian = names.fresh("hessian");
      String count = names.fresh("slots");
      String value = names.fresh("value");
      String methodName = function.name() + "ValueGradientAndHessian";
      return start(methodName, parameters)
          .addJavadoc("Returns the value of $L,\nbit for bit, writes its gradient into"
              + " {@code $L} and its Hessian into {@code $L} (exactly\nsymmetric), as"
              + " {@code $LValueAndGradient} and {@code $LHessian} compute them.\n$L", link,
              gradient, hessian, function.name(), function.name(), layoutNote())
          .addJavadoc("\n@throws IllegalArgumentException if {@code $L} has $L, or"
              + " {@code $L} has fewer rows\nthan that or a row shorter than that\n", gradient,
              tooShortInWords(), hessian)
          .returns(double.class)
          .addParameter(double[].class, gradient)
          .addParameter(double[][].class, hessian)
          .addCode(lengthCheck(methodName, gradient, parameters))
          .addStatement("int $L = $L", count, slotCount(parameters))
          .beginControlFlow("if ($L.length < $L)", hessian, count)
          .addStatement("throw new $T($S + $L.length + $S + $L + $S)",
              IllegalArgumentException.class,
              gradType + "." + methodName + ": '" + hessian + "' has ", hessian, " rows, needs ",
              count, " (" + slotsInWords() + ")")
          .endControlFlow()
          .addStatement("$L($L)", hessianIntoName(),
              String.join(", ", append(append(parameters, hessian), count)))
          .addStatement("double $L = $LValueAndGradient($L)", value, function.name(),
              String.join(", ", append(parameters, gradient)))
          .addStatement("return $L", value)
          .build();
    }

    /** What the slots are, for messages. */
    /** For messages: {@code "slots in order: x, y"}. */
    private String slotsInWords() {
      return "slots in order: " + slotNames(false);
    }

    /**
     * The slots in order, by the user's parameter names: {@code x, y}; with arrays
     * {@code x, then w (one per element), then lambda}; in {@code {@code ...}} for javadoc.
     */
    private String slotNames(boolean javadoc) {
      List<String> parts = new ArrayList<>();
      List<Value> all = function.parameters();
      List<? extends javax.lang.model.element.VariableElement> declared = element.getParameters();
      for (int k = 0; k < all.size(); k++) {
        Value parameter = all.get(k);
        if (!parameter.isActive() && !parameter.isActiveArray()) {
          continue;
        }
        String name = declared.size() == all.size()
            ? declared.get(k).getSimpleName().toString() : parameter.nameHint();
        String shown = javadoc ? "{@code " + name + "}" : name;
        if (parameter.isActiveArray()) {
          shown += parameter.type() == NumericType.DOUBLE_MATRIX
              ? " (one per element, row by row)" : " (one per element)";
        }
        parts.add(shown);
      }
      return String.join(function.hasActiveArrays() ? ", then " : ", ", parts);
    }

    /**
     * The members of a vector function (DESIGN.md, "Vector result"): its Jacobian, by p reverse
     * sweeps (after one shared forward sweep where {@link JacobianRows} allows) or N forward
     * sweeps, whichever is fewer; the Jacobian-vector product; the vector-Jacobian product. It
     * is never split.
     */
    private List<MethodSpec> vectorMembers() {
      // rows one after the other where they fit in a method, else one loop over them
      Predicate<Function> fits =
          program -> estimatedBytes(program) <= BYTECODE_LIMIT;
      Optional<Function> unrolled =
          JacobianRows.of(reverseFunction, reverseFlow, prepareRowsName(), true).filter(fits);
      rowsProgram = unrolled
          .or(() -> JacobianRows.of(reverseFunction, reverseFlow, prepareRowsName(), false)
              .filter(fits))
          .orElse(null);
      // the same rows into a matrix just made, for mJacobian; a program that records on the
      // tape is one of loops, where the result array costs little, and its member would need
      // the tape's handler around the matrix's making too
      rowsWithoutValue = rowsProgram == null ? null : ResultLength.of(function).stream()
          .mapToObj(length -> JacobianRows.intoNewRows(reverseFunction, reverseFlow,
                  jacobianIntoName(), unrolled.isPresent())
              .flatMap(program -> RowsWithoutValue.of(program, length)))
          .flatMap(Optional::stream)
          .filter(program -> !new ProgramFacts(program).usesTape())
          .findFirst().orElse(null);
      List<MethodSpec> members = new ArrayList<>(List.of(jacobian(), valueAndJacobian(),
          tangent(), pullback(), pullbackOntoTape(), primalValue(), jacobianInto()));
      if (rowsProgram != null) {
        members.add(jacobianRows());
        members.add(prepareRows());
      }
      members.addAll(splitMembers());
      partMethods.values().forEach(members::addAll);
      return withinJvmLimit(withTapeBodies(members));
    }

    private String primalName() {
      return function.name() + "Value" + segmentSuffix;
    }

    private String jacobianIntoName() {
      return function.name() + "JacobianInto" + segmentSuffix;
    }

    private String jacobianRowsName() {
      return function.name() + "JacobianRows" + segmentSuffix;
    }

    private String prepareRowsName() {
      return function.name() + "PrepareRows" + segmentSuffix;
    }

    /**
     * {@code fJacobianRows(params, jacobian, slots, cleared)}, the call of {@link #jacobianRows};
     * {@code cleared} when the caller has just made the rows, all zeros, of the right lengths.
     */
    private String jacobianRowsCall(List<String> parameters, String jacobian, String count,
        boolean cleared) {
      return jacobianRowsName() + "(" + String.join(", ",
          append(append(append(parameters, jacobian), count), Boolean.toString(cleared))) + ")";
    }

    /** {@code fJacobianInto(params, rows, jacobian, slots)}, the call of {@link #jacobianInto}. */
    private String jacobianIntoCall(List<String> parameters, String rows, String jacobian,
        String count) {
      return jacobianIntoName() + "("
          + String.join(", ", append(append(append(parameters, rows), jacobian), count)) + ")";
    }

    /**
     * {@code private static double[] fJacobianRows(params, double[][] jacobian, int slots,
     * boolean cleared)}: the program of {@link JacobianRows}, one forward sweep and then one
     * reverse sweep per row.
     */
    private MethodSpec jacobianRows() {
      NameAllocator names = names();
      JavaEmitter emitter = new JavaEmitter(rowsProgram, names);
      List<String> parameters = emitter.parameterNames();
      MethodSpec.Builder method = suppressingWarnings(MethodSpec.methodBuilder(
              jacobianRowsName()))
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .addJavadoc("Returns the value of $L, bit for bit; when the result has no more"
              + " elements than\n{@code $L}, overwrites its first rows of {@code $L} with the"
              + " Jacobian: one forward sweep,\nthen one reverse sweep per row. With more"
              + " elements it leaves {@code $L} alone. {@code $L}: the caller has just\nmade"
              + " the rows, all zeros, and they need no checks and no clearing.\n", link,
              parameters.get(parameters.size() - 2), parameters.get(parameters.size() - 3),
              parameters.get(parameters.size() - 3), parameters.get(parameters.size() - 1))
          .returns(double[].class);
      for (int i = 0; i < parameters.size(); i++) {
        method.addParameter(parameterType(rowsProgram.parameters().get(i)), parameters.get(i));
      }
      return withBody(method, emitter, names);
    }

    /**
     * {@code private static void fPrepareRows(double[][] jacobian, int rows, int slots)}: the
     * argument checks of {@code fValueAndJacobian} on the matrix, which {@code fJacobianRows}
     * can make only once it knows the number of rows, and the rows cleared for the sweeps to
     * add into.
     */
    private MethodSpec prepareRows() {
      NameAllocator names = names();
      userParameterNames(names);
      String jacobian = names.fresh("jacobian");
      String rows = names.fresh("rows");
      String count = names.fresh("slots");
      String i = names.fresh("i");
      return MethodSpec.methodBuilder(prepareRowsName())
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .addJavadoc("Checks that {@code $L} has {@code $L} rows of at least {@code $L}"
              + " elements, and clears them.\n", jacobian, rows, count)
          .addParameter(double[][].class, jacobian)
          .addParameter(int.class, rows)
          .addParameter(int.class, count)
          .addCode(rowCountCheck(jacobian, rows))
          .addCode(CodeBlock.builder()
              .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, rows, i)
              .add(rowLengthCheck(jacobian, i, count))
              .addStatement("$T.fill($L[$L], 0, $L, 0.0)", java.util.Arrays.class, jacobian, i,
                  count)
              .endControlFlow()
              .build())
          .build();
    }

    /**
     * {@code double[][] matrix = new double[rows][columns]}, written row by row: C2 compiles a
     * two-dimensional {@code new} into a call of the runtime, which costs more than the rows.
     */
    private static CodeBlock newMatrix(String matrix, String rows, String columns, String row) {
      return CodeBlock.builder()
          .addStatement("double[][] $L = new double[$L][]", matrix, rows)
          .beginControlFlow("for (int $L = 0; $L < $L.length; $L++)", row, row, matrix, row)
          .addStatement("$L[$L] = new double[$L]", matrix, row, columns)
          .endControlFlow()
          .build();
    }

    /** Throws when {@code jacobian} has fewer than {@code rows} rows. */
    private CodeBlock rowCountCheck(String jacobian, String rows) {
      return CodeBlock.builder()
          .beginControlFlow("if ($L.length < $L)", jacobian, rows)
          .addStatement("throw new $T($S + $L.length + $S + $L + $S)",
              IllegalArgumentException.class, gradType + "." + function.name()
                  + "ValueAndJacobian: '" + jacobian + "' has ", jacobian, " rows, needs ", rows,
              " (one per element of the result of " + function.name() + ")")
          .endControlFlow()
          .build();
    }

    /** Throws when row {@code i} of {@code jacobian} is shorter than {@code count}. */
    private CodeBlock rowLengthCheck(String jacobian, String i, String count) {
      return CodeBlock.builder()
          .beginControlFlow("if ($L[$L].length < $L)", jacobian, i, count)
          .addStatement("throw new $T($S + $L + $S + $L[$L].length + $S + $L + $S)",
              IllegalArgumentException.class, gradType + "." + function.name()
                  + "ValueAndJacobian: row ", i, " of '" + jacobian + "' has length ",
              jacobian, i, ", needs ", count, " (" + slotsInWords() + ")")
          .endControlFlow()
          .build();
    }

    /** {@code private static double[] fValue(params)}: the user's computation, for the value. */
    private MethodSpec primalValue() {
      NameAllocator names = names();
      JavaEmitter emitter = new JavaEmitter(function, names);
      List<String> parameters = emitter.parameterNames();
      MethodSpec.Builder method = suppressingWarnings(MethodSpec.methodBuilder(primalName()))
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .addJavadoc("The value of $L, as it computes it.\n", link)
          .returns(double[].class);
      for (int i = 0; i < parameters.size(); i++) {
        method.addParameter(parameterType(function.parameters().get(i)), parameters.get(i));
      }
      return method.addCode(emitter.body()).build();
    }

    MethodSpec jacobian() {
      if (rowsWithoutValue != null) {
        return jacobianWithTheSweeps();
      }
      NameAllocator names = names();
      List<String> parameters = userParameterNames(names);
      String value = names.fresh("value");
      String jacobian = names.fresh("jacobian");
      String count = names.fresh("slots");
      String row = names.fresh("row");
      MethodSpec.Builder method = jacobianStart(parameters);
      OptionalInt rows = ResultLength.of(function);
      if (rowsProgram != null && rows.isPresent()) {
        // the method fixes its result's length: the matrix is made first, and one forward
        // sweep gives the value and the rows together (forward mode still needs the value)
        return method
            .addStatement("int $L = $L", count, slotCount(parameters))
            .addCode(newMatrix(jacobian, Integer.toString(rows.getAsInt()), count, row))
            .addStatement("double[] $L = $L", value,
                jacobianRowsCall(parameters, jacobian, count, true))
            .beginControlFlow("if ($L.length > $L)", value, count)
            .addStatement("$L", jacobianIntoCall(parameters, value + ".length", jacobian, count))
            .endControlFlow()
            .addStatement("return $L", jacobian)
            .build();
      }
      return method
          .addStatement("double[] $L = $L($L)", value, primalName(), String.join(", ", parameters))
          .addStatement("int $L = $L", count, slotCount(parameters))
          .addCode(newMatrix(jacobian, value + ".length", count, row))
          .addStatement("$L", jacobianIntoCall(parameters, value + ".length", jacobian, count))
          .addStatement("return $L", jacobian)
          .build();
    }

    /** {@code public static double[][] fJacobian(params)}, its javadoc, no body yet. */
    private MethodSpec.Builder jacobianStart(List<String> parameters) {
      return start(function.name() + "Jacobian", parameters)
          .addJavadoc("Returns the Jacobian of $L\nat the given point: a new matrix whose"
              + " element {@code [i][j]} is the partial derivative\nof the result's element"
              + " {@code i} with respect to slot {@code j}. Computed by one reverse sweep per\n"
              + "element of the result or one forward sweep per slot, whichever is fewer.\n$L",
              link, layoutNote())
          .returns(double[][].class);
    }

    /**
     * {@code fJacobian} holding the sweeps itself ({@link #rowsWithoutValue}): the matrix made,
     * then one forward sweep and the rows' reverse sweeps into it; the value, which this member
     * does not return, is not made, and no call stands between the sweeps and the matrix.
     */
    private MethodSpec jacobianWithTheSweeps() {
      NameAllocator names = names();
      JavaEmitter emitter = new JavaEmitter(rowsWithoutValue, names);
      List<String> parameters = emitter.parameterNames();
      List<String> userParameters = parameters.subList(0, parameters.size() - 2);
      String jacobian = parameters.get(parameters.size() - 2);
      String count = parameters.get(parameters.size() - 1);
      String row = names.fresh("row");
      return jacobianStart(userParameters)
          .addStatement("int $L = $L", count, slotCount(userParameters))
          .addCode(newMatrix(jacobian,
              Integer.toString(ResultLength.of(function).getAsInt()), count, row))
          .addCode(emitter.body())
          .addStatement("return $L", jacobian)
          .build();
    }

    MethodSpec valueAndJacobian() {
      NameAllocator names = names();
      List<String> parameters = userParameterNames(names);
      String jacobian = names.fresh("jacobian");
      String value = names.fresh("value");
      String count = names.fresh("slots");
      String methodName = function.name() + "ValueAndJacobian";
      MethodSpec.Builder method = start(methodName, parameters)
          .addJavadoc("Returns the value of $L,\nbit for bit (a new array, as the method returns"
              + " it), and overwrites {@code $L[i][j]} with the partial\nderivative of the"
              + " result's element {@code i} with respect to slot {@code j}.\n$L", link,
              jacobian, layoutNote())
          .addJavadoc("\n@throws IllegalArgumentException if {@code $L} has fewer rows than the"
              + " result has elements,\nor a row is shorter than the number of slots\n",
              jacobian)
          .returns(double[].class)
          .addParameter(double[][].class, jacobian);
      String into = jacobianIntoCall(parameters, value + ".length", jacobian, count);
      if (rowsProgram != null) {
        // the reverse sweeps share one forward sweep; forward mode needs the value first
        return method
            .addStatement("int $L = $L", count, slotCount(parameters))
            .addStatement("double[] $L = $L", value,
                jacobianRowsCall(parameters, jacobian, count, false))
            .beginControlFlow("if ($L.length > $L)", value, count)
            .addCode(rowCountCheck(jacobian, value + ".length"))
            .addStatement("$L", into)
            .endControlFlow()
            .addStatement("return $L", value)
            .build();
      }
      return method
          .addStatement("double[] $L = $L($L)", value, primalName(), String.join(", ", parameters))
          .addStatement("int $L = $L", count, slotCount(parameters))
          .addCode(rowCountCheck(jacobian, value + ".length"))
          .addStatement("$L", into)
          .addStatement("return $L", value)
          .build();
    }

    /**
     * {@code private static void fJacobianInto(params, int p, double[][] jacobian, int n)}:
     * p reverse sweeps, one per row, seeded with a unit vector (after one forward sweep, {@code
     * fJacobianRows}, where {@link JacobianRows} allows; else p whole pullbacks); or, when there
     * are fewer slots than rows, n forward sweeps, one per column, along a unit direction.
     */
    private MethodSpec jacobianInto() {
      NameAllocator names = names();
      List<String> parameters = userParameterNames(names);
      String rows = names.fresh("rows");
      String jacobian = names.fresh("jacobian");
      String count = names.fresh("slots");
      String i = names.fresh("i");
      String seed = names.fresh("seed");
      String slot = names.fresh("slot");
      String column = names.fresh("column");
      String name = jacobianIntoName();
      MethodSpec.Builder method = suppressingWarnings(MethodSpec.methodBuilder(name))
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .addJavadoc("Overwrites the first {@code $L} rows of {@code $L} with the Jacobian of"
              + " $L.\n", rows, jacobian, link);
      for (int k = 0; k < parameters.size(); k++) {
        method.addParameter(parameterType(function.parameters().get(k)), parameters.get(k));
      }
      method.addParameter(int.class, rows).addParameter(double[][].class, jacobian)
          .addParameter(int.class, count);
      CodeBlock.Builder code = CodeBlock.builder();
      if (rowsProgram != null) {
        code.beginControlFlow("if ($L <= $L)", rows, count)
            .add("// one forward sweep, then one reverse sweep per row\n")
            .addStatement("$L", jacobianRowsCall(parameters, jacobian, count, false))
            .addStatement("return")
            .endControlFlow();
      }
      code.beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, rows, i)
          .add(rowLengthCheck(jacobian, i, count))
          .endControlFlow();
      if (rowsProgram == null) {
        code.beginControlFlow("if ($L <= $L)", rows, count)
            .add("// one reverse sweep per row: row i is the pullback of the unit seed e_i\n")
            .addStatement("double[] $L = new double[$L]", seed, rows)
            .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, rows, i)
            .addStatement("$T.fill($L[$L], 0, $L, 0.0)", java.util.Arrays.class, jacobian, i,
                count)
            .addStatement("$L[$L] = 1", seed, i)
            .addStatement("$LPullback($L)", function.name(),
                String.join(", ", append(append(parameters, seed), jacobian + "[" + i + "]")))
            .addStatement("$L[$L] = 0", seed, i)
            .endControlFlow()
            .addStatement("return")
            .endControlFlow();
      }
      code.add("// one forward sweep per slot: column j is the tangent along the unit"
          + " direction e_j\n");
      List<String> directions = declareDirections(parameters, names, code);
      String call = function.name() + "Tangent(" + String.join(", ",
          appendAll(parameters, directions)) + ")";
      CodeBlock columnStore = CodeBlock.builder()
          .add("{\n$>") // a block of its own: one column variable per sweep
          .addStatement("double[] $L = $L", column, call)
          .beginControlFlow("for (int $L = 0; $L < $L; $L++)", i, i, rows, i)
          .addStatement("$L[$L][$L] = $L[$L]", jacobian, i, slot, column, i)
          .endControlFlow()
          .addStatement("$L++", slot)
          .add("$<}\n")
          .build();
      code.addStatement("int $L = 0", slot);
      eachUnitDirection(parameters, directions, names, columnStore, code);
      return method.addCode(code.build()).build();
    }

    /** From now on, the members call the programs of {@code split}'s segments. */
    private void split(Segments split) {
      segments = split;
      segmentCalls = new SegmentCalls(guards == null ? function : guards.rest(), split,
          segmentSuffix);
    }

    /**
     * Splits the forward-over-reverse sweep of a straight-line method (after its argument
     * checks, if any) into segments of {@link Segments#SWEEP_SIZE} instructions; leaves it
     * whole when the method has loops, branches or arrays, or is too short to split.
     */
    private void splitSweep() {
      splittable(Segments::forSweep).ifPresent(split -> {
        sweepSegments = split.segments();
        sweepCalls = new SegmentCalls(split.rest(), split.segments(), segmentSuffix);
        sweepGuards = split.guards();
      });
    }

    /**
     * A split into segments: the segments, the argument checks taken off before them (null
     * when none) and the program the segments are cut from (the method, or its rest after the
     * checks).
     */
    private record Split(Segments segments, Guards guards, Function rest) {}

    /**
     * How {@code cut} splits the method, if it can: the method itself, or, when that stays
     * whole, what follows its argument checks (every member then runs the checks first). A
     * method with array parameters stays whole: segments hand over doubles only.
     */
    private Optional<Split> splittable(BiFunction<Function, FlowAnalysis, Segments> cut) {
      if (function.hasActiveArrays()) {
        return Optional.empty();
      }
      Segments whole = cut.apply(function, flow);
      if (whole != null) {
        return Optional.of(new Split(whole, null, function));
      }
      Optional<Guards> checked = Guards.of(function);
      if (checked.isEmpty()) {
        return Optional.empty();
      }
      Function rest = checked.get().rest();
      Segments segments = cut.apply(rest, new FlowAnalysis(rest));
      return segments == null ? Optional.empty()
          : Optional.of(new Split(segments, checked.get(), rest));
    }

    /** A program calling the sweep's segments, after the argument checks if there are some. */
    private Function sweepCheckedFirst(Function program) {
      return sweepGuards == null ? program : sweepGuards.checkedFirst(program);
    }

    /** A program calling the segments, after the method's argument checks if it has some. */
    private Function checkedFirst(Function program) {
      return guards == null ? program : guards.checkedFirst(program);
    }

    /** The reverse-mode program that writes {@code output}: whole, or calling the segments. */
    private Function reverseProgram(Adjoint.Output output) {
      return segments != null ? checkedFirst(segmentCalls.reverse(output))
          : Adjoint.withSplitCalls(reverseFunction, reverseFlow, output);
    }

    /** The user's parameter names, claimed first so that they stay unchanged. */
    private List<String> userParameterNames(NameAllocator names) {
      List<String> parameters = new ArrayList<>();
      for (Value parameter : function.parameters()) {
        parameters.add(names.user(parameter.nameHint()));
      }
      return parameters;
    }

    MethodSpec gradient() {
      NameAllocator names = names();
      List<String> parameters = userParameterNames(names);
      String array = names.fresh("gradient");
      return start(function.name() + "Gradient", parameters)
          .addJavadoc("Returns the gradient of $L\nat the given point, computed in reverse mode:"
              + " a new array whose element {@code i}\nis the partial derivative with respect to"
              + " slot {@code i}.\n$L", link, layoutNote())
          .returns(double[].class)
          .addStatement("double[] $L = new double[$L]", array, slotCount(parameters))
          .addStatement("$LValueAndGradient($L)", function.name(),
              String.join(", ", append(parameters, array)))
          .addStatement("return $L", array)
          .build();
    }

    MethodSpec valueAndGradient() {
      NameAllocator names = names();
      String methodName = function.name() + "ValueAndGradient";
      JavaEmitter emitter = new JavaEmitter(
          withParts(reverseProgram(Adjoint.Output.GRADIENT), methodName), names);
      List<String> all = emitter.parameterNames();
      String array = all.get(all.size() - 1);
      List<String> parameters = all.subList(0, all.size() - 1);
      MethodSpec.Builder method = valueAndGradientMethod(methodName, parameters, array);
      if (function.hasActiveArrays()) {
        // arrays' elements add their adjoints into the gradient as the reverse sweep meets them
        method.addStatement("$T.fill($L, 0, $L, 0.0)", java.util.Arrays.class, array,
            slotCount(parameters));
      }
      return withBody(method, emitter, names);
    }

    private MethodSpec.Builder valueAndGradientMethod(String methodName, List<String> parameters,
        String array) {
      return start(methodName, parameters)
          .addJavadoc("Returns the value of $L,\nbit for bit, and writes its gradient into"
              + " {@code $L}: element {@code i} becomes\nthe partial derivative with respect to"
              + " slot {@code i}. Allocates nothing.\n$L", link, array, layoutNote())
          .addJavadoc("\n@throws IllegalArgumentException if {@code $L} has $L\n", array,
              tooShortInWords())
          .returns(double.class)
          .addParameter(double[].class, array)
          .addCode(lengthCheck(methodName, array, parameters));
    }

    /**
     * {@code method} with the emitted body. A body that records on the tape goes into a private
     * method of its own, {@code <member>OnTape(Tape tape, <member's parameters>)}, which
     * {@code method} calls inside the handler that puts the thread's tape back when the body
     * throws ({@link #tapeHandler}). Why apart: a handler around the sweeps themselves keeps the
     * tape's mark alive through all their loops and gives every call in them an edge to the
     * handler; measured on the ADBench GMM's gradient, that cost up to 6 % (BENCHMARKS.md,
     * observations, "The tape's handler out of the sweeps' method"). A small body is inlined
     * back by the JIT. The body's method is
     * kept in {@link #tapeBodies} and listed after {@code method} by {@link #withTapeBodies}.
     */
    private MethodSpec withBody(MethodSpec.Builder method, JavaEmitter emitter,
        NameAllocator names) {
      if (!emitter.usesTape()) {
        return method.addCode(emitter.body()).build();
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
          .addParameter(TAPE, tape)
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
      tapeBodies.put(member, body);
      return member;
    }

    /**
     * {@code call}, which records on the thread's tape, with the tape bound to {@code tape};
     * when it ends by an exception, the tape is reset to where the member found it, so that a
     * thread that catches the exception and goes on keeps nothing of the failed call. The
     * normal path pays for one mark; a try block itself costs nothing until something throws.
     */
    private static CodeBlock tapeHandler(NameAllocator names, String tape, CodeBlock call) {
      String mark = names.fresh("tapeMark");
      String thrown = names.fresh("thrown");
      return CodeBlock.builder()
          .addStatement("$T $L = $T.current()", TAPE, tape, TAPE)
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

    /** {@code members}, each followed by the method of its body when it has one apart. */
    private List<MethodSpec> withTapeBodies(List<MethodSpec> members) {
      List<MethodSpec> all = new ArrayList<>();
      for (MethodSpec member : members) {
        all.add(member);
        MethodSpec body = tapeBodies.get(member);
        if (body != null) {
          all.add(body);
        }
      }
      return all;
    }

    /** The largest estimated bytecode of {@code member} and of its body's method, if apart. */
    private int estimatedBytesWithBody(MethodSpec member) {
      MethodSpec body = tapeBodies.get(member);
      return Math.max(estimatedBytes(member), body == null ? 0 : estimatedBytes(body));
    }

    /**
     * Whether HotSpot would refuse to compile the method: over 8000 bytes of bytecode, with a
     * margin for the estimate's error.
     */
    private boolean exceedsHotSpotLimit(MethodSpec method) {
      return estimatedBytesWithBody(method) > BYTECODE_LIMIT;
    }

    private static int estimatedBytes(MethodSpec method) {
      List<String[]> parameters = new ArrayList<>();
      method.parameters().forEach(p -> parameters.add(
          new String[] {p.type().toString(), p.name()}));
      return BytecodeEstimate.of(parameters, method.code().toString());
    }

    /**
     * {@code program}, the program of {@code member}; when its printed body would pass
     * HotSpot's limit, with its long blocks cut into parts ({@link LongBlocks}),
     * smaller ones until the program and every part are under the limit, or larger ones when
     * the program calling its parts is what passes it. The parts' methods are
     * kept in {@link #partMethods} under the member's name.
     */
    private Function withParts(Function program, String member) {
      partMethods.remove(member);
      if (forcedPartSize > 0) {
        return cutInto(program, member, forcedPartSize);
      }
      // a straight-line program is not printed once more to be measured
      if (!LongBlocks.mayCut(program)
          || estimatedBytes(program) <= BYTECODE_LIMIT) {
        return withLoopNestsApart(program, member);
      }
      // the cut whose largest method is smallest; smaller parts only while it passes the limit
      // (more parts hand more values over), and while a part, not the member, is the largest
      PartsTried best = null;
      for (int size = LongBlocks.PART_SIZE; size >= LongBlocks.PART_SIZE / 8; size /= 2) {
        Optional<PartsTried> cut = cutOnce(program, member, size);
        if (cut.isEmpty()) {
          break;
        }
        if (best == null || cut.get().largest() < best.largest()) {
          best = cut.get();
        }
        if (cut.get().largest() <= BYTECODE_LIMIT || cut.get().memberLargest()) {
          break;
        }
      }
      // Where the member itself, with its parts' calls, is what passes the limit, fewer and
      // larger parts make it shorter (seven branches of 300 statements each called 11 parts
      // of 160: a member of 12 KB that ran interpreted, each part near 1 KB).
      for (int size = 2 * LongBlocks.PART_SIZE; best != null && best.memberLargest()
          && best.largest() > BYTECODE_LIMIT && size <= 16 * LongBlocks.PART_SIZE; size *= 2) {
        Optional<PartsTried> cut = cutOnce(program, member, size);
        if (cut.isEmpty() || cut.get().largest() >= best.largest()) {
          break;
        }
        best = cut.get();
      }
      if (best == null) {
        return program;
      }
      partMethods.put(member, best.parts());
      return best.program();
    }

    /**
     * {@code program}, which fits a method, with each of its loop nests in a method of its own
     * where {@link LongBlocks#loopNestsOf} moves them, kept in {@link #partMethods} as parts.
     */
    private Function withLoopNestsApart(Function program, String member) {
      Optional<LongBlocks.Cut> cut = LongBlocks.loopNestsOf(program,
          member + segmentSuffix + "Nest");
      if (cut.isEmpty()) {
        return program;
      }
      List<MethodSpec> nests = new ArrayList<>();
      for (LongBlocks.Part part : cut.get().parts()) {
        nests.add(segmentMethod(part.name(), part.program(), void.class,
            "A loop nest of {@code " + member + "}, in a method of its own: takes the values"
                + " it reads as\narguments and the rest from the tape, and leaves on the tape"
                + " what is read after it."));
      }
      partMethods.put(member, nests);
      return cut.get().program();
    }

    /**
     * A cut of a member's program tried by {@link #withParts}: the member's program, its part
     * methods, and the estimated bytes of the largest method, the member or a part.
     */
    private record PartsTried(Function program, List<MethodSpec> parts, int largest,
        boolean memberLargest) {}

    /** {@code program} cut into parts of {@code size} statements and measured, if it cuts. */
    private Optional<PartsTried> cutOnce(Function program, String member, int size) {
      Optional<LongBlocks.Cut> cut = LongBlocks.of(program, member + segmentSuffix + "Part",
          size);
      if (cut.isEmpty()) {
        return Optional.empty();
      }
      List<MethodSpec> parts = new ArrayList<>();
      int calling = estimatedBytes(cut.get().program());
      int largest = calling;
      for (LongBlocks.Part part : cut.get().parts()) {
        MethodSpec method = partMethod(part, member);
        parts.add(method);
        largest = Math.max(largest, estimatedBytes(method));
      }
      return Optional.of(new PartsTried(cut.get().program(), parts, largest,
          calling == largest));
    }

    /** {@code program} cut into parts of {@code size} statements, whatever its length. */
    private Function cutInto(Function program, String member, int size) {
      Optional<LongBlocks.Cut> cut = LongBlocks.of(program, member + segmentSuffix + "Part",
          size);
      if (cut.isEmpty()) {
        return program;
      }
      List<MethodSpec> parts = new ArrayList<>();
      for (LongBlocks.Part part : cut.get().parts()) {
        parts.add(partMethod(part, member));
      }
      partMethods.put(member, parts);
      return cut.get().program();
    }

    private MethodSpec partMethod(LongBlocks.Part part, String member) {
      return segmentMethod(part.name(), part.program(), void.class,
          "Part of {@code " + member + "}: takes the values it reads as"
              + " arguments and the rest from\nthe tape, and leaves on the tape what is"
              + " read after it.");
    }

    /** The estimated bytecode of a program printed as a method body. */
    private int estimatedBytes(Function program) {
      NameAllocator names = names();
      JavaEmitter emitter = new JavaEmitter(program, names);
      List<String> parameterNames = emitter.parameterNames();
      emitter.bindTape(names.fresh("tape"));
      List<String[]> parameters = new ArrayList<>();
      for (int i = 0; i < parameterNames.size(); i++) {
        parameters.add(new String[] {
            parameterType(program.parameters().get(i)).toString(), parameterNames.get(i)});
      }
      return BytecodeEstimate.of(parameters, emitter.body().toString());
    }

    /** The private methods of a split method's segments; none when it is not split. */
    List<MethodSpec> segmentMethods() {
      List<MethodSpec> methods = new ArrayList<>();
      if (segments == null) {
        return methods;
      }
      for (Segments.Segment segment : segments.list()) {
        boolean last = segment.number() == segments.list().size();
        methods.add(forwardSegment(segment, last));
        methods.add(reverseSegment(segment, last));
        methods.add(tangentSegment(segment, last));
      }
      return methods;
    }

    private MethodSpec forwardSegment(Segments.Segment segment, boolean last) {
      return segmentMethod(segmentCalls.name(SegmentCalls.FORWARD, segment.number()),
          segments.forward(segment), last ? double.class : void.class,
          "Forward sweep of " + segmentLines(segment) + " of " + link + ".");
    }

    private MethodSpec reverseSegment(Segments.Segment segment, boolean last) {
      return segmentMethod(segmentCalls.name(SegmentCalls.REVERSE, segment.number()),
          segments.reverse(segment), void.class,
          "Reverse sweep of " + segmentLines(segment) + " of " + link + ".");
    }

    private MethodSpec tangentSegment(Segments.Segment segment, boolean last) {
      return segmentMethod(segmentCalls.name(SegmentCalls.TANGENT, segment.number()),
          segments.tangent(segment), last ? double.class : void.class,
          "Forward mode over " + segmentLines(segment) + " of " + link + ".");
    }

    /**
     * A private segment method: the tape, then the program's parameters (the user's, then the
     * {@code double}s a transform added: tangents, the seed).
     */
    private MethodSpec segmentMethod(String name, Function program, Class<?> returns,
        String javadoc) {
      NameAllocator names = names();
      JavaEmitter emitter = new JavaEmitter(program, names);
      List<String> parameters = emitter.parameterNames();
      String tape = names.fresh("tape");
      emitter.bindTape(tape);
      MethodSpec.Builder method = suppressingWarnings(MethodSpec.methodBuilder(name))
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .addJavadoc("$L\n", javadoc)
          .returns(returns)
          .addParameter(TAPE, tape);
      for (int i = 0; i < parameters.size(); i++) {
        method.addParameter(parameterType(program.parameters().get(i)), parameters.get(i));
      }
      return method.addCode(emitter.body()).build();
    }

    private static String segmentLines(Segments.Segment segment) {
      long first = segment.firstLine();
      long last = segment.lastLine();
      return first == last ? "line " + first : "lines " + first + " to " + last;
    }

    MethodSpec tangent() {
      NameAllocator names = names();
      Function program = withParts(segments != null ? checkedFirst(segmentCalls.tangent())
          : Tangent.of(SingleReturn.of(DeadCode.removeFrom(function))),
          function.name() + "Tangent");
      JavaEmitter emitter = new JavaEmitter(program, names);
      List<String> all = emitter.parameterNames();
      int primal = function.parameters().size();
      List<TypeName> tangentTypes = new ArrayList<>();
      for (Value tangentParameter : program.parameters().subList(primal, all.size())) {
        tangentTypes.add(typeName(tangentParameter.type()));
      }
      MethodSpec.Builder method = tangentMethod(all.subList(0, primal),
          all.subList(primal, all.size()), tangentTypes);
      return withBody(method, emitter, names);
    }

    private MethodSpec.Builder tangentMethod(List<String> parameters, List<String> tangentNames,
        List<TypeName> tangentTypes) {
      MethodSpec.Builder method = start(function.name() + "Tangent", parameters)
          .addJavadoc("Returns the directional derivative of $L\nat the given point along the"
              + " direction ($L),\ncomputed in forward mode in one sweep$L.\n", link,
              String.join(", ", tangentNames.stream().map(n -> "{@code " + n + "}").toList()),
              function.returnsArray() ? ": the Jacobian times the direction" : "")
          .returns(function.returnsArray() ? double[].class : double.class);
      for (int i = 0; i < tangentNames.size(); i++) {
        method.addParameter(tangentTypes.get(i), tangentNames.get(i));
      }
      return method;
    }

    MethodSpec pullback() {
      NameAllocator names = names();
      String methodName = function.name() + "Pullback";
      JavaEmitter emitter = new JavaEmitter(
          withParts(reverseProgram(Adjoint.Output.PULLBACK), methodName), names);
      List<String> all = emitter.parameterNames();
      int primal = function.parameters().size();
      return withBody(pullbackMethod(methodName, all.subList(0, primal), all.get(primal),
          all.get(primal + 1)), emitter, names);
    }

    private MethodSpec.Builder pullbackMethod(String methodName, List<String> parameters,
        String seed, String array) {
      String what = function.returnsArray()
          ? "Returns the value of $L,\nbit for bit, and adds the vector-Jacobian product"
              + " ({@code $L} times J) to {@code $L}: slot {@code i}\ngets"
              + " {@code sum over k of $L[k]} times the partial derivative of the result's"
              + " element\n{@code k} with respect to slot {@code i}. Accumulating lets callers"
              + " compose derivatives.\n$L"
          : "Returns the value of $L,\nbit for bit, and adds {@code $L} times its"
              + " partial derivative with respect to\nslot {@code i} to {@code $L[i]}."
              + " Accumulating lets callers compose derivatives (chain\nrule through an"
              + " enclosing computation). Allocates nothing.\n$L";
      Object[] whatArguments = function.returnsArray()
          ? new Object[] {link, seed, array, seed, layoutNote()}
          : new Object[] {link, seed, array, layoutNote()};
      return start(methodName, parameters)
          .addJavadoc(what, whatArguments)
          .addJavadoc("\n@throws IllegalArgumentException if {@code $L} has $L\n", array,
              tooShortInWords())
          .returns(function.returnsArray() ? double[].class : double.class)
          .addParameter(function.returnsArray() ? double[].class : double.class, seed)
          .addParameter(double[].class, array)
          .addCode(lengthCheck(methodName, array, parameters));
    }

    /**
     * {@code mPullback(Tape tape, params, [aAdjoints, aStart, ...], seed)}: what the generated
     * code of a caller calls in its reverse sweep. It is {@code mPullback} with the adjoints of
     * the {@code double} parameters pushed onto the caller's tape (in parameter order, the last
     * on top) instead of added to an array, and those of each array parameter {@code a} added
     * into the array the caller passes for it, from slot {@code aStart} on: the caller's
     * gradient at the argument's slots, or a local array's adjoint array. So a call between
     * {@code @Differentiable} methods allocates nothing. The caller takes the adjoints back at
     * once; when this throws, the caller's own guard resets the tape. The leading {@code Tape}
     * keeps this overload apart from every member of the contract.
     */
    MethodSpec pullbackOntoTape() {
      NameAllocator names = names();
      MethodSpec.Builder method = withVisibility(function.name() + "Pullback");
      Function program = withParts(function.hasActiveArrays()
          ? Adjoint.withSplitCalls(perParameter(), perParameterFlow(), Adjoint.Output.TAPE)
          : reverseProgram(Adjoint.Output.TAPE), function.name() + "PullbackOntoTape");
      JavaEmitter emitter = new JavaEmitter(program, names);
      List<String> all = emitter.parameterNames();
      String tape = names.fresh("tape");
      emitter.bindTape(tape);
      String seed = all.get(all.size() - 1);
      method.addJavadoc("For the generated code of callers: the value of $L, bit for bit;\n"
              + "pushes {@code $L} times its partial derivative with respect to each active\n"
              + "{@code double} parameter onto {@code $L}, in parameter order$L.\n"
              + "Allocates nothing$L.\n", link, seed, tape,
              function.hasActiveArrays() ? ", and adds those\nwith respect to each element"
                  + " of an array parameter {@code a} into {@code aAdjoints},\nfrom slot"
                  + " {@code aStart} on" : "",
              function.returnsArray() ? " but the value" : "")
          .returns(function.returnsArray() ? double[].class : double.class)
          .addParameter(TAPE, tape);
      for (int i = 0; i < all.size(); i++) {
        method.addParameter(parameterType(program.parameters().get(i)), all.get(i));
      }
      return method.addCode(emitter.body()).build();
    }

    /** {@code function} with slots for the pullback of callers ({@link ArraySlots#perParameter}). */
    private Function perParameter() {
      if (perParameter == null) {
        perParameter = ArraySlots.perParameter(function);
        perParameterFlow = new FlowAnalysis(perParameter);
      }
      return perParameter;
    }

    private FlowAnalysis perParameterFlow() {
      perParameter();
      return perParameterFlow;
    }

    /**
     * The two halves of the pullback that callers call in split mode ({@link
     * Adjoint#withSplitCalls}): {@code mRecord(Tape tape, params, [aStart, ...])}, which their
     * forward sweep calls, and {@code mReplay(Tape tape, params, [aAdjoints, aStart, ...],
     * seed)}, which their reverse sweep calls. When the reverse sweep reads only numbers of the
     * forward sweep, the first runs the forward sweep and records them, the second takes them
     * back and runs the reverse sweep only: a call costs one forward and one reverse sweep of
     * the callee, and recursion of depth d costs O(d), not O(d²). Otherwise ({@link
     * Adjoint#split}: local arrays, a vector result, a method split into segments) the first
     * only computes the value and the second is the whole pullback, as before.
     */
    private List<MethodSpec> splitMembers() {
      Function pullback = function.hasActiveArrays() ? perParameter() : reverseFunction;
      FlowAnalysis pullbackFlow = function.hasActiveArrays() ? perParameterFlow() : reverseFlow;
      java.util.Optional<Adjoint.Split> split = segments != null ? java.util.Optional.empty()
          : Adjoint.split(pullback, pullbackFlow);
      if (split.isPresent()) {
        List<MethodSpec> halves = List.of(
            splitMember(function.name() + Operation.RECORD, split.get().record(),
                function.returnsArray() ? double[].class : double.class,
                "For the generated code of callers, not for direct use: the forward sweep of"
                    + " $L;\nreturns its value, bit for bit, and leaves on {@code $L} what"
                    + " {@code $LReplay} takes back.\n"),
            splitMember(function.name() + Operation.REPLAY, split.get().replay(), void.class,
                "For the generated code of callers, not for direct use: the reverse sweep of"
                    + " $L\nafter {@code $LRecord}, whose recording it takes back from"
                    + " {@code $L}; then as\n{@code $LPullback(Tape, ...)}: pushes the adjoints"
                    + " of the {@code double} parameters"
                    + (function.hasActiveArrays() ? ", adds those\nof the arrays' elements"
                        + " into {@code aAdjoints} from slot {@code aStart} on" : "")
                    + ".\n"));
        if (!overHotSpotLimit(halves)) {
          return halves;
        }
        // the record half hands every number it records back to itself, to push it at its
        // end, and the replay half takes each back into a local: cut into parts, they still
        // pass the limit (a long method with branches). Run interpreted, they would cost more
        // than the second forward sweep of the whole pullback, which is cut to fit.
        halves.forEach(half -> partMethods.remove(half.name()));
      }
      return List.of(recordByValue(), replayByPullback());
    }

    /** Whether a member, or a part it calls, passes HotSpot's limit. */
    private boolean overHotSpotLimit(List<MethodSpec> members) {
      for (MethodSpec member : members) {
        if (exceedsHotSpotLimit(member) || partMethods.getOrDefault(member.name(), List.of())
            .stream().anyMatch(this::exceedsHotSpotLimit)) {
          return true;
        }
      }
      return false;
    }

    /** A half of the split pullback: the tape, then the program's parameters. */
    private MethodSpec splitMember(String name, Function whole, Class<?> returns,
        String javadoc) {
      NameAllocator names = names();
      Function program = withParts(whole, name);
      JavaEmitter emitter = new JavaEmitter(program, names);
      List<String> all = emitter.parameterNames();
      String tape = names.fresh("tape");
      emitter.bindTape(tape);
      Object[] arguments = name.endsWith(Operation.RECORD)
          ? new Object[] {link, tape, function.name()}
          : new Object[] {link, function.name(), tape, function.name()};
      MethodSpec.Builder method = withVisibility(name)
          .addJavadoc(javadoc, arguments)
          .returns(returns)
          .addParameter(TAPE, tape);
      for (int i = 0; i < all.size(); i++) {
        method.addParameter(parameterType(program.parameters().get(i)), all.get(i));
      }
      return method.addCode(emitter.body()).build();
    }

    /**
     * {@code mRecord(Tape, params, [aStart, ...])} of a method whose halves are not split: the
     * value only; nothing is recorded, and {@link #replayByPullback} runs the whole pullback.
     */
    private MethodSpec recordByValue() {
      NameAllocator names = names();
      List<String> parameters = userParameterNames(names);
      String tape = names.fresh("tape");
      MethodSpec.Builder method = withVisibility(function.name() + Operation.RECORD)
          .addJavadoc("For the generated code of callers, not for direct use: the value of"
              + " $L, bit for bit.\nRecords nothing: {@code $LReplay} runs the whole"
              + " pullback.\n", link, function.name())
          .returns(function.returnsArray() ? double[].class : double.class)
          .addParameter(TAPE, tape);
      for (int i = 0; i < parameters.size(); i++) {
        method.addParameter(parameterType(function.parameters().get(i)), parameters.get(i));
      }
      for (Value parameter : function.parameters()) {
        if (parameter.isActiveArray()) {
          method.addParameter(int.class, names.fresh(parameter.nameHint() + "Start"));
        }
      }
      // a private method's value, and a vector function's, are computed in this class
      String owner = element.getModifiers().contains(Modifier.PRIVATE)
          || function.returnsArray() ? "" : userType + ".";
      String name = function.returnsArray() ? primalName() : function.name();
      return method.addStatement("return $L$L($L)", owner, name, String.join(", ", parameters))
          .build();
    }

    /** {@code mReplay(Tape, ...)} of a method whose halves are not split: its whole pullback. */
    private MethodSpec replayByPullback() {
      MethodSpec pullback = pullbackOntoTape();
      List<String> parameters = pullback.parameters().stream().map(p -> p.name()).toList();
      MethodSpec.Builder method = withVisibility(function.name() + Operation.REPLAY)
          .addJavadoc("For the generated code of callers, not for direct use: as"
              + " {@code $LPullback(Tape, ...)}\n(its forward sweep runs again: $L is not"
              + " split into halves).\n", function.name(), link)
          .returns(void.class);
      pullback.parameters().forEach(method::addParameter);
      return method.addStatement("$LPullback($L)", function.name(),
          String.join(", ", parameters)).build();
    }

    private MethodSpec.Builder start(String name, List<String> parameterNames) {
      MethodSpec.Builder method = withVisibility(name);
      for (int i = 0; i < parameterNames.size(); i++) {
        method.addParameter(parameterType(function.parameters().get(i)), parameterNames.get(i));
      }
      return method;
    }

    /**
     * A static member with the visibility of the user's method ({@code private} becomes
     * package-private) and the user's warning suppressions.
     */
    private MethodSpec.Builder withVisibility(String name) {
      MethodSpec.Builder method = MethodSpec.methodBuilder(name);
      for (Modifier modifier : element.getModifiers()) {
        if (modifier == Modifier.PUBLIC || modifier == Modifier.PROTECTED) {
          method.addModifiers(modifier);
        }
      }
      return suppressingWarnings(method.addModifiers(Modifier.STATIC));
    }

    /**
     * {@code method} with the warnings suppressed that the user's method suppresses, on itself
     * or on its enclosing classes: generated code repeats what the method refers to (a
     * deprecated constant or callee, say), and must compile as quietly as the method does, also
     * under {@code -Xlint:all -Werror}.
     */
    private MethodSpec.Builder suppressingWarnings(MethodSpec.Builder method) {
      java.util.Set<String> suppressed = new java.util.TreeSet<>();
      for (javax.lang.model.element.Element e = element; e != null;
          e = e.getEnclosingElement()) {
        SuppressWarnings annotation = e.getAnnotation(SuppressWarnings.class);
        if (annotation != null) {
          suppressed.addAll(List.of(annotation.value()));
        }
      }
      if (!suppressed.isEmpty()) {
        CodeBlock values = suppressed.stream().map(warning -> CodeBlock.of("$S", warning))
            .collect(CodeBlock.joining(", "));
        method.addAnnotation(AnnotationSpec.builder(SuppressWarnings.class)
            .addMember("value", suppressed.size() == 1 ? "$L" : "{$L}", values)
            .build());
      }
      return method;
    }

    private CodeBlock lengthCheck(String methodName, String array, List<String> parameters) {
      if (!function.hasActiveArrays()) {
        return CodeBlock.builder()
            .beginControlFlow("if ($L.length < $L)", array, slots)
            .addStatement("throw new $T($S + $L.length + $S)", IllegalArgumentException.class,
                gradType + "." + methodName + ": '" + array + "' has length ", array,
                ", needs " + slots + " (" + slotsInWords() + ")")
            .endControlFlow()
            .build();
      }
      String count = slotCount(parameters);
      return CodeBlock.builder()
          .beginControlFlow("if ($L.length < $L)", array, count)
          .addStatement("throw new $T($S + $L.length + $S + ($L) + $S)",
              IllegalArgumentException.class,
              gradType + "." + methodName + ": '" + array + "' has length ", array, ", needs ",
              count, " (" + slotsInWords() + ")")
          .endControlFlow()
          .build();
    }

    /**
     * The number of gradient slots as Java text over the parameters' names: a constant for
     * {@code double}s only, else {@code 2 + w.length + ad4j.runtime.Slots.count(m)}.
     */
    private String slotCount(List<String> parameterNames) {
      int doubles = 0;
      List<String> terms = new ArrayList<>();
      List<Value> all = function.parameters();
      for (int i = 0; i < all.size(); i++) {
        Value parameter = all.get(i);
        if (parameter.isActive()) {
          doubles++;
        } else if (parameter.type() == NumericType.DOUBLE_ARRAY && parameter.isActiveArray()) {
          terms.add(parameterNames.get(i) + ".length");
        } else if (parameter.isActiveArray()) {
          terms.add("ad4j.runtime.Slots.count(" + parameterNames.get(i) + ")");
        }
      }
      if (doubles > 0 || terms.isEmpty()) {
        terms.add(0, Integer.toString(doubles));
      }
      return String.join(" + ", terms);
    }

    /** For methods with array parameters, what "the i-th parameter" means in the javadoc. */
    /** The slots in order, a paragraph at the end of a member's description. */
    private String layoutNote() {
      return "\n<p>Slots, in order: " + slotNames(true) + ".\n";
    }

    /** When an output array is too short, as the javadoc says it. */
    private String tooShortInWords() {
      return function.hasActiveArrays()
          ? "fewer elements than there are\n{@code double}s and array elements that carry"
              + " derivatives"
          : "fewer than " + slots + " elements";
    }

    /** The type of a parameter of a generated member: the user's own type for an object. */
    private static TypeName parameterType(Value parameter) {
      return parameter.type() == NumericType.OBJECT
          ? TypeName.get(parameter.referenceType()) : typeName(parameter.type());
    }

    private static TypeName typeName(NumericType type) {
      return switch (type) {
        case INT -> TypeName.INT;
        case LONG -> TypeName.LONG;
        case BOOLEAN -> TypeName.BOOLEAN;
        case FLOAT -> TypeName.FLOAT;
        case DOUBLE -> TypeName.DOUBLE;
        case DOUBLE_ARRAY -> com.palantir.javapoet.ArrayTypeName.of(TypeName.DOUBLE);
        case DOUBLE_MATRIX -> com.palantir.javapoet.ArrayTypeName.of(
            com.palantir.javapoet.ArrayTypeName.of(TypeName.DOUBLE));
        case INT_ARRAY -> com.palantir.javapoet.ArrayTypeName.of(TypeName.INT);
        case STRING -> com.palantir.javapoet.ClassName.get(String.class);
        case VOID -> throw new IllegalArgumentException("no parameter is void");
        case OBJECT -> throw new IllegalArgumentException("an object's type is its own");
      };
    }

    private static List<String> appendAll(List<String> list, List<String> more) {
      List<String> result = new ArrayList<>(list);
      result.addAll(more);
      return result;
    }

    private static List<String> append(List<String> list, String last) {
      List<String> result = new ArrayList<>(list);
      result.add(last);
      return result;
    }
  }
}
