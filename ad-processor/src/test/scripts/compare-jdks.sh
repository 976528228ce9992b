#!/bin/sh
# Checks that ad4j generates byte-identical sources on two JDKs: Maven runs the tests on the JDK
# it runs on (JAVA_HOME, e.g. 17), and DeterminismTest runs the other JDK's javac with the
# processor on a fixed sample and compares every generated file.
#
#   ad-processor/src/test/scripts/compare-jdks.sh [<JDK 25 home>]
#
# Run from the repository root after `mvn -B -DskipTests install` (or in a full build).
set -eu
OTHER_JDK="${1:-<JDK 25 home>}"
"$OTHER_JDK/bin/javac" -version
java -version 2>&1 | head -1
exec mvn -B -pl ad-processor test -Dtest='DeterminismTest' -Dsurefire.failIfNoSpecifiedTests=false \
  -Dad4j.otherJdk="$OTHER_JDK"
