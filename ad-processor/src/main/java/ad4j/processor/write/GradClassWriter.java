package ad4j.processor.write;

import ad4j.processor.emit.GeneratedAnnotation;
import ad4j.processor.front.Lowering;
import ad4j.processor.front.PrivateFields;
import ad4j.processor.front.UnrepeatableCall;
import ad4j.processor.front.ValueRecords;
import ad4j.processor.ir.Function;
import ad4j.processor.plan.SizeLimits;
import ad4j.processor.plan.Unsupported;
import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntFunction;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Writes {@code FooGrad} and its companion {@code FooGradSweeps} ({@link SweepsClass}, the
 * members for callers' code). {@code FooGrad}: the class shell (javadoc, {@code @Generated}, the constants that
 * tell callers of a method what it runs as written, the copies of private static fields), and
 * for each differentiable method of {@code Foo}, in source order, the members that
 * {@link MethodMembers} plans and writes.
 */
public final class GradClassWriter {
  /** The processor named in {@code @Generated}. */
  public static final String GENERATOR = "ad4j.processor.DifferentiableProcessor";

  /**
   * An annotated method and its IR. {@code callRunAsWritten}: the first call its code makes that
   * runs as written and may give another result or do something again when it runs again
   * ({@code "RNG.nextGaussian() (line 8)"}), if it makes one. {@code privateFields}: the
   * private static fields it reads, which the generated class copies. {@code recordParameters}:
   * its value record parameters, which its function takes flattened and its public members as
   * records ({@link RecordAdapters}). {@code carriedResult}: where the leaves that carry no
   * derivative of the value record it returns come from. {@code unrepeatableCalls}: its calls
   * of methods of the same class whose code its members must run once per call, judged on its
   * plan ({@link UnrepeatableCallees}).
   */
  public record Method(ExecutableElement element, Function function,
      Optional<String> callRunAsWritten, List<PrivateFields.Copy> privateFields,
      List<ValueRecords.FlatParameter> recordParameters,
      List<ValueRecords.Carried> carriedResult, List<UnrepeatableCall> unrepeatableCalls) {
    /** A method whose code makes no such call and reads no private static field. */
    public Method(ExecutableElement element, Function function) {
      this(element, function, Optional.empty(), List.of(), List.of(), List.of(), List.of());
    }
  }

  private final Elements elements;
  private final SizeLimits limits;

  /** A writer with the processor's own limits. */
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
    this.limits = new SizeLimits(forcedPartSize, methodLimit);
  }

  /** The generated class's name: {@code FooGrad}, or {@code Outer_InnerGrad} when nested. */
  public ClassName gradClassName(TypeElement type) {
    String packageName = elements.getPackageOf(type).getQualifiedName().toString();
    return ClassName.get(packageName, nestedName(type).replace('.', '_') + "Grad");
  }

  /**
   * The name of the companion of {@code type}'s generated class, {@code FooGradSweeps}, which
   * holds the members that the generated code of callers calls.
   */
  public ClassName sweepsClassName(TypeElement type) {
    return SweepsClass.name(gradClassName(type));
  }

  /**
   * The generated files for {@code type}'s differentiable methods, their members in source
   * order: {@code FooGrad}, then {@code FooGradSweeps}.
   *
   * @throws Unsupported at a method whose members cannot be written: one would pass the JVM's
   *     limits for a method, or have the signature of a member written for another method
   */
  public List<JavaFile> write(TypeElement type, List<Method> methods) {
    return write(type, methods, false);
  }

  /**
   * As {@link #write(TypeElement, List)}; when {@code initializeFirst}, the members of the
   * static methods initialise {@code type} first, as a call of such a method does
   * ({@link UserClassInitialization}).
   */
  public List<JavaFile> write(TypeElement type, List<Method> methods, boolean initializeFirst) {
    ClassName className = gradClassName(type);
    String userType = nestedName(type);
    TypeSpec.Builder gradClass = TypeSpec.classBuilder(className)
        .addOriginatingElement(type)
        .addJavadoc("Derivatives of the {@code @Differentiable} methods of {@link $L},\n"
            + "written by ad4j at compile time.\n", userType)
        .addJavadoc("\n<p>Do not edit: this file is generated again at each compilation.\n")
        .addModifiers(Modifier.FINAL)
        .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    boolean generated = GeneratedAnnotation.isVisibleTo(elements, type);
    if (generated) {
      gradClass.addAnnotation(AnnotationSpec.builder(
              ClassName.get(GeneratedAnnotation.PACKAGE, GeneratedAnnotation.SIMPLE_NAME))
          .addMember("value", "$S", GENERATOR)
          .build());
    }
    if (type.getModifiers().contains(Modifier.PUBLIC)) {
      gradClass.addModifiers(Modifier.PUBLIC);
    }
    String[] hidden = hiddenNames(className.packageName()).toArray(String[]::new);
    gradClass.alwaysQualify(hidden);
    SweepsClass sweeps = new SweepsClass(className, type, userType, generated, hidden);
    Map<String, Integer> overloads = new HashMap<>();
    for (Method method : methods) {
      overloads.merge(method.function().name(), 1, Integer::sum);
    }
    // Overloads split into segments would give segment methods of the same name, and their
    // parameter lists may coincide (fReverse3(Tape, double, double) is the last segment of
    // f(double) and a middle one of f(double, double)): each overload numbers its own.
    Map<String, Integer> seen = new HashMap<>();
    List<String> segmentSuffixes = new ArrayList<>();
    for (Method method : methods) {
      String name = method.function().name();
      int ordinal = seen.merge(name, 1, Integer::sum);
      segmentSuffixes.add(overloads.get(name) > 1 ? "Of" + ordinal : "");
    }
    // made when asked: the callees judged below are planned first, the others as printed
    MethodMembers[] planned = new MethodMembers[methods.size()];
    IntFunction<MethodMembers> membersOf = i -> {
      if (planned[i] == null) {
        planned[i] = new MethodMembers(methods.get(i), userType, className.simpleName(),
            segmentSuffixes.get(i), limits);
      }
      return planned[i];
    };
    List<CalleesRunAgain.Rejected> runAgain = new UnrepeatableCallees(methods, membersOf,
        className.simpleName()).rejected();
    if (!runAgain.isEmpty()) {
      throw new CalleesRunAgain(runAgain);
    }
    Set<String> marked = new HashSet<>();
    for (Method method : methods) {
      String name = method.function().name();
      if (method.callRunAsWritten().isPresent() && marked.add(name)) {
        gradClass.addField(FieldSpec.builder(String.class,
                name + Lowering.Lowered.CONSTANT_SUFFIX, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc("For ad4j, compiling callers of {@code $L} later: the first call its"
                + " code makes that runs as\nwritten and may give another result or do"
                + " something again when run again. A caller compiled\nlater, whose generated"
                + " members could run {@code $L} more than once per call, is an error\nwhere it"
                + " calls it.\n",
                name, name)
            .initializer("$S", method.callRunAsWritten().get())
            .build());
      }
    }
    addCarriedResults(gradClass, methods);
    PrivateFieldCopies.addTo(gradClass, methods);
    UserClassInitialization initialization = initializeFirst && methods.stream()
        .anyMatch(m -> m.element().getModifiers().contains(Modifier.STATIC))
        ? new UserClassInitialization(ClassName.get(type)) : null;
    if (initialization != null) {
      initialization.addTo(gradClass);
    }
    // one per value record that methods return, for the code of their callers
    Set<String> leavesMembers = new HashSet<>();
    SignatureClashes clashes = new SignatureClashes();
    for (int i = 0; i < methods.size(); i++) {
      Method method = methods.get(i);
      String name = method.function().name();
      MethodMembers ofMethod = membersOf.apply(i);
      List<MethodSpec> members = OverridingReceivers.guard(method.element(),
          "overridersOf" + Character.toUpperCase(name.charAt(0)) + name.substring(1)
              + segmentSuffixes.get(i), className.simpleName(), gradClass,
          ofMethod.members());
      planned[i] = null; // printed: what its plan holds may go
      // every member, a record adapter too, declares what the method declares
      List<MethodSpec> adapted = RecordAdapters.of(method, members,
          flat -> sweeps.addFlat(method.element(), flat));
      List<MethodSpec> written = sweeps.split(method.element(), declaringThrown(method, adapted));
      if (initialization != null && method.element().getModifiers().contains(Modifier.STATIC)) {
        written = initialization.guard(written);
      }
      clashes.add(method.element(), written);
      written.forEach(gradClass::addMethod);
      ValueRecords.valueRecord(method.element().getReturnType())
          .filter(record -> leavesMembers.add(ValueRecords.leavesMember(record)))
          .ifPresent(record -> {
            gradClass.addMethod(RecordAdapters.leavesMember(record, Modifier.PRIVATE));
            sweeps.addLeaves(method.element(), record);
          });
    }
    return List.of(file(className.packageName(), gradClass.build()),
        file(className.packageName(), sweeps.build()));
  }

  /**
   * For each method returning a value record with components that carry no derivative, the
   * constant {@code mCarriedResult}: where they come from, which callers compiled later read
   * instead of its code. Overloads of one name that both return such records get none (their
   * callers compiled later are then an error at the call).
   */
  private static void addCarriedResults(TypeSpec.Builder gradClass, List<Method> methods) {
    Map<String, List<Method>> byName = new java.util.LinkedHashMap<>();
    for (Method method : methods) {
      if (!method.carriedResult().isEmpty()) {
        byName.computeIfAbsent(method.function().name(), n -> new ArrayList<>()).add(method);
      }
    }
    byName.forEach((name, returning) -> {
      if (returning.size() != 1) {
        return;
      }
      gradClass.addField(FieldSpec.builder(String.class,
              name + Lowering.Lowered.CARRIED_SUFFIX, Modifier.STATIC, Modifier.FINAL)
          .addJavadoc("For ad4j, compiling callers of {@code $L} later: where the components"
              + " that carry no\nderivative of the record it returns come from, a line each"
              + " (a parameter's index, or a\nconstant).\n", name)
          .initializer("$S", ValueRecords.Carried.encode(returning.get(0).carriedResult()))
          .build());
    });
  }

  private static JavaFile file(String packageName, TypeSpec type) {
    return JavaFile.builder(packageName, type)
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  /**
   * {@code members} declaring the checked exceptions {@code method} declares: they run its code,
   * its calls and the rules of its calls included, and throw what it throws.
   */
  private static List<MethodSpec> declaringThrown(Method method, List<MethodSpec> members) {
    List<TypeName> thrown = method.element().getThrownTypes().stream()
        .map(TypeName::get).toList();
    if (thrown.isEmpty()) {
      return members;
    }
    return members.stream().map(member -> {
      MethodSpec.Builder builder = member.toBuilder();
      thrown.stream().filter(t -> !member.exceptions().contains(t))
          .forEach(builder::addException);
      return builder.build();
    }).toList();
  }

  /**
   * The classes generated code names by their simple names ({@code java.lang}'s, and imported
   * ones) that a class of the user's package hides: a class {@code Double} or
   * {@code IllegalArgumentException} beside the user's would capture a simple name, so these
   * are written qualified.
   */
  private Set<String> hiddenNames(String packageName) {
    Set<String> hidden = new TreeSet<>();
    for (String name : List.of("Double", "Float", "IllegalArgumentException", "Object", "String",
        "System", "Throwable", "Tape", "Generated", "Arrays", "Class", "ClassNotFoundException",
        "NoClassDefFoundError")) {
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
}
