#!/usr/bin/env bash
# Measures javac time with and without the ad4j processor (see scripts/compile_time.py) and
# writes ad-samples/src/bench/results/compile-time.json; then regenerates BENCHMARKS.md.
#
#   ad-samples/src/bench/compile-time.sh [RUNS]      (default 5 runs per case, median)
#
# Uses javac of JAVA_HOME (else the PATH). Takes about 3 minutes on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
results=${RESULTS_DIR:-$root/ad-samples/src/bench/results}
mkdir -p "$results"
mvn -q -B -DskipTests package -pl ad-processor,ad-runtime -am
mvn -q -B dependency:build-classpath -pl ad-processor -Dmdep.includeScope=runtime \
  -Dmdep.outputFile="$root/ad-processor/target/processor-classpath.txt"
processorpath="$root/ad-processor/target/classes:$(cat ad-processor/target/processor-classpath.txt)"
# the class path of the compiled user code: the annotation, and ad-runtime (the tape that
# generated code of long methods uses)
annotations="$root/ad-annotations/target/classes:$root/ad-runtime/target/classes"
javac=${JAVA_HOME:+$JAVA_HOME/bin/}javac
python3 ad-samples/src/bench/scripts/compile_time.py "$javac" "$processorpath" "$annotations" \
  "${1:-5}" "$results/compile-time.json"
python3 ad-samples/src/bench/scripts/jmh_report.py "$results" BENCHMARKS.md
