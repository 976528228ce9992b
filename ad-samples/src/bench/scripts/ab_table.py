"""Prints the side-by-side table of a compare-builds.sh run: time per call and ratio to the primal
of the same function, before and after, with JMH's 99.9 % error and gc.alloc.rate.norm.

    python3 ab_table.py OUT_DIR

Every class with both an OUT_DIR/<Class>-before.json and an -after.json is shown. A variant is
named as JMH names it after "...Bench." (a nested state class first: "Binary.primal"), with its
@Param values; it is measured against the primal of the same class and parameters: "xPrimal"
for the variants "x...", else "primal", else the class's only "...Primal"; without one, no ratio.
"""
import json
import os
import sys


def load(path):
    """Variant name (with its parameters) -> (score ns, error ns, B/op or None)."""
    with open(path, encoding="utf-8") as f:
        runs = json.load(f)
    result = {}
    for run in runs:
        metric = run["primaryMetric"]
        alloc = run.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
        name = run["benchmark"].split("Bench.", 1)[-1]
        params = run.get("params")
        if params:
            name += " [" + ", ".join(f"{k}={v}" for k, v in sorted(params.items())) + "]"
        result[name] = (metric["score"], metric["scoreError"], alloc)
    return result


def split(name):
    """(nested class prefix, method, parameters) of a variant name."""
    base, _, params = name.partition(" [")
    prefix, _, method = base.rpartition(".")
    return prefix, method, params


def primal_of(name, names):
    """The variant that is the primal for `name`, or None (see the module's text)."""
    prefix, method, params = split(name)
    same = [n for n in names if split(n)[0] == prefix and split(n)[2] == params]
    primals = [n for n in same if split(n)[1].endswith("Primal")]
    for p in primals:
        if method.startswith(split(p)[1][:-len("Primal")]):
            return p
    plain = [n for n in same if split(n)[1] == "primal"]
    if plain:
        return plain[0]
    return primals[0] if len(primals) == 1 else None


def main(out):
    print("| function | variant | before ns | after ns | before / primal | after / primal"
          " | B/op before | B/op after |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    classes = sorted(f[:-len("-before.json")] for f in os.listdir(out)
                     if f.endswith("-before.json"))
    for cls in classes:
        paths = [os.path.join(out, f"{cls}-{side}.json") for side in ("before", "after")]
        if not os.path.exists(paths[1]):
            continue
        before, after = (load(p) for p in paths)
        for name in before:
            if name not in after:
                continue
            primal = primal_of(name, before)
            (sb, eb, ab), (sa, ea, aa) = before[name], after[name]
            alloc = lambda a: "–" if a is None else f"{a:.0f}"
            # JMH writes the error of a single iteration as the string "NaN"
            num = lambda x: f"{x:,.1f}" if isinstance(x, (int, float)) else str(x)
            ratio = lambda s, runs: "–" if primal is None or primal not in runs \
                else f"{s / runs[primal][0]:.2f}"
            print(f"| {cls} | {name} | {num(sb)} ± {num(eb)} | {num(sa)} ± {num(ea)}"
                  f" | {ratio(sb, before)} | {ratio(sa, after)}"
                  f" | {alloc(ab)} | {alloc(aa)} |")


if __name__ == "__main__":
    main(sys.argv[1])
