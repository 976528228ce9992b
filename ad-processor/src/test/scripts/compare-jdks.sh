#!/bin/sh
# Checks that ad4j generates byte-identical sources on two JDKs: Maven runs the tests on the JDK
# it runs on (JAVA_HOME, e.g. 17), and DeterminismTest runs the other JDK's javac with the
# processor on a fixed sample and compares every generated file.
#
#   ad-processor/src/test/scripts/compare-jdks.sh [other JDK home]
#
# Without an argument: JDK25_HOME, else a JDK 25 among the JVMs of /usr/lib/jvm.
# Run from the repository root after `mvn -B -DskipTests install` (or in a full build).
set -eu
OTHER_JDK="${1:-${JDK25_HOME:-}}"
if [ -z "$OTHER_JDK" ]; then
  for home in /usr/lib/jvm/*/; do
    home="${home%/}"
    if [ -x "$home/bin/javac" ] && "$home/bin/java" -version 2>&1 | head -1 | grep -q '"25[".]'; then
      OTHER_JDK="$home"
      break
    fi
  done
fi
[ -n "$OTHER_JDK" ] || { echo "no other JDK: pass its home as the argument" >&2; exit 2; }
"$OTHER_JDK/bin/javac" -version
java -version 2>&1 | head -1
exec mvn -B -pl ad-processor test -Dtest='DeterminismTest' -Dsurefire.failIfNoSpecifiedTests=false \
  -Dad4j.otherJdk="$OTHER_JDK"
