"""Prints the side-by-side table of a compare-builds.sh run: time per call and ratio to the primal
of the same function, before and after, with JMH's 99.9 % error and gc.alloc.rate.norm.

    python3 ab_table.py OUT_DIR
"""
import json
import os
import sys

CLASSES = ("Rosenbrock Beale GoldsteinPrice BlackScholes LogisticLoss BundleAdjustment GaussianMixture Chain Horner Rk4"
           " HelperCalls CheckedChain HessianVector").split()


def load(path):
    """Benchmark method name -> (score ns, error ns, B/op or None)."""
    with open(path, encoding="utf-8") as f:
        runs = json.load(f)
    result = {}
    for run in runs:
        metric = run["primaryMetric"]
        alloc = run.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
        result[run["benchmark"].rsplit(".", 1)[1]] = (metric["score"], metric["scoreError"], alloc)
    return result


def primal_of(name, names):
    """The primal a variant is measured against: 'xPrimal' for the variants 'x...', else 'primal'
    (a class may measure several functions: CheckedChainBench's primal, checkedPrimal, ...)."""
    for p in names:
        if p.endswith("Primal") and name.startswith(p[:-len("Primal")]):
            return p
    return "primal"


def main(out):
    print("| function | variant | before ns | after ns | before / primal | after / primal"
          " | B/op before | B/op after |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for cls in CLASSES:
        paths = [os.path.join(out, f"{cls}-{side}.json") for side in ("before", "after")]
        if not all(os.path.exists(p) for p in paths):
            continue
        before, after = (load(p) for p in paths)
        for name in before:
            if name not in after:
                continue
            primal = primal_of(name, before)
            (sb, eb, ab), (sa, ea, aa) = before[name], after[name]
            alloc = lambda a: "–" if a is None else f"{a:.0f}"
            print(f"| {cls} | {name} | {sb:,.1f} ± {eb:,.1f} | {sa:,.1f} ± {ea:,.1f}"
                  f" | {sb / before[primal][0]:.2f} | {sa / after[primal][0]:.2f}"
                  f" | {alloc(ab)} | {alloc(aa)} |")


if __name__ == "__main__":
    main(sys.argv[1])
