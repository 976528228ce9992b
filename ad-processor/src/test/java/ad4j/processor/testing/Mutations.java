package ad4j.processor.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * Mutations that turn a valid {@code @Differentiable} method into one that is still valid,
 * well-typed Java but outside the language ad4j differentiates, <em>and will stay outside it</em>
 * after the planned extension (if/else, ?:, comparisons, && || !, loops, break/continue, early
 * return, throw of unchecked exceptions, int/long/boolean locals and parameters, calls to other
 * {@code @Differentiable} methods). Those appear only around what makes a mutant invalid (a
 * throw of a class generated code cannot reach, say).
 *
 * <p>{@code %p} in a template is the method's first parameter, {@code %n} a fresh suffix. The
 * class the method lives in must declare what {@link #CLASS_MEMBERS} declares.
 */
public final class Mutations {
  private Mutations() {}

  /** Where a mutation goes. */
  public enum Kind {
    /** A statement inserted between two lines of the body. */
    STATEMENT,
    /** An expression of type double, added to the returned expression. */
    EXPRESSION,
    /** A change of the signature. */
    SIGNATURE
  }

  /** One mutation. */
  public record Mutation(String name, Kind kind, String template) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Members of the enclosing class the templates refer to. */
  public static final String CLASS_MEMBERS = String.join("\n",
      "  static double staticField;",
      "  double instanceField = 1;",
      "  static double helper(double a) { return a; }",
      "  double instanceHelper(double a) { return a * instanceField; }",
      "  private static final class Hidden extends RuntimeException {",
      "    private static final long serialVersionUID = 1L;",
      "    Hidden(String message) { super(message); }",
      "  }",
      "  private static final class Box { static final double ROOT = Math.log(3); }",
      "  static double[] mutableTable = {1.0, 2.0};");

  public static final List<Mutation> ALL = List.of(
      // objects, lambdas, method references, anonymous and local classes
      expression("generic object created with a diamond",
          "new java.util.ArrayList<>().size() * %p"),
      expression("anonymous class", "new Object() { }.hashCode()"),
      expression("lambda",
          "((java.util.function.DoubleUnaryOperator) t -> t * 2).applyAsDouble(%p)"),
      expression("method reference",
          "((java.util.function.DoubleUnaryOperator) Math::sin).applyAsDouble(%p)"),
      statement("lambda in a local", "Runnable r%n = () -> { };"),
      statement("method reference to an object's method in a local",
          "java.util.function.DoubleSupplier d%n = new java.util.Random()::nextDouble;"),
      // (a number boxed into an object is an error only when it carries a derivative, which
      // the parameter, perhaps assigned before, need not; so is an array made for the call of
      // it: a written local array always carries derivatives)
      statement("array into a collection", "double[] a%n = new double[1]; a%n[0] = %p;"
          + " java.util.List<double[]> o%n = java.util.List.of(a%n);"),
      statement("local class", "class Local%n { }"),
      // fields
      statement("static field write", "staticField = %p;"),
      statement("qualified static field write", "Programs.staticField = %p * 2;"),
      // statements
      statement("try", "try { %p = %p * 2; } finally { }"),
      statement("synchronized", "synchronized (Programs.class) { %p += 1; }"),
      // (an Integer box is unboxed, as Java does; a Character box is not)
      statement("switch statement on a boxed Character",
          "switch (Character.valueOf('b')) { case 'b': %p += 1; break; default: }"),
      statement("assert with an anonymous object", "assert %p > 0 : new Object() { };"),
      // arrays and strings
      statement("local matrix without its rows' size", "double[][] a%n = new double[2][];"),
      statement("row of a local matrix assigned",
          "double[][] a%n = {{%p, 2}}; a%n[0] = new double[1];"),
      // (a written local array: one made for the call of values that carry no derivative,
      // which %p, assigned a constant earlier in a random program, need not carry, carries
      // none, and goes to any call)
      statement("array passed as an object", "double[] a%n = new double[1]; a%n[0] = %p;"
          + " int h%n = java.util.Objects.hashCode(a%n);"),
      // calls that are not differentiable
      expression("Math.random()", "Math.random()"),
      // (a call of a static method that is not @Differentiable runs as written when it carries
      // no derivative, so only an instance method is an error whatever its argument)
      expression("instance method of the class", "instanceHelper(%p)"),
      statement("Math.random() assigned", "%p = Math.random() + %p;"),
      // (a Double, Float, Integer or Long box is unboxed where Java unboxes it, exact where
      // the boxed value carries no derivative and an error where it does; a Short is not)
      expression("boxed short", "Short.valueOf((short) 1) * %p"),
      // what generated code, in another class, cannot reach
      statement("throw of a private exception class", "if (%p > 1e300) throw new Hidden(\"x\");"),
      expression("static array that is not final", "mutableTable[0] * %p"),
      // an array of objects made by its length (one made of its elements is built as written,
      // and an error only where an element carries a derivative, which %p, assigned a
      // constant earlier in a random program, need not)
      statement("array of objects made by its length", "Object[] kept%n = new Object[1];"),
      // classes ad4j cannot see
      statement("local class with a @Differentiable method",
          "class Local%n { @Differentiable static double h(double a) { return a; } }"),
      expression("anonymous class with a @Differentiable method",
          "new Object() { @Differentiable double h(double a) { return a; } }.hashCode() * %p"),
      // local arrays of unsupported element types (char, short and byte locals are values)
      statement("long[] local", "long[] l%n = new long[1];"),
      statement("boolean[] local", "boolean[] z%n = new boolean[1];"),
      statement("char[] local", "char[] c%n = new char[1];"),
      // assignments of fields inside expressions
      expression("field assignment inside an expression", "(staticField = %p) * 2"),
      expression("chained assignment ending in a field", "(%p = staticField = 2) * %p"),
      // signatures
      signature("float[][] parameter", ") {", ", float[][] extra) {"),
      signature("double[][][] parameter", ") {", ", double[][][] extra) {"),
      signature("127 more double parameters", ") {", manyDoubles() + ") {"));

  /**
   * {@code , double e0, ..., double e126}: with the method's own, too many for the generated
   * members (a method too wide for its tangent alone keeps the other members).
   */
  private static String manyDoubles() {
    StringBuilder parameters = new StringBuilder();
    for (int i = 0; i < 127; i++) {
      parameters.append(", double e").append(i);
    }
    return parameters.toString();
  }

  private static Mutation expression(String name, String template) {
    return new Mutation(name, Kind.EXPRESSION, template);
  }

  private static Mutation statement(String name, String template) {
    return new Mutation(name, Kind.STATEMENT, template);
  }

  /** Replaces the first {@code from} in the method's signature line by {@code to}. */
  private static Mutation signature(String name, String from, String to) {
    return new Mutation(name, Kind.SIGNATURE, from + "\u0000" + to);
  }

  /**
   * Applies a mutation to the source of a method (as {@link RandomPrograms} renders it: an
   * annotation line, a signature line, one statement per line, a return line, a closing brace).
   *
   * @param position chooses the line a statement goes before (any line of the body, modulo)
   * @param parameter the name of the method's first parameter
   */
  public static String apply(Mutation mutation, String method, String parameter, int position,
      String suffix) {
    List<String> lines = new ArrayList<>(List.of(method.split("\n", -1)));
    int signatureLine = 1;
    int returnLine = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).trim().startsWith("return ")) {
        returnLine = i;
      }
    }
    String text = mutation.template().replace("%p", parameter).replace("%n", suffix);
    switch (mutation.kind()) {
      case STATEMENT -> {
        int first = signatureLine + 1;
        int line = first + Math.floorMod(position, returnLine - first + 1);
        lines.add(line, "    " + text);
      }
      case EXPRESSION -> {
        String returned = lines.get(returnLine).trim();
        String expression = returned.substring("return ".length(), returned.length() - 1);
        lines.set(returnLine, Math.floorMod(position, 2) == 0
            ? "    return (" + expression + ") + " + text + ";"
            : "    return " + text + " * (" + expression + ");");
      }
      case SIGNATURE -> {
        String[] change = text.split("\u0000");
        String signature = lines.get(signatureLine);
        int at = signature.indexOf(change[0]);
        if (at < 0) {
          throw new IllegalStateException(signature + " has no " + change[0]);
        }
        lines.set(signatureLine, signature.substring(0, at) + change[1]
            + signature.substring(at + change[0].length()));
        if (mutation.name().contains("instance field")) {
          String returned = lines.get(returnLine);
          lines.set(returnLine, returned.replace("return ", "return instanceField * "));
        }
      }
    }
    return String.join("\n", lines);
  }
}
