package ad4j.processor.ir;

/**
 * A statement of the structured IR. Straight-line code needs instructions and a return; branches
 * and loops are further statement kinds holding nested {@link Block}s.
 */
public sealed interface Statement permits Instruction, Return {}
