#!/usr/bin/env python3
"""javac time with and without the ad4j annotation processor.

  compile_time.py JAVAC PROCESSORPATH CLASSPATH RUNS OUT.json   (CLASSPATH: ad-annotations, ad-runtime)

Cases (sources written by gen_sources.py into a temporary folder):
  many200   one class with 200 small @Differentiable methods (about 14 operations each)
  ops100, ops1000, ops5000, ops10000   one @Differentiable method of that many operations

Modes, each a fresh `javac` process, timed by wall clock, RUNS times, median reported:
  none   -proc:none                       (the user's class alone)
  only   -proc:only with the processor    (analysis and writing FooGrad.java, not compiling it)
  full   with the processor               (what a build pays: processing + compiling FooGrad)
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_sources  # noqa: E402

CASES = [("many200", "many", 200), ("ops100", "ops", 100), ("ops1000", "ops", 1000),
         ("ops5000", "ops", 5000), ("ops10000", "ops", 10000)]
PROCESSOR = "ad4j.processor.DifferentiableProcessor"


def javac_version(javac):
    return subprocess.run([javac, "-version"], capture_output=True, text=True).stdout.strip()


def loadavg():
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def run(cmd):
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return (time.perf_counter() - start) * 1000, p.returncode, (p.stdout + p.stderr).strip()


def main(argv):
    javac, processorpath, annotations, runs, out = argv[1], argv[2], argv[3], int(argv[4]), argv[5]
    results = {"javac": javac_version(javac), "runs": runs, "cases": [],
               "load_average_before": loadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind, count in CASES:
            src_dir = os.path.join(tmp, name, "src", "bench", "gen")
            os.makedirs(src_dir)
            cls = {"many": "Many", "ops": "Ops"}[kind] + str(count)
            src = os.path.join(src_dir, cls + ".java")
            text = {"many": gen_sources.many_class, "ops": gen_sources.ops_class}[kind](cls, count)
            with open(src, "w", encoding="utf-8") as f:
                f.write(text)
            case = {"case": name, "methods": count if kind == "many" else 1,
                    "operations": (count * 14 if kind == "many" else count),
                    "source_lines": text.count("\n"), "modes": {}}
            for mode in ("none", "only", "full"):
                classes = os.path.join(tmp, name, mode, "classes")
                generated = os.path.join(tmp, name, mode, "generated")
                times = []
                rc, output = 0, ""
                for _ in range(runs):
                    for d in (classes, generated):
                        subprocess.run(["rm", "-rf", d])
                        os.makedirs(d)
                    cmd = [javac, "-d", classes, "-s", generated, "-cp", annotations]
                    if mode == "none":
                        cmd += ["-proc:none"]
                    else:
                        cmd += ["-processorpath", processorpath, "-processor", PROCESSOR]
                        if mode == "only":
                            cmd += ["-proc:only"]
                    ms, rc, output = run(cmd + [src])
                    times.append(round(ms, 1))
                entry = {"median_ms": round(statistics.median(times), 1), "runs_ms": times,
                         "exit_code": rc}
                if rc != 0:
                    # javac names files by their temporary path: keep the file name only
                    entry["error"] = [line.replace(tmp + os.sep, "").split(os.sep)[-1]
                                      if line.startswith(tmp) else line
                                      for line in output.splitlines()[:6]]
                gen_file = os.path.join(generated, "bench", "gen", cls + "Grad.java")
                if mode != "none" and os.path.exists(gen_file):
                    with open(gen_file, encoding="utf-8") as f:
                        entry["generated_lines"] = sum(1 for _ in f)
                case["modes"][mode] = entry
                print(f"{name:9s} {mode:5s} median {entry['median_ms']:9.1f} ms  rc={rc}"
                      + (f"  {entry['error'][0]}" if rc else ""), flush=True)
            results["cases"].append(case)
    results["load_average_after"] = loadavg()
    with open(out, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main(sys.argv)
