#!/bin/bash
# Thread-CPU medians of HessianBench's methods, before and after, two interleaved rounds:
#   thread-cpu-batches.sh BEFORE_CHECKOUT AFTER_CHECKOUT HARNESS_DIR
# HARNESS_DIR holds CpuBatches.class, compiled against a bench build's classpath
# (javac -cp "CHECKOUT/ad-samples/target/classes:$(cat CHECKOUT/ad-samples/target/bench-classpath.txt)").
B=$1; A=$2; HARNESS=$3
for round in 1 2; do
  for side in before after; do
    if [ $side = before ]; then D=$B; else D=$A; fi
    CP="$HARNESS:$D/ad-samples/target/classes:$(cat $D/ad-samples/target/bench-classpath.txt)"
    echo "== $side round $round (load $(cut -d' ' -f1-3 /proc/loadavg))"
    for n in 10 30 100; do
      if [ $n = 30 ]; then extra=hipparchusDerivativeStructure; else extra=; fi
      java -Xms1g -Xmx1g -XX:+AlwaysPreTouch -cp "$CP" CpuBatches $n 60 hessian finiteDifferenceHessian $extra
    done
  done
done
