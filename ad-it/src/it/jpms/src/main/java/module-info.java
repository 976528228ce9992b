/** A user's module: it reads ad-runtime (the Tape that generated code uses), not java.compiler. */
module com.example.jpms {
  requires static ad4j.annotations;
  requires ad4j.runtime;

  exports com.example.jpms;
}
