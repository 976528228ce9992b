package ad4j.processor.testing;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Random programs of one package each that exercise Java's name and overload resolution: an
 * interface of constants, a superclass with static fields, overloads and a member class, a
 * class of static imports, and the user's class extending and implementing them, hiding some
 * of their members, with a nested class that may extend the superclass and declare its own.
 * {@code Main.f(double x)} and {@code Main.Inner.f(double x)} sum terms {@code x * member},
 * each member's value distinct, so that a name resolved to another member changes the value.
 * Every call is one javac accepts: its arguments are chosen among those some visible overload
 * takes, and no two overloads can be ambiguous (one of {@code Object} or a type variable, one
 * variable arity overload, {@code double...}).
 */
public final class ResolutionPrograms {
  private ResolutionPrograms() {}

  /** A parameter type of an overload. */
  enum Overload {
    INT("int"), LONG("long"), DOUBLE("double"), BOXED("Integer"), OBJECT("Object"),
    GENERIC("T"), DOUBLES("double...");

    final String type;

    Overload(String type) {
      this.type = type;
    }
  }

  /** An argument expression, and the overloads that accept it in some phase (JLS 15.12.2). */
  enum Argument {
    INT_LITERAL("2", EnumSet.of(Overload.INT, Overload.LONG, Overload.DOUBLE, Overload.BOXED,
        Overload.OBJECT, Overload.GENERIC, Overload.DOUBLES)),
    INT_LOCAL("k", EnumSet.of(Overload.INT, Overload.LONG, Overload.DOUBLE, Overload.BOXED,
        Overload.OBJECT, Overload.GENERIC, Overload.DOUBLES)),
    LONG_LITERAL("3L", EnumSet.of(Overload.LONG, Overload.DOUBLE, Overload.OBJECT,
        Overload.GENERIC, Overload.DOUBLES)),
    DOUBLE_LOCAL("c", EnumSet.of(Overload.DOUBLE, Overload.OBJECT, Overload.GENERIC,
        Overload.DOUBLES)),
    CHAR_LITERAL("'a'", EnumSet.of(Overload.INT, Overload.LONG, Overload.DOUBLE,
        Overload.OBJECT, Overload.GENERIC, Overload.DOUBLES)),
    BOXED_LOCAL("boxed", EnumSet.of(Overload.INT, Overload.LONG, Overload.DOUBLE,
        Overload.BOXED, Overload.OBJECT, Overload.GENERIC, Overload.DOUBLES)),
    STRING_LITERAL("\"s\"", EnumSet.of(Overload.OBJECT, Overload.GENERIC));

    final String text;
    final Set<Overload> acceptedBy;

    Argument(String text, Set<Overload> acceptedBy) {
      this.text = text;
      this.acceptedBy = acceptedBy;
    }
  }

  /** A program: its sources by qualified name, and the classes whose {@code f} to check. */
  public record Program(Map<String, String> sources, List<String> classes, String pkg) {}

  /** The program of package {@code pkg} drawn from {@code random}. */
  public static Program generate(Random random, String pkg) {
    return new Generator(random, pkg).program();
  }

  private static final class Generator {
    private final Random random;
    private final String pkg;
    private int nextValue = 1;
    /** Object or a type variable: one of them, never both (their erasures clash). */
    private final Overload reference;

    Generator(Random random, String pkg) {
      this.random = random;
      this.pkg = pkg;
      this.reference = random.nextBoolean() ? Overload.OBJECT : Overload.GENERIC;
    }

    Program program() {
      Map<String, String> sources = new LinkedHashMap<>();
      // constants C0..C2 of the interface; Base declares some, Main hides at least those
      Set<Integer> inBase = subset(3);
      Set<Integer> inMain = subset(3);
      inMain.addAll(inBase);
      EnumSet<Overload> baseH = overloads();
      EnumSet<Overload> mainH = random.nextInt(3) == 0 ? EnumSet.noneOf(Overload.class)
          : overloads();
      EnumSet<Overload> utilG = overloads();
      boolean baseHasG = random.nextInt(4) == 0;
      EnumSet<Overload> baseG = baseHasG ? overloads() : EnumSet.noneOf(Overload.class);
      boolean mainBox = random.nextBoolean();
      boolean innerExtends = random.nextBoolean();
      Set<Integer> inInner = subset(3);
      EnumSet<Overload> innerH = random.nextBoolean() ? EnumSet.noneOf(Overload.class)
          : overloads();
      boolean singleImport = random.nextBoolean();
      boolean baseHidesU = random.nextInt(3) == 0;

      sources.put(pkg + ".Consts", "package " + pkg + ";\ninterface Consts {\n"
          + "  double C0 = " + value() + ";\n  double C1 = " + value() + ";\n  double C2 = "
          + value() + ";\n}\n");
      StringBuilder util = new StringBuilder("package " + pkg + ";\nfinal class Util {\n");
      util.append("  static final double U0 = ").append(value()).append(";\n");
      methods(util, "g", utilG);
      util.append("}\n");
      sources.put(pkg + ".Util", util.toString());
      StringBuilder base = new StringBuilder("package " + pkg + ";\nclass Base {\n");
      for (int i : inBase) {
        base.append("  static final double C").append(i).append(" = ").append(value())
            .append(";\n");
      }
      if (baseHidesU) {
        base.append("  static final double U0 = Math.sqrt(").append(value()).append(");\n");
      }
      methods(base, "h", baseH);
      methods(base, "g", baseG);
      base.append("  static class Box { static final double V = ").append(value())
          .append("; }\n}\n");
      sources.put(pkg + ".Base", base.toString());

      StringBuilder main = new StringBuilder("package " + pkg + ";\n");
      main.append(singleImport ? "import static " + pkg + ".Util.g;\nimport static " + pkg
          + ".Util.U0;\n" : "import static " + pkg + ".Util.*;\n");
      main.append("import ad4j.Differentiable;\n");
      main.append("final class Main extends Base implements Consts {\n");
      for (int i : inMain) {
        // a constant, or a value read at run time (hiding then must name Main)
        main.append("  static final double C").append(i).append(" = ")
            .append(random.nextBoolean() ? value() : "Math.cbrt(" + value() + ")")
            .append(";\n");
      }
      methods(main, "h", mainH);
      if (mainBox) {
        main.append("  static class Box { static final double V = ").append(value())
            .append("; }\n");
      }
      EnumSet<Overload> hInMain = union(mainH, baseH);
      EnumSet<Overload> gInMain = baseHasG ? baseG : utilG;
      main.append(body(hInMain, gInMain, List.of(0, 1, 2), "  "));
      main.append("  static final class Inner").append(innerExtends ? " extends Base" : "")
          .append(" {\n");
      for (int i : inInner) {
        main.append("    static final double C").append(i).append(" = ").append(value())
            .append(";\n");
      }
      methods(main, "h", innerH, "    ");
      EnumSet<Overload> hInInner = !innerH.isEmpty() || innerExtends
          ? union(innerH, innerExtends ? baseH : EnumSet.noneOf(Overload.class)) : hInMain;
      EnumSet<Overload> gInInner = innerExtends && baseHasG ? baseG : gInMain;
      main.append(body(hInInner, gInInner, List.of(0, 1, 2), "    "));
      main.append("  }\n}\n");
      sources.put(pkg + ".Main", main.toString());
      return new Program(sources, List.of(pkg + ".Main", pkg + ".Main$Inner"), pkg);
    }

    /** The @Differentiable f of a class whose visible h and g overloads are given. */
    private String body(EnumSet<Overload> h, EnumSet<Overload> g, List<Integer> constants,
        String indent) {
      StringBuilder body = new StringBuilder();
      body.append(indent).append("@Differentiable static double f(double x) {\n");
      String in = indent + "  ";
      body.append(in).append("int k = 3;\n");
      body.append(in).append("double c = 0.75;\n");
      body.append(in).append("Integer boxed = Integer.valueOf(k);\n");
      boolean shadow = random.nextInt(3) == 0;
      if (shadow) {
        body.append(in).append("double C1 = x * 0.5;\n"); // a local shadows the field
      }
      body.append(in).append("double r = x * (U0 + Box.V);\n");
      for (int i : constants) {
        body.append(in).append("r += C").append(i).append(" * x * ").append(i + 1)
            .append(";\n");
      }
      for (int n = 0; n < 3; n++) {
        body.append(in).append("r += x * h(").append(arguments(h)).append(");\n");
      }
      for (int n = 0; n < 2; n++) {
        body.append(in).append("r += x * x * g(").append(arguments(g)).append(");\n");
      }
      body.append(in).append("return r;\n");
      body.append(indent).append("}\n");
      return body.toString();
    }

    /** Arguments some overload of {@code visible} takes: one, or two or none for varargs. */
    private String arguments(EnumSet<Overload> visible) {
      if (visible.contains(Overload.DOUBLES) && random.nextInt(4) == 0) {
        int count = random.nextInt(3) == 0 ? 0 : 2;
        List<String> numbers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          numbers.add(random.nextBoolean() ? "c" : "k");
        }
        return String.join(", ", numbers);
      }
      List<Argument> possible = new ArrayList<>();
      for (Argument argument : Argument.values()) {
        for (Overload overload : visible) {
          if (argument.acceptedBy.contains(overload)) {
            possible.add(argument);
            break;
          }
        }
      }
      return possible.get(random.nextInt(possible.size())).text;
    }

    private void methods(StringBuilder into, String name, EnumSet<Overload> overloads) {
      methods(into, name, overloads, "  ");
    }

    /** One static method per overload, each returning a value of its own. */
    private void methods(StringBuilder into, String name, EnumSet<Overload> overloads,
        String indent) {
      for (Overload overload : overloads) {
        String own = value();
        String head = overload == Overload.GENERIC ? "static <T> double " : "static double ";
        String use = switch (overload) {
          case INT, LONG, DOUBLE -> "a * 0.125 + " + own;
          case BOXED -> "a.intValue() * 0.25 + " + own;
          case OBJECT, GENERIC -> "a.hashCode() % 3 + " + own;
          case DOUBLES -> "a.length + " + own;
        };
        into.append(indent).append(head).append(name).append("(").append(overload.type)
            .append(" a) { return ").append(use).append("; }\n");
      }
    }

    /** A non-empty set of overloads, with the one reference kind of this program. */
    private EnumSet<Overload> overloads() {
      EnumSet<Overload> set = EnumSet.noneOf(Overload.class);
      List<Overload> kinds = List.of(Overload.INT, Overload.LONG, Overload.DOUBLE,
          Overload.BOXED, reference, Overload.DOUBLES);
      while (set.isEmpty()) {
        for (Overload kind : kinds) {
          if (random.nextInt(3) == 0) {
            set.add(kind);
          }
        }
      }
      return set;
    }

    private static EnumSet<Overload> union(EnumSet<Overload> a, EnumSet<Overload> b) {
      EnumSet<Overload> union = EnumSet.copyOf(a);
      union.addAll(b);
      return union;
    }

    private Set<Integer> subset(int n) {
      Set<Integer> set = new java.util.TreeSet<>();
      for (int i = 0; i < n; i++) {
        if (random.nextBoolean()) {
          set.add(i);
        }
      }
      return set;
    }

    /** A value no other member has. */
    private String value() {
      return (nextValue++) + ".5";
    }
  }
}
