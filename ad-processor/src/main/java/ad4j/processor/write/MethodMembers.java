package ad4j.processor.write;

import ad4j.processor.emit.PrintedSize;
import ad4j.processor.front.ParameterSlots;
import ad4j.processor.plan.Halves;
import ad4j.processor.plan.MemberSizes;
import ad4j.processor.plan.MethodPlan;
import ad4j.processor.plan.MethodPlanner;
import ad4j.processor.plan.MethodPrograms;
import ad4j.processor.plan.Parted;
import ad4j.processor.plan.ReverseMembers;
import ad4j.processor.plan.SegmentMethod;
import ad4j.processor.plan.Segmentation;
import ad4j.processor.plan.SizeLimits;
import ad4j.processor.plan.SweepSegmentation;
import ad4j.processor.plan.Unsupported;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The members generated for one user's method, in the order the class lists them: plans the
 * method ({@link MethodPlanner}), answering its questions about members' sizes by printing
 * them (and keeping what it printed, {@link PrintedOnce}), then has each member family print
 * what the plan says, and rejects the method when a member would still pass the JVM's limit
 * for one method.
 */
final class MethodMembers implements MemberSizes {
  private final MethodContext method;
  private final SizeLimits limits;
  private final MethodPrograms programs;
  private final OrderOneMembers orderOne;
  private final PullbackMembers pullbacks;
  private final MembersOverPullback overPullback;
  private final MethodsOnTape onTape;
  private final HessianMembers hessians;
  private final HessianSweeps sweeps;
  private final HessianLaneSweeps laneSweeps;
  private final VectorMembers vectors;
  private final JacobianDriver jacobianDriver;
  private final JacobianChecks checks;
  private final PrintedOnce valueAndGradients;
  private final PrintedOnce tangents;
  private final PrintedOnce hessianSweeps;
  private final PrintedOnce records;
  private final PrintedOnce replays;
  /**
   * Whether the method takes value records: callers that cannot make them again take its
   * value over their leaves (a member), also callers compiled later, which may not see the
   * records' constructors.
   */
  private final boolean valueOverLeaves;
  /** Its plan, once made ({@link #plan}): callers' calls of it are judged on it first. */
  private MethodPlan plan;

  MethodMembers(GradClassWriter.Method user, String userType, String gradType,
      String segmentSuffix, SizeLimits limits) {
    this.limits = limits;
    this.valueOverLeaves = !user.recordParameters().isEmpty();
    this.programs = new MethodPrograms(user.function());
    this.method = new MethodContext(user.element(), user.function(), userType, gradType,
        new MethodPlan.Names(user.function().name(), segmentSuffix), programs.names());
    SlotText slots = new SlotText(method);
    this.checks = new JacobianChecks(method, slots);
    this.orderOne = new OrderOneMembers(method, slots);
    this.pullbacks = new PullbackMembers(method);
    this.overPullback = new MembersOverPullback(method, slots, orderOne);
    this.onTape = new MethodsOnTape(method);
    this.hessians = new HessianMembers(method, slots);
    this.sweeps = new HessianSweeps(method, slots);
    this.laneSweeps = new HessianLaneSweeps(method, slots);
    this.vectors = new VectorMembers(method, slots, checks);
    this.jacobianDriver = new JacobianDriver(method, checks);
    this.valueAndGradients = new PrintedOnce(orderOne::valueAndGradient);
    this.tangents = new PrintedOnce(orderOne::tangent);
    this.hessianSweeps = new PrintedOnce(sweeps::hessianSweep);
    this.records = new PrintedOnce(program -> alone(pullbacks.record(program)));
    this.replays = new PrintedOnce(program -> alone(pullbacks.replay(program)));
  }

  /** The method's plan, made at the first call. */
  MethodPlan plan() {
    if (plan == null) {
      plan = new MethodPlanner(method.element(), programs, method.memberNames(), limits, this)
          .plan();
    }
    return plan;
  }

  /** Every method generated for the user's method: its members, their bodies and parts. */
  List<MethodSpec> members() {
    List<Written> members = plan() instanceof MethodPlan.Scalar scalar ? scalar(scalar)
        : vector((MethodPlan.Vector) plan());
    if (valueOverLeaves) {
      members.add(orderOne.valueOverLeaves());
    }
    List<MethodSpec> all = new ArrayList<>();
    members.forEach(member -> all.addAll(member.methods()));
    return withinJvmLimit(all);
  }

  /**
   * The four members (with, before {@code mValueAndGradient}, the gradient without the value
   * where the plan has it), the pullback onto the tape and its halves, then the segment methods
   * when the method is split, the parts, the Hessian members of an order-2 method and the
   * private copy of a private method's value.
   */
  private List<Written> scalar(MethodPlan.Scalar plan) {
    MethodSpec pullbackOntoTape = pullbacks.pullbackOntoTape(plan.pullbackOntoTape());
    List<Written> members = new ArrayList<>(List.of(Written.alone(orderOne.gradient(
        plan.gradientWithoutValue().isPresent() ? method.memberNames().gradientInto()
            : method.memberNames().valueAndGradient()))));
    plan.gradientWithoutValue().ifPresent(program -> members.add(orderOne.gradientInto(program)));
    if (plan.reverse() instanceof ReverseMembers.OwnSweeps own) {
      members.add(valueAndGradients.of(own.valueAndGradient()));
      plan.tangent().ifPresent(tangent -> members.add(tangents.of(tangent)));
      members.add(orderOne.pullback(own.pullback()));
    } else {
      members.add(alone(overPullback.valueAndGradient(pullbackOntoTape)));
      plan.tangent().ifPresent(tangent -> members.add(tangents.of(tangent)));
      members.add(alone(overPullback.pullback(pullbackOntoTape)));
    }
    members.add(Written.alone(pullbackOntoTape));
    members.addAll(halves(plan.halves(), pullbackOntoTape));
    if (plan.firstOrder() instanceof Segmentation.Segmented split) {
      // a method without mTangent has no use for its segments' tangent sweeps
      List<SegmentMethod> segments = split.methods().stream()
          .filter(m -> plan.tangent().isPresent() || m.sweep() != SegmentMethod.Sweep.TANGENT)
          .toList();
      onTape.segments(segments).forEach(m -> members.add(alone(m)));
    }
    onTape.parts(plan.parts()).forEach(m -> members.add(alone(m)));
    plan.secondOrder().ifPresent(secondOrder -> members.addAll(secondOrder(secondOrder)));
    if (method.element().getModifiers().contains(Modifier.PRIVATE)) {
      members.add(orderOne.privateValue());
    }
    return members;
  }

  /** The Hessian members of an order-2 method and their private sweeps. */
  private List<Written> secondOrder(MethodPlan.SecondOrder plan) {
    List<Written> members = new ArrayList<>(List.of(alone(hessians.hessian(plan.hessianLanes())),
        alone(hessians.hessianVector()), alone(hessians.valueGradientAndHessian()),
        hessianSweeps.of(plan.hessianSweep()),
        alone(plan.hessianLanes().map(laneSweeps::hessianInto).orElseGet(sweeps::hessianInto)),
        alone(sweeps.pullbackTangent(plan.pullbackTangent()))));
    plan.hessianLanes().ifPresent(lanes -> {
      members.add(laneSweeps.sweep(lanes));
      onTape.parts(lanes.program().parts()).forEach(m -> members.add(alone(m)));
    });
    if (plan.sweep() instanceof SweepSegmentation.SegmentedSweep split) {
      onTape.segments(split.methods()).forEach(m -> members.add(alone(m)));
    }
    onTape.parts(plan.hessianSweep().parts()).forEach(m -> members.add(alone(m)));
    onTape.parts(plan.pullbackTangent().parts()).forEach(m -> members.add(alone(m)));
    return members;
  }

  /**
   * The members of a vector function: its Jacobian, by p reverse sweeps (after one shared
   * forward sweep where the plan has the rows) or N forward sweeps, whichever is fewer; the
   * Jacobian-vector product; the vector-Jacobian product; at order 2, the tangent of the
   * pullback that callers' second-order code calls.
   */
  private List<Written> vector(MethodPlan.Vector plan) {
    RowSweeps rowSweeps = RowSweeps.of(plan.jacobian(), plan.tangent().isPresent(), vectors,
        checks, method);
    MethodSpec pullbackOntoTape = pullbacks.pullbackOntoTape(plan.pullbackOntoTape());
    List<Written> members = new ArrayList<>(List.of(alone(rowSweeps.jacobian()),
        alone(rowSweeps.valueAndJacobian())));
    plan.tangent().ifPresent(tangent -> members.add(tangents.of(tangent)));
    members.addAll(List.of(orderOne.pullback(plan.pullback()), alone(pullbackOntoTape),
        alone(vectors.primalValue()), alone(jacobianDriver.jacobianInto(rowSweeps))));
    members.addAll(rowSweeps.helpers());
    members.addAll(halves(plan.halves(), pullbackOntoTape));
    onTape.parts(plan.parts()).forEach(m -> members.add(alone(m)));
    plan.pullbackTangent().ifPresent(pullbackTangent -> {
      members.add(alone(sweeps.pullbackTangent(pullbackTangent)));
      onTape.parts(pullbackTangent.parts()).forEach(m -> members.add(alone(m)));
    });
    return members;
  }

  /** {@code mRecord} and {@code mReplay}: the halves of the pullback, or the fallback. */
  private List<Written> halves(Halves halves, MethodSpec pullbackOntoTape) {
    if (halves instanceof Halves.Recorded recorded) {
      return List.of(records.of(recorded.record()), replays.of(recorded.replay()));
    }
    return pullbacks.byPullback(pullbackOntoTape).stream().map(MethodMembers::alone).toList();
  }

  private static Written alone(MethodSpec member) {
    return Written.alone(member);
  }

  /**
   * {@code members}, or an error at the user's method when one of them would be past the
   * JVM's limits for one method, its 255 parameter slots or its 65535 bytes of code: javac
   * would reject the generated class ("too many parameters", "code too large") at a line of
   * code the user did not write. What the plan cannot cut stays that long (no
   * program of the processor's tests is known to stay so; they lower the limit with
   * {@code -Aad4j.methodLimit}).
   */
  private List<MethodSpec> withinJvmLimit(List<MethodSpec> members) {
    for (MethodSpec member : members) {
      int slots = parameterSlots(member);
      if (slots > ParameterSlots.MAX) {
        throw new Unsupported(method.element(), "@Differentiable method '"
            + method.function().name() + "' has too many parameters: its generated '"
            + member.name() + "' would take " + slots + " parameter slots ('double' and"
            + " 'long' take two each), more than the JVM's limit of " + ParameterSlots.MAX
            + "; pass the parameters in a 'double[]'");
      }
      int bytes = PrintedSize.of(member);
      if (bytes > limits.pastJvmLimit()) {
        throw new Unsupported(method.element(), "@Differentiable method '"
            + method.function().name() + "' is too long to differentiate: its generated "
            + member.name() + " would take about " + bytes + " bytes of bytecode, past the"
            + " JVM's limit of 65535 for one method, and ad4j cannot cut it into parts that"
            + " fit; move parts of the method into methods of their own");
      }
    }
    return members;
  }

  /** The parameter slots of {@code member}, a static method. */
  private static int parameterSlots(MethodSpec member) {
    int slots = 0;
    for (ParameterSpec parameter : member.parameters()) {
      slots += parameter.type().equals(TypeName.DOUBLE) || parameter.type().equals(TypeName.LONG)
          ? 2 : 1;
    }
    return slots;
  }

  @Override
  public int valueAndGradient(Parted program) {
    return valueAndGradients.of(program).bytes();
  }

  @Override
  public int tangent(Parted program) {
    return tangents.of(program).bytes();
  }

  @Override
  public int hessianSweep(Parted program) {
    return hessianSweeps.of(program).bytes();
  }

  @Override
  public int record(Parted program) {
    return records.of(program).bytes();
  }

  @Override
  public int replay(Parted program) {
    return replays.of(program).bytes();
  }
}
