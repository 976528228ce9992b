package ad4j.processor.front;

import ad4j.processor.front.StreamReductions.State;
import ad4j.processor.front.StreamReductions.Terminal;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code DoubleStream} and {@code IntStream} pipelines over arrays, listed values and ranges,
 * lowered to the loops they are: {@code Arrays.stream(a)}, {@code Arrays.stream(a, from, to)},
 * {@code DoubleStream.of(...)}, {@code IntStream.of(...)}, {@code IntStream.range(i, j)} and
 * {@code rangeClosed(i, j)}, then
 * {@code map}, {@code mapToDouble}, {@code asDoubleStream} and {@code filter}, ended by
 * {@code sum()}, {@code reduce(identity, op)}, or {@code average()}, {@code max()} or
 * {@code min()} with {@code getAsDouble()}, {@code getAsInt()} or {@code orElse(v)}, or, of any
 * stream, {@code anyMatch(p)}, {@code allMatch(p)}, {@code noneMatch(p)} and (with a
 * {@code filter}) {@code count()}. A sequential
 * stream takes each element through every stage before the next, so the loop does the same, in
 * the same order; the functions of the stages are inlined ({@link FunctionValues}).
 *
 * <p>This class recognises a pipeline, reads its stages and runs the loop that takes each
 * element through them; what the source goes over is {@link StreamSources}', what the end
 * keeps and gives {@link StreamReductions}'.
 */
final class StreamLowering {

  /** Builds the loops of pipelines; {@link LoopLowering} gives them. */
  interface Loops {
    /**
     * {@code for (index = from; index < to; index++) body(index)}, of {@code indexType}, ended
     * as soon as {@code guard} is false when there is one.
     */
    void countingLoop(Operand from, Operand to, NumericType indexType,
        Supplier<Operand> guard, Consumer<Operand> body);

    /**
     * {@code body} given each element of {@code iterable} ({@link LoopLowering#iteratorLoop}),
     * ended as soon as {@code guard} is false when there is one; false after an error.
     */
    boolean iteratorLoop(Operand iterable, IterableLoops.Walk walk,
        Supplier<Operand> guard, Consumer<Operand> body);
  }

  /** The operations ad4j lowers, for messages. */
  static final String SUPPORTED = "ad4j lowers streams made by 'Arrays.stream(a)',"
      + " 'Arrays.stream(a, from, to)',"
      + " 'DoubleStream.of(...)', 'IntStream.of(...)', 'IntStream.range(i, j)',"
      + " 'rangeClosed(i, j)' and 'c.stream()' of a Collection c of data (its elements given to"
      + " 'filter' and then to 'mapToDouble'), with 'map', 'mapToDouble', 'asDoubleStream' and"
      + " 'filter', ended by"
      + " 'sum()', 'reduce(identity, op)', or 'average()', 'max()' or 'min()' with"
      + " 'getAsDouble()', 'getAsInt()' or 'orElse(v)', or 'anyMatch(p)', 'allMatch(p)',"
      + " 'noneMatch(p)' or, after a 'filter', 'count()'";

  /** A stage between the source and the end. */
  private sealed interface Stage {}

  private record Map(FunctionValues.Known function, MethodInvocationTree call,
      NumericType to) implements Stage {}

  private record Filter(FunctionValues.Known predicate, MethodInvocationTree call)
      implements Stage {}

  private record Widen() implements Stage {}

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final FunctionValues functions;
  private final StreamSources sources;
  private final StreamReductions reductions;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  private Loops loops;

  StreamLowering(LoweringContext context, ExpressionLowering expressions,
      FunctionValues functions) {
    this.context = context;
    this.expressions = expressions;
    this.functions = functions;
    this.sources = new StreamSources(context, expressions);
    this.reductions = new StreamReductions(context, expressions, functions);
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
  }

  void useLoops(Loops loopBuilder) {
    this.loops = loopBuilder;
  }

  /**
   * The source of the stream {@code call} operates on, or empty when it is no such call. A
   * pipeline with an operation that is not lowered and no function given to any stage
   * ({@code IntStream.range(0, n).toArray()}) is not one either: it runs as written, as calls on
   * objects do, and carries no derivative.
   */
  Optional<MethodInvocationTree> source(MethodInvocationTree call) {
    if (runAsWritten.contains(call)) {
      return Optional.empty();
    }
    ExpressionTree at = call;
    boolean unlisted = false;
    boolean givesFunction = false;
    List<MethodInvocationTree> chain = new ArrayList<>();
    while (at instanceof MethodInvocationTree invocation
        && invocation.getMethodSelect() instanceof MemberSelectTree select) {
      chain.add(invocation);
      if (isSource(invocation) || isCollectionStream(invocation) && givesFunction) {
        if (unlisted && !givesFunction) {
          runAsWritten.addAll(chain); // its receivers are lowered next, as objects
          return Optional.empty();
        }
        return Optional.of(invocation);
      }
      unlisted |= !LISTED.contains(select.getIdentifier().toString());
      givesFunction |= invocation.getArguments().stream().anyMatch(argument ->
          argument.getKind() == com.sun.source.tree.Tree.Kind.LAMBDA_EXPRESSION
              || argument.getKind() == com.sun.source.tree.Tree.Kind.MEMBER_REFERENCE);
      at = select.getExpression();
    }
    return Optional.empty();
  }

  /** The calls of pipelines that run as written ({@link #source}). */
  private final java.util.Set<com.sun.source.tree.Tree> runAsWritten = new java.util.HashSet<>();

  /**
   * The stream operations after a source that ad4j lowers, as messages list them; not the ends
   * that give no derivative ({@code count()}, {@code anyMatch(p)}, ...), so that a pipeline
   * without a function ({@code Arrays.stream(xs).count()}) still runs as written.
   */
  private static final List<String> OPERATIONS = List.of("map", "mapToDouble",
      "asDoubleStream", "filter", "sum", "average", "reduce", "max", "min");

  /** The calls after a source that ad4j lowers: the operations, and the optional's readers. */
  private static final java.util.Set<String> LISTED = java.util.Set.copyOf(
      java.util.stream.Stream.concat(OPERATIONS.stream(),
          java.util.stream.Stream.of("getAsDouble", "getAsInt", "orElse")).toList());

  /**
   * What to add to an error at {@code method}, a call run as written that is given an array
   * carrying derivatives: where it is the source of a stream over that array, the pipeline
   * runs as written because one of its operations is not in {@link #OPERATIONS} ({@code
   * sorted()}, {@code toArray()}; see {@link #source}), which the error about the source alone
   * would not say. Empty for other methods.
   */
  static String runAsWrittenAdvice(javax.lang.model.element.ExecutableElement method) {
    String owner = ((javax.lang.model.element.TypeElement) method.getEnclosingElement())
        .getQualifiedName().toString();
    String name = method.getSimpleName().toString();
    boolean source = owner.equals("java.util.Arrays") && name.equals("stream")
        || owner.equals("java.util.stream.DoubleStream") && name.equals("of");
    return source ? "; a stream over the array is differentiated only where each of its"
        + " operations is " + String.join(", ", OPERATIONS.subList(0, OPERATIONS.size() - 1))
        + " or " + OPERATIONS.get(OPERATIONS.size() - 1) + ": another one (sorted, toArray,"
        + " ...) makes the pipeline run as written" : "";
  }

  /** {@code Arrays.stream}, {@code DoubleStream.of}, {@code IntStream.of}, {@code range}... */
  private boolean isSource(MethodInvocationTree call) {
    if (!(call.getMethodSelect() instanceof MemberSelectTree select)
        || !Symbols.isName(select.getExpression())
        || (select.getExpression() instanceof IdentifierTree name
            && (context.scopes().lookUp(name.getName().toString()) != null
                || context.symbols().resolveField(name.getName().toString()).isPresent()))) {
      return false;
    }
    String method = select.getIdentifier().toString();
    Optional<String> owner = context.symbols().resolveType(select.getExpression())
        .map(type -> type.getQualifiedName().toString());
    if (owner.isEmpty()) {
      return false;
    }
    return switch (owner.get()) {
      case "java.util.Arrays" -> method.equals("stream");
      case "java.util.stream.DoubleStream" -> method.equals("of");
      case "java.util.stream.IntStream" -> method.equals("of") || method.equals("range")
          || method.equals("rangeClosed");
      default -> false;
    };
  }

  /**
   * {@code c.stream()} on an object that is not a class's name: a source where a stage is
   * given a function (else it runs as written, as it did before ad4j lowered such streams);
   * {@link StreamSources} checks that {@code c} is a {@code Collection}.
   */
  private boolean isCollectionStream(MethodInvocationTree call) {
    if (!(call.getMethodSelect() instanceof MemberSelectTree select)
        || !select.getIdentifier().contentEquals("stream") || !call.getArguments().isEmpty()) {
      return false;
    }
    ExpressionTree receiver = select.getExpression();
    boolean typeName = Symbols.isName(receiver)
        && !(receiver instanceof IdentifierTree name
            && (context.scopes().lookUp(name.getName().toString()) != null
                || context.symbols().resolveField(name.getName().toString()).isPresent()))
        && context.symbols().resolveType(receiver).isPresent();
    return !typeName;
  }

  /** Lowers the pipeline that {@code call} ends, from {@code source}; null after an error. */
  Operand lower(MethodInvocationTree call, MethodInvocationTree source) {
    LinkedList<MethodInvocationTree> calls = new LinkedList<>();
    for (ExpressionTree at = call; at != source;
        at = ((MemberSelectTree) ((MethodInvocationTree) at).getMethodSelect()).getExpression()) {
      calls.addFirst((MethodInvocationTree) at);
    }
    StreamSources.Elements elements = sources.elements(source);
    if (elements == null) {
      return null;
    }
    NumericType type = elements.type();
    List<Stage> stages = new ArrayList<>();
    int i = 0;
    for (; i < calls.size(); i++) {
      MethodInvocationTree stage = calls.get(i);
      String name = name(stage);
      String streamName = type == NumericType.DOUBLE ? "DoubleStream"
          : type == NumericType.INT ? "IntStream" : "Stream";
      if (type == NumericType.OBJECT && isTerminal(name, stage)
          && !Terminal.named(name).takesObjects()) {
        unsupported(stage, "'" + name + "' of a stream of objects is not supported: map its"
            + " elements to numbers first ('mapToDouble(e -> ...)'); " + SUPPORTED);
        return null;
      }
      if (name.equals("map") && type != NumericType.OBJECT && stage.getArguments().size() == 1) {
        FunctionValues.Known function = functions.definitions().argument(
            stage.getArguments().get(0),
            new FunctionValues.Signature(type == NumericType.DOUBLE ? "applyAsDouble"
                : "applyAsInt", List.of(type), type));
        if (function == null) {
          return null;
        }
        stages.add(new Map(function, stage, type));
      } else if (name.equals("mapToDouble")
          && (type == NumericType.INT || type == NumericType.OBJECT)
          && stage.getArguments().size() == 1) {
        FunctionValues.Known function = functions.definitions().argument(
            stage.getArguments().get(0),
            new FunctionValues.Signature("applyAsDouble", List.of(type), NumericType.DOUBLE));
        if (function == null) {
          return null;
        }
        stages.add(new Map(function, stage, NumericType.DOUBLE));
        type = NumericType.DOUBLE;
      } else if (name.equals("asDoubleStream") && type == NumericType.INT
          && stage.getArguments().isEmpty()) {
        stages.add(new Widen());
        type = NumericType.DOUBLE;
      } else if (name.equals("filter") && stage.getArguments().size() == 1) {
        FunctionValues.Known predicate = functions.definitions().argument(
            stage.getArguments().get(0),
            new FunctionValues.Signature("test", List.of(type), NumericType.BOOLEAN));
        if (predicate == null) {
          return null;
        }
        stages.add(new Filter(predicate, stage));
      } else if (isTerminal(name, stage)) {
        break;
      } else {
        unsupported(stage, "stream operation '" + name + "' of " + streamName
            + " is not supported: " + SUPPORTED);
        return null;
      }
    }
    if (i == calls.size()) {
      unsupported(calls.isEmpty() ? source : calls.getLast(), "the stream '"
          + context.source().of(calls.isEmpty() ? source : calls.getLast()) + "' is not ended"
          + " here: " + SUPPORTED + "; a stream cannot be stored or passed on");
      return null;
    }
    MethodInvocationTree end = calls.get(i);
    Terminal terminal = Terminal.named(name(end));
    if (terminal == Terminal.COUNT && stages.stream().noneMatch(Filter.class::isInstance)) {
      // the JDK counts a sized source without running the stages (Stream.count's contract)
      unsupported(end, "'count()' is lowered after a 'filter' only: without one, the JDK may"
          + " count the source's elements without running the stages; use the source's size"
          + " ('c.size()', 'a.length')");
      return null;
    }
    boolean optional = terminal == Terminal.AVERAGE || terminal == Terminal.MAX
        || terminal == Terminal.MIN;
    MethodInvocationTree unwrap = null;
    if (optional) {
      NumericType optionalType = terminal == Terminal.AVERAGE ? NumericType.DOUBLE : type;
      String getter = optionalType == NumericType.DOUBLE ? "getAsDouble" : "getAsInt";
      unwrap = i + 1 < calls.size() ? calls.get(i + 1) : null;
      if (unwrap == null || !(name(unwrap).equals(getter) && unwrap.getArguments().isEmpty()
          || name(unwrap).equals("orElse") && unwrap.getArguments().size() == 1)) {
        unsupported(unwrap == null ? end : unwrap, "the result of '" + name(end) + "()' must be"
            + " read at once by '" + getter + "()' or 'orElse(v)': " + SUPPORTED);
        return null;
      }
      i++;
    }
    if (i + 1 < calls.size()) {
      unsupported(calls.get(i + 1), "stream operation '" + name(calls.get(i + 1))
          + "' is not supported after '" + name(calls.get(i)) + "': " + SUPPORTED);
      return null;
    }
    return run(elements, stages, terminal, end, unwrap, type);
  }

  /** The name of the stream method {@code call} calls. */
  static String name(MethodInvocationTree call) {
    return ((MemberSelectTree) call.getMethodSelect()).getIdentifier().toString();
  }

  private static boolean isTerminal(String name, MethodInvocationTree call) {
    int arity = call.getArguments().size();
    return switch (name) {
      case "sum", "average", "max", "min", "count" -> arity == 0;
      case "anyMatch", "allMatch", "noneMatch" -> arity == 1;
      case "reduce" -> arity == 2;
      default -> false;
    };
  }

  // ---- the loop ---------------------------------------------------------------------------

  private Operand run(StreamSources.Elements elements, List<Stage> stages, Terminal terminal,
      MethodInvocationTree end, MethodInvocationTree unwrap, NumericType type) {
    State state = reductions.start(terminal, type, end);
    if (state == null) {
      return null;
    }
    boolean[] failed = {false};
    Consumer<Operand> each = element -> failed[0] |= !element(element, stages, 0, state);
    Supplier<Operand> guard = reductions.guard(state);
    if (elements.listed() != null) {
      for (Operand listed : elements.listed()) {
        if (guard == null) {
          each.accept(listed);
        } else {
          // DoubleStream.of(a, b, c).anyMatch(p): the values are made; the stages stop
          Operand open = guard.get();
          ir.openBlock();
          each.accept(listed);
          Block taken = ir.closeBlock();
          ir.add(new If(ir.nextStatementId(), open, taken, new Block(List.of()),
              context.line()));
        }
      }
    } else if (elements.iterable() != null) {
      failed[0] |= !loops.iteratorLoop(elements.iterable(), elements.walk(), guard, each);
    } else if (elements.array() != null) {
      Operand array = elements.array();
      boolean active = array instanceof Operand.Use use && use.value().isActiveArray();
      loops.countingLoop(elements.from(), elements.to(), NumericType.INT, guard,
          index -> each.accept(context.emit(Operation.ELEMENT, List.of(array, index),
              elements.type(), active && elements.type() == NumericType.DOUBLE)));
    } else if (elements.closed()) {
      // rangeClosed(i, j) up to Integer.MAX_VALUE: a long index, each element its int value
      Operand from = expressions.conversions().convert(elements.from(), NumericType.LONG);
      Operand to = context.emit(Operation.ADD, List.of(
          expressions.conversions().convert(elements.to(), NumericType.LONG),
          StreamReductions.longOne()),
          NumericType.LONG, false);
      loops.countingLoop(from, to, NumericType.LONG, guard,
          index -> each.accept(expressions.conversions().convert(index, NumericType.INT)));
    } else {
      loops.countingLoop(elements.from(), elements.to(), NumericType.INT, guard, each);
    }
    if (failed[0]) {
      return null;
    }
    return reductions.result(state, unwrap);
  }

  /** One element through the stages from {@code index} on, then into the terminal's state. */
  private boolean element(Operand value, List<Stage> stages, int index, State state) {
    if (index == stages.size()) {
      return reductions.accumulate(value, state);
    }
    Stage stage = stages.get(index);
    if (stage instanceof Widen) {
      return element(expressions.conversions().convert(value, NumericType.DOUBLE), stages,
          index + 1, state);
    }
    if (stage instanceof Map map) {
      Operand mapped = functions.apply(map.function(), List.of(value), map.call());
      return mapped != null && element(mapped, stages, index + 1, state);
    }
    Filter filter = (Filter) stage;
    Operand test = functions.apply(filter.predicate(), List.of(value), filter.call());
    if (test == null) {
      return false;
    }
    ir.openBlock();
    boolean ok = element(value, stages, index + 1, state);
    Block kept = ir.closeBlock();
    ir.add(new If(ir.nextStatementId(), test, kept, new Block(List.of()), context.line()));
    return ok;
  }

  private void unsupported(com.sun.source.tree.Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}