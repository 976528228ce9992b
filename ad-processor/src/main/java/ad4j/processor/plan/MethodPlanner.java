package ad4j.processor.plan;

import ad4j.processor.derive.forward.TangentLanes;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.emit.PrintedSize;
import ad4j.processor.front.DerivativeOrder;
import ad4j.processor.front.ParameterSlots;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.NumericType;
import ad4j.processor.methodsize.Guards;
import ad4j.processor.methodsize.LongBlocks;
import ad4j.processor.methodsize.SegmentCalls;
import ad4j.processor.methodsize.Segments;
import ad4j.processor.optimize.GradientWithoutValue;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;

/**
 * Decides the {@link MethodPlan} of one annotated method, in the order the decisions depend on
 * each other: whether the first-order members split the method into segments, how each
 * member's program is cut into parts, whether callers get the pullback's two halves, and, for
 * an order-2 method, whether its sweep is split and whether it fits the JVM at all. Where a
 * decision depends on how long a whole member prints, it asks the writers ({@link MemberSizes}).
 */
public final class MethodPlanner {
  /**
   * The directions one sweep of {@code mHessian} carries where lanes cover the sweep
   * ({@link ad4j.processor.derive.forward.TangentLanes}).
   */
  static final int HESSIAN_LANES = 4;

  private final ExecutableElement element;
  private final MethodPrograms programs;
  private final Function function;
  private final MethodPlan.Names names;
  private final SizeLimits limits;
  private final MemberSizes sizes;
  private final PartsSearch search;
  private final PartsByMember parts;

  /**
   * A planner for {@code element}'s method, whose programs are {@code programs} and whose
   * members are named {@code names}.
   */
  public MethodPlanner(ExecutableElement element, MethodPrograms programs, MethodPlan.Names names,
      SizeLimits limits, MemberSizes sizes) {
    this.element = element;
    this.programs = programs;
    this.function = programs.function();
    this.names = names;
    this.limits = limits;
    this.sizes = sizes;
    this.search = new PartsSearch(programs.names(), names.suffix(), limits.forcedPartSize());
    this.parts = new PartsByMember(search);
  }

  /** The plan; call once. */
  public MethodPlan plan() {
    return function.returnsArray() ? vector() : scalar();
  }

  /**
   * A long straight-line method is split only if its whole members would pass HotSpot's
   * limit, so those are planned and measured first, unless it is so long that they would pass
   * it for certain.
   */
  private MethodPlan.Scalar scalar() {
    Optional<SegmentSplits.Split> splittable = SegmentSplits.of(programs, Segments::of);
    Segments candidate = splittable.map(SegmentSplits.Split::segments).orElse(null);
    Optional<Guards> guards = splittable.map(SegmentSplits.Split::guards);
    Segmentation firstOrder = new Segmentation.Whole(programs);
    if (candidate != null && candidate.instructionCount() * SizeLimits.MIN_BYTES_PER_INSTRUCTION
        > SizeLimits.BYTECODE_LIMIT) {
      // so long that the whole members would pass the limit for certain: not planned first
      firstOrder = segmented(candidate, guards);
    }
    // the cut of mValueAndGradient's own sweep: measured where the split below asks how long
    // it prints; else made only where it is printed, after the sweep it would call instead
    // (ReverseMembers.oneSweepPays)
    boolean measured = candidate != null && firstOrder instanceof Segmentation.Whole;
    Optional<Parted> valueAndGradient = measured
        ? Optional.of(parts.cut(firstOrder.reverse(Adjoint.Output.GRADIENT),
            names.valueAndGradient()))
        : Optional.empty();
    Optional<Parted> tangent = tangent(firstOrder);
    if (measured
        && (SizeLimits.pastHotSpotLimit(sizes.valueAndGradient(valueAndGradient.get()))
            || tangent.filter(t -> SizeLimits.pastHotSpotLimit(sizes.tangent(t))).isPresent())) {
      firstOrder = segmented(candidate, guards);
      valueAndGradient = Optional.empty();
      tangent = tangent(firstOrder);
    }
    Parted pullbackOntoTape = pullbackOntoTape(firstOrder);
    if (valueAndGradient.isEmpty() && firstOrder instanceof Segmentation.Whole
        && !ReverseMembers.inParts(pullbackOntoTape)) {
      valueAndGradient = Optional.of(parts.cut(firstOrder.reverse(Adjoint.Output.GRADIENT),
          names.valueAndGradient()));
    }
    ReverseMembers reverse;
    if (valueAndGradient.isEmpty()
        || ReverseMembers.oneSweepPays(firstOrder, valueAndGradient.get())) {
      // not printed: both members call mPullback(Tape, ...)
      parts.remove(names.valueAndGradient());
      reverse = new ReverseMembers.OverPullbackOntoTape();
    } else {
      reverse = new ReverseMembers.OwnSweeps(valueAndGradient.get(),
          parts.cut(firstOrder.reverse(Adjoint.Output.PULLBACK), names.pullback()));
    }
    // the class lists the parts in the order of its members, though the sweep on the tape
    // was cut before the public members' sweeps
    parts.moveLast(names.valueAndGradient(), names.tangent(), names.pullback(),
        names.pullbackOntoTape());
    Halves halves = halves(firstOrder);
    if (halves instanceof Halves.ByPullback) {
      // mReplay calls mPullback(Tape, ...): its parts come after the others (the same cut,
      // not planned again: planning is deterministic, and costs most of the processor's time)
      parts.moveLast(names.pullbackOntoTape());
    }
    // a split method's members call its segments, which compute the value on the way
    Optional<Parted> gradientWithoutValue = firstOrder instanceof Segmentation.Whole
        && GradientWithoutValue.mayLeaveOut(function)
        ? GradientWithoutValue.of(firstOrder.reverse(Adjoint.Output.GRADIENT))
            .map(program -> parts.cut(program, names.gradientInto()))
        : Optional.empty();
    Optional<MethodPlan.SecondOrder> secondOrder = DerivativeOrder.of(element) == 2
        ? Optional.of(secondOrder()) : Optional.empty();
    return new MethodPlan.Scalar(programs, names, firstOrder, gradientWithoutValue, reverse,
        tangent, pullbackOntoTape, halves, parts.inOrder(), secondOrder);
  }

  /**
   * A vector function's members: never split into segments. At order 2, the tangent of its
   * pullback onto the tape as well, whole (cut into parts where it needs them).
   */
  private MethodPlan.Vector vector() {
    JacobianPlan jacobian = JacobianPlan.of(programs, names);
    Segmentation whole = new Segmentation.Whole(programs);
    Optional<Parted> tangent = tangent(whole);
    Parted pullback = parts.cut(whole.reverse(Adjoint.Output.PULLBACK), names.pullback());
    Parted pullbackOntoTape = pullbackOntoTape(whole);
    Halves halves = halves(whole);
    if (halves instanceof Halves.ByPullback) {
      parts.moveLast(names.pullbackOntoTape());
    }
    // order 2: what callers' forward-over-reverse sweeps call, the tangent of the pullback
    Optional<Parted> pullbackTangent = DerivativeOrder.of(element) == 2
        ? Optional.of(search.cut(new SweepSegmentation.WholeSweep(programs).pullbackTangent(),
            names.pullbackTangent()))
        : Optional.empty();
    return new MethodPlan.Vector(programs, names, jacobian, tangent, pullback,
        pullbackOntoTape, halves, parts.inOrder(), pullbackTangent);
  }

  /**
   * The program of {@code mTangent}, cut into parts where it needs them; none where the
   * member would take more parameter slots than the JVM allows (its parts would serve nothing).
   */
  private Optional<Parted> tangent(Segmentation firstOrder) {
    return ParameterSlots.hasTangent(element)
        ? Optional.of(parts.cut(firstOrder.tangent(), names.tangent())) : Optional.empty();
  }

  /** From now on, the members call the programs of {@code split}'s segments. */
  private Segmentation segmented(Segments split,
      Optional<Guards> guards) {
    return new Segmentation.Segmented(split, new SegmentCalls(
        guards.isEmpty() ? function : guards.get().rest(), split, names.suffix()), guards);
  }

  /** The program of {@code mPullback(Tape, ...)}: slots per array parameter where it has some. */
  private Parted pullbackOntoTape(Segmentation firstOrder) {
    return parts.cut(function.hasActiveArrays()
        ? Adjoint.withSplitCalls(programs.perParameter(), programs.perParameterFlow(),
            Adjoint.Output.TAPE)
        : firstOrder.reverse(Adjoint.Output.TAPE), names.pullbackOntoTape());
  }

  /**
   * The halves of the pullback, where the method has them and, cut into parts, they fit
   * HotSpot's limit. The record half hands every number it records back to itself, to push it
   * at its end, and the replay half takes each back into a local: cut into parts, they may
   * still pass the limit (a long method with branches). Run interpreted, they would cost more
   * than the second forward sweep of the whole pullback, which is cut to fit.
   */
  private Halves halves(Segmentation firstOrder) {
    Optional<Adjoint.Split> split = firstOrder.halves();
    if (split.isEmpty()) {
      return new Halves.ByPullback();
    }
    // the values the record half pushes at its end stay in it however it is cut: where they
    // alone pass the limit, it is not cut to be measured (a long method of branches records
    // thousands, and the cuts tried were a quarter of planning it)
    if (LongBlocks.pushesKeptAtEnd(split.get().record()) * SizeLimits.MIN_BYTES_PER_PUSH
        > SizeLimits.BYTECODE_LIMIT) {
      return new Halves.ByPullback();
    }
    Parted record = parts.cut(split.get().record(), names.record());
    // the replay half is cut only when the record half fits: cutting, which prints every cut
    // tried to measure it, is most of what planning costs, and a record half past the limit
    // leaves both out
    if (!SizeLimits.pastHotSpotLimit(sizes.record(record)) && !partPastLimit(record)) {
      Parted replay = parts.cut(split.get().replay(), names.replay());
      if (!SizeLimits.pastHotSpotLimit(sizes.replay(replay)) && !partPastLimit(replay)) {
        return new Halves.Recorded(record, replay);
      }
    }
    parts.remove(names.record());
    parts.remove(names.replay());
    return new Halves.ByPullback();
  }

  /** Whether a part of {@code program} passes HotSpot's limit. */
  private boolean partPastLimit(Parted program) {
    return program.parts().stream().anyMatch(part -> SizeLimits.pastHotSpotLimit(
        search.partBytes(part)));
  }

  /**
   * The sweeps of an order-2 method. The sweep is about three times as long as the first-order
   * members: it is split on its own, into smaller segments, even where they fit whole.
   */
  private MethodPlan.SecondOrder secondOrder() {
    SweepSegmentation sweep = new SweepSegmentation.WholeSweep(programs);
    Parted hessianSweep = search.cut(sweep.hessianSweep(), names.hessianSweepParts());
    if (SizeLimits.pastHotSpotLimit(sizes.hessianSweep(hessianSweep))) {
      Optional<SegmentSplits.Split> split = SegmentSplits.of(programs, Segments::forSweep);
      if (split.isPresent()) {
        sweep = new SweepSegmentation.SegmentedSweep(split.get().segments(),
            new SegmentCalls(split.get().rest(), split.get().segments(), names.suffix()),
            Optional.ofNullable(split.get().guards()));
        hessianSweep = search.cut(sweep.hessianSweep(), names.hessianSweepParts());
      }
    }
    // the sweep, or a part of it where a long branch is cut whole into one
    int bytes = sizes.hessianSweep(hessianSweep);
    for (PartMethod part : hessianSweep.parts()) {
      bytes = Math.max(bytes, search.partBytes(part));
    }
    if (bytes > limits.sweepJvmLimit()) {
      throw new Unsupported(element, "@Differentiable(order = 2) method '" + function.name()
          + "' is too long for second derivatives: its forward-over-reverse sweep, which is"
          + " not split into segments, would take about " + bytes + " bytes of bytecode,"
          + " past the JVM's limit of 65535 for one method; shorten the method, or use"
          + " order 1");
    }
    return new MethodPlan.SecondOrder(sweep, hessianSweep,
        search.cut(sweep.pullbackTangent(), names.pullbackTangent()),
        hessianLanes(sweep));
  }

  /** The parameter slots {@code program}'s parameters take: two a {@code double} or {@code long}. */
  private static int parameterSlots(Function program) {
    return program.parameters().stream().mapToInt(p -> p.type() == NumericType.DOUBLE
        || p.type() == NumericType.LONG ? 2 : 1).sum();
  }

  /**
   * The sweep with {@link #HESSIAN_LANES} directions at once, where the sweep is not split into
   * segments, lanes cover it, its parameters fit the JVM's slots, and it and its parts stay
   * under HotSpot's limit; else {@code mHessian} runs one sweep per slot.
   */
  private Optional<MethodPlan.HessianLanes> hessianLanes(SweepSegmentation sweep) {
    if (!(sweep instanceof SweepSegmentation.WholeSweep whole)) {
      return Optional.empty();
    }
    Optional<TangentLanes.Sweep> program = whole.hessianLanes(HESSIAN_LANES);
    // the directions of every lane are parameters: with the tape of a body that records on
    // it, they must fit the JVM's parameter slots
    if (program.isEmpty() || parameterSlots(program.get().program()) + 1 > ParameterSlots.MAX) {
      return Optional.empty();
    }
    Parted lanes = search.cut(program.get().program(), names.hessianLanesParts());
    int bytes = PrintedSize.ofBody(lanes.program(), programs.names());
    for (PartMethod part : lanes.parts()) {
      bytes = Math.max(bytes, search.partBytes(part));
    }
    return SizeLimits.pastHotSpotLimit(bytes) ? Optional.empty()
        : Optional.of(new MethodPlan.HessianLanes(lanes, HESSIAN_LANES, program.get().bySlot()));
  }

}
