#!/usr/bin/env bash
# Runs the JMH benchmarks of ad4j and regenerates BENCHMARKS.md.
#
#   ad-samples/src/bench/run-benchmarks.sh [JMH options, e.g. a benchmark regex]
#
# Uses the JDK in JAVA_HOME (else `java` on the PATH) for the build and the run. Builds with
# -Pbench, checks that all variants agree (CrossCheck), runs JMH with the options below (about
# 8 minutes on 2 cores) writing JSON to ad-samples/src/bench/results/jmh-jdkNN.json, measures
# the bytecode sizes of the generated methods and which ones HotSpot compiles
# (huge-methods-jdkNN.json), and writes BENCHMARKS.md at the repository root from every JSON
# file in the results folder. Set RESULTS_DIR to write elsewhere (e.g. for a partial run; the
# report then goes to RESULTS_DIR/BENCHMARKS.md). Set RUN_NAME to name a partial run kept beside
# the full ones (jmh-NAME-jdkNN.json, run-NAME-jdkNN.json, a section of its own in the report;
# the bytecode-size and JIT checks of the full run are skipped).
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
results=${RESULTS_DIR:-$root/ad-samples/src/bench/results}
report=${RESULTS_DIR:+$results/BENCHMARKS.md}
report=${report:-BENCHMARKS.md}
name=${RUN_NAME:+-$RUN_NAME}
mkdir -p "$results"
feature=$("$java" -XshowSettings:properties -version 2>&1 \
  | sed -n 's/^ *java.specification.version = //p')

start=$(date +%s)
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
mvn -q -B -Pbench -DskipTests package -pl ad-samples -am
cp="ad-samples/target/classes:$(cat ad-samples/target/bench-classpath.txt)"

"$java" -cp "$cp" ad4j.samples.bench.CrossCheck
# the second-order variants agree too; the finite-difference Hessian's error goes into the report
"$java" -cp "$cp" ad4j.samples.bench.SecondOrderCheck "$results/second-order-check.json"

jmh_start=$(date +%s)
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
"$java" -cp "$cp" org.openjdk.jmh.Main \
  -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc \
  -rf json -rff "$results/jmh$name-jdk$feature.json" "${@:-ad4j.samples.bench.}"
jmh_end=$(date +%s)
# The JVM's path on this machine says nothing to a reader of the results: keep its name only.
sed -i 's#"jvm" : "[^"]*/\(java\)"#"jvm" : "\1"#' "$results/jmh$name-jdk$feature.json"

if [ -z "$name" ]; then
  python3 ad-samples/src/bench/scripts/huge_methods.py ad-samples/target/classes "$cp" "$java" \
    "$results/huge-methods-jdk$feature.json"
fi
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "${AD4J_COMMIT:-unknown}")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
cat > "$results/run$name-jdk$feature.json" <<JSON
{"jdk": "$feature", "commit": "$commit", "cpu": "${cpu:-unknown}", "cores": $(nproc), "os": "$(uname -sr)",
 "load_average_before": "$load_before", "load_average_after": "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)",
 "jmh_seconds": $((jmh_end - jmh_start)), "total_seconds": $(( $(date +%s) - start ))}
JSON
python3 ad-samples/src/bench/scripts/jmh_report.py "$results" "$report"
echo "JMH run: $((jmh_end - jmh_start)) s; everything: $(( $(date +%s) - start )) s"
