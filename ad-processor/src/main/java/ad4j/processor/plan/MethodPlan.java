package ad4j.processor.plan;

import java.util.List;
import java.util.Optional;

/**
 * The plan of one annotated method, decided before any member is written: which program each
 * generated member prints, and the split, cut and fallback decisions. Data only, as template
 * variables between deciding and printing: the writers print what it says.
 */
public sealed interface MethodPlan {
  /** The method's programs and analyses. */
  MethodPrograms programs();

  /** The names of its members. */
  MemberNames names();

  /**
   * The program of {@code mTangent}; empty where the member would take more parameter slots
   * than the JVM allows ({@link ad4j.processor.front.ParameterSlots}).
   */
  Optional<Parted> tangent();

  /** The program of {@code mPullback}. */
  Parted pullback();

  /** The program of {@code mPullback(Tape, ...)}. */
  Parted pullbackOntoTape();

  /** What stands behind {@code mRecord} and {@code mReplay}. */
  Halves halves();

  /** The part methods of the first-order members, in the order the class lists them. */
  List<PartMethod> parts();

  /**
   * A method of {@code double} result.
   *
   * @param firstOrder whether its members run it whole or call its segments
   * @param secondOrder for an order-2 method, its Hessian sweeps
   */
  record Scalar(MethodPrograms programs, MemberNames names, Segmentation firstOrder,
      Parted valueAndGradient, Optional<Parted> tangent, Parted pullback, Parted pullbackOntoTape,
      Halves halves, List<PartMethod> parts, Optional<SecondOrder> secondOrder)
      implements MethodPlan {}

  /**
   * A method of {@code double[]} result (a vector function); never split into segments.
   *
   * @param pullbackTangent at order 2, the program of {@code mPullbackTangent}, which the
   *     second-order code of its callers calls (a vector function has no Hessian of its own)
   */
  record Vector(MethodPrograms programs, MemberNames names, JacobianPlan jacobian,
      Optional<Parted> tangent, Parted pullback, Parted pullbackOntoTape, Halves halves,
      List<PartMethod> parts, Optional<Parted> pullbackTangent) implements MethodPlan {}

  /**
   * The Hessian sweeps of an order-2 method: whole or split into segments of their own, and
   * the programs of {@code mHessianSweep} and {@code mPullbackTangent}, each with its parts.
   */
  record SecondOrder(SweepSegmentation sweep, Parted hessianSweep, Parted pullbackTangent) {}
}
