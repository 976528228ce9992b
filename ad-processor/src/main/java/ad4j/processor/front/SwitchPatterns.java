package ad4j.processor.front;

import com.sun.source.tree.BindingPatternTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.util.TreeScanner;
import java.util.List;

/**
 * The labels of a {@code switch} that ad4j does not lower: patterns ({@code case String t when
 * t.length() > 3}, {@code case Circle c}, record patterns) and {@code case null}, which Java
 * 21 added. Each is an error at its case. Such a case would otherwise be taken for
 * {@code default} (its label has no constant, as {@code default}'s has none), and its guard
 * ignored: the generated members would take another branch than the method.
 */
final class SwitchPatterns {
  private SwitchPatterns() {}

  /**
   * Reports an error at each case of {@code cases}, of a switch on {@code selector}, with a
   * pattern or {@code null} label, and makes the pattern's variables known so that their uses
   * add no errors of their own; returns whether it reported any.
   */
  static boolean rejected(ExpressionTree selector, List<? extends CaseTree> cases,
      LoweringContext context) {
    boolean rejected = false;
    for (CaseTree c : cases) {
      String text = context.source().of(c);
      boolean isNull = c.getExpressions().stream().anyMatch(ExpressionLowering::isNull);
      // no constant, and not 'default': a pattern (its guard, if any, is part of the case)
      boolean isPattern = c.getExpressions().isEmpty() && !text.startsWith("default");
      if (isNull) {
        context.diagnostics().error(c, "'case null' is not supported: ad4j's 'switch' throws"
            + " NullPointerException for a null selector, as a 'switch' without 'case null'"
            + " does; test it with 'if ("
            + context.source().of(ExpressionLowering.withoutParentheses(selector))
            + " == null)' before"
            + " the 'switch'");
        rejected = true;
      } else if (isPattern) {
        context.diagnostics().error(c, "a 'case' with a pattern ('" + label(text) + "') is not"
            + " supported: ad4j's 'switch' takes constants of an 'int', 'char', 'short',"
            + " 'byte', enum or 'String' selector, and 'default'; choose with 'if' and the"
            + " value's methods instead");
        new TreeScanner<Void, Void>() {
          @Override
          public Void visitBindingPattern(BindingPatternTree pattern, Void unused) {
            context.scopes().declareBroken(pattern.getVariable().getName().toString());
            return super.visitBindingPattern(pattern, unused);
          }
        }.scan(c, null);
        rejected = true;
      }
    }
    return rejected;
  }

  /** The case's label as written, up to its arrow or colon: {@code case String t when ...}. */
  private static String label(String caseText) {
    int arrow = caseText.indexOf("->");
    int colon = caseText.indexOf(':');
    int end = arrow < 0 ? colon : colon < 0 ? arrow : Math.min(arrow, colon);
    return (end < 0 ? caseText : caseText.substring(0, end)).strip();
  }
}
