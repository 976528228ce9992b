#!/usr/bin/env bash
# Compares the generated code of two ad4j builds in one JMH run: the same benchmarks, taken from
# each build in turn, class by class, so that a drift in the machine's load hits both alike.
#
#   ad-samples/src/bench/compare-builds.sh BEFORE_CHECKOUT AFTER_CHECKOUT OUT_DIR
#
# Each checkout must have been built with
#   mvn -q -B -Pbench -DskipTests package -pl ad-samples -am
# (as run-benchmarks.sh does). Writes OUT_DIR/<Class>-before.json and -after.json, and
# OUT_DIR/machine.txt (the CPU, the load), and prints the
# side-by-side table of scripts/ab_table.py. About 9 minutes on 2 cores. CLASSES (benchmark
# classes without "Bench", separated by spaces; their nested state classes, as MlpBench's, are
# included) and VARIANTS (a regex of benchmark methods) choose fewer benchmarks; FORKS and
# ITERATIONS (of measurement) default to 1 and 4.
set -euo pipefail
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
out=$3
mkdir -p "$out"
# Ratios depend on the processor (a two-pass gradient beat a one-pass one on one and not on
# another): say which ran them, and how loaded the machine was when the run began.
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo "CPU: ${cpu:-unknown}, $(nproc) cores; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" \
  > "$out/machine.txt"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
variants=${VARIANTS:-'(primal|reverseValueAndGradient|reversePullback|forwardTangents|perimeter.*|softplusSum(Primal|ValueAndGradient|Pullback))$'}
classes=${CLASSES:-Rosenbrock Beale GoldsteinPrice BlackScholes LogisticLoss BundleAdjustment GaussianMixture Chain Horner Rk4 HelperCalls}
for cls in $classes; do
  for side in before after; do
    if [ "$side" = before ]; then checkout=$before; else checkout=$after; fi
    cp="$checkout/ad-samples/target/classes:$(cat "$checkout/ad-samples/target/bench-classpath.txt")"
    "$java" -cp "$cp" org.openjdk.jmh.Main -f "${FORKS:-1}" -wi 3 -w 1s -i "${ITERATIONS:-4}" -r 1s -prof gc \
      -rf json -rff "$out/$cls-$side.json" "ad4j.samples.bench.${cls}Bench\\.([A-Za-z]+\\.)?$variants" \
      > "$out/$cls-$side.log"
    # The JVM's path on this machine says nothing to a reader of the results: keep its name only.
    sed -i 's#"jvm" : "[^"]*/\(java\)"#"jvm" : "\1"#' "$out/$cls-$side.json"
  done
done
python3 "$(dirname "$0")/scripts/ab_table.py" "$out"
