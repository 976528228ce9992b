package ad4j.processor.front;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.tools.Diagnostic;

/**
 * The errors found in one method, each tied to the tree it is about so that javac reports it at
 * that tree's own line and column. All are collected before any is reported, so a user sees every
 * problem of a method in one compilation.
 */
public final class Diagnostics {
  /** The prefix of every ad4j message, so users know which tool speaks. */
  public static final String PREFIX = "ad4j: ";

  private record Message(Tree tree, CompilationUnitTree unit, String message) {}

  private final Trees trees;
  private final CompilationUnitTree unit;
  /**
   * The trees of other files of the compilation that the method's lowering reads (a value
   * record's methods and constructor, inlined where they are called), each with its file.
   */
  private final Map<Tree, CompilationUnitTree> adopted = new IdentityHashMap<>();
  private final List<Message> errors = new ArrayList<>();
  private final List<Message> warnings = new ArrayList<>();
  private boolean unresolvedNames;

  public Diagnostics(Trees trees, CompilationUnitTree unit) {
    this.trees = trees;
    this.unit = unit;
  }

  /** Records an error at {@code tree}; the message is prefixed with {@value #PREFIX}. */
  public void error(Tree tree, String message) {
    errors.add(new Message(tree, unitOf(tree), PREFIX + message));
  }

  /**
   * Records an error at {@code tree} as {@link #error} does, unless that very error is recorded
   * already: for a question that lowering may ask more than once about one call.
   */
  public void errorOnce(Tree tree, String message) {
    boolean recorded = errors.stream().anyMatch(error -> error.tree() == tree
        && error.message().equals(PREFIX + message));
    if (!recorded) {
      error(tree, message);
    }
  }

  /**
   * Takes {@code root} and every tree inside it as trees of file {@code home}, another file of
   * the compilation whose code the method's lowering reads: a message about one is reported in
   * that file, at that tree.
   */
  public void adopt(Tree root, CompilationUnitTree home) {
    if (home == unit || adopted.containsKey(root)) {
      return;
    }
    new com.sun.source.util.TreeScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        if (tree != null) {
          adopted.put(tree, home);
        }
        return super.scan(tree, unused);
      }
    }.scan(root, null);
  }

  /** The file {@code tree} is in: the method's own, or the one it was {@link #adopt adopted} from. */
  public CompilationUnitTree unitOf(Tree tree) {
    return adopted.getOrDefault(tree, unit);
  }

  /**
   * Records a warning at {@code tree}, prefixed with {@value #PREFIX}: the method compiles, and
   * the message says what a convention of ad4j decided there.
   */
  public void warning(Tree tree, String message) {
    warnings.add(new Message(tree, unitOf(tree), PREFIX + message));
  }

  /**
   * Records an error about a name that does not resolve: a class or member that another
   * annotation processor may still generate in a later round.
   */
  public void unresolved(Tree tree, String message) {
    error(tree, message);
    unresolvedNames = true;
  }

  /** The number of errors recorded so far. */
  public int errorCount() {
    return errors.size();
  }

  public boolean hasErrors() {
    return !errors.isEmpty();
  }

  /** Whether an error is about a name that may resolve in a later round of processing. */
  public boolean hasUnresolvedNames() {
    return unresolvedNames;
  }

  /** Hands every recorded error, then every warning, to javac, in the order found. */
  public void report() {
    reportAll(List.of(this));
  }

  /**
   * Hands every error, then every warning, of each of {@code reports} to javac, in the order
   * found, each message at each place once: code lowered more than once (a lambda at each of
   * its calls, a method taking a function at each call from each method) records its errors
   * each time.
   */
  public static void reportAll(List<Diagnostics> reports) {
    Set<Message> printed = new HashSet<>();
    for (Diagnostics report : reports) {
      for (Message error : report.errors) {
        if (printed.add(error)) {
          report.trees.printMessage(Diagnostic.Kind.ERROR, error.message(), error.tree(),
              error.unit());
        }
      }
      for (Message warning : report.warnings) {
        if (printed.add(new Message(warning.tree(), warning.unit(),
            "warning: " + warning.message()))) {
          report.trees.printMessage(Diagnostic.Kind.WARNING, warning.message(), warning.tree(),
              warning.unit());
        }
      }
      report.errors.clear();
      report.warnings.clear();
    }
  }
}
