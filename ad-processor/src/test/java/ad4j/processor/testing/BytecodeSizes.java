package ad4j.processor.testing;

import com.google.testing.compile.Compilation;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.tools.JavaFileObject;

/**
 * The bytecode length of each method of a class file, read from its {@code Code} attributes
 * (JVMS 4.7.3): what HotSpot compares with its 8000-byte limit for compiling a method.
 */
public final class BytecodeSizes {
  private BytecodeSizes() {}

  /**
   * As {@link #of(byte[])}, for the class file a compilation wrote at {@code path}
   * ({@code com/example/FooGrad.class}).
   */
  public static Map<String, Integer> of(Compilation compilation, String path) {
    JavaFileObject file = compilation.generatedFiles().stream()
        .filter(f -> f.toUri().getPath().endsWith(path))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no class file " + path));
    try (InputStream in = file.openInputStream()) {
      return of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Method name and descriptor to code length, in declaration order. */
  public static Map<String, Integer> of(byte[] classFile) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
      in.readInt(); // magic
      in.readUnsignedShort(); // minor
      in.readUnsignedShort(); // major
      String[] utf8 = readConstantPool(in);
      in.readUnsignedShort(); // access flags
      in.readUnsignedShort(); // this class
      in.readUnsignedShort(); // super class
      skip(in, 2 * in.readUnsignedShort()); // interfaces
      int fields = in.readUnsignedShort();
      for (int i = 0; i < fields; i++) {
        skip(in, 6);
        skipAttributes(in);
      }
      Map<String, Integer> sizes = new LinkedHashMap<>();
      int methods = in.readUnsignedShort();
      for (int i = 0; i < methods; i++) {
        in.readUnsignedShort(); // access flags
        String name = utf8[in.readUnsignedShort()] + utf8[in.readUnsignedShort()];
        int attributes = in.readUnsignedShort();
        for (int a = 0; a < attributes; a++) {
          String attribute = utf8[in.readUnsignedShort()];
          int length = in.readInt();
          if (attribute.equals("Code")) {
            in.readUnsignedShort(); // max stack
            in.readUnsignedShort(); // max locals
            int codeLength = in.readInt();
            sizes.put(name, codeLength);
            skip(in, length - 8);
          } else {
            skip(in, length);
          }
        }
      }
      return sizes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String[] readConstantPool(DataInputStream in) throws IOException {
    int count = in.readUnsignedShort();
    String[] utf8 = new String[count];
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> utf8[i] = in.readUTF();
        case 3, 4 -> skip(in, 4);
        case 5, 6 -> {
          skip(in, 8);
          i++; // longs and doubles take two slots
        }
        case 7, 8, 16, 19, 20 -> skip(in, 2);
        case 9, 10, 11, 12, 17, 18 -> skip(in, 4);
        case 15 -> skip(in, 3);
        default -> throw new IOException("unknown constant pool tag " + tag);
      }
    }
    return utf8;
  }

  private static void skipAttributes(DataInputStream in) throws IOException {
    int attributes = in.readUnsignedShort();
    for (int a = 0; a < attributes; a++) {
      in.readUnsignedShort();
      skip(in, in.readInt());
    }
  }

  private static void skip(DataInputStream in, int bytes) throws IOException {
    in.skipNBytes(bytes);
  }
}
