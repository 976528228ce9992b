package ad4j.processor.plan;

import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.derive.ArraySlots;
import ad4j.processor.emit.NameScope;
import ad4j.processor.ir.Function;

/**
 * What every program of one user's method starts from: the method's IR, its analysis, what
 * reverse mode differentiates (the function with slots on its reads of arrays) and, made at its
 * first use, what callers' pullbacks differentiate (slots per array parameter). Apart so that
 * each analysis is made once per method and shared by every member's program and trial print.
 */
public final class MethodPrograms {
  private final Function function;
  private final FlowAnalysis flow;
  private final Function reverseFunction;
  private final FlowAnalysis reverseFlow;
  private final NameScope names;
  private Function perParameter;
  private FlowAnalysis perParameterFlow;

  /** The programs of {@code function}, the user's method lowered. */
  public MethodPrograms(Function function) {
    this.function = function;
    this.flow = new FlowAnalysis(function);
    this.reverseFunction = ArraySlots.of(function);
    this.reverseFlow = reverseFunction == function ? flow : new FlowAnalysis(reverseFunction);
    this.names = NameScope.of(function);
  }

  /** The user's method as IR. */
  public Function function() {
    return function;
  }

  FlowAnalysis flow() {
    return flow;
  }

  /** What reverse mode differentiates: the function, with slots on its reads of arrays. */
  public Function reverseFunction() {
    return reverseFunction;
  }

  /** The analysis of {@link #reverseFunction}. */
  public FlowAnalysis reverseFlow() {
    return reverseFlow;
  }

  /** What the names of the method's members start from. */
  public NameScope names() {
    return names;
  }

  /** The function with slots for the pullback of callers ({@link ArraySlots#perParameter}). */
  Function perParameter() {
    if (perParameter == null) {
      perParameter = ArraySlots.perParameter(function);
      perParameterFlow = new FlowAnalysis(perParameter);
    }
    return perParameter;
  }

  FlowAnalysis perParameterFlow() {
    perParameter();
    return perParameterFlow;
  }

  /** What the pullback halves start from: slots per array parameter where there are arrays. */
  Function pullbackSource() {
    return function.hasActiveArrays() ? perParameter() : reverseFunction;
  }

  FlowAnalysis pullbackSourceFlow() {
    return function.hasActiveArrays() ? perParameterFlow() : reverseFlow;
  }
}
