package ad4j.processor.derive.reverse;

/**
 * The forward walk of a checkpointed loop's iterations as the primal runs them: nothing is
 * recorded ({@link CheckpointedLoops}), and an inner loop counts its trips even where the reverse
 * sweep could count them again, since the reverse of an iteration computed anew takes them from
 * that computation. A walk of its own, so that no flag switches the forward walk's meaning.
 */
final class PrimalWalk extends ForwardWalk {
  PrimalWalk(SweepState s) {
    super(s);
  }

  @Override
  boolean records() {
    return false;
  }
}
