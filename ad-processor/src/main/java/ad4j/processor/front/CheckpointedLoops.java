package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * {@code @ad4j.Checkpointed}: reads how many snapshots a method's loops may hold, and checks
 * that the loops it applies to (those outside loops) can be computed again from a snapshot of
 * their state. Errors are at the loop (or at the annotation, for the annotation itself).
 */
final class CheckpointedLoops {
  /** What a checkpoint holds, as the errors say it (the types of {@link #STATE_TYPES}). */
  private static final String STATE_RULE = "the state a checkpoint holds must be variables of"
      + " type double, float, int, long or boolean";
  private static final String ANNOTATION = "ad4j.Checkpointed";
  private static final String ELEMENT = "snapshots";
  private static final int DEFAULT_SNAPSHOTS = 1024;
  private static final Set<NumericType> STATE_TYPES = Set.of(NumericType.DOUBLE,
      NumericType.FLOAT, NumericType.INT, NumericType.LONG, NumericType.BOOLEAN);

  /** The names of the calls that end the stream pipelines ad4j lowers as loops. */
  private static final Set<String> STREAM_TERMINALS =
      Set.of("sum", "average", "reduce", "max", "min");

  private final String method;
  private final Tree annotation;
  private final Map<Long, Tree> loopsByLine = new HashMap<>();
  /**
   * The stream pipelines' terminal calls ({@code sum()}, {@code reduce(...)}, ...) by line: ad4j
   * lowers a pipeline as a loop, which has no loop tree to report at.
   */
  private final Map<Long, Tree> streamsByLine = new HashMap<>();
  private final Diagnostics diagnostics;
  /** What the lowering learnt of the calls run as written: which read their arguments only. */
  private final LaunderedDependence dependences;
  /** How the user's code writes a variable (a record local's leaf: {@code r.name()}). */
  private final FlatRecords records;

  private CheckpointedLoops(String method, Tree annotation, MethodTree tree, SourceText source,
      LaunderedDependence dependences, FlatRecords records, Diagnostics diagnostics) {
    this.method = method;
    this.records = records;
    this.annotation = annotation;
    this.dependences = dependences;
    this.diagnostics = diagnostics;
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitForLoop(ForLoopTree loop, Void unused) {
        loopsByLine.putIfAbsent(source.line(loop), loop);
        return super.visitForLoop(loop, unused);
      }

      @Override
      public Void visitEnhancedForLoop(EnhancedForLoopTree loop, Void unused) {
        loopsByLine.putIfAbsent(source.line(loop), loop);
        return super.visitEnhancedForLoop(loop, unused);
      }

      @Override
      public Void visitWhileLoop(WhileLoopTree loop, Void unused) {
        loopsByLine.putIfAbsent(source.line(loop), loop);
        return super.visitWhileLoop(loop, unused);
      }

      @Override
      public Void visitDoWhileLoop(DoWhileLoopTree loop, Void unused) {
        loopsByLine.putIfAbsent(source.line(loop), loop);
        return super.visitDoWhileLoop(loop, unused);
      }

      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        if (call.getMethodSelect() instanceof MemberSelectTree select
            && STREAM_TERMINALS.contains(select.getIdentifier().toString())
            && select.getExpression() instanceof MethodInvocationTree) {
          streamsByLine.putIfAbsent(source.line(call), call);
        }
        return super.visitMethodInvocation(call, unused);
      }
    }.scan(tree.getBody(), null);
  }

  /**
   * The snapshots {@code element}'s {@code @Checkpointed} asks for, rounded down to an even
   * number; 0 when the method has no such annotation, or when it is not supported for the
   * method's {@code body} (an error is then recorded in {@code diagnostics}).
   */
  static int snapshots(ExecutableElement element, MethodTree tree, int order, Block body,
      SourceText source, LaunderedDependence dependences, FlatRecords records,
      Diagnostics diagnostics) {
    Integer asked = asked(element);
    if (asked == null) {
      return 0;
    }
    String name = element.getSimpleName().toString();
    Tree at = annotationTree(tree);
    int errors = diagnostics.errorCount();
    if (asked < 2) {
      diagnostics.error(at, "@Checkpointed(snapshots = " + asked + ") on method '" + name
          + "' is not supported: a checkpointed loop needs at least 2 snapshots");
    }
    if (order == 2) {
      diagnostics.error(at, "@Checkpointed on method '" + name + "' is not supported together"
          + " with @Differentiable(order = 2): checkpointing applies to first derivatives only");
    }
    CheckpointedLoops checks = new CheckpointedLoops(name, at, tree, source, dependences,
        records, diagnostics);
    if (!checks.checkLoops(body)) {
      diagnostics.error(at, "@Checkpointed on method '" + name + "' has no effect: the method"
          + " has no loop; remove the annotation");
    } else if (diagnostics.errorCount() == errors) {
      CheckpointedReturnedArrays.check(tree, body, source, diagnostics);
    }
    return diagnostics.errorCount() > errors ? 0 : asked / 2 * 2;
  }

  /** Whether {@code element} is marked {@code @Checkpointed}. */
  static boolean isCheckpointed(ExecutableElement element) {
    return asked(element) != null;
  }

  /** The element's value, its default when not written, or null without the annotation. */
  private static Integer asked(ExecutableElement element) {
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      TypeElement type = (TypeElement) mirror.getAnnotationType().asElement();
      if (!type.getQualifiedName().contentEquals(ANNOTATION)) {
        continue;
      }
      for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry
          : mirror.getElementValues().entrySet()) {
        if (entry.getKey().getSimpleName().contentEquals(ELEMENT)
            && entry.getValue().getValue() instanceof Integer snapshots) {
          return snapshots;
        }
      }
      return DEFAULT_SNAPSHOTS;
    }
    return null;
  }

  private static Tree annotationTree(MethodTree tree) {
    for (AnnotationTree annotation : tree.getModifiers().getAnnotations()) {
      Tree type = annotation.getAnnotationType();
      String simple = type instanceof IdentifierTree identifier ? identifier.getName().toString()
          : type instanceof MemberSelectTree select ? select.getIdentifier().toString() : "";
      if (simple.equals("Checkpointed")) {
        return annotation;
      }
    }
    return tree;
  }

  /**
   * Checks each loop of the user's outside loops in {@code block} (not the loops that copy or
   * fill arrays for a library call, which are not checkpointed); returns whether there was one.
   */
  private boolean checkLoops(Block block) {
    return checkLoops(block, block);
  }

  private boolean checkLoops(Block block, Block whole) {
    boolean found = false;
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch) {
        found |= checkLoops(branch.thenBlock(), whole);
        found |= checkLoops(branch.elseBlock(), whole);
      } else if (statement instanceof Loop loop && loop.kind() == Loop.Kind.WRITTEN) {
        found = true;
        check(loop, whole);
      }
    }
    return found;
  }

  private void check(Loop loop, Block whole) {
    Tree at = treeOf(loop.line() == null ? -1 : loop.line().number());
    String prefix = "loop of method '" + method + "' cannot be checkpointed (@Checkpointed): ";
    Variable assignedByCondition = assignedOutside(loop.condition());
    if (assignedByCondition != null) {
      diagnostics.error(at, prefix + "its condition assigns '"
          + records.sourceOf(assignedByCondition) + "'; assign it in the body or the update");
      return;
    }
    for (Variable variable : loop.carriedVariables()) {
      if (!STATE_TYPES.contains(variable.type())) {
        diagnostics.error(at, prefix + "it assigns '" + records.sourceOf(variable)
            + "' of type '" + variable.javaType() + "', declared before it; " + STATE_RULE);
        return;
      }
    }
    for (Variable variable : loop.readVariablesAssignedAfter(whole)) {
      if (!STATE_TYPES.contains(variable.type())) {
        diagnostics.error(at, prefix + "it reads '" + records.sourceOf(variable)
            + "' of type '" + variable.javaType() + "', which the method assigns after it, and the reverse"
            + " sweep computes its iterations again after that; " + STATE_RULE);
        return;
      }
    }
    List<String> problems = new ArrayList<>();
    for (Block block : List.of(loop.condition(), loop.body(), loop.update())) {
      findProblems(block, at, problems);
    }
    if (!problems.isEmpty()) {
      diagnostics.error(at, prefix + problems.get(0));
    }
  }

  /**
   * The first variable that {@code condition} assigns and does not declare, also where it
   * assigns it only sometimes (after {@code &&}, in a branch of {@code ?:}): the reverse sweep
   * computes iterations anew from snapshots taken after the condition ran, without running it
   * between them. The variable that holds an {@code &&}'s or a {@code ?:}'s result is declared
   * in the condition itself.
   */
  private static Variable assignedOutside(Block condition) {
    Set<Variable> declared = new java.util.HashSet<>();
    List<Variable> assigned = new ArrayList<>();
    collectAssignments(condition, declared, assigned);
    for (Variable variable : assigned) {
      if (!declared.contains(variable)) {
        return variable;
      }
    }
    return null;
  }

  private static void collectAssignments(Block block, Set<Variable> declared,
      List<Variable> assigned) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Declare declare) {
        declared.add(declare.variable());
      } else if (statement instanceof Store store) {
        assigned.add(store.variable());
      }
      for (Block nested : statement.nestedBlocks()) {
        collectAssignments(nested, declared, assigned);
      }
    }
  }

  /** The problems of {@code block}, a part of the checkpointed loop at {@code outer}. */
  private void findProblems(Block block, Tree outer, List<String> problems) {
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch) {
        findProblems(branch.thenBlock(), outer, problems);
        findProblems(branch.elseBlock(), outer, problems);
      } else if (statement instanceof Loop inner && inner.kind() == Loop.Kind.GENERATED) {
        // a library call's copy or fill, written out element by element
        problems.add("it makes or writes an array" + (inner.line() == null ? ""
            : " (line " + inner.line().number() + ")") + "; " + STATE_RULE);
      } else if (statement instanceof Loop inner) {
        // reported at the inner loop, where the user would change the code
        long line = inner.line() == null ? -1 : inner.line().number();
        Tree stream = loopsByLine.containsKey(line) ? null : streamsByLine.get(line);
        if (stream != null) {
          diagnostics.error(stream, "stream inside a checkpointed loop of method '" + method
              + "' is not supported (@Checkpointed): ad4j lowers a stream as a loop, and"
              + " checkpoints loops that hold no loop; move the stream into a @Differentiable"
              + " method that the outer loop calls");
          continue;
        }
        if (line >= 0 && !loopsByLine.containsKey(line)) {
          // not the method's own loop: the body of a callee inlined at its call in the loop
          diagnostics.error(outer, "loop inside a checkpointed loop of method '" + method
              + "' is not supported (@Checkpointed): this loop calls a method that takes a"
              + " function, which ad4j differentiates where it is called, and that method has a"
              + " loop (line " + line + " of its source); call it outside this loop, or leave"
              + " this loop without @Checkpointed");
          continue;
        }
        diagnostics.error(treeOf(line),
            "loop inside a checkpointed loop of method '" + method + "' is not supported"
                + " (@Checkpointed): move it into a @Differentiable method that the outer loop"
                + " calls");
      } else if (statement instanceof Instruction instruction) {
        Operation.Form form = instruction.operation().form();
        String line = instruction.line() == null ? "" : " (line " + instruction.line().number()
            + ")";
        if (form == Operation.Form.PLAIN_CALL
            && (instruction.operation().plain() == Operation.Plain.FIELD_READ
                || instruction.operation().plain() == Operation.Plain.HANDLE_READ)) {
          // a field is state of the program, not of the loop: code that runs between the
          // forward and the reverse sweep (a caller's, another thread's) may change it
          problems.add("it reads the field '" + instruction.operation().name() + "'" + line
              + ", which the reverse sweep would read again when it computes iterations anew,"
              + " when it may hold another value; read it into a local variable before the"
              + " loop");
        } else if (form == Operation.Form.PLAIN_CALL && !sameEachTime(instruction)
            && !readsNumbersOnly(instruction)) {
          problems.add("it calls '" + instruction.operation().name() + "'" + line
              + ", which is not @Differentiable and would run again when the reverse sweep"
              + " computes iterations anew");
        } else if (form == Operation.Form.RULED_CALL
            && !instruction.operation().ruled().partials().isEmpty() && onObject(instruction)) {
          problems.add("it calls '" + instruction.operation().name() + "'" + line + " on an"
              + " object, with @DerivativeOf rules: computing iterations anew, the reverse sweep"
              + " would call it and its rules with the object as the code after the loop left"
              + " it, not as the loop saw it; call it outside the loop");
        } else if (form == Operation.Form.RULED_CALL
            && instruction.operation().ruled().partials().isEmpty()) {
          continue; // a rule's partials, made and read again in the same iteration (its call,
                    // after it, is checked)
        } else if (form.callsDifferentiated() && instruction.operation().callee() != null
            && instruction.operation().callee().resultLeaves() != null) {
          problems.add("it calls '" + instruction.operation().callee().name() + "'" + line
              + ", which returns a value record, handed back as an array of its components,"
              + " and " + STATE_RULE + "; a method whose body is local declarations and a"
              + " final 'return' is inlined instead, or leave this loop without @Checkpointed");
        } else if (form == Operation.Form.STORE || form.makesArray()
            || instruction.result().type().isArray() && form.callsDifferentiated()) {
          problems.add("it makes or writes an array" + line + "; " + STATE_RULE);
        }
      }
    }
  }

  /**
   * Whether {@code call}, run as written, gives the same result each time from the same
   * arguments and changes nothing, so that computing iterations anew may run it again: the
   * test of an {@code assert} (the class's assertion status, asked once per class), the
   * null check and the comparisons of a {@code switch} on a string or an enum
   * ({@code Objects.requireNonNull(selector)}, {@code selector.equals("case")}; a string is
   * immutable, and an object the loop assigns is no state a snapshot holds, an error of its
   * own); a type test and a pattern's binding ({@code o instanceof Circle c}: an object's class
   * never changes).
   */
  private static boolean sameEachTime(Instruction call) {
    Operation operation = call.operation();
    if (operation.testsType()) {
      return true;
    }
    if (operation.plain() == Operation.Plain.STATIC_CALL) {
      return operation.name().equals("java.util.Objects.requireNonNull")
          && call.arguments().size() == 1
          || operation.name().equals("ad4j.runtime.internal.Assertions.enabled");
    }
    return operation.plain() == Operation.Plain.INSTANCE_CALL
        && operation.name().equals("equals") && call.arguments().size() == 2
        && call.arguments().get(0).type() == NumericType.STRING;
  }

  /**
   * Whether {@code call}, run as written, reads nothing but its arguments, keeps none of them,
   * and neither takes nor returns an array or an object but for an instance call's receiver:
   * a function of {@code Math}, {@code Integer} and the like ({@code Math.floorMod(k, 7)},
   * {@code Integer.bitCount(k)}), an argument-only static method of the sources, the unboxing
   * of a {@code Double} parameter (a box, like a string, never changes). Computing an
   * iteration anew runs it on the same arguments, and it gives the same result. An array it
   * reads could have been written since the loop ran, and an object is no part of a snapshot.
   */
  private boolean readsNumbersOnly(Instruction call) {
    if (!dependences.readsArgumentsOnly(call.result())
        || call.result().type().isArray() || call.result().type() == NumericType.OBJECT) {
      return false;
    }
    boolean instance = call.operation().plain() == Operation.Plain.INSTANCE_CALL;
    for (int i = 0; i < call.arguments().size(); i++) {
      NumericType type = call.arguments().get(i).type();
      if (type.isArray() || type == NumericType.OBJECT && !(instance && i == 0)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a call with {@code @DerivativeOf} rules takes an object: a
   * receiver (an argument, or a {@code static final} field its rules take first) or an object
   * argument. Objects are no part of a snapshot, and may have changed when iterations are
   * computed again.
   */
  private static boolean onObject(Instruction call) {
    ad4j.processor.ir.RuledCallee ruled = call.operation().ruled();
    return ruled.onFirstArgument() || ruled.leadingArgument() != null
        || ruled.partials().values().stream().anyMatch(rule -> rule.leadingArgument() != null)
        || call.arguments().stream().anyMatch(argument -> argument.type() == NumericType.OBJECT);
  }

  private Tree treeOf(long line) {
    Tree tree = loopsByLine.get(line);
    return tree != null ? tree : annotation;
  }
}
