package ad4j.processor.derive.reverse;

import ad4j.processor.derive.ArraySlots;
import ad4j.processor.derive.FlatLayout;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.List;

/**
 * Where a reverse-mode program's parameters' adjoints go, one variant per {@link Adjoint.Output},
 * chosen once where the program is set up: the seed and the output array the program takes as
 * parameters, and how each parameter's adjoint is written after the reverse sweep. Apart so that
 * the sweeps never ask which generated member they are written for.
 */
sealed interface AdjointsOut {
  /** The variant for {@code output}; {@code activeSeed}: see {@link Adjoint#withActiveSeed}. */
  static AdjointsOut of(Adjoint.Output output, boolean activeSeed) {
    return switch (output) {
      case GRADIENT -> new Gradient();
      case PULLBACK -> new Pullback(activeSeed);
      case TAPE -> new OntoTape(activeSeed);
    };
  }

  /** The seed of the reverse sweep: a constant, or a parameter added to {@code parameters}. */
  Operand seed(SweepState s, List<Value> parameters);

  /**
   * The array the adjoints go into, a parameter added to {@code parameters}; or null, when they
   * go onto the tape (and those of array parameters into the arrays the caller passes).
   */
  Value outputArray(SweepState s, List<Value> parameters);

  /** Whether the slots of the {@code double} parameters follow those of the arrays. */
  boolean laysOutSlots();

  /**
   * Writes the adjoint of the {@code index}-th differentiable parameter ({@code adjoint}, null
   * when nothing reached it) into {@code array} at its slot, or onto the tape.
   */
  void write(SweepState s, Value parameter, int index, Operand adjoint, FlatLayout layout,
      Value array, List<Statement> out);

  /**
   * The runtime helper that starts a vector function's reverse sweep from the seed: see
   * {@link SlotsCall#SEED}.
   */
  default SlotsCall seedHelper() {
    return SlotsCall.SEED;
  }

  /** Seed 1; {@code gradient[i] = xBar}: the gradient. */
  record Gradient() implements AdjointsOut {
    @Override
    public Operand seed(SweepState s, List<Value> parameters) {
      return Site.number(1.0);
    }

    @Override
    public Value outputArray(SweepState s, List<Value> parameters) {
      return arrayParameter(s, Adjoint.Output.GRADIENT, parameters);
    }

    @Override
    public boolean laysOutSlots() {
      return true;
    }

    @Override
    public void write(SweepState s, Value parameter, int index, Operand adjoint,
        FlatLayout layout, Value array, List<Statement> out) {
      Operand slot = layout != null ? layout.start(parameter) : Operand.Constant.of(index);
      out.add(new ElementStore(array, slot, adjoint == null ? Site.number(0.0) : adjoint,
          false, null));
    }
  }

  /** A {@code seed} parameter; {@code adjoints[i] += xBar}: the pullback. */
  record Pullback(boolean activeSeed) implements AdjointsOut {
    @Override
    public Operand seed(SweepState s, List<Value> parameters) {
      return seedParameter(s, activeSeed, parameters);
    }

    @Override
    public Value outputArray(SweepState s, List<Value> parameters) {
      return arrayParameter(s, Adjoint.Output.PULLBACK, parameters);
    }

    @Override
    public boolean laysOutSlots() {
      return true;
    }

    @Override
    public void write(SweepState s, Value parameter, int index, Operand adjoint,
        FlatLayout layout, Value array, List<Statement> out) {
      Operand slot = layout != null ? layout.start(parameter) : Operand.Constant.of(index);
      if (adjoint != null) {
        out.add(new ElementStore(array, slot, adjoint, true, null));
      }
    }
  }

  /**
   * A {@code seed} parameter; each parameter's adjoint pushed onto the tape, in order: the
   * pullback that the generated code of callers calls.
   */
  record OntoTape(boolean activeSeed) implements AdjointsOut {
    @Override
    public Operand seed(SweepState s, List<Value> parameters) {
      return seedParameter(s, activeSeed, parameters);
    }

    @Override
    public Value outputArray(SweepState s, List<Value> parameters) {
      if (s.primal.hasActiveArrays()) {
        s.parameterTargets = ArraySlots.adjointTargets(s.primal);
        if (s.parameterTargets.isEmpty()) {
          throw new IllegalArgumentException("the adjoints of arrays go into arrays the caller"
              + " passes (ArraySlots.perParameter), not onto the tape: " + s.primal.name());
        }
      }
      return null;
    }

    @Override
    public boolean laysOutSlots() {
      return false;
    }

    @Override
    public void write(SweepState s, Value parameter, int index, Operand adjoint,
        FlatLayout layout, Value array, List<Statement> out) {
      Operand pushed = adjoint == null ? Site.number(0.0) : adjoint;
      if (activeSeed && !carriesDerivative(pushed)) {
        // the forward mode of this pullback (mPullbackTangent) pushes each adjoint's tangent
        // below it, and its callers take back both: an adjoint that carries no derivative, the
        // zero of a parameter that nothing reached, is handed on in a variable, so that its
        // tangent (zero) goes on the tape beside it, as a segment's adjoints are (SegmentSweep)
        Variable handed = s.builder.derivedVariable(parameter, Derivative.ADJOINT,
            NumericType.DOUBLE);
        out.add(new Declare(handed, pushed, null));
        pushed = new Operand.Read(handed);
      }
      out.add(new Push(pushed, null));
    }

    /** Whether the forward mode of the program gives {@code adjoint} a tangent. */
    private static boolean carriesDerivative(Operand adjoint) {
      return adjoint instanceof Operand.Use use && use.isActive()
          || adjoint instanceof Operand.Read read && read.variable().isActive();
    }

    @Override
    public SlotsCall seedHelper() {
      return SlotsCall.SEED_WITHIN;
    }
  }

  /** The seed parameter, added to {@code parameters}. */
  private static Operand seedParameter(SweepState s, boolean activeSeed,
      List<Value> parameters) {
    // a vector function's pullback takes one seed per element of its result
    Value seedParameter = s.builder.generated("seed",
        s.primal.returnsArray() ? NumericType.DOUBLE_ARRAY : NumericType.DOUBLE, activeSeed);
    parameters.add(seedParameter);
    return new Operand.Use(seedParameter);
  }

  /** The output array parameter named for {@code output}, added to {@code parameters}. */
  private static Value arrayParameter(SweepState s, Adjoint.Output output,
      List<Value> parameters) {
    Value array = s.builder.generated(output.arrayName(), NumericType.DOUBLE_ARRAY, false);
    parameters.add(array);
    return array;
  }
}
