package ad4j.processor.derive;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A copy of statements of a derivative program with fresh values, and fresh variables for those
 * they declare, so that it can stand beside the original in the same program (each value keeps
 * one definition): a checkpointed loop's iterations run in up to three places. Values and
 * variables from outside the statements are shared; branches and loops keep their ids, so that
 * jumps keep their targets.
 */
public final class FreshCopy {
  private final IrBuilder builder;
  private final Map<Value, Value> values = new HashMap<>();
  private final Map<Variable, Variable> variables = new HashMap<>();

  /** A copier whose copies take new ids from {@code builder}. */
  public FreshCopy(IrBuilder builder) {
    this.builder = builder;
  }

  /** A copy of {@code block}; values it defines and later copies read map to their copies. */
  public Block of(Block block) {
    List<Statement> copies = new ArrayList<>();
    for (Statement statement : block.statements()) {
      copies.add(copy(statement));
    }
    return new Block(copies);
  }

  /** The operand in the copy: {@code operand} with the copies' values and variables. */
  public Operand map(Operand operand) {
    if (operand instanceof Operand.Use use) {
      return new Operand.Use(values.getOrDefault(use.value(), use.value()));
    }
    if (operand instanceof Operand.Read read) {
      return new Operand.Read(map(read.variable()));
    }
    return operand;
  }

  private Statement copy(Statement statement) {
    if (statement instanceof Instruction instruction) {
      List<Operand> arguments = instruction.arguments().stream().map(this::map).toList();
      Value result = builder.again(instruction.result());
      values.put(instruction.result(), result);
      return new Instruction(result, instruction.operation(), arguments, instruction.line());
    }
    if (statement instanceof Declare declare) {
      Operand initial = map(declare.initial());
      Variable variable = builder.copyOf(declare.variable());
      variables.put(declare.variable(), variable);
      return new Declare(variable, initial, declare.line());
    }
    if (statement instanceof Store store) {
      return new Store(map(store.variable()), map(store.value()), store.line());
    }
    if (statement instanceof Push push) {
      return new Push(map(push.value()), push.line());
    }
    if (statement instanceof ElementStore store) {
      return new ElementStore(values.getOrDefault(store.array(), store.array()),
          map(store.index()), map(store.value()), store.add(), store.line());
    }
    if (statement instanceof Return ret) {
      return new Return(ret.value() == null ? null : map(ret.value()), ret.line());
    }
    if (statement instanceof If branch) {
      return new If(branch.id(), map(branch.condition()), of(branch.thenBlock()),
          of(branch.elseBlock()), branch.line());
    }
    if (statement instanceof Loop loop) {
      Block condition = of(loop.condition());
      Operand test = loop.test() == null ? null : map(loop.test());
      return new Loop(loop.id(), condition, test, loop.testFirst(), of(loop.body()),
          of(loop.update()), loop.line(), loop.kind());
    }
    if (statement instanceof Throw thrown) {
      List<Object> parts = new ArrayList<>();
      for (Object part : thrown.messageParts()) {
        parts.add(part instanceof Operand operand ? map(operand) : part);
      }
      return new Throw(thrown.exceptionType(), parts, thrown.hasMessage(),
          thrown.arguments().stream().map(this::map).toList(), thrown.line());
    }
    return statement; // jumps and notes
  }

  private Variable map(Variable variable) {
    return variables.getOrDefault(variable, variable);
  }
}
