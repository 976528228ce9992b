package ad4j.processor;

import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * What each generated class was made from in other files, listed in the class output
 * ({@value #RESOURCE}) for later compilations into it: the declarations of other source files
 * that ad4j read to write the class, each with a digest of its text then.
 *
 * <p>A generated class follows code of other files: a value record's accessors and constructor,
 * the body of a called method, a field's initializer. A build that compiles only the files that
 * changed (IntelliJ's own builder) compiles such a file alone when only its body changed, and
 * the generated class, not made again, went on following the old code: a record accessor written
 * out as {@code 2 * x} left {@code ModelGrad}'s gradient at that of {@code x}. With this list,
 * such a compilation finds that a declaration read for a class it does not generate again has
 * changed, and says so ({@link ChangedReadCodeProcessor}). A declaration that a later
 * compilation of the generated class's file has only in a class file keeps its listing.
 */
final class CodeReadIndex {
  /** Where the list is, relative to the class output. */
  static final String RESOURCE = "META-INF/ad4j/code-read";

  /**
   * One declaration read: the generated class, the top-level class whose source it was
   * generated from, the top-level class declaring what was read, its name
   * ({@link DeclarationDigests#name}) and the digest of its text.
   */
  record Entry(String generated, String origin, String readClass, String read, String digest) {
    private static final int FIELDS = 5;

    String line() {
      return String.join("\t", generated, origin, readClass, read, digest);
    }

    /** The entry a line of the list holds; none for a line this version did not write. */
    static Optional<Entry> parse(String line) {
      String[] fields = line.split("\t", -1);
      if (fields.length != FIELDS || Arrays.stream(fields).anyMatch(String::isBlank)) {
        return Optional.empty();
      }
      return Optional.of(new Entry(fields[0], fields[1], fields[2], fields[3], fields[4]));
    }
  }

  private final Filer filer;
  private List<Entry> earlier;
  /** The entries of the classes this compilation generated. */
  private final List<Entry> made = new ArrayList<>();

  CodeReadIndex(Filer filer) {
    this.filer = filer;
  }

  /** The list an earlier compilation wrote into the class output: empty if there is none. */
  List<Entry> earlier() {
    if (earlier == null) {
      earlier = new ArrayList<>();
      for (String line : ClassOutputLists.read(filer, RESOURCE)) {
        Entry.parse(line).ifPresent(earlier::add);
      }
    }
    return earlier;
  }

  /**
   * Lists what {@code generated}, written for {@code type}, was made from: the declarations
   * {@code read} (as {@link RecordingTrees} noted them) that are in other source files than
   * {@code type}'s. Those in its own file are compiled with it whenever it changes. A
   * declaration of a class that this compilation has only as a class file (not a source here:
   * {@code compiled} tells, by top-level class) keeps the digest an earlier compilation listed
   * for this generated class: what was made from it came from its generated class, compiled
   * from the source that digest is of, or a compilation of that source since would have been
   * the error.
   */
  void generated(String generated, TypeElement type, Set<Element> read, Trees trees,
      DeclarationDigests digests, Predicate<String> compiled) {
    TreePath own = trees.getPath(type);
    if (own == null) {
      return;
    }
    String origin = SourceFileReader.topLevelType(type).getQualifiedName().toString();
    Map<String, String> listedBefore = new HashMap<>();
    for (Entry entry : earlier()) {
      if (entry.generated().equals(generated)) {
        listedBefore.put(entry.read(), entry.digest());
      }
    }
    Set<String> listed = new HashSet<>();
    for (Element element : read) {
      Element declaration = DeclarationDigests.named(element);
      TypeElement declaring = declaration == null ? null
          : SourceFileReader.topLevelType(declaration);
      if (declaring == null) {
        continue;
      }
      TreePath path = trees.getPath(declaration);
      if (path != null && path.getCompilationUnit() == own.getCompilationUnit()) {
        continue;
      }
      String name = digests.name(declaration);
      Optional<String> digest = path != null ? digests.digest(declaration)
          : compiled.test(declaring.getQualifiedName().toString()) ? Optional.empty()
              : Optional.ofNullable(listedBefore.get(name));
      if (digest.isPresent() && listed.add(name)) {
        made.add(new Entry(generated, origin, declaring.getQualifiedName().toString(), name,
            digest.get()));
      }
    }
  }

  /**
   * Writes the list for the next compilation: the earlier entries of the classes this one did
   * not compile ({@code compiled} tells, by the top-level class they were generated from), and
   * this compilation's.
   */
  void write(Predicate<String> compiled) {
    List<Entry> kept = new ArrayList<>();
    for (Entry entry : earlier()) {
      if (!compiled.test(entry.origin())) {
        kept.add(entry);
      }
    }
    if (made.isEmpty() && earlier().isEmpty()) {
      return;
    }
    kept.addAll(made);
    ClassOutputLists.write(filer, RESOURCE, kept.stream().map(Entry::line).toList());
  }
}
