package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
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
 * Copies statements with fresh values, variables, branches and loops, so that the copy can
 * stand beside the original: each value keeps a single definition, each loop its own label and
 * trip count. Values, variables and loops defined outside the copied statements are shared.
 */
final class StatementCopier {
  private final IrBuilder ir;
  private final Map<Value, Value> values = new HashMap<>();
  private final Map<Variable, Variable> variables = new HashMap<>();
  private final Map<Integer, Integer> loops = new HashMap<>();

  StatementCopier(IrBuilder ir) {
    this.ir = ir;
  }

  List<Statement> copy(List<Statement> statements) {
    List<Statement> copies = new ArrayList<>();
    for (Statement statement : statements) {
      copies.add(copy(statement));
    }
    return copies;
  }

  private Block copy(Block block) {
    return new Block(copy(block.statements()));
  }

  private Statement copy(Statement statement) {
    if (statement instanceof Instruction instruction) {
      List<Operand> arguments = instruction.arguments().stream().map(this::map).toList();
      Value result = ir.copyOf(instruction.result());
      values.put(instruction.result(), result);
      return new Instruction(result, instruction.operation(), arguments, instruction.line());
    }
    if (statement instanceof Declare declare) {
      Operand initial = map(declare.initial());
      Variable variable = ir.copyOf(declare.variable());
      variables.put(declare.variable(), variable);
      return new Declare(variable, initial, declare.line());
    }
    if (statement instanceof Store store) {
      return new Store(map(store.variable()), map(store.value()), store.line());
    }
    if (statement instanceof Return ret) {
      return new Return(map(ret.value()), ret.line());
    }
    if (statement instanceof If branch) {
      return new If(ir.nextStatementId(), map(branch.condition()), copy(branch.thenBlock()),
          copy(branch.elseBlock()), branch.line());
    }
    if (statement instanceof Loop loop) {
      int id = ir.nextStatementId();
      loops.put(loop.id(), id);
      Block condition = copy(loop.condition());
      Operand test = loop.test() == null ? null : map(loop.test());
      return new Loop(id, condition, test, loop.testFirst(), copy(loop.body()),
          copy(loop.update()), loop.line(), loop.kind());
    }
    if (statement instanceof Jump jump) {
      return new Jump(jump.kind(), loops.getOrDefault(jump.loopId(), jump.loopId()),
          jump.line());
    }
    Throw thrown = (Throw) statement;
    List<Object> parts = new ArrayList<>();
    for (Object part : thrown.messageParts()) {
      parts.add(part instanceof Operand operand ? map(operand) : part);
    }
    return new Throw(thrown.exceptionType(), parts, thrown.hasMessage(),
        thrown.arguments().stream().map(this::map).toList(), thrown.line());
  }

  private Operand map(Operand operand) {
    if (operand instanceof Operand.Use use) {
      return new Operand.Use(values.getOrDefault(use.value(), use.value()));
    }
    if (operand instanceof Operand.Read read) {
      return new Operand.Read(map(read.variable()));
    }
    return operand;
  }

  private Variable map(Variable variable) {
    return variables.getOrDefault(variable, variable);
  }
}
