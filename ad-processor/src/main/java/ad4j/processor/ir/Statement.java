package ad4j.processor.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A statement of the structured IR: instructions define values; variables are declared and
 * stored to; branches and loops hold nested {@link Block}s; jumps, returns and throws end a path.
 */
public sealed interface Statement
    permits Instruction, Return, Declare, Store, If, Loop, Jump, Throw, Note, Push,
    ElementStore {

  /**
   * The user's statement this one comes from; null for statements a transform adds that need
   * no comment of their own.
   */
  SourceLine line();

  /**
   * The operands this statement reads itself, not those of its nested blocks: a branch's
   * condition, a loop's test (read at the end of its condition block), a throw's arguments and
   * then the operands of its message.
   */
  default List<Operand> operands() {
    if (this instanceof Instruction instruction) {
      return instruction.arguments();
    } else if (this instanceof Declare declare) {
      return List.of(declare.initial());
    } else if (this instanceof Store store) {
      return List.of(store.value());
    } else if (this instanceof Return ret) {
      return ret.value() == null ? List.of() : List.of(ret.value());
    } else if (this instanceof If branch) {
      return List.of(branch.condition());
    } else if (this instanceof Loop loop) {
      return loop.test() == null ? List.of() : List.of(loop.test());
    } else if (this instanceof Push push) {
      return List.of(push.value());
    } else if (this instanceof ElementStore store) {
      return List.of(new Operand.Use(store.array()), store.index(), store.value());
    } else if (this instanceof Throw thrown) {
      List<Operand> operands = new ArrayList<>(thrown.arguments());
      for (Object part : thrown.messageParts()) {
        if (part instanceof Operand operand) {
          operands.add(operand);
        }
      }
      return operands;
    }
    return List.of();
  }

  /**
   * This statement with each operand it reads itself ({@link #operands}) replaced by what
   * {@code map} gives for it; what it defines or writes, and its nested blocks, as they are.
   * Jumps and notes read nothing and come back as they are.
   */
  default Statement withOperands(UnaryOperator<Operand> map) {
    if (this instanceof Instruction instruction) {
      return new Instruction(instruction.result(), instruction.operation(),
          instruction.arguments().stream().map(map).toList(), instruction.line());
    } else if (this instanceof Declare declare) {
      return new Declare(declare.variable(),
          declare.initial() == null ? null : map.apply(declare.initial()), declare.line());
    } else if (this instanceof Store store) {
      return new Store(store.variable(), map.apply(store.value()), store.line());
    } else if (this instanceof Return ret) {
      return new Return(ret.value() == null ? null : map.apply(ret.value()), ret.line());
    } else if (this instanceof If branch) {
      return new If(branch.id(), map.apply(branch.condition()), branch.thenBlock(),
          branch.elseBlock(), branch.line());
    } else if (this instanceof Loop loop) {
      return new Loop(loop.id(), loop.condition(), loop.test() == null ? null
          : map.apply(loop.test()), loop.testFirst(), loop.body(), loop.update(), loop.line(), loop.kind());
    } else if (this instanceof Push push) {
      return new Push(map.apply(push.value()), push.line());
    } else if (this instanceof ElementStore store) {
      return new ElementStore(store.array(), map.apply(store.index()), map.apply(store.value()),
          store.add(), store.line());
    } else if (this instanceof Throw thrown) {
      List<Object> parts = new ArrayList<>();
      for (Object part : thrown.messageParts()) {
        parts.add(part instanceof Operand operand ? map.apply(operand) : part);
      }
      return new Throw(thrown.exceptionType(), parts, thrown.hasMessage(),
          thrown.arguments().stream().map(map).toList(), thrown.line());
    }
    return this;
  }

  /** The blocks this statement holds: a branch's two, a loop's three (condition, body, update). */
  default List<Block> nestedBlocks() {
    if (this instanceof If branch) {
      return List.of(branch.thenBlock(), branch.elseBlock());
    } else if (this instanceof Loop loop) {
      return List.of(loop.condition(), loop.body(), loop.update());
    }
    return List.of();
  }

  /**
   * This statement with each of its nested blocks ({@link #nestedBlocks}) replaced by what
   * {@code map} makes of it; statements without blocks come back as they are.
   */
  default Statement withNestedBlocks(UnaryOperator<Block> map) {
    if (this instanceof If branch) {
      return new If(branch.id(), branch.condition(), map.apply(branch.thenBlock()),
          map.apply(branch.elseBlock()), branch.line());
    } else if (this instanceof Loop loop) {
      return new Loop(loop.id(), map.apply(loop.condition()), loop.test(), loop.testFirst(),
          map.apply(loop.body()), map.apply(loop.update()), loop.line(), loop.kind());
    }
    return this;
  }
}
