package ad4j.processor.front;

import ad4j.processor.ir.Operand;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;

/**
 * The checks a call of a {@code @Differentiable} method passes before generated code calls the
 * method's derivatives: that generated code can reach the method, that its generated class has
 * the members the call needs, and that no argument's derivatives would be dropped. Each check
 * reports its error at the call and answers whether it rejected the call.
 *
 * <p>Apart from {@link CalleeResolver}, which runs them in the order of their errors, stops at
 * the first that rejects, and then makes the callee.
 */
final class CalleeChecks {
  private final LoweringContext context;

  CalleeChecks(LoweringContext context) {
    this.context = context;
  }

  /**
   * Whether a private callee is one generated code cannot use, after an error: generated code
   * calls the derivatives of a private method of the class being lowered only, from that
   * class's own package, and computes its value for a scalar result only.
   */
  boolean rejectsPrivateCallee(CalleeCall site) {
    ExecutableElement method = site.method();
    if (method.getModifiers().contains(Modifier.PRIVATE) && !site.privateHere()) {
      diagnostics().error(site.tree(), "call to private @Differentiable method '" + site.name()
          + "' of another class: generated code lives in another class and cannot call it; make"
          + " it package-private");
      return true;
    }
    String declaringPackage =
        context.elements().getPackageOf(site.declaring()).getQualifiedName().toString();
    if (site.privateHere()
        && !declaringPackage.equals(context.resolution().ownSymbols().packageName())) {
      // code of a method taking a function, inlined from another package: the derivatives of
      // its class's private method are package-private members of that package's class
      diagnostics().error(site.tree(), "call to private @Differentiable method '" + site.name()
          + "' of '" + site.declaring().getQualifiedName() + "', in the code of a method taking"
          + " a function, inlined into a caller in package '"
          + context.resolution().ownSymbols().packageName() + "': its derivatives are generated"
          + " in package '" + declaringPackage + "', where generated code of the caller's"
          + " package cannot call them; make it public");
      return true;
    }
    if (site.privateHere() && !ActiveParameters.isScalarResult(method.getReturnType())) {
      diagnostics().error(site.tree(), "call to private @Differentiable method '" + site.name()
          + "': ad4j computes the value of a private callee in the generated class for 'double'"
          + " and 'float' results only; make it package-private");
      return true;
    }
    return false;
  }

  /**
   * Whether an instance method is called without an object of its class (its receiver is the
   * first argument, {@link #resolveOnReceiver}) or is private, after an error: generated code
   * calls it on the receiver from another class.
   */
  boolean rejectsInstanceCall(CalleeCall site) {
    if (site.receiver() == 1
        && site.arguments().size() != site.method().getParameters().size() + 1) {
      diagnostics().error(site.tree(), "call to '" + site.shown() + "' is not differentiable:"
          + " @Differentiable method '" + site.qualified() + "' is an instance method; call it"
          + " on an object of '" + site.declaring().getSimpleName() + "'");
      return true;
    }
    if (site.receiver() == 1 && site.method().getModifiers().contains(Modifier.PRIVATE)) {
      diagnostics().error(site.tree(), "call to private @Differentiable instance method '"
          + site.name() + "': generated code lives in another class and cannot call it; make it"
          + " package-private");
      return true;
    }
    return false;
  }

  /** Whether the callee returns what ad4j cannot differentiate, after an error. */
  boolean rejectsResultType(CalleeCall site) {
    TypeMirror returned = site.method().getReturnType();
    if (!ActiveParameters.isScalarResult(returned) && !ActiveParameters.isVectorResult(returned)) {
      diagnostics().error(site.tree(), "call to '" + site.shown() + "' is not differentiable:"
          + " @Differentiable method '" + site.qualified() + "' returns '" + returned + "', and"
          + " ad4j differentiates methods returning 'double', 'float', 'double[]' or 'float[]'"
          + " only");
      return true;
    }
    return false;
  }

  /**
   * Which arguments the callee's members take derivatives of, one flag an argument (the
   * receiver's false: an object carries none, a value record's is flattened later); empty after
   * an error when an argument carrying derivatives meets a {@code @NoDerivative} parameter,
   * which would drop them silently.
   */
  Optional<List<Boolean>> activeArguments(CalleeCall site) {
    int receiver = site.receiver();
    List<Operand> arguments = site.arguments();
    List<Boolean> active = new ArrayList<>();
    if (receiver == 1) {
      if (site.valueReceiver().isEmpty() && arguments.get(0).isActive()) {
        throw new IllegalStateException("an object carries no derivative: " + site.shown());
      }
      active.add(false);
    }
    for (int i = receiver; i < arguments.size(); i++) {
      VariableElement parameter = site.method().getParameters().get(i - receiver);
      active.add(ActiveParameters.isActive(parameter));
      Operand argument = arguments.get(i);
      boolean carries = argument.isActive()
          || argument instanceof Operand.Use use && use.value().isActiveArray();
      if (carries && !active.get(i)) {
        Tree argumentTree = site.tree() instanceof MethodInvocationTree invocation
            ? invocation.getArguments().get(i - receiver) : site.tree();
        String name = parameter.getSimpleName().toString();
        // a parameter of another type (a 'Double', an object) is data without the annotation
        String why = ActiveParameters.isDifferentiableType(parameter.asType())
            ? "which is @NoDerivative and would drop them; remove @NoDerivative from '" + name
                + "'"
            : "of type '" + parameter.asType() + "', which carries no derivative and would drop"
                + " them; declare '" + name + "' as a 'double', a 'float' or an array of them";
        diagnostics().error(site.tree(), "call to '" + site.shown() + "': '"
            + context.source().of(argumentTree) + "' carries derivatives into parameter '"
            + name + "' of '" + site.qualified() + "', " + why
            + ", or pass a value that carries no derivative");
        return Optional.empty();
      }
    }
    return Optional.of(active);
  }

  /**
   * Whether the generated members this call needs do not exist or cannot be called from here,
   * after an error: the callee is unreachable from generated code, its class is not compiled
   * here, it is of order 1 where order 2 is needed, or it has too many parameters for a tangent.
   */
  boolean rejectsMissingMembers(CalleeCall site) {
    ExecutableElement method = site.method();
    String shown = site.shown();
    String qualified = site.qualified();
    // An inherited static method (g of A, called as g or B.g in B extends A): its derivatives
    // are generated in the class that declares it. A private one of this class is computed
    // there too: its generated class holds a copy of it.
    Optional<String> unreachable = site.privateHere() ? Optional.empty()
        : context.javaTypes().memberReachability(method, site.owner());
    if (unreachable.isPresent()) {
      diagnostics().error(site.tree(), "call to '" + shown + "': generated code cannot call it: "
          + unreachable.get());
      return true;
    }
    TypeElement declaring = site.declaring();
    if (!context.calleeServices().hasGradClass(declaring)) {
      diagnostics().error(site.tree(), "call to '" + shown + "': class '"
          + declaring.getQualifiedName() + "' is not among the source files of this compilation"
          + " (javac found it on the source path or class path), so ad4j does not write its"
          + " derivatives here and '" + GradClassNames.gradClassName(context.elements(), declaring)
          + "' does not exist; pass its source file to javac with this one, or compile it with"
          + " ad4j first");
      return true;
    }
    if (context.order() == 2 && DerivativeOrder.of(method) != 2) {
      diagnostics().error(site.tree(), "call to '" + shown + "' from method '"
          + context.methodName() + "', which is @Differentiable(order = 2): '" + qualified
          + "' must be @Differentiable(order = 2) as well, so that ad4j generates the second"
          + " derivatives this call needs");
      return true;
    }
    if (!ParameterSlots.hasTangent(method)) {
      // its generated class has no mTangent, which this method's tangent member would call
      diagnostics().error(site.tree(), "call to '" + shown + "': '" + qualified + "' has too"
          + " many parameters for a tangent member ('" + method.getSimpleName() + "Tangent'"
          + " would take " + ParameterSlots.ofTangent(method) + " parameter slots, more than the"
          + " JVM's limit of " + ParameterSlots.MAX + ", and is not generated), and the"
          + " tangent of '" + context.methodName() + "' would call it; pass the parameters of '"
          + qualified + "' in a 'double[]'");
      return true;
    }
    return false;
  }

  private Diagnostics diagnostics() {
    return context.diagnostics();
  }
}
