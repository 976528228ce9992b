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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compile_time import PROCESSOR, javac_version, loadavg, run  # noqa: E402
from generated_lines import counts  # noqa: E402


def java_files(root):
    found = []
    for folder, _, names in os.walk(root):
        found += [os.path.join(folder, n) for n in names if n.endswith(".java")]
    return sorted(found)


def timed(cmd):
    elapsed, returncode, output = run(cmd)
    if returncode != 0:
        sys.exit("javac failed:\n" + output[-4000:])
    return elapsed


def main(argv):
    javac, processorpath, classpath, runs, out = argv[1], argv[2], argv[3], int(argv[4]), argv[5]
    sources = [f for root in argv[6:] for f in java_files(root)]
    result = {"javac": javac_version(javac),
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
        files = counts(generated)
        result["generated_files"] = len(files)
        result["generated_lines"] = sum(files.values())
    result["ratio_full_over_none"] = round(
        result["modes"]["full"]["median_ms"] / result["modes"]["none"]["median_ms"], 2)
    result["load_average_after"] = loadavg()
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main(sys.argv)
