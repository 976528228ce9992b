package ad4j.processor;

import ad4j.processor.front.ClassFiles;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.annotation.processing.Filer;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.JavaFileManager;
import javax.tools.StandardLocation;

/**
 * Class files read through the {@link Filer} from the compilation's class path (or, for a type
 * of a named module, its module path), as the compiler found the types. Each is read once per
 * processor. A compiler whose filer cannot read that location answers nothing, and ad4j then
 * treats what it would have read as unknown.
 */
final class ClassPathClassFiles implements ClassFiles {
  private final Filer filer;
  private final Elements elements;
  private final Map<String, Optional<byte[]>> read = new HashMap<>();

  ClassPathClassFiles(Filer filer, Elements elements) {
    this.filer = filer;
    this.elements = elements;
  }

  @Override
  public Optional<byte[]> read(TypeElement type) {
    String binaryName = elements.getBinaryName(type).toString();
    return read.computeIfAbsent(binaryName, name -> find(type, name));
  }

  private Optional<byte[]> find(TypeElement type, String binaryName) {
    PackageElement pkg = elements.getPackageOf(type);
    String packageName = pkg.getQualifiedName().toString();
    String file = (packageName.isEmpty() ? binaryName
        : binaryName.substring(packageName.length() + 1)) + ".class";
    ModuleElement module = elements.getModuleOf(type);
    if (module != null && !module.isUnnamed()) {
      Optional<byte[]> inModule = bytes(StandardLocation.MODULE_PATH,
          module.getQualifiedName() + "/" + packageName, file);
      if (inModule.isPresent()) {
        return inModule;
      }
    }
    return bytes(StandardLocation.CLASS_PATH, packageName, file);
  }

  private Optional<byte[]> bytes(JavaFileManager.Location location, String packageName,
      String file) {
    try {
      FileObject object = filer.getResource(location, packageName, file);
      try (InputStream in = object.openInputStream()) {
        return Optional.of(in.readAllBytes());
      }
    } catch (IOException | RuntimeException unavailable) {
      // not on that path, or a filer that reads only its own locations
      return Optional.empty();
    }
  }
}
