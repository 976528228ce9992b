package ad4j.processor.plan;

import ad4j.processor.ir.Operation;

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
public record MemberNames(String method, String suffix) {
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
