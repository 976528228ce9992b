package ad4j.processor.front;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.Trees;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Where names resolve while one method is lowered: in the method's own class, or in the class
 * whose code is lowered in its place (a record's method inlined, a method taking a function of
 * another file), with the imports of that class's own file; the trees of another file read as
 * the method's own; and the instance fields a name means on the method's own object.
 *
 * <p>Apart from {@link LoweringContext} because which class's code is being lowered changes
 * inside the method, and every name, call and message asks it, while the rest of the context
 * is where in the method lowering is.
 */
final class NameResolution {
  private final Elements elements;
  private final Types types;
  private final Trees trees;
  private final CompilationUnitTree unit;
  private final Diagnostics diagnostics;
  private final LocalScopes scopes;
  /** How names resolve: in the method's class, or in the record whose method is inlined. */
  private Symbols symbols;
  /** How names resolve in the method's own class. */
  private final Symbols ownSymbols;
  private final Map<TypeElement, Symbols> symbolsOfTypes = new HashMap<>();

  NameResolution(Elements elements, Types types, Trees trees, CompilationUnitTree unit,
      TypeElement enclosingType, Diagnostics diagnostics, LocalScopes scopes) {
    this.elements = elements;
    this.types = types;
    this.trees = trees;
    this.unit = unit;
    this.diagnostics = diagnostics;
    this.scopes = scopes;
    this.symbols = new Symbols(elements, types, enclosingType, unit);
    this.ownSymbols = symbols;
  }

  /** How names resolve in the method's own class, wherever the lowering is now. */
  Symbols ownSymbols() {
    return ownSymbols;
  }

  /**
   * The instance field {@code name} means without a qualifier in an instance method, when it is
   * one of the method's own object (its class's, declared or inherited), read through the
   * receiver as {@code this.name}: empty in a static method, for a static field, and for a
   * field of an enclosing instance, which the method's class does not hold. A local of that
   * name hiding it is the caller's to rule out.
   */
  Optional<javax.lang.model.element.VariableElement> ownInstanceField(String name) {
    if (scopes.lookUp(Receivers.THIS) == null) {
      return Optional.empty();
    }
    TypeElement own = symbols().enclosingType();
    return symbols().fieldQualifier(name).filter(own::equals)
        .flatMap(type -> symbols().fieldOf(type, name))
        .filter(field -> !StaticMembers.isStatic(field));
  }

  /**
   * Why a field of an enclosing instance cannot be read, for messages ("... of" it): the
   * generated members take the method's own receiver only.
   */
  String enclosingInstance() {
    return "an enclosing instance, which ad4j does not pass to generated code; read it into a"
        + " field of '" + symbols().enclosingType().getSimpleName() + "'";
  }

  Symbols symbols() {
    return symbols;
  }

  /**
   * The field {@code name} names, a simple name ({@code LOG}) or one qualified by a type
   * ({@code Rules.STANDARD}), when no local hides it: the receiver of a call of a method of an
   * object a field holds, or of a function a field holds.
   */
  Optional<VariableElement> fieldNamed(ExpressionTree name) {
    if (name instanceof IdentifierTree identifier) {
      String simple = identifier.getName().toString();
      return scopes.lookUp(simple) != null ? Optional.empty() : symbols.resolveField(simple);
    }
    if (name instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && !(select.getExpression() instanceof IdentifierTree first
            && scopes.lookUp(first.getName().toString()) != null)) {
      return symbols.resolveType(select.getExpression())
          .flatMap(owner -> symbols.fieldOf(owner, select.getIdentifier().toString()));
    }
    return Optional.empty();
  }

  /**
   * Makes names resolve as in {@code type}'s code (a record's method inlined into the method:
   * its unqualified names are the record's, not the caller's class's); returns what to give
   * {@link #resolveAs} back after it.
   */
  Symbols resolveIn(TypeElement type) {
    Symbols outer = symbols;
    symbols = symbolsIn(type);
    return outer;
  }

  /** How names resolve in {@code type}'s code: with the imports of its own file. */
  Symbols symbolsIn(TypeElement type) {
    return symbolsOfTypes.computeIfAbsent(type, t -> new Symbols(elements, types, t,
        homeOf(t).orElse(unit)));
  }

  /** The file of this compilation that declares {@code element}; empty for a class file's. */
  Optional<CompilationUnitTree> homeOf(javax.lang.model.element.Element element) {
    com.sun.source.util.TreePath path = trees.getPath(element);
    return path == null ? Optional.empty() : Optional.of(path.getCompilationUnit());
  }

  /**
   * Reads {@code tree}, of file {@code home} of this compilation, as the method's code reads its
   * own trees: its text, lines and the messages about it are those of its own file.
   */
  void adopt(Tree tree, CompilationUnitTree home) {
    diagnostics.adopt(tree, home);
  }

  /**
   * The path to {@code tree} in its own file: the method's, or the one it was {@link #adopt
   * adopted} from (the code of a method taking a function, of another file).
   */
  com.sun.source.util.TreePath pathIn(Tree tree) {
    return trees.getPath(diagnostics.unitOf(tree), tree);
  }

  /** Makes names resolve as {@code previous} resolved them ({@link #resolveIn}). */
  void resolveAs(Symbols previous) {
    symbols = previous;
  }
}
