package ad4j.processor.front;

import ad4j.processor.ir.MathOwner;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.Tree;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Resolves the names a method body uses that are not its own locals and parameters: types,
 * fields and methods, following Java's rules in order (members of the enclosing classes, then
 * single imports, then the package, then on-demand imports, then {@code java.lang}).
 *
 * <p>Trees are not attributed while annotation processors run, so this is done here, from the
 * compilation unit's imports and the element model.
 */
final class Symbols {

  /** What an unqualified or qualified call names. */
  sealed interface CallTarget {
    /** A function of {@code java.lang.Math} or {@code java.lang.StrictMath}. */
    record MathFunction(MathOwner owner) implements CallTarget {}

    /** A method of some other class, the user's own included. */
    record OtherMethod(TypeElement owner) implements CallTarget {}

    /**
     * Static imports of several classes supply the name: overload resolution picks the class,
     * as javac does, among the methods of the single imports, then, when none of them
     * applies, among those of the on-demand imports.
     */
    record Imported(List<TypeElement> single, List<TypeElement> onDemand)
        implements CallTarget {}

    /** Nothing of that name is visible. */
    record Unresolved() implements CallTarget {}
  }

  private final Elements elements;
  private final Members members;
  private final TypeElement enclosingType;
  private final CompilationUnitTree unit;
  private final String packageName;

  /** The class declaring the method being lowered. */
  TypeElement enclosingType() {
    return enclosingType;
  }

  Symbols(Elements elements, Types types, TypeElement enclosingType, CompilationUnitTree unit) {
    this.elements = elements;
    this.members = new Members(elements, types);
    this.enclosingType = enclosingType;
    this.unit = unit;
    PackageElement pkg = elements.getPackageOf(enclosingType);
    this.packageName = pkg.isUnnamed() ? "" : pkg.getQualifiedName().toString();
  }

  String packageName() {
    return packageName;
  }

  /** The members of classes, with Java's hiding and overriding. */
  Members members() {
    return members;
  }

  /** The class of a static method or field written as {@code Owner.member}, if {@code Owner} is a type. */
  Optional<TypeElement> resolveType(ExpressionTree name) {
    if (name instanceof IdentifierTree identifier) {
      return resolveSimpleType(identifier.getName().toString());
    }
    if (name instanceof MemberSelectTree select) {
      String member = select.getIdentifier().toString();
      Optional<TypeElement> outer = resolveType(select.getExpression());
      if (outer.isPresent()) {
        return memberType(outer.get(), member);
      }
      return Optional.ofNullable(elements.getTypeElement(select.toString()));
    }
    return Optional.empty();
  }

  /** The type a simple name denotes here. */
  Optional<TypeElement> resolveSimpleType(String name) {
    // a member type of a class shadows that class's own name, declared around it
    for (TypeElement type = enclosingType; type != null; type = enclosingTypeOf(type)) {
      Optional<TypeElement> member = memberType(type, name);
      if (member.isPresent()) {
        return member;
      }
      if (type.getSimpleName().contentEquals(name)) {
        return Optional.of(type);
      }
    }
    for (ImportTree importTree : unit.getImports()) {
      if (!importTree.isStatic() && !isModuleImport(importTree)
          && importTree.getQualifiedIdentifier() instanceof MemberSelectTree s
          && s.getIdentifier().contentEquals(name)) {
        Optional<TypeElement> imported = resolveQualifiedName(s.toString());
        if (imported.isPresent()) {
          return imported;
        }
      }
    }
    TypeElement inPackage = elements.getTypeElement(qualify(packageName, name));
    if (inPackage != null) {
      return Optional.of(inPackage);
    }
    for (ImportTree importTree : unit.getImports()) {
      if (!importTree.isStatic() && !isModuleImport(importTree)
          && importTree.getQualifiedIdentifier() instanceof MemberSelectTree s
          && s.getIdentifier().contentEquals("*")) {
        Optional<TypeElement> imported =
            resolveQualifiedName(s.getExpression().toString() + "." + name);
        if (imported.isPresent()) {
          return imported;
        }
      }
    }
    TypeElement javaLang = elements.getTypeElement("java.lang." + name);
    if (javaLang != null) {
      return Optional.of(javaLang);
    }
    return moduleImported(name);
  }

  /**
   * A type that {@code import module m;} (Java 25) makes visible: public in a package that
   * {@code m}, or a module it requires transitively, exports. These imports shadow nothing.
   */
  private Optional<TypeElement> moduleImported(String name) {
    for (ImportTree importTree : unit.getImports()) {
      if (!isModuleImport(importTree)) {
        continue;
      }
      ModuleElement module =
          elements.getModuleElement(importTree.getQualifiedIdentifier().toString());
      Optional<TypeElement> found = module == null
          ? Optional.empty() : exportedType(module, name, new LinkedHashSet<>());
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private Optional<TypeElement> exportedType(ModuleElement module, String name,
      Set<ModuleElement> seen) {
    if (!seen.add(module)) {
      return Optional.empty();
    }
    for (ModuleElement.Directive directive : module.getDirectives()) {
      if (directive instanceof ModuleElement.ExportsDirective exports
          && exports.getTargetModules() == null) {
        TypeElement type = elements.getTypeElement(module,
            exports.getPackage().getQualifiedName() + "." + name);
        if (type != null && type.getModifiers().contains(Modifier.PUBLIC)) {
          return Optional.of(type);
        }
      }
    }
    for (ModuleElement.Directive directive : module.getDirectives()) {
      if (directive instanceof ModuleElement.RequiresDirective requires
          && requires.isTransitive()) {
        Optional<TypeElement> type = exportedType(requires.getDependency(), name, seen);
        if (type.isPresent()) {
          return type;
        }
      }
    }
    return Optional.empty();
  }

  /**
   * {@code ImportTree.isModule()}, which javac's trees have from Java 23 on: read reflectively,
   * as ad4j is compiled against Java 17, whose imports are never module imports.
   */
  private static final Optional<Method> IS_MODULE = isModuleMethod();

  private static Optional<Method> isModuleMethod() {
    try {
      return Optional.of(ImportTree.class.getMethod("isModule"));
    } catch (NoSuchMethodException java17) {
      return Optional.empty();
    }
  }

  private static boolean isModuleImport(ImportTree importTree) {
    if (IS_MODULE.isEmpty()) {
      return false;
    }
    try {
      return (Boolean) IS_MODULE.get().invoke(importTree);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot ask javac whether an import is a module import",
          e);
    }
  }

  /** Whether {@code Math} written in generated code in this package means {@code java.lang.Math}. */
  boolean packageShadows(String simpleName) {
    return elements.getTypeElement(qualify(packageName, simpleName)) != null;
  }

  /** A field named {@code name} visible without qualification: inherited, outer, or imported. */
  Optional<VariableElement> resolveField(String name) {
    return fieldQualifier(name).flatMap(type -> fieldOf(type, name));
  }

  /**
   * The class whose member the simple name {@code name} of a field means (its qualifying type,
   * JLS 13.1): the innermost enclosing class that declares or inherits a field of that name
   * (JLS 6.4.1: it shadows the fields of classes around it and static imports), else the class
   * a single static import, then an on-demand one, names.
   */
  Optional<TypeElement> fieldQualifier(String name) {
    for (TypeElement type = enclosingType; type != null; type = enclosingTypeOf(type)) {
      if (fieldOf(type, name).isPresent()) {
        return Optional.of(type);
      }
    }
    for (TypeElement owner : staticImportOwners(name, true)) {
      Optional<VariableElement> field = fieldOf(owner, name);
      if (field.isPresent() && StaticMembers.isStatic(field.get())) {
        return Optional.of(owner);
      }
    }
    for (TypeElement owner : staticImportOwners(name, false)) {
      Optional<VariableElement> field = fieldOf(owner, name);
      if (field.isPresent() && StaticMembers.isStatic(field.get())) {
        return Optional.of(owner);
      }
    }
    return Optional.empty();
  }

  /** The field {@code name} that is a member of {@code type}: its own, or an inherited one. */
  Optional<VariableElement> fieldOf(TypeElement type, String name) {
    return members.field(type, name);
  }

  /** What an unqualified call {@code name(...)} calls. A method of the user's class shadows imports. */
  CallTarget resolveUnqualifiedCall(String name) {
    for (TypeElement type = enclosingType; type != null; type = enclosingTypeOf(type)) {
      if (hasMethod(type, name, false)) {
        return new CallTarget.OtherMethod(type);
      }
    }
    List<TypeElement> single = staticImportOwners(name, true).stream()
        .filter(owner -> hasMethod(owner, name, true))
        .toList();
    List<TypeElement> onDemand = staticImportOwners(name, false).stream()
        .filter(owner -> hasMethod(owner, name, true) && !single.contains(owner))
        .toList();
    if (single.size() + onDemand.size() > 1) {
      return new CallTarget.Imported(single, onDemand);
    }
    if (single.size() + onDemand.size() == 1) {
      return targetFor(single.isEmpty() ? onDemand.get(0) : single.get(0));
    }
    return new CallTarget.Unresolved();
  }

  /**
   * The static methods named {@code name} of {@code owners} (classes static imports name), each
   * with the class whose import supplies it.
   */
  java.util.Map<ExecutableElement, TypeElement> importedMethods(List<TypeElement> owners,
      String name) {
    java.util.Map<ExecutableElement, TypeElement> methods = new java.util.LinkedHashMap<>();
    for (TypeElement owner : owners) {
      for (ExecutableElement method : members.methods(owner, name)) {
        if (StaticMembers.isStatic(method)) {
          methods.putIfAbsent(method, owner);
        }
      }
    }
    return methods;
  }

  /** The call target of a method of {@code owner}: a Math function, or another method. */
  CallTarget targetOf(TypeElement owner) {
    return targetFor(owner);
  }

  /** What {@code qualifier.name(...)} calls, when the qualifier is a type. */
  CallTarget resolveQualifiedCall(ExpressionTree qualifier) {
    return resolveType(qualifier).map(this::targetFor).orElse(new CallTarget.Unresolved());
  }

  /** The static methods of {@code java.lang.Math} or {@code StrictMath} with this name. */
  List<ExecutableElement> mathMethods(MathOwner owner, String name) {
    TypeElement type = elements.getTypeElement(owner.qualifiedName());
    return ElementFilter.methodsIn(type.getEnclosedElements()).stream()
        .filter(m -> m.getSimpleName().contentEquals(name))
        .filter(m -> StaticMembers.isStatic(m)
            && m.getModifiers().contains(Modifier.PUBLIC))
        .toList();
  }

  private CallTarget targetFor(TypeElement owner) {
    return MathOwner.named(owner.getQualifiedName().toString())
        .<CallTarget>map(CallTarget.MathFunction::new)
        .orElseGet(() -> new CallTarget.OtherMethod(owner));
  }

  private boolean hasMethod(TypeElement type, String name, boolean staticOnly) {
    return members.methods(type, name).stream()
        .anyMatch(m -> !staticOnly || StaticMembers.isStatic(m));
  }

  /**
   * The types named by static imports that may supply {@code name}: single imports of exactly
   * that member ({@code single}), or on-demand imports ({@code Owner.*}).
   */
  private List<TypeElement> staticImportOwners(String name, boolean single) {
    Set<TypeElement> owners = new LinkedHashSet<>();
    for (ImportTree importTree : unit.getImports()) {
      if (!importTree.isStatic()
          || !(importTree.getQualifiedIdentifier() instanceof MemberSelectTree select)) {
        continue;
      }
      String member = select.getIdentifier().toString();
      boolean matches = single ? member.equals(name) : member.equals("*");
      if (matches) {
        resolveQualifiedName(select.getExpression().toString()).ifPresent(owners::add);
      }
    }
    return new ArrayList<>(owners);
  }

  /** A type by canonical name, also when nested ({@code a.b.Outer.Inner}). */
  private Optional<TypeElement> resolveQualifiedName(String name) {
    TypeElement direct = elements.getTypeElement(name);
    if (direct != null) {
      return Optional.of(direct);
    }
    int dot = name.lastIndexOf('.');
    if (dot < 0) {
      return Optional.empty();
    }
    return resolveQualifiedName(name.substring(0, dot))
        .flatMap(outer -> memberType(outer, name.substring(dot + 1)));
  }

  private Optional<TypeElement> memberType(TypeElement type, String name) {
    return members.memberType(type, name);
  }

  private static TypeElement enclosingTypeOf(TypeElement type) {
    Element enclosing = type.getEnclosingElement();
    while (enclosing != null && !isType(enclosing)) {
      enclosing = enclosing.getEnclosingElement();
    }
    return (TypeElement) enclosing;
  }

  private static boolean isType(Element element) {
    ElementKind kind = element.getKind();
    return kind.isClass() || kind.isInterface();
  }

  private static String qualify(String packageName, String name) {
    return packageName.isEmpty() ? name : packageName + "." + name;
  }

  /**
   * Whether {@code tree} is a plain or dotted name: not {@code this}, {@code super} or a class
   * literal {@code N.class}, which look like names in the syntax tree.
   */
  static boolean isName(Tree tree) {
    if (tree instanceof IdentifierTree identifier) {
      return !identifier.getName().contentEquals("this")
          && !identifier.getName().contentEquals("super");
    }
    return tree instanceof MemberSelectTree select
        && !select.getIdentifier().contentEquals("class") && isName(select.getExpression());
  }
}
