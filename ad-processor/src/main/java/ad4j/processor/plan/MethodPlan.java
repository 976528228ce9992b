package ad4j.processor.plan;

import ad4j.processor.ir.Operation;
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
  Names names();

  /**
   * The program of {@code mTangent}; empty where the member would take more parameter slots
   * than the JVM allows ({@link ad4j.processor.front.ParameterSlots}).
   */
  Optional<Parted> tangent();

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
   * @param gradientWithoutValue the program that {@code mGradient} calls where leaving out the
   *     value saves work ({@link ad4j.processor.optimize.GradientWithoutValue}); else it calls
   *     {@code mValueAndGradient}
   * @param reverse what {@code mValueAndGradient} and {@code mPullback} print
   * @param secondOrder for an order-2 method, its Hessian sweeps
   */
  record Scalar(MethodPrograms programs, Names names, Segmentation firstOrder,
      Optional<Parted> gradientWithoutValue, ReverseMembers reverse, Optional<Parted> tangent,
      Parted pullbackOntoTape, Halves halves, List<PartMethod> parts,
      Optional<SecondOrder> secondOrder) implements MethodPlan {}

  /**
   * A method of {@code double[]} result (a vector function); never split into segments.
   *
   * @param pullback the program of {@code mPullback}
   * @param pullbackTangent at order 2, the program of {@code mPullbackTangent}, which the
   *     second-order code of its callers calls (a vector function has no Hessian of its own)
   */
  record Vector(MethodPrograms programs, Names names, JacobianPlan jacobian,
      Optional<Parted> tangent, Parted pullback, Parted pullbackOntoTape, Halves halves,
      List<PartMethod> parts, Optional<Parted> pullbackTangent) implements MethodPlan {}

  /**
   * The Hessian sweeps of an order-2 method: whole or split into segments of their own, and
   * the programs of {@code mHessianSweep} and {@code mPullbackTangent}, each with its parts,
   * and, where the sweep is whole and lanes cover it, the sweep {@code mHessian} runs instead
   * of {@code mHessianSweep}.
   */
  record SecondOrder(SweepSegmentation sweep, Parted hessianSweep, Parted pullbackTangent,
      Optional<HessianLanes> hessianLanes) {}

  /**
   * The sweep of {@code mHessian} that carries {@code lanes} directions at once
   * ({@link ad4j.processor.derive.forward.TangentLanes}): its program, with its parts; the
   * first {@code bySlot} active parameters have their lanes' directions given by the lane's
   * slot, the others by a direction per lane.
   */
  record HessianLanes(Parted program, int lanes, int bySlot) {}

  /**
   * The names of the members generated for one user's method, which the programs that call them
   * name too. The private ones end with {@code suffix}: overloads split into segments would give
   * private methods of the same name, whose parameter lists may coincide
   * ({@code fReverse3(Tape, double, double)} is the last segment of {@code f(double)} and a middle
   * one of {@code f(double, double)}), so each overload numbers its own.
   *
   * @param method the user's method's name
   * @param suffix empty unless the method has overloads: {@code "Of2"} for the second
   */
  record Names(String method, String suffix) {
    /** The private method of the gradient without the value, which {@code fGradient} calls. */
    public String gradientInto() {
      return method + "GradientInto" + suffix;
    }

    /** {@code fValueAndGradient}. */
    public String valueAndGradient() {
      return method + "ValueAndGradient";
    }

    /** {@code fTangent}. */
    public String tangent() {
      return method + "Tangent";
    }

    /** {@code fPullback}, with or without the tape. */
    public String pullback() {
      return method + "Pullback";
    }

    /** The key of the parts of {@code fPullback(Tape, ...)}, which shares its name. */
    public String pullbackOntoTape() {
      return method + "PullbackOntoTape";
    }

    /** {@code fRecord}, the forward half of the split pullback. */
    public String record() {
      return method + Operation.RECORD;
    }

    /** {@code fReplay}, the reverse half of the split pullback. */
    public String replay() {
      return method + Operation.REPLAY;
    }

    /** The key of the parts of the forward-over-reverse sweep. */
    public String hessianSweepParts() {
      return method + "HessianSweep";
    }

    /** The forward-over-reverse sweep's private method. */
    public String hessianSweep() {
      return method + "HessianSweep" + suffix;
    }

    /** {@code fPullbackTangent}. */
    public String pullbackTangent() {
      return method + "PullbackTangent";
    }

    /** The key of the parts of the sweep that carries several directions. */
    public String hessianLanesParts() {
      return method + "HessianLanes";
    }

    /** The forward-over-reverse sweep's private method that carries several directions. */
    public String hessianLanes() {
      return method + "HessianLanes" + suffix;
    }

    /** The private method of one forward-over-reverse sweep per slot. */
    public String hessianInto() {
      return method + "HessianInto" + suffix;
    }

    /** A vector function's private method of its value. */
    public String primal() {
      return method + "Value" + suffix;
    }

    /** A vector function's private method that fills a Jacobian's rows. */
    public String jacobianInto() {
      return method + "JacobianInto" + suffix;
    }

    /** A vector function's private method of its rows after one forward sweep. */
    public String jacobianRows() {
      return method + "JacobianRows" + suffix;
    }

    /** A vector function's private method that checks and clears a matrix's rows. */
    public String prepareRows() {
      return method + "PrepareRows" + suffix;
    }
  }
}
