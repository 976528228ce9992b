package ad4j.processor.emit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An estimate of the bytecode javac makes of a generated method body, from its source: enough
 * to tell whether it would pass HotSpot's 8000-byte limit for compiling a method.
 *
 * <p>Locals get slots in declaration order, as javac gives them; a load or store costs 1 byte
 * for slots 0 to 3, 2 bytes up to slot 255 and 4 bytes (the {@code wide} form) beyond, which is
 * what makes methods with thousands of intermediate values large. A constant costs 3 bytes
 * ({@code ldc2_w}), a call 3, an operator 1, an array element 4.
 *
 * <p>The planner measures every cut it tries, so each line is scanned by hand, once, rather
 * than matched with regular expressions: the tokens are those of the expressions kept in the
 * comments of {@link #declaration} and {@link #cost}, no other.
 */
final class BytecodeEstimate {
  private static final String[] DECLARED_TYPES =
      {"double", "int", "long", "boolean", "float", "Tape", "double[]"};
  private static final String OPERATORS = "-+*/%<>=!?";
  private static final String NUMBER_SUFFIXES = "fFdDlL";

  private final Map<String, Integer> slots = new HashMap<>();
  private int nextSlot;
  private int bytes;

  private BytecodeEstimate() {}

  /**
   * The estimated bytecode length of a static method with these parameters and body.
   *
   * @param parameters the parameters, as pairs of type keyword and name
   * @param body the Java statements of the body
   */
  static int of(List<String[]> parameters, String body) {
    BytecodeEstimate estimate = withParameters(parameters);
    for (String line : body.split("\n")) {
      estimate.addLine(line);
    }
    return estimate.bytes();
  }

  /**
   * An estimate of a body still to be read, line by line ({@link #addLine}), of a static
   * method with these parameters (pairs of type keyword and name).
   */
  static BytecodeEstimate withParameters(List<String[]> parameters) {
    BytecodeEstimate estimate = new BytecodeEstimate();
    for (String[] parameter : parameters) {
      estimate.declare(parameter[0], parameter[1]);
    }
    return estimate;
  }

  /** Adds one line of the body, without its line break, to the estimate. */
  void addLine(String line) {
    String statement = line.trim();
    if (statement.isEmpty() || statement.startsWith("//")) {
      return;
    }
    declaration(statement);
    bytes += cost(statement);
  }

  /** The estimated bytecode of the lines added so far. */
  int bytes() {
    return bytes;
  }

  private void declare(String type, String name) {
    slots.put(name, nextSlot);
    nextSlot += type.equals("double") || type.equals("long") ? 2 : 1;
  }

  /**
   * Declares the local that {@code statement} declares, if it is one: the statement matches
   * {@code ^(double|int|long|boolean|float|Tape|double\[\])\s+(\w+)\s*=}, the type first
   * tried as the first that is followed by white space.
   */
  private void declaration(String statement) {
    for (String type : DECLARED_TYPES) {
      if (!statement.startsWith(type)) {
        continue;
      }
      int at = type.length();
      int name = skipSpaces(statement, at);
      if (name == at) {
        continue; // no white space after it: perhaps the next type (double, then double[])
      }
      int end = name;
      while (end < statement.length() && isWordCharacter(statement.charAt(end))) {
        end++;
      }
      if (end > name) {
        int equals = skipSpaces(statement, end);
        if (equals < statement.length() && statement.charAt(equals) == '=') {
          declare(type, statement.substring(name, end));
        }
      }
      return; // a word's greedy match does not go back: the other types cannot match either
    }
  }

  /**
   * The bytes of one statement: its tokens are, left to right, what {@code
   * [A-Za-z_$][A-Za-z0-9_$]*(\s*\()?|\d+(\.\d*)?([eE][-+]?\d+)?[fFdDlL]?|\[|[-+*\/%<>=!?]}
   * finds in turn; other characters are skipped.
   */
  private int cost(String statement) {
    int bytes = 1; // the statement's own store, jump or return
    int length = statement.length();
    int i = 0;
    while (i < length) {
      char first = statement.charAt(i);
      if (isIdentifierStart(first)) {
        int end = i + 1;
        while (end < length && isIdentifierPart(statement.charAt(end))) {
          end++;
        }
        int paren = skipSpaces(statement, end);
        if (paren < length && statement.charAt(paren) == '(') {
          bytes += 3; // invokestatic or invokevirtual
          i = paren + 1;
        } else {
          Integer slot = slots.get(statement.substring(i, end));
          if (slot != null) {
            bytes += slot <= 3 ? 1 : slot <= 255 ? 2 : 4;
          }
          i = end;
        }
      } else if (isDigit(first)) {
        int end = digitsFrom(statement, i);
        if (end < length && statement.charAt(end) == '.') {
          end = digitsFrom(statement, end + 1);
        }
        if (end < length && (statement.charAt(end) == 'e' || statement.charAt(end) == 'E')) {
          int exponent = end + 1;
          if (exponent < length
              && (statement.charAt(exponent) == '-' || statement.charAt(exponent) == '+')) {
            exponent++;
          }
          int digits = digitsFrom(statement, exponent);
          if (digits > exponent) {
            end = digits;
          }
        }
        if (end < length && NUMBER_SUFFIXES.indexOf(statement.charAt(end)) >= 0) {
          end++;
        }
        String text = statement.substring(i, end);
        bytes += text.equals("0.0") || text.equals("1.0") || text.equals("0") || text.equals("1")
            ? 1 : 3;
        i = end;
      } else if (first == '[') {
        bytes += 4;
        i++;
      } else {
        if (OPERATORS.indexOf(first) >= 0) {
          bytes += 1;
        }
        i++;
      }
    }
    return bytes;
  }

  /** The end of the run of ASCII digits from {@code from}. */
  private static int digitsFrom(String text, int from) {
    int end = from;
    while (end < text.length() && isDigit(text.charAt(end))) {
      end++;
    }
    return end;
  }

  /** The end of the run of white space ({@code \s}: space, tab, line breaks, form feeds). */
  private static int skipSpaces(String text, int from) {
    int end = from;
    while (end < text.length() && " \t\n\013\f\r".indexOf(text.charAt(end)) >= 0) {
      end++;
    }
    return end;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isIdentifierStart(char c) {
    return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '$';
  }

  private static boolean isIdentifierPart(char c) {
    return isIdentifierStart(c) || isDigit(c);
  }

  /** {@code \w}: a letter, a digit or an underscore (no dollar sign). */
  private static boolean isWordCharacter(char c) {
    return isIdentifierPart(c) && c != '$';
  }
}
