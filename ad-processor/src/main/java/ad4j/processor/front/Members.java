package ad4j.processor.front;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The members of a class as Java defines them: those it declares, and those it inherits from
 * its superclass and superinterfaces that it does not hide or override (JLS 8.2, 8.3, 8.4.8,
 * 8.5, 9.2). {@link Elements#getAllMembers} is no substitute: it lists a hidden field or static
 * method beside the one hiding it, in no order that tells which one a name means.
 */
final class Members {
  private final Elements elements;
  private final Types types;

  Members(Elements elements, Types types) {
    this.elements = elements;
    this.types = types;
  }

  /**
   * The field named {@code name} that is a member of {@code type}: its own, else the one it
   * inherits (a field a class declares hides every inherited field of that name, JLS 8.3).
   */
  Optional<VariableElement> field(TypeElement type, String name) {
    for (VariableElement field : ElementFilter.fieldsIn(type.getEnclosedElements())) {
      if (field.getSimpleName().contentEquals(name)) {
        return Optional.of(field);
      }
    }
    for (TypeElement supertype : directSupertypes(type)) {
      Optional<VariableElement> inherited = field(supertype, name);
      if (inherited.isPresent() && isInherited(inherited.get(), type)) {
        return inherited;
      }
    }
    return Optional.empty();
  }

  /** The member class or interface named {@code name} of {@code type} (JLS 8.5). */
  Optional<TypeElement> memberType(TypeElement type, String name) {
    for (TypeElement member : ElementFilter.typesIn(type.getEnclosedElements())) {
      if (member.getSimpleName().contentEquals(name)) {
        return Optional.of(member);
      }
    }
    for (TypeElement supertype : directSupertypes(type)) {
      Optional<TypeElement> inherited = memberType(supertype, name);
      if (inherited.isPresent() && isInherited(inherited.get(), type)) {
        return inherited;
      }
    }
    return Optional.empty();
  }

  /**
   * The methods named {@code name} that are members of {@code type}: its own, and those it
   * inherits that no method of a subclass on the way overrides or hides (JLS 8.4.8). Static
   * methods of interfaces are not inherited.
   */
  List<ExecutableElement> methods(TypeElement type, String name) {
    List<ExecutableElement> members = new ArrayList<>();
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (method.getSimpleName().contentEquals(name)) {
        members.add(method);
      }
    }
    int declared = members.size();
    for (TypeElement supertype : directSupertypes(type)) {
      for (ExecutableElement inherited : methods(supertype, name)) {
        boolean staticOfInterface = StaticMembers.isStatic(inherited)
            && inherited.getEnclosingElement().getKind().isInterface();
        if (staticOfInterface || !isInherited(inherited, type) || members.contains(inherited)
            || overriddenIn(members.subList(0, declared), inherited)) {
          continue;
        }
        members.add(inherited);
      }
    }
    return members;
  }

  /** Whether {@code type} has a member method named {@code name}. */
  boolean hasMethod(TypeElement type, String name) {
    return !methods(type, name).isEmpty();
  }

  /** Whether one of {@code own} has the signature of {@code inherited} (erased parameters). */
  private boolean overriddenIn(List<ExecutableElement> own, ExecutableElement inherited) {
    for (ExecutableElement method : own) {
      if (sameErasedParameters(method, inherited)) {
        return true;
      }
    }
    return false;
  }

  private boolean sameErasedParameters(ExecutableElement a, ExecutableElement b) {
    if (a.getParameters().size() != b.getParameters().size()) {
      return false;
    }
    for (int i = 0; i < a.getParameters().size(); i++) {
      if (!types.isSameType(types.erasure(a.getParameters().get(i).asType()),
          types.erasure(b.getParameters().get(i).asType()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code member} of a supertype is inherited by {@code type}: not private, and not
   * package-private in another package (JLS 8.2).
   */
  private boolean isInherited(Element member, TypeElement type) {
    if (member.getModifiers().contains(Modifier.PRIVATE)) {
      return false;
    }
    if (member.getModifiers().contains(Modifier.PUBLIC)) {
      return true;
    }
    if (type.getKind().isInterface()) {
      return false; // of Object, an interface has the public methods only
    }
    if (member.getModifiers().contains(Modifier.PROTECTED)
        || member.getEnclosingElement().getKind().isInterface()) {
      return true;
    }
    return elements.getPackageOf(member).equals(elements.getPackageOf(type));
  }

  /** The superclass first, then the superinterfaces in declaration order. */
  private List<TypeElement> directSupertypes(TypeElement type) {
    List<TypeElement> supertypes = new ArrayList<>();
    addElement(type.getSuperclass(), supertypes);
    for (TypeMirror itf : type.getInterfaces()) {
      addElement(itf, supertypes);
    }
    if (type.getKind() == ElementKind.INTERFACE && type.getInterfaces().isEmpty()) {
      // an interface without superinterfaces has the public methods of Object (JLS 9.2)
      TypeElement object = elements.getTypeElement("java.lang.Object");
      if (object != null && !object.equals(type)) {
        supertypes.add(object);
      }
    }
    return supertypes;
  }

  private static void addElement(TypeMirror type, List<TypeElement> into) {
    if (type.getKind() == TypeKind.DECLARED) {
      into.add((TypeElement) ((DeclaredType) type).asElement());
    }
  }
}
