#!/usr/bin/env bash
# Runs a program of ad-spark in a JVM of its own, with Spark's JVM options, after
# `mvn -q -B -DskipTests package` from the repository's root:
#   ad-spark/run.sh                          # the sample: SparkTraining on 10^6 rows
#   ad-spark/run.sh SparkTraining 200000 4 2 # rows, partitions, executor threads
#   ad-spark/run.sh SparkTiming              # the measurement of BENCHMARKS.md
# JAVA_HOME chooses the JDK (17 or later).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -f target/run-classpath.txt ] || [ ! -f target/spark-java.options ]; then
  echo "run 'mvn -q -B -DskipTests package' in the repository's root first" >&2
  exit 1
fi
main="SparkTraining"
if [ $# -gt 0 ] && [[ "$1" != [0-9]* ]]; then
  main="$1"
  shift
fi
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
exec "$java" @target/spark-java.options -Xmx8g \
  -cp "target/classes:$(cat target/run-classpath.txt)" "ad4j.spark.$main" "$@"
