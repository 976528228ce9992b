package ad4j.processor.ir;

/**
 * The methods of {@code ad4j.runtime.internal.Slots} that programs call ({@link
 * Operation#slotsCall}),
 * one constant each: the runtime's surface for generated code in one list, and what a pass asks
 * of an instruction ({@link Operation#isSlotsCall}) instead of comparing names.
 */
public enum SlotsCall {
  /** The range checks of {@code Arrays.fill} and {@code System.arraycopy} as Java makes them. */
  CHECK_FILL("checkFill"),
  CHECK_COPY("checkCopy"),
  CHECK_RANGE("checkRange"),
  /** That a {@code @DerivativeOf} vector target returned none of the arrays it was given. */
  CHECK_NEW_ARRAY("checkNewArray"),
  /** The number of slots of an array (a matrix's elements, row by row). */
  COUNT("count"),
  /** The length of a matrix's rows when they are all alike, for the flat layout. */
  ROW_LENGTH("rowLength"),
  /** Where a row of a (possibly jagged) matrix starts in the flat layout. */
  ROW_START("rowStart"),
  /**
   * Adds a copy's adjoints into its original's ({@code addIntoWithin}: a copy made in a loop);
   * the forward mode of second-order programs follows each with the same for the tangents.
   */
  ADD_INTO("addInto"),
  ADD_INTO_WITHIN("addIntoWithin"),
  /** Clears the adjoint array of an array made in a loop, at the reverse of its making. */
  CLEAR("clear"),
  /**
   * Starts a vector function's reverse sweep from the seed ({@code seedWithin} in the pullback
   * callers call); a Jacobian's rows replace it by a unit seed per row.
   */
  SEED("seed"),
  SEED_WITHIN("seedWithin"),
  /** Adds an adjoint times a rule's partials into array slots. */
  ADD_SCALED("addScaled"),
  /** Adds the product of a rule's partials' matrix and a tangent into a tangent array. */
  ADD_PRODUCT("addProduct"),
  /** A vector target's rule's partials against the adjoints of its result. */
  DOT("dot"),
  DOT_WITHIN("dotWithin"),
  /** Adds the transposed partials' matrix times the adjoints of a vector target's result. */
  ADD_TRANSPOSED("addTransposed"),
  ADD_TRANSPOSED_WITHIN("addTransposedWithin"),
  /** Scratch for the adjoints of an argument that carries no derivative. */
  DISCARDED("discarded"),
  /** The zero tangents of an argument that carries no derivative. */
  ZEROS("zeros");

  private final String javaName;

  SlotsCall(String javaName) {
    this.javaName = javaName;
  }

  /** The method's name in {@code ad4j.runtime.internal.Slots}. */
  public String javaName() {
    return javaName;
  }
}
