package ad4j.processor.methodsize;

import static ad4j.processor.analysis.StatementFacts.assignments;
import static ad4j.processor.analysis.StatementFacts.count;
import static ad4j.processor.analysis.StatementFacts.countStores;
import static ad4j.processor.analysis.StatementFacts.definitions;
import static ad4j.processor.analysis.StatementFacts.newIdentitySet;
import static ad4j.processor.methodsize.ValuesLeftOnTape.readsInPlace;

import ad4j.processor.analysis.Ids;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Moves a run of statements of a program into a part, a program of its own called with the
 * operation {@code LOCAL_CALL} where the run stood: what the part reads that is made before it
 * it takes as arguments (the last ones on the tape when they would not fit the JVM's limit on
 * parameters), what it makes that is read after it it pushes onto the tape at its end for the
 * caller to take back at once, or leaves there for later parts ({@link ValuesLeftOnTape}).
 * Apart from {@link LongRuns} and {@link LoopNests}, which choose the runs, because it is the
 * one place that knows how a part hands values over; it keeps the counts of uses of the whole
 * program as cut so far, which both choosers read.
 */
final class Outliner {
  /**
   * The most parameter slots a part takes as arguments ({@code double} and {@code long} take
   * two): the JVM allows 255, and arguments beyond this travel on the tape.
   */
  private static final int ARGUMENT_SLOTS = 120;

  private final Function program;
  private final String namePrefix;
  private final IrBuilder builder;
  private final List<LongBlocks.Part> parts = new ArrayList<>();
  /**
   * How often each value is read, and each variable read or written, in the whole program as
   * cut so far: a part's statements leave it for the part's program, its call and what takes
   * back its results come in.
   */
  private final Map<Object, Integer> uses = new IdentityHashMap<>();
  /** How many statements store into each variable, in the whole program. */
  private final Map<Variable, Integer> stores = new IdentityHashMap<>();
  private final ValuesLeftOnTape leftOnTape;

  Outliner(Function program, String namePrefix) {
    this.program = program;
    this.namePrefix = namePrefix;
    this.builder = new IrBuilder(Ids.next(program));
    this.leftOnTape = new ValuesLeftOnTape(builder);
    count(program.body(), uses);
    countStores(program.body().statements(), stores);
  }

  /** The builder of the new values, shared by whatever rewrites the runs before they move. */
  IrBuilder builder() {
    return builder;
  }

  /**
   * How often each value and variable is used in the whole program as cut so far: who moves
   * statements between runs before they become parts adjusts it.
   */
  Map<Object, Integer> uses() {
    return uses;
  }

  /**
   * Counts the stores of {@code run} out and those of {@code parts}, the same run as a rewrite
   * left it, in: spreading a long sum across parts adds its terms into the variable at the end
   * of the parts that make them ({@code v += ...}), which may come after the part that declares
   * it, and such a part must not leave the variable on the tape as final ({@link
   * #leftInPlace}).
   */
  void recountStores(List<Statement> run, List<List<Statement>> parts) {
    Map<Variable, Integer> before = new IdentityHashMap<>();
    countStores(run, before);
    before.forEach((variable, count) -> stores.merge(variable, -count, Integer::sum));
    for (List<Statement> part : parts) {
      countStores(part, stores);
    }
  }

  /** The parts made so far, in order. */
  List<LongBlocks.Part> parts() {
    return List.copyOf(parts);
  }

  /** The values parts left on the tape. */
  ValuesLeftOnTape leftOnTape() {
    return leftOnTape;
  }

  /**
   * What a part made of {@code statements} would take and hand over: {@code inside} counts
   * their reads, stores and declarations; {@code declared} are the variables they declare (at
   * any depth), {@code topDeclared} those declared among them directly.
   */
  record Handover(Map<Object, Integer> inside, Set<Variable> declared,
      Set<Variable> topDeclared, List<Value> inValues, List<Variable> inVariables,
      List<Value> outValues, List<Variable> outVariables) {}

  /** What a part made of {@code part} would take and hand over. */
  Handover handover(List<Statement> part) {
    Map<Object, Integer> inside = new IdentityHashMap<>();
    count(new Block(part), inside);
    Set<Value> defined = newIdentitySet();
    Set<Variable> declared = newIdentitySet();
    definitions(part, defined, declared);
    Set<Variable> topDeclared = newIdentitySet();
    for (Statement statement : part) {
      if (statement instanceof Declare declare) {
        topDeclared.add(declare.variable());
      }
    }
    List<Value> inValues = new ArrayList<>();
    List<Variable> inVariables = new ArrayList<>();
    List<Value> outValues = new ArrayList<>();
    List<Variable> outVariables = new ArrayList<>();
    Set<Variable> assigned = newIdentitySet();
    assignments(part, assigned);
    for (Object used : inside.keySet()) {
      if (used instanceof Value value && !defined.contains(value)) {
        inValues.add(value);
      } else if (used instanceof Variable variable && !declared.contains(variable)) {
        inVariables.add(variable);
        if (assigned.contains(variable)) {
          outVariables.add(variable);
        }
      }
    }
    // what is read after the part: read more often in the whole program than in the part
    for (Value value : defined) {
      if (uses.getOrDefault(value, 0) > inside.getOrDefault(value, 0)) {
        outValues.add(value);
      }
    }
    for (Variable variable : topDeclared) {
      if (uses.getOrDefault(variable, 0) > inside.getOrDefault(variable, 0)) {
        outVariables.add(variable);
      }
    }
    return new Handover(inside, declared, topDeclared, inValues, inVariables, outValues,
        outVariables);
  }

  /**
   * The statements that stand for {@code part} in the caller: its call, and the values and
   * variables it hands back taken off the tape; {@code part} itself when it cannot be a method.
   * With {@code inPlace}, the numbers it makes for later parts stay on the tape instead, where
   * those parts read them ({@link ValuesLeftOnTape}).
   */
  List<Statement> outline(List<Statement> part, boolean inPlace) {
    Handover handover = handover(part);
    sortById(handover);
    List<Object> readInPlace = readInPlace(handover);
    List<Object> leftInPlace = inPlace ? leftInPlace(part, handover) : new ArrayList<>();
    if (!fitsMethod(handover)) {
      return part;
    }
    PartParameters parameters = parameters(handover);
    if (parameters == null) {
      return part;
    }
    List<Statement> caller = new ArrayList<>();
    Value mark = null;
    if (!leftInPlace.isEmpty()) {
      // where the part's values will lie: it takes back what the caller pushes for it first
      Instruction marking = leftOnTape.newMark();
      mark = marking.result();
      caller.add(marking);
    }
    for (Object pushed : parameters.onTape()) {
      caller.add(new Push(pushed instanceof Variable variable ? new Operand.Read(variable)
          : new Operand.Use((Value) pushed), null));
    }
    List<Statement> body =
        partBody(part, handover, parameters, readInPlace, leftInPlace, mark);
    String name = namePrefix + (parts.size() + 1);
    parts.add(new LongBlocks.Part(name, program.with(parameters.values(), new Block(body))));
    callAndTakeBack(name, parameters.arguments(), handover, leftInPlace, caller);
    handover.inside().forEach((used, reads) -> uses.merge(used, -reads, Integer::sum));
    count(new Block(caller), uses);
    return caller;
  }

  /**
   * Sorts what {@code handover} takes and hands back by id, so that the parameters and the
   * pushes come in the order the values were made, the same in every compilation.
   */
  private static void sortById(Handover handover) {
    handover.inValues().sort(Comparator.comparingInt(Value::id));
    handover.inVariables().sort(Comparator.comparingInt(Variable::id));
    handover.outValues().sort(Comparator.comparingInt(Value::id));
    handover.outVariables().sort(Comparator.comparingInt(Variable::id));
  }

  /**
   * The values and variables the part reads that an earlier part left on the tape: the part
   * reads them there, through the mark of that part, so they are taken out of its inputs and
   * the marks (each once, in the order first needed) become its first input values.
   */
  private List<Object> readInPlace(Handover handover) {
    List<Object> readInPlace = new ArrayList<>();
    List<Value> marks = new ArrayList<>();
    List<Object> inputs = new ArrayList<>(handover.inValues());
    inputs.addAll(handover.inVariables());
    for (Object input : inputs) {
      Value at = leftOnTape.markOf(input);
      if (at != null) {
        readInPlace.add(input);
        if (!marks.contains(at)) {
          marks.add(at);
        }
      }
    }
    handover.inValues().removeAll(readInPlace);
    handover.inVariables().removeAll(readInPlace);
    handover.inValues().addAll(0, marks);
    return readInPlace;
  }

  /**
   * What the part makes for later parts that can stay on the tape where it pushes it, rather
   * than being taken back by the caller: numbers read in place ({@link ValuesLeftOnTape}), and
   * of its variables those declared among its statements whose value is final, for nothing
   * stores into them after the part. They are taken out of what it hands back.
   */
  private List<Object> leftInPlace(List<Statement> part, Handover handover) {
    List<Object> leftInPlace = new ArrayList<>();
    handover.outValues().stream().filter(v -> readsInPlace(v.type()))
        .forEach(leftInPlace::add);
    Map<Variable, Integer> storesHere = new IdentityHashMap<>();
    countStores(part, storesHere);
    handover.outVariables().stream()
        .filter(v -> handover.topDeclared().contains(v) && readsInPlace(v.type())
            && storesHere.getOrDefault(v, 0).equals(stores.getOrDefault(v, 0)))
        .forEach(leftInPlace::add);
    handover.outValues().removeAll(leftInPlace);
    handover.outVariables().removeAll(leftInPlace);
    return leftInPlace;
  }

  /**
   * Whether the part can be a method of its own: it declares no variable standing for a
   * parameter (which only the program itself takes), and all it takes and hands back can travel
   * on the tape.
   */
  private static boolean fitsMethod(Handover handover) {
    return handover.declared().stream().noneMatch(variable -> variable.parameter() != null)
        && handover.inValues().stream().allMatch(v -> onTape(v.type()))
        && handover.outValues().stream().allMatch(v -> onTape(v.type()))
        && handover.inVariables().stream().allMatch(v -> onTape(v.type()))
        && handover.outVariables().stream().allMatch(v -> onTape(v.type()));
  }

  /**
   * A part's parameters and the caller's arguments for them, the declarations that begin its
   * body (a variable taken as a parameter), and what travels on the tape instead, in order.
   */
  private record PartParameters(List<Value> values, List<Operand> arguments,
      List<Statement> declarations, List<Object> onTape) {}

  /**
   * The part's parameters: the variables' current values first (those standing for a
   * parameter always: they are written as the parameter), then the values read; what does not
   * fit {@link #ARGUMENT_SLOTS} travels on the tape. Null when the variables standing for
   * parameters alone do not fit: the part cannot be a method.
   */
  private PartParameters parameters(Handover handover) {
    List<Value> inValues = handover.inValues();
    List<Value> parameters = new ArrayList<>();
    List<Operand> arguments = new ArrayList<>();
    List<Statement> declarations = new ArrayList<>();
    List<Object> onTape = new ArrayList<>();
    int slots = 1; // the tape
    List<Variable> ordered = new ArrayList<>();
    handover.inVariables().stream().filter(v -> v.parameter() != null).forEach(ordered::add);
    handover.inVariables().stream().filter(v -> v.parameter() == null).forEach(ordered::add);
    for (Variable variable : ordered) {
      Value parameter = variable.parameter();
      if (parameter != null) {
        // the part takes the variable's current value as that parameter, also where it reads
        // the parameter's value, which the printer writes alike
        inValues.remove(parameter);
      } else if (slots + slotsOf(variable.type()) > ARGUMENT_SLOTS) {
        onTape.add(variable);
        continue;
      } else {
        parameter = builder.generated("carried", variable.type(), variable.isActive());
        declarations.add(new Declare(variable, new Operand.Use(parameter), null));
      }
      parameters.add(parameter);
      arguments.add(new Operand.Read(variable));
      slots += slotsOf(variable.type());
    }
    if (slots > ARGUMENT_SLOTS) {
      return null;
    }
    for (Value value : inValues) {
      if (slots + slotsOf(value.type()) <= ARGUMENT_SLOTS) {
        parameters.add(value);
        arguments.add(new Operand.Use(value));
        slots += slotsOf(value.type());
      } else {
        onTape.add(value);
      }
    }
    return new PartParameters(parameters, arguments, declarations, onTape);
  }

  /**
   * The part's program: the variables it takes declared, what the caller pushed popped (in
   * reverse), what earlier parts left read back, the part's statements, what it leaves in place
   * left behind {@code mark}, and what it hands back pushed for the caller.
   */
  private List<Statement> partBody(List<Statement> part, Handover handover,
      PartParameters parameters, List<Object> readInPlace, List<Object> leftInPlace,
      Value mark) {
    List<Statement> body = new ArrayList<>(parameters.declarations());
    List<Object> onTape = parameters.onTape();
    for (int i = onTape.size() - 1; i >= 0; i--) {
      if (onTape.get(i) instanceof Variable variable) {
        // popped where it is declared: written inline, in the order of the pops
        Value popped = builder.formula(variable.type(), variable.isActive());
        body.add(new Instruction(popped, Operation.POP, List.of(), null));
        body.add(new Declare(variable, new Operand.Use(popped), null));
      } else {
        body.addAll(popInto((Value) onTape.get(i)));
      }
    }
    for (Object used : readInPlace) {
      body.addAll(leftOnTape.readBack(used));
    }
    body.addAll(part);
    leftOnTape.leave(leftInPlace, mark, body);
    for (Value value : handover.outValues()) {
      body.add(new Push(new Operand.Use(value), null));
    }
    for (Variable variable : handover.outVariables()) {
      body.add(new Push(new Operand.Read(variable), null));
    }
    body.add(new Return(null, null));
    return body;
  }

  /**
   * Adds to {@code caller} the call of part {@code name}, then what the part hands back popped
   * off the tape in reverse of its pushes: a variable declared or stored, a value defined.
   */
  private void callAndTakeBack(String name, List<Operand> arguments, Handover handover,
      List<Object> leftInPlace, List<Statement> caller) {
    Instruction call = new Instruction(builder.temporary(NumericType.VOID, false),
        Operation.localCall(name, arguments.size()), arguments, null);
    caller.add(call);
    if (!leftInPlace.isEmpty()) {
      leftOnTape.leftBy(call, leftInPlace);
    }
    List<Variable> outVariables = handover.outVariables();
    for (int i = outVariables.size() - 1; i >= 0; i--) {
      Variable variable = outVariables.get(i);
      // popped where it is stored: written inline, in the order of the pops
      Value popped = builder.formula(variable.type(), variable.isActive());
      caller.add(new Instruction(popped, Operation.POP, List.of(), null));
      caller.add(handover.declared().contains(variable)
          ? new Declare(variable, new Operand.Use(popped), null)
          : new Store(variable, new Operand.Use(popped), null));
    }
    List<Value> outValues = handover.outValues();
    for (int i = outValues.size() - 1; i >= 0; i--) {
      caller.addAll(popInto(outValues.get(i)));
    }
  }

  /**
   * Defines {@code value} from the tape. A value the printer may write inline where it is read
   * (a formula, an integer temporary) would be popped there, out of order: it is popped into a
   * value of its own first.
   */
  private List<Statement> popInto(Value value) {
    boolean inline = value.origin() == Value.Origin.FORMULA
        || value.origin() == Value.Origin.TEMPORARY && value.type().isIntegral();
    if (!inline) {
      return List.of(new Instruction(value, Operation.POP, List.of(), null));
    }
    Value popped = builder.generated("handedOver", value.type(), value.isActive());
    return List.of(new Instruction(popped, Operation.POP, List.of(), null),
        new Instruction(value, Operation.COPY, List.of(new Operand.Use(popped)), null));
  }

  /** Whether a value of this type can be pushed onto the tape and taken back. */
  private static boolean onTape(NumericType type) {
    return switch (type) {
      case INT, LONG, FLOAT, DOUBLE, BOOLEAN, DOUBLE_ARRAY, DOUBLE_MATRIX, INT_ARRAY,
          FLOAT_ARRAY -> true;
      default -> false;
    };
  }

  private static int slotsOf(NumericType type) {
    return type == NumericType.DOUBLE || type == NumericType.LONG ? 2 : 1;
  }
}
