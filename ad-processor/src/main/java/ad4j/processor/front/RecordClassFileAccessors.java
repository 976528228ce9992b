package ad4j.processor.front;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a record's class file for the accessors that only return their field. javac and ECJ
 * compile the accessor they write, and one written {@code return x;}, to the same five bytes:
 * {@code aload_0; getfield this.x; dreturn} (or the return of the field's type); any other
 * body computes something, which generated code would take for the component.
 */
final class RecordClassFileAccessors {
  private static final int ALOAD_0 = 0x2a;
  private static final int GETFIELD = 0xb4;
  /** {@code ireturn}, {@code lreturn}, {@code freturn}, {@code dreturn}, {@code areturn}. */
  private static final Set<Integer> RETURNS = Set.of(0xac, 0xad, 0xae, 0xaf, 0xb0);

  private RecordClassFileAccessors() {}

  /**
   * For each method without parameters that {@code classFile} declares, by name, whether its
   * body only returns the field of that name of its own class; empty when the bytes are not a
   * class file this reader understands.
   */
  static Optional<Map<String, Boolean>> returningTheirFields(byte[] classFile) {
    try {
      return Optional.of(read(new DataInputStream(new ByteArrayInputStream(classFile))));
    } catch (IOException | RuntimeException malformed) {
      return Optional.empty();
    }
  }

  private static Map<String, Boolean> read(DataInputStream in) throws IOException {
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort(); // minor version
    in.readUnsignedShort(); // major version
    ConstantPool pool = ConstantPool.read(in);
    in.readUnsignedShort(); // access flags
    int thisClass = in.readUnsignedShort();
    in.readUnsignedShort(); // super class
    skip(in, 2 * in.readUnsignedShort()); // interfaces
    int fields = in.readUnsignedShort();
    for (int i = 0; i < fields; i++) {
      skip(in, 6);
      skipAttributes(in);
    }
    Map<String, Boolean> accessors = new HashMap<>();
    int methods = in.readUnsignedShort();
    for (int i = 0; i < methods; i++) {
      in.readUnsignedShort(); // access flags
      String name = pool.utf8(in.readUnsignedShort());
      String descriptor = pool.utf8(in.readUnsignedShort());
      byte[] code = null;
      int attributes = in.readUnsignedShort();
      for (int a = 0; a < attributes; a++) {
        String attribute = pool.utf8(in.readUnsignedShort());
        int length = in.readInt();
        if (attribute.equals("Code")) {
          in.readUnsignedShort(); // max stack
          in.readUnsignedShort(); // max locals
          code = new byte[in.readInt()];
          in.readFully(code);
          skip(in, length - 8 - code.length);
        } else {
          skip(in, length);
        }
      }
      if (descriptor.startsWith("()")) {
        accessors.put(name, code != null
            && returnsOwnField(code, pool, thisClass, name, descriptor.substring(2)));
      }
    }
    return accessors;
  }

  /** Whether {@code code} is {@code aload_0; getfield thisClass.name:type; <type>return}. */
  private static boolean returnsOwnField(byte[] code, ConstantPool pool, int thisClass,
      String name, String type) throws IOException {
    if (code.length != 5 || (code[0] & 0xff) != ALOAD_0 || (code[1] & 0xff) != GETFIELD
        || !RETURNS.contains(code[4] & 0xff)) {
      return false;
    }
    int field = ((code[2] & 0xff) << 8) | (code[3] & 0xff);
    return pool.isField(field, pool.className(thisClass), name, type);
  }

  private static void skipAttributes(DataInputStream in) throws IOException {
    int attributes = in.readUnsignedShort();
    for (int a = 0; a < attributes; a++) {
      in.readUnsignedShort();
      skip(in, in.readInt());
    }
  }

  private static void skip(DataInputStream in, int bytes) throws IOException {
    if (bytes < 0) {
      throw new IOException("negative length");
    }
    in.readFully(new byte[bytes]);
  }

  /** The constant pool: its UTF-8 texts and the references a field access names. */
  private record ConstantPool(String[] texts, int[][] references, int[] tags) {
    private static final int UTF8 = 1;
    private static final int CLASS = 7;
    private static final int FIELD_REF = 9;
    private static final int NAME_AND_TYPE = 12;

    static ConstantPool read(DataInputStream in) throws IOException {
      int count = in.readUnsignedShort();
      String[] texts = new String[count];
      int[][] references = new int[count][];
      int[] tags = new int[count];
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        tags[i] = tag;
        switch (tag) {
          case UTF8 -> texts[i] = in.readUTF();
          case CLASS, 8, 16, 19, 20 -> references[i] = new int[] {in.readUnsignedShort()};
          case 3, 4 -> in.readInt(); // integer, float
          case 5, 6 -> { // long, double: two entries
            in.readLong();
            i++;
          }
          case FIELD_REF, 10, 11, NAME_AND_TYPE, 17, 18 ->
              references[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
          case 15 -> { // method handle
            in.readUnsignedByte();
            in.readUnsignedShort();
          }
          default -> throw new IOException("unknown constant tag " + tag);
        }
      }
      return new ConstantPool(texts, references, tags);
    }

    String utf8(int index) throws IOException {
      if (index <= 0 || index >= tags.length || tags[index] != UTF8) {
        throw new IOException("not a text: " + index);
      }
      return texts[index];
    }

    String className(int index) throws IOException {
      if (index <= 0 || index >= tags.length || tags[index] != CLASS) {
        throw new IOException("not a class: " + index);
      }
      return utf8(references[index][0]);
    }

    /** Whether entry {@code index} is the field {@code owner.name} of type {@code type}. */
    boolean isField(int index, String owner, String name, String type) {
      try {
        if (index <= 0 || index >= tags.length || tags[index] != FIELD_REF) {
          return false;
        }
        int nameAndType = references[index][1];
        return className(references[index][0]).equals(owner)
            && tags[nameAndType] == NAME_AND_TYPE
            && utf8(references[nameAndType][0]).equals(name)
            && utf8(references[nameAndType][1]).equals(type);
      } catch (IOException malformed) {
        return false;
      }
    }
  }
}
