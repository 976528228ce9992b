#!/usr/bin/env python3
"""javac time on ad-samples' own sources with and without the ad4j annotation processor.

  samples_compile_time.py JAVAC PROCESSORPATH CLASSPATH RUNS OUT.json SOURCE_ROOT...

SOURCE_ROOT: ad-samples/src/main/java and ad-samples/src/bench/java (the bench classes, which
hold the long methods); CLASSPATH: ad-annotations, ad-runtime and what the sources need (JMH,
the libraries the samples compare with: ad-samples/target/bench-classpath.txt).

Modes, each a fresh `javac` process, timed by wall clock, RUNS times, median reported:
  full   the sources with the processor (processing, and compiling them and FooGrad.java)
  none   -proc:none over the same sources and the code `full` generated (compiling alone)
The ratio full / none is what issue 33 bounds (at most 1.5).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

PROCESSOR = "ad4j.processor.DifferentiableProcessor"


def loadavg():
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def java_files(root):
    found = []
    for folder, _, names in os.walk(root):
        found += [os.path.join(folder, n) for n in names if n.endswith(".java")]
    return sorted(found)


def timed(cmd):
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = (time.perf_counter() - start) * 1000
    if p.returncode != 0:
        sys.exit("javac failed:\n" + (p.stdout + p.stderr)[-4000:])
    return elapsed


def main(argv):
    javac, processorpath, classpath, runs, out = argv[1], argv[2], argv[3], int(argv[4]), argv[5]
    sources = [f for root in argv[6:] for f in java_files(root)]
    result = {"javac": subprocess.run([javac, "-version"], capture_output=True,
                                      text=True).stdout.strip(),
              "runs": runs, "source_files": len(sources), "load_average_before": loadavg(),
              "modes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        generated = os.path.join(tmp, "generated")
        for mode in ("full", "none"):
            times = []
            for _ in range(runs):
                classes = os.path.join(tmp, mode + "-classes")
                subprocess.run(["rm", "-rf", classes])
                os.makedirs(classes)
                cmd = [javac, "-nowarn", "-d", classes, "-cp", classpath]
                if mode == "full":
                    subprocess.run(["rm", "-rf", generated])
                    os.makedirs(generated)
                    cmd += ["-s", generated, "-processorpath", processorpath,
                            "-processor", PROCESSOR] + sources
                else:
                    cmd += ["-proc:none"] + sources + java_files(generated)
                times.append(timed(cmd))
            result["modes"][mode] = {"median_ms": round(statistics.median(times)),
                                     "runs_ms": [round(t) for t in times]}
        lines = 0
        for f in java_files(generated):
            with open(f, encoding="utf-8") as g:
                lines += sum(1 for _ in g)
        result["generated_files"] = len(java_files(generated))
        result["generated_lines"] = lines
    result["ratio_full_over_none"] = round(
        result["modes"]["full"]["median_ms"] / result["modes"]["none"]["median_ms"], 2)
    result["load_average_after"] = loadavg()
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main(sys.argv)
