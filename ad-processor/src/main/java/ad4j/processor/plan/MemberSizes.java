package ad4j.processor.plan;

/**
 * The estimated bytecode of a member printed from a program, the larger of the member and of
 * the private method of its body when that is apart: what the writers answer, by printing it.
 * The plan asks where a decision depends on a whole member (its argument checks, its tape
 * handler), not on its program alone: whether to split a method, its sweep, or its halves.
 */
public interface MemberSizes {
  /** {@code mValueAndGradient} printed from {@code program}. */
  int valueAndGradient(Parted program);

  /** {@code mTangent} printed from {@code program}. */
  int tangent(Parted program);

  /** The forward-over-reverse sweep's method printed from {@code program}. */
  int hessianSweep(Parted program);

  /** {@code mRecord} printed from {@code program}. */
  int record(Parted program);

  /** {@code mReplay} printed from {@code program}. */
  int replay(Parted program);
}
