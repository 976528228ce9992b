package ad4j.processor.ir;

import java.util.List;

/** A sequence of statements, executed in order. */
public record Block(List<Statement> statements) {
  public Block {
    statements = List.copyOf(statements);
  }
}
