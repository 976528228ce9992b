#!/usr/bin/env python3
"""Bytecode sizes of the benchmark functions and their generated derivatives (from `javap -c`),
and which of the 500-statement chain's methods HotSpot compiles (from -XX:+PrintCompilation).

  huge_methods.py CLASSES_DIR CLASSPATH JAVA OUT.json

HotSpot does not JIT-compile a method whose bytecode is longer than 8000 bytes
(-XX:+DontCompileHugeMethods, HugeMethodLimit=8000): such a method stays interpreted.
"""
import json
import os
import re
import subprocess
import sys
import time

CLASSES = [
    "ad4j.samples.bench.Chain500", "ad4j.samples.bench.Chain500Grad",
    "ad4j.samples.Rosenbrock", "ad4j.samples.RosenbrockGrad",
    "ad4j.samples.BlackScholes", "ad4j.samples.BlackScholesGrad",
    "ad4j.samples.LogisticLoss", "ad4j.samples.LogisticLossGrad",
    "ad4j.samples.bench.BundleAdjustment", "ad4j.samples.bench.BundleAdjustmentGrad",
    "ad4j.samples.bench.GaussianMixture", "ad4j.samples.bench.GaussianMixtureGrad",
    "ad4j.samples.ControlFlow", "ad4j.samples.ControlFlowGrad",
]
HUGE = 8000


def javap_sizes(javap, classes_dir, cls):
    """{method name: bytecode length}: offset of the last instruction + its length (a return)."""
    text = subprocess.run([javap, "-c", "-p", "-cp", classes_dir, cls], check=True,
                          capture_output=True, text=True).stdout
    sizes = {}
    name = None
    last = None
    for line in text.splitlines():
        if line.strip() == "static {};":
            line = "  static void <clinit>();"
        m = re.match(r"^  \S.*?([\w$<>]+)\((.*)\);$", line)
        if m:
            if name and last:
                sizes[name] = last
            arity = 0 if not m.group(2).strip() else m.group(2).count(",") + 1
            name, last = f"{m.group(1)}/{arity}", None
            continue
        m = re.match(r"^\s+(\d+): (\w+)", line)
        if m and name:
            offset, op = int(m.group(1)), m.group(2)
            last = offset + 1  # the methods measured here end with a 1-byte return
    if name and last:
        sizes[name] = last
    # keep the @Differentiable methods and the generated ones; one entry per name (largest)
    return {k: v for k, v in sizes.items() if not k.startswith("<")}


def compilations(java, classpath, extra):
    cmd = [java, "-XX:+PrintCompilation"] + extra + ["-cp", classpath,
                                                     "ad4j.samples.bench.HugeMethodCheck"]
    start = time.time()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    seconds = time.time() - start
    tiers = {}
    for line in out.splitlines():
        m = re.search(r"\s(\d)\s+(?:[!%sbn ]*\s+)?ad4j\.samples\.bench\.(Chain500(?:Grad)?)::(\w+)", line)
        if not m:
            m2 = re.search(r"ad4j\.samples\.bench\.(Chain500(?:Grad)?)::(\w+)", line)
            if not m2:
                continue
            tier_m = re.match(r"\s*\d+\s+\d+\s+[%sbn! ]*\s*(\d)\s", line)
            key = m2.group(1) + "." + m2.group(2)
            tier = int(tier_m.group(1)) if tier_m else -1
        else:
            key = m.group(2) + "." + m.group(3)
            tier = int(m.group(1))
        tiers[key] = max(tiers.get(key, -1), tier)
    return {"seconds": round(seconds, 2), "highest_tier": tiers,
            "lines": [l for l in out.splitlines() if "Chain500" in l]}


def main(argv):
    classes_dir, classpath, java, out = argv[1:5]
    javap = os.path.join(os.path.dirname(java), "javap") if os.sep in java else "javap"
    sizes = {cls: javap_sizes(javap, classes_dir, cls) for cls in CLASSES}
    version = subprocess.run([java, "-version"], capture_output=True, text=True).stderr.splitlines()
    result = {
        "java": version,
        "huge_method_limit": HUGE,
        "bytecode_sizes": sizes,
        "print_compilation_default": compilations(java, classpath, []),
        "print_compilation_huge_allowed": compilations(java, classpath,
                                                       ["-XX:-DontCompileHugeMethods"]),
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    for cls, methods in sizes.items():
        if cls.startswith("ad4j.samples.bench.Chain500"):
            for name, size in methods.items():
                print(f"{cls}.{name}: {size} bytes{'  > 8000: not JIT-compiled' if size > HUGE else ''}")
    print("highest tier (default):", result["print_compilation_default"]["highest_tier"])
    print("highest tier (-XX:-DontCompileHugeMethods):",
          result["print_compilation_huge_allowed"]["highest_tier"])


if __name__ == "__main__":
    main(sys.argv)
