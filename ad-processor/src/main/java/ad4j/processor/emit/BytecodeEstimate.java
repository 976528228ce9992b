package ad4j.processor.emit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An estimate of the bytecode javac makes of a generated method body, from its source: enough
 * to tell whether it would pass HotSpot's 8000-byte limit for compiling a method.
 *
 * <p>Locals get slots in declaration order, as javac gives them; a load or store costs 1 byte
 * for slots 0 to 3, 2 bytes up to slot 255 and 4 bytes (the {@code wide} form) beyond, which is
 * what makes methods with thousands of intermediate values large. A constant costs 3 bytes
 * ({@code ldc2_w}), a call 3, an operator 1, an array element 4.
 */
final class BytecodeEstimate {
  private static final Pattern DECLARATION =
      Pattern.compile("^(double|int|long|boolean|float|Tape|double\\[\\])\\s+(\\w+)\\s*=");
  private static final Pattern TOKEN = Pattern.compile(
      "[A-Za-z_$][A-Za-z0-9_$]*(\\s*\\()?|\\d+(\\.\\d*)?([eE][-+]?\\d+)?[fFdDlL]?|\\[|[-+*/%<>=!?]");

  private final Map<String, Integer> slots = new HashMap<>();
  private int nextSlot;

  private BytecodeEstimate() {}

  /**
   * The estimated bytecode length of a static method with these parameters and body.
   *
   * @param parameters the parameters, as pairs of type keyword and name
   * @param body the Java statements of the body
   */
  static int of(List<String[]> parameters, String body) {
    BytecodeEstimate estimate = new BytecodeEstimate();
    for (String[] parameter : parameters) {
      estimate.declare(parameter[0], parameter[1]);
    }
    int bytes = 0;
    for (String line : body.split("\n")) {
      String statement = line.trim();
      if (statement.isEmpty() || statement.startsWith("//")) {
        continue;
      }
      Matcher declaration = DECLARATION.matcher(statement);
      if (declaration.find()) {
        estimate.declare(declaration.group(1), declaration.group(2));
      }
      bytes += estimate.cost(statement);
    }
    return bytes;
  }

  private void declare(String type, String name) {
    slots.put(name, nextSlot);
    nextSlot += type.equals("double") || type.equals("long") ? 2 : 1;
  }

  private int cost(String statement) {
    int bytes = 1; // the statement's own store, jump or return
    Matcher token = TOKEN.matcher(statement);
    while (token.find()) {
      String text = token.group();
      char first = text.charAt(0);
      if (Character.isDigit(first)) {
        bytes += text.equals("0.0") || text.equals("1.0") || text.equals("0") || text.equals("1")
            ? 1 : 3;
      } else if (text.endsWith("(")) {
        bytes += 3; // invokestatic or invokevirtual
      } else if (Character.isJavaIdentifierStart(first)) {
        Integer slot = slots.get(text);
        if (slot != null) {
          bytes += slot <= 3 ? 1 : slot <= 255 ? 2 : 4;
        }
      } else if (first == '[') {
        bytes += 4;
      } else {
        bytes += 1;
      }
    }
    return bytes;
  }
}
