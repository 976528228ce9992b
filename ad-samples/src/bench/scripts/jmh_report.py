#!/usr/bin/env python3
"""Turns the benchmark results into BENCHMARKS.md.

  jmh_report.py RESULTS_DIR OUT.md

Reads from RESULTS_DIR: jmh-jdkNN.json (JMH's JSON, run with -prof gc), run-jdkNN.json (CPU,
wall time), huge-methods-jdkNN.json (bytecode sizes, -XX:+PrintCompilation), compile-time.json,
named partial runs jmh-NAME-jdkNN.json with run-NAME-jdkNN.json (run-benchmarks.sh with
RUN_NAME=NAME; each gets a section of its own; the run named second-order, with
second-order-check.json, gets the second-order tables), and observations.md (hand-written notes,
included verbatim under "Findings"). Any subset of the benchmarks may be present: a function or
variant that was not run is left out, a target none of whose functions was run is not listed.
"""
import glob
import json
import math
import os
import re
import sys

FUNCTIONS = [  # (benchmark class, title, inputs)
    ("RosenbrockBench", "Rosenbrock", 2),
    ("BealeBench", "Beale", 2),
    ("GoldsteinPriceBench", "Goldstein–Price", 2),
    ("BlackScholesBench", "Black-Scholes call", 5),
    ("BlackScholesErfBench", "Black-Scholes call, Hipparchus erfc with a @DerivativeOf rule", 5),
    ("LogisticLossBench", "Logistic loss", 10),
    ("BundleAdjustmentBench", "Bundle adjustment (2×15 Jacobian)", 15),
    ("GaussianMixtureBench", "Gaussian mixture d=2 K=5", 30),
    ("ChainBench", "Chain of 500 statements", 5),
    ("HornerBench", "Horner, degree 100 (loop)", 1),
    ("Rk4Bench", "RK4 Lotka-Volterra, 1,000 steps (loop)", 6),
]
# Functions with loops: their reverse mode records values on ad4j.runtime.internal.Tape, and their
# target
# is reverse / primal <= 4 (tape included) instead of the straight-line functions' 3.
LOOPS = {"HornerBench", "Rk4Bench"}
# Hand-written variants that are not a hand-written reverse mode (so not in the 1.2x target).
HAND_NOT_REVERSE = {"Rk4Bench": "forward sensitivities (RK4 on the state and its 2×6 Jacobian)"}
STRAIGHT = [f for f in FUNCTIONS if f[0] not in LOOPS]
# Functions with array parameters (loops over data; reverse mode records on the tape). Keys of
# benchmarks with JMH parameters carry them, sorted by name: Class[a=1,b=2].
ARRAY_FUNCTIONS = [
    ("LogisticRegressionBench", "Logistic regression, 10,000 × 100 data", 101),
    ("GaussianMixtureArraysPeersBench", "ADBench GMM d=2 K=5, 1,000 points, with peers", 30),
    ("MlpBench.Binary", "MLP 20-32-1, logistic loss, 1,000 samples", 705),
    ("MlpBench.Softmax", "MLP 20-32-3, softmax cross-entropy, 1,000 samples", 771),
]
# The second-order run (run-benchmarks.sh with RUN_NAME=second-order): HessianVectorBench's
# methods are named <function><Variant>, HessianBench is parameterized by n.
SECOND_ORDER_RUN = "second-order"
HESSIAN_VECTOR_FUNCTIONS = [  # (method prefix, title, inputs)
    ("rosenbrock", "Rosenbrock", 2),
    ("blackScholes", "Black-Scholes call", 5),
    ("logisticRegression", "Logistic regression, 10,000 × 100 data", 101),
    ("gmm", "ADBench GMM d=2 K=5, 1,000 points", 30),
]
VARIANTS = [
    ("primal", "primal (the function)"),
    ("reverseValueAndGradient", "reverse: `mValueAndGradient`"),
    ("reversePullback", "reverse: `mPullback`"),
    ("forwardTangents", "forward: n × `mTangent`"),
    ("handWritten", "hand-written value and gradient"),
    ("finiteDifferences", "central finite differences (2n primals)"),
    ("hipparchusGradient", "Hipparchus `Gradient`"),
    ("hipparchusDerivativeStructure", "Hipparchus `DerivativeStructure` (order 1)"),
    ("reverseValueAndGradientHugeCompiled", "reverse, with `-XX:-DontCompileHugeMethods`"),
    ("forwardTangentsHugeCompiled", "forward, with `-XX:-DontCompileHugeMethods`"),
]
# B/op below this counts as "allocates nothing": no Java object is smaller than 16 bytes, and
# JMH's estimate includes its own background allocation spread over the operations, which shows
# (a few B/op) when one operation takes 100 µs or more.
ZERO_ALLOC = 16.0
# ...and that background allocation grows with the time of one call: about 5-6 B per ms on this
# machine, measured on primals that allocate nothing (the array-parameter benchmarks take 1 to
# 100 ms per call). B/op below ZERO_ALLOC + BACKGROUND_PER_MS * (ms per call) counts as 0.
BACKGROUND_PER_MS = 10.0


def allocates_nothing(alloc, score_ns):
    return alloc < ZERO_ALLOC + BACKGROUND_PER_MS * (score_ns or 0) / 1e6


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def jmh_table(data):
    """{(class, method): {score, error, alloc}}"""
    out = {}
    for r in data:
        owner, method = r["benchmark"].rsplit(".", 1)
        cls = owner[len("ad4j.samples.bench."):] if owner.startswith("ad4j.samples.bench.") \
            else owner.split(".")[-1]
        params = r.get("params")
        if params:
            cls += "[" + ",".join(f"{k}={params[k]}" for k in sorted(params)) + "]"
        pm = r["primaryMetric"]
        alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
        out[(cls, method)] = {"score": pm["score"], "error": pm["scoreError"],
                              "unit": pm["scoreUnit"], "alloc": alloc,
                              "jvm": r.get("jvm"), "jdk": r.get("jdkVersion"),
                              "vm": r.get("vmName"), "vmVersion": r.get("vmVersion"),
                              "jvmArgs": r.get("jvmArgs"), "forks": r.get("forks"),
                              "warmup": f"{r.get('warmupIterations')} × {r.get('warmupTime')}",
                              "measurement": f"{r.get('measurementIterations')} × {r.get('measurementTime')}"}
    return out


def fmt_ns(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if x >= 1e5:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:,.1f}"
    return f"{x:.2f}"


def fmt_err(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return " ± " + fmt_ns(x)


def fmt_alloc(x, score_ns=None):
    if x is None:
        return "–"
    if x < ZERO_ALLOC:
        return "0"
    if allocates_nothing(x, score_ns):
        return f"0 ({x:,.0f})"
    return f"{x:,.0f}"


def fmt_ratio(x):
    return "–" if x is None else (f"{x:.2f}" if x < 100 else f"{x:,.0f}")


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt2(x):
    return "–" if x is None else f"{x:.2f}"


def measured(pairs):
    """The (name, value) pairs whose value was measured."""
    return [(k, v) for k, v in pairs if v is not None]


def get(t, cls, m):
    r = t.get((cls, m))
    return r["score"] if r else None


def ratio(a, b):
    return a / b if a is not None and b else None


def met(ok):
    return "**met**" if ok else "**missed**"


def with_parameterized(functions, t):
    """The functions, with one entry per size of the JMH-parameterized GMM benchmark in t, in
    the order d, then K (its inputs: K weights, K d means, K d(d+1)/2 factor entries)."""
    sizes = sorted({tuple(int(v) for v in re.findall(r"=(\d+)", c))
                    for c, _ in t if c.startswith("GaussianMixtureArraysBench[")})
    gmm = [(f"GaussianMixtureArraysBench[d={d},k={k}]", f"ADBench GMM d={d} K={k}, 1,000 points",
            k + k * d + k * d * (d + 1) // 2) for d, k in sizes]
    return functions[:1] + gmm + functions[1:]


def target_row(L, label, pairs, ok, fmt):
    """A row of the targets table, or nothing when none of its functions was measured."""
    if not pairs:
        return
    L.append(f"| {label} | {met(all(ok(v) for _, v in pairs))} | "
             + "; ".join(f"{k} " + fmt.format(v) for k, v in pairs) + " |")


def allocation_row(L, t, functions):
    allocs = []
    for c, title, inputs in functions:
        # What the function itself allocates (a library call inside it, such as Hipparchus'
        # erfc) is not the generated code's: subtract it, once per primal evaluation (unless the
        # primal's B/op is only JMH's background allocation).
        p = t.get((c, "primal"))
        own = p["alloc"] if p and p["alloc"] is not None and not allocates_nothing(p["alloc"], p["score"]) \
            else 0.0
        for m in ("reverseValueAndGradient", "forwardTangents", "reversePullback"):
            r = t.get((c, m))
            if r and r["alloc"] is not None:
                calls = inputs if m == "forwardTangents" else 1
                allocs.append((f"{title} {m}", r["alloc"] - calls * own, r["score"]))
    if not allocs:
        return
    nonzero = [f"{k} {v:.0f} B/op" for k, v, ns in allocs if not allocates_nothing(v, ns)]
    slow = [(k, v, ns) for k, v, ns in allocs if v >= ZERO_ALLOC and allocates_nothing(v, ns)]
    L.append(f"| 0 B/op for `mValueAndGradient`, `mTangent`, `mPullback` (beyond what the function "
             f"itself allocates) | {met(not nonzero)} | "
             + ("; ".join(nonzero) if nonzero else
                (f"all {len(allocs)} below {ZERO_ALLOC:g} B/op (largest {max(v for _, v, _ in allocs):.3f})"
                 if not slow else
                 f"all {len(allocs)} below {ZERO_ALLOC:g} B/op + {BACKGROUND_PER_MS:g} B per ms of the call "
                 f"(JMH's background allocation; largest {max(v for _, v, _ in allocs):,.0f} B/op in a "
                 f"{max(ns for _, _, ns in allocs) / 1e6:,.0f} ms call)"))
             + " |")


def render_conditions(L, t, info):
    """The conditions of a run: commit, JVM, CPU, load average, JMH settings, wall time."""
    any_r = next(iter(t.values()))
    if info.get("commit"):
        L.append(f"- ad4j commit: {info['commit']} (the processor that generated the measured code)")
    L.append(f"- JVM: {any_r['vm']} {any_r['vmVersion']} (JDK {any_r['jdk']})")
    L.append(f"- CPU: {info.get('cpu', '?')}, {info.get('cores', '?')} cores; {info.get('os', '')}")
    if info.get("load_average_before"):
        L.append(f"- load average (1, 5, 15 min) before the run {info['load_average_before']}, after "
                 f"{info['load_average_after']}: other builds shared the machine, see the errors")
    L.append(f"- JMH 1.37: {any_r['forks']} fork{'s' if any_r['forks'] != 1 else ''}, warm-up {any_r['warmup']}, measurement "
             f"{any_r['measurement']}, `-prof gc`")
    if info.get("jmh_seconds"):
        L.append(f"- wall time: JMH {info['jmh_seconds']} s ({info['jmh_seconds'] / 60:.1f} min)"
                 + (f"; whole script (build, checks, JMH, bytecode and JIT checks) {info['total_seconds']} s"
                    if info.get("total_seconds", 0) > info["jmh_seconds"] else ""))
    L.append("")


def render_second_order(L, heading, t, info, check):
    """The second-order run: Hessian-vector products against primal and gradient, and full
    Hessians against Hipparchus' DerivativeStructure of order 2 and finite differences of the
    generated gradient, whose error SecondOrderCheck measured outside the timed code."""
    if not t:
        return
    L.append(f"## {heading}\n")
    render_conditions(L, t, info)
    L.append("Run with `RUN_NAME=second-order ad-samples/src/bench/run-benchmarks.sh "
             "'ad4j.samples.bench.(HessianVectorBench|HessianBench)\\.'` (JSON in "
             "`results/jmh-second-order-jdkNN.json`); before JMH, `SecondOrderCheck` checks every "
             "`mHessianVector` against `mHessian` times the same direction and Hipparchus' Hessian "
             "against the generated one, and measures the finite-difference Hessian's error "
             "(`results/second-order-check.json`). The functions are `@Differentiable(order = 2)`; "
             "their order-1 members are those of the tables above.\n")
    cls = "HessianVectorBench"
    rows = [(p, title, n) for p, title, n in HESSIAN_VECTOR_FUNCTIONS
            if get(t, cls, p + "Primal") is not None]
    if rows:
        L.append(f"### Hessian-vector products (`{cls}`)\n")
        L.append("`mHessianVector`: one forward-over-reverse sweep, H·v for a fixed random v; "
                 "gradient: `mValueAndGradient`.\n")
        L.append("| function | n | primal ns | gradient ns | H·v ns | gradient / primal | "
                 "**H·v / primal** | H·v / gradient | H·v B/op |")
        L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        hv_ratios = []
        for p, title, n in rows:
            pr = get(t, cls, p + "Primal")
            g = get(t, cls, p + "Gradient")
            hv = t.get((cls, p + "HessianVector"))
            hvs = hv["score"] if hv else None
            L.append(f"| {title} | {n} | {fmt_ns(pr)}{fmt_err(t[(cls, p + 'Primal')]['error'])} | "
                     f"{fmt_ns(g)}{fmt_err(t[(cls, p + 'Gradient')]['error']) if g else ''} | "
                     f"{fmt_ns(hvs)}{fmt_err(hv['error']) if hv else ''} | "
                     f"{fmt_ratio(ratio(g, pr))} | **{fmt_ratio(ratio(hvs, pr))}** | "
                     f"{fmt_ratio(ratio(hvs, g))} | {fmt_alloc(hv['alloc'], hvs) if hv else '–'} |")
            if ratio(hvs, pr) is not None:
                hv_ratios.append((title, ratio(hvs, pr)))
        huge = t.get((cls, "blackScholesHessianVectorHugeCompiled"))
        if huge:
            pr = get(t, cls, "blackScholesPrimal")
            L.append(f"\nBlack-Scholes H·v with `-XX:-DontCompileHugeMethods`: "
                     f"{fmt_ns(huge['score'])}{fmt_err(huge['error'])} ns, "
                     f"{fmt_ratio(ratio(huge['score'], pr))} × the primal (see the observations "
                     "under Findings).")
        if hv_ratios:
            L.append(f"\nTarget (issue 12) H·v / primal ≤ 5: "
                     f"{met(all(v <= 5 for _, v in hv_ratios))} ("
                     + "; ".join(f"{k} {v:.2f}" for k, v in hv_ratios) + "). `mHessianVector` "
                     "allocates its result and the gradient it computes on the way (2n doubles).\n")
    sizes = sorted({int(c.split("=")[1].rstrip("]")) for c, _ in t if c.startswith("HessianBench[")})
    if sizes:
        L.append("### Full Hessian of the extended Rosenbrock function (`HessianBench`)\n")
        L.append("`Σ 100 (x_{i+1} − x_i²)² + (1 − x_i)²` at a seeded point near (1, …, 1). "
                 "`mHessian`: n forward-over-reverse sweeps into a new n × n matrix; Hipparchus: one "
                 "evaluation with `DerivativeStructure` of order 2 in n variables; finite differences: "
                 "central differences of the generated gradient, 2n `mValueAndGradient` calls, step "
                 "6e-6 relative. *FD error*: largest difference to the generated Hessian, relative to its "
                 "largest entry (outside the timed code).\n")
        L.append("| n | primal ns | gradient ns | `mHessian` ns | Hipparchus DS ns | finite diff. ns | "
                 "`mHessian` / gradient | **DS / `mHessian`** | **finite diff. / `mHessian`** | "
                 "FD error | `mHessian` B/op |")
        L.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        speedups = []
        for n in sizes:
            c = f"HessianBench[n={n}]"
            pr = get(t, c, "primal")
            g = get(t, c, "reverseValueAndGradient")
            h = t.get((c, "hessian"))
            hs = h["score"] if h else None
            ds = get(t, c, "hipparchusDerivativeStructure")
            fd = get(t, c, "finiteDifferenceHessian")
            err = (check or {}).get("hessian", {}).get(str(n), {}).get("finiteDifferences")
            L.append(f"| {n} | {fmt_ns(pr)} | {fmt_ns(g)} | {fmt_ns(hs)}{fmt_err(h['error']) if h else ''} | "
                     f"{fmt_ns(ds)} | {fmt_ns(fd)} | {fmt_ratio(ratio(hs, g))} | "
                     f"**{fmt_ratio(ratio(ds, hs))}** | **{fmt_ratio(ratio(fd, hs))}** | "
                     f"{'–' if err is None else f'{err:.1e}'} | {fmt_alloc(h['alloc'], hs) if h else '–'} |")
            speedups.append((n, ratio(ds, hs), ratio(fd, hs)))
        L.append("\nTarget (issue 12) full Hessian ≥ 10× faster than Hipparchus `DerivativeStructure` of "
                 "order 2: " + met(all(d is not None and d >= 10 for _, d, _ in speedups)) + " ("
                 + "; ".join(f"n={n} {fmt_ratio(d)}×" for n, d, _ in speedups)
                 + "); ≥ 10× faster than finite differences of the generated gradient: "
                 + met(all(f is not None and f >= 10 for _, _, f in speedups)) + " ("
                 + "; ".join(f"n={n} {fmt_ratio(f)}×" for n, _, f in speedups) + ").\n")


def render_run(L, heading, t, info, functions, straight_line_means):
    """One run: its conditions, a summary table and a table per function, for the functions
    of which at least one variant was measured."""
    if not t:
        return
    L.append(f"## {heading}\n")
    render_conditions(L, t, info)
    present = [f for f in functions if any(k[0] == f[0] for k in t)]
    if not present:
        L.append("No benchmark of this report's functions in this run.\n")
        return
    L.append("### Summary\n")
    L.append("| function | n | primal ns | reverse ns | reverse / primal | forward n× / primal | "
             "hand-written / primal | reverse / hand | Hipparchus `Gradient` / reverse | "
             "`DerivativeStructure` / reverse | finite diff. / reverse |")
    L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cls, title, n in present:
        p = get(t, cls, "primal")
        r = get(t, cls, "reverseValueAndGradient")
        h = get(t, cls, "handWritten")
        L.append(f"| {title} | {n} | {fmt_ns(p)} | {fmt_ns(r)} | {fmt_ratio(ratio(r, p))} | "
                 f"{fmt_ratio(ratio(get(t, cls, 'forwardTangents'), p))} | {fmt_ratio(ratio(h, p))} | "
                 f"{fmt_ratio(ratio(r, h))} | {fmt_ratio(ratio(get(t, cls, 'hipparchusGradient'), r))} | "
                 f"{fmt_ratio(ratio(get(t, cls, 'hipparchusDerivativeStructure'), r))} | "
                 f"{fmt_ratio(ratio(get(t, cls, 'finiteDifferences'), r))} |")
    notes = "".join(f"Hand-written for {dict((c, tt) for c, tt, _ in functions)[c]} is {why}, "
                    "not a reverse mode. " for c, why in HAND_NOT_REVERSE.items()
                    if get(t, c, "handWritten"))
    if straight_line_means:
        gm = measured((c, ratio(get(t, c, "reverseValueAndGradient"), get(t, c, "primal")))
                      for c, _, _ in STRAIGHT)
        gm_all = measured((c, ratio(get(t, c, "reverseValueAndGradient"), get(t, c, "primal")))
                          for c, _, _ in functions)
        if gm_all:
            L.append(f"\nGeometric mean of reverse / primal over the {len(gm)} straight-line functions: "
                     f"**{fmt2(geomean([v for _, v in gm]))}**; over all {len(gm_all)} (with the loops): "
                     f"{fmt2(geomean([v for _, v in gm_all]))}. " + notes + "\n")
        elif notes:
            L.append("\n" + notes + "\n")
    else:
        L.append("")
    for cls, title, n in present:
        p = get(t, cls, "primal")
        L.append(f"### {title} ({n} inputs, `{cls}`)\n")
        L.append("| variant | ns/op | ratio to primal | B/op |")
        L.append("|---|---:|---:|---:|")
        for m, label in VARIANTS:
            r = t.get((cls, m))
            if not r:
                continue
            L.append(f"| {label} | {fmt_ns(r['score'])}{fmt_err(r['error'])} | "
                     f"{fmt_ratio(ratio(r['score'], p))} | {fmt_alloc(r['alloc'], r['score'])} |")
        L.append("")


# Before/after comparisons of the straight-line functions made by compare-builds.sh (files
# <Class>-before.json and <Class>-after.json, ClassBench without "Bench"): (folder, heading,
# what changed). Issue 14's targets: every reverse / primal <= 2.5, geometric mean <= 1.5.
STRAIGHT_LINE_AB = [
    ("accumulation-ab", "Adjoint accumulation (issue 14): straight-line functions before and after",
     "`transform/AdjointSums` sums the contributions to each adjoint once, as a balanced sum, and "
     "equal contributions as one term times their count",
     "the machine was shared: see the observations below"),
    ("factoring-ab", "Adjoint factoring (issue 14): straight-line functions before and after",
     "`transform/AdjointSums` sums the contributions that are multiples of one adjoint before one "
     "multiplication by it (`qBar * (t18 + x * 12.0 - 32.0)`, the statement's local partial, "
     "in place of the adjoints of its terms one by one)",
     "nothing else ran on the machine"),
]


def render_straight_line_ab(L, results):
    """The straight-line functions' reverse / primal before and after a change, measured class
    by class in one session (compare-builds.sh), possibly several times (the folder and its
    subfolders round*): per run the ratio of the two benchmarks of one JVM, then the median over
    the runs, with the geometric means of the medians."""
    for folder, heading, change, conditions in STRAIGHT_LINE_AB:
        base = os.path.join(results, folder)
        runs = []
        for d in [base] + sorted(glob.glob(os.path.join(base, "round*"))):
            tables = {}
            for side in ("before", "after"):
                t = {}
                for path in glob.glob(os.path.join(d, f"*-{side}.json")):
                    try:
                        t.update(jmh_table(load(path)))
                    except ValueError:
                        print(f"skipping {path}: not complete JSON (a run in progress?)",
                              file=sys.stderr)
                tables[side] = t
            if tables["before"] and tables["after"]:
                runs.append((os.path.relpath(d, results), tables))
        rows = [(c, title) for c, title, _ in STRAIGHT
                if any(all(get(t[s], c, m) is not None for s in ("before", "after")
                           for m in ("primal", "reverseValueAndGradient")) for _, t in runs)]
        if not rows:
            continue
        L.append(f"## {heading}\n")
        settings = "; ".join(
            f"`results/{name}/`: {any_r['forks']} fork{'s' if any_r['forks'] != 1 else ''}, warm-up "
            f"{any_r['warmup']}, measurement {any_r['measurement']}"
            for name, t in runs for any_r in [next(iter(t["after"].values()))])
        jdk = next(iter(runs[0][1]["after"].values()))["jdk"]
        L.append(f"{change}. Each run is `CLASSES=... VARIANTS='(primal|reverseValueAndGradient)$' "
                 f"ad-samples/src/bench/compare-builds.sh BEFORE AFTER DIR` (the two builds' benchmarks "
                 f"of one class one after the other, `-prof gc`), JDK {jdk}; {len(runs)} runs: {settings}. "
                 "Per run, reverse / primal is the ratio of the two benchmarks of one JMH invocation; "
                 f"the table gives its median over the runs and its range ({conditions}).\n")
        L.append("| function | runs | primal ns before | reverse ns before | **before / primal** (range) | "
                 "primal ns after | reverse ns after | **after / primal** (range) | B/op after |")
        L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")

        def median(xs):
            xs = sorted(xs)
            n = len(xs)
            return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2

        medians = {"before": [], "after": []}
        for c, title in rows:
            cells = []
            allocs = []
            for side in ("before", "after"):
                ps, rs, qs = [], [], []
                for _, t in runs:
                    p, r = t[side].get((c, "primal")), t[side].get((c, "reverseValueAndGradient"))
                    if p and r:
                        ps.append(p["score"])
                        rs.append(r["score"])
                        qs.append(r["score"] / p["score"])
                        if side == "after" and r["alloc"] is not None:
                            allocs.append((r["alloc"], r["score"]))
                m = median(qs)
                medians[side].append((title, m))
                cells.append(f"{fmt_ns(median(ps))} | {fmt_ns(median(rs))} | **{fmt_ratio(m)}** "
                             f"({fmt_ratio(min(qs))}–{fmt_ratio(max(qs))})")
            alloc = max(allocs) if allocs else (None, None)
            L.append(f"| {title} | {len(qs)} | {cells[0]} | {cells[1]} | {fmt_alloc(*alloc)} |")
        gb = geomean([v for _, v in medians["before"]])
        ga = geomean([v for _, v in medians["after"]])
        L.append(f"\nGeometric mean of the median reverse / primal over these {len(rows)} functions: "
                 f"before **{fmt2(gb)}**, after **{fmt2(ga)}**.\n")
        L.append("| target (issue 14), on the medians | before | after | measured after |")
        L.append("|---|---|---|---|")
        L.append(f"| every straight-line function ≤ 2.5 × its primal | "
                 f"{met(all(v <= 2.5 for _, v in medians['before']))} | "
                 f"{met(all(v <= 2.5 for _, v in medians['after']))} | "
                 + "; ".join(f"{k} {v:.2f}" for k, v in medians["after"]) + " |")
        L.append(f"| geometric mean ≤ 1.5 | {met(gb <= 1.5)} | {met(ga <= 1.5)} | {ga:.2f} |\n")


def main(argv):
    results, out_path = argv[1], argv[2]
    runs = {}
    for path in sorted(glob.glob(os.path.join(results, "jmh-jdk*.json"))):
        jdk = re.search(r"jmh-jdk(\w+)\.json", path).group(1)
        info_path = os.path.join(results, f"run-jdk{jdk}.json")
        huge_path = os.path.join(results, f"huge-methods-jdk{jdk}.json")
        try:
            data = load(path)
        except ValueError:
            print(f"skipping {path}: not complete JSON (a run in progress?)", file=sys.stderr)
            continue
        runs[jdk] = {"table": jmh_table(data),
                     "info": load(info_path) if os.path.exists(info_path) else {},
                     "huge": load(huge_path) if os.path.exists(huge_path) else None}
    jdks = sorted(runs, key=lambda j: int(j) if j.isdigit() else 0)
    L = []
    L.append("# ad4j benchmarks\n")
    L.append("<!-- Generated by ad-samples/src/bench/scripts/jmh_report.py from the JSON files in "
             "ad-samples/src/bench/results/: do not edit by hand; edit observations.md there. -->\n")
    L.append("JMH benchmarks of the code that ad4j generates, against the function itself (the "
             "*primal*), hand-written derivatives, central finite differences and Hipparchus' runtime "
             "forward AD (`Gradient`, `DerivativeStructure`). Sources: package `ad4j.samples.bench`; the "
             "`@Differentiable` functions are in `ad-samples/src/main/java/ad4j/samples/bench` (and the "
             "samples' `Rosenbrock`, `BlackScholes`, `LogisticLoss`), the benchmarks, hand-written "
             "gradients and Hipparchus versions in `ad-samples/src/bench/java` (built only with "
             "`-Pbench`).\n")
    L.append("## How to run\n")
    L.append("```sh\n"
             "ad-samples/src/bench/run-benchmarks.sh                                   # JDK of JAVA_HOME (else PATH)\n"
             "JAVA_HOME=<a JDK 25> ad-samples/src/bench/run-benchmarks.sh\n"
             "ad-samples/src/bench/compile-time.sh                                     # javac time, with and without ad4j\n"
             "# the focused re-run (more forks for the tight comparisons), after a run-benchmarks.sh build:\n"
             "java -cp \"ad-samples/target/classes:$(cat ad-samples/target/bench-classpath.txt)\" org.openjdk.jmh.Main -f 3 -wi 3 -w 1s -i 5 -r 1s \\\n"
             "  -rf json -rff ad-samples/src/bench/results/focused-jdk17.json \\\n"
             "  '(Rosenbrock|BlackScholes|LogisticLoss|BundleAdjustment|Chain|Horner|Rk4)Bench\\.(primal|reverseValueAndGradient|handWritten)$'\n"
             "```\n")
    L.append("`run-benchmarks.sh` builds with `mvn -Pbench -DskipTests package -pl ad-samples -am`, checks "
             "that all variants give the same derivatives (`CrossCheck`), then runs\n")
    L.append("```sh\njava -cp ad-samples/target/classes:<runtime class path> org.openjdk.jmh.Main \\\n"
             "  -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -rf json -rff ad-samples/src/bench/results/jmh-jdkNN.json ad4j.samples.bench.\n```\n")
    L.append("then `scripts/huge_methods.py` (bytecode sizes by `javap -c`, compilations by "
             "`-XX:+PrintCompilation`) and this report (`scripts/jmh_report.py`). Extra arguments go to "
             "JMH instead of the default regex (e.g. `RosenbrockBench`); `RESULTS_DIR=<folder>` keeps a "
             "partial run away from the committed results. `mvn -B verify` neither builds nor runs any "
             "of this.\n")
    L.append("Conventions: time per call of the benchmark method in ns (± JMH's 99.9 % error); *ratio* is "
             "that time over the primal of the same function; B/op is `gc.alloc.rate.norm` from `-prof gc` "
             "(0 when below 16 B/op: no object is smaller, and JMH's own background allocation shows as "
             "a few B/op when one call takes 100 µs; it grows with the time of a call, so for calls of a "
             "millisecond or more a B/op below 16 plus 10 per ms of the call shows as `0 (B/op)`: that "
             "much shows on primals that allocate nothing). Every gradient variant computes the full gradient (for bundle "
             "adjustment the full 2×15 Jacobian, and *primal* evaluates both residuals). Inputs are read "
             "from non-final `@State` fields and every result is returned.\n")

    for jdk in jdks:
        render_run(L, f"Results on JDK {jdk}", runs[jdk]["table"], runs[jdk]["info"], FUNCTIONS,
                   True)

    render_straight_line_ab(L, results)

    # named partial runs (run-benchmarks.sh with RUN_NAME): the array-parameter functions
    named = []
    for path in sorted(glob.glob(os.path.join(results, "jmh-*-jdk*.json"))):
        m = re.search(r"jmh-([A-Za-z][\w.-]*?)-jdk(\w+)\.json$", os.path.basename(path))
        if not m:
            continue
        name, jdk = m.group(1), m.group(2)
        try:
            t = jmh_table(load(path))
        except ValueError:
            print(f"skipping {path}: not complete JSON (a run in progress?)", file=sys.stderr)
            continue
        info_path = os.path.join(results, f"run-{name}-jdk{jdk}.json")
        info = load(info_path) if os.path.exists(info_path) else {}
        if name == SECOND_ORDER_RUN:
            check_path = os.path.join(results, "second-order-check.json")
            render_second_order(L, f"Second order on JDK {jdk} (run `{name}`)", t, info,
                                load(check_path) if os.path.exists(check_path) else None)
            continue
        named.append((name, jdk, t))
        render_run(L, f"Array parameters on JDK {jdk} (run `{name}`)", t, info,
                   with_parameterized(ARRAY_FUNCTIONS, t) + FUNCTIONS, False)

    # focused re-runs: more forks for the comparisons that need precision
    for path in sorted(glob.glob(os.path.join(results, "focused-jdk*.json"))):
        jdk = re.search(r"focused-jdk(\w+)\.json", path).group(1)
        t = jmh_table(load(path))
        any_r = next(iter(t.values()))
        L.append(f"## Focused re-run on JDK {jdk}: the tight comparisons with {any_r['forks']} forks\n")
        L.append("The single-fork tables above carry large errors on this shared machine; the comparisons "
                 "with a 1.2×, 3× or 4× bound were run again with "
                 f"`-f {any_r['forks']} -wi 3 -w 1s -i 5 -r 1s` (no profiler), JSON in "
                 f"`results/focused-jdk{jdk}.json`:\n")
        L.append("| function | primal ns | reverse ns | hand-written ns | reverse / primal | reverse / hand |")
        L.append("|---|---:|---:|---:|---:|---:|")
        for cls, title, n in FUNCTIONS:
            p = t.get((cls, "primal"))
            r = t.get((cls, "reverseValueAndGradient"))
            h = t.get((cls, "handWritten"))
            if not p or not r:
                continue
            L.append(f"| {title} | {fmt_ns(p['score'])}{fmt_err(p['error'])} | {fmt_ns(r['score'])}{fmt_err(r['error'])} | "
                     + (f"{fmt_ns(h['score'])}{fmt_err(h['error'])}" if h else "–")
                     + f" | {fmt_ratio(ratio(r['score'], p['score']))} | "
                     + (fmt_ratio(ratio(r['score'], h['score'])) if h else "–") + " |")
        L.append("")

    # method sizes
    huge = next((runs[j]["huge"] for j in jdks if runs[j]["huge"]), None)
    if huge:
        L.append("## Method size and the JIT\n")
        L.append(f"HotSpot does not JIT-compile a method with more than {huge['huge_method_limit']} bytes "
                 "of bytecode (`-XX:+DontCompileHugeMethods`, `HugeMethodLimit`). Bytecode sizes from "
                 "`javap -c` (offset of the last instruction + 1):\n")
        L.append("| class | method | bytecode bytes | over 8000? |")
        L.append("|---|---|---:|---|")
        for cls, methods in huge["bytecode_sizes"].items():
            groups = {}
            for name, size in methods.items():
                base = name.split("/")[0]
                if base == cls.split(".")[-1] or base in ("print", "row", "vec6", "adGradient",
                                                         "analyticGradient", "cdf", "pdf") or "normCdf" in base \
                        or base.startswith("lambda$"):
                    continue
                key = re.sub(r"\d+$", "<i>", base)
                groups.setdefault(key, []).append((name, size))
            for key, items in groups.items():
                if "<i>" in key and len(items) > 1:
                    lo, hi = min(v for _, v in items), max(v for _, v in items)
                    label = f"`{key.replace('<i>', '1')}` … `{key.replace('<i>', str(len(items)))}` ({len(items)} segments)"
                    L.append(f"| `{cls.split('.')[-1]}` | {label} | {lo:,}–{hi:,} | "
                             f"{'**yes**' if hi > huge['huge_method_limit'] else 'no'} |")
                else:
                    for name, size in items:
                        L.append(f"| `{cls.split('.')[-1]}` | `{name}` | {size:,} | "
                                 f"{'**yes**' if size > huge['huge_method_limit'] else 'no'} |")
        L.append("")
        for j in jdks:
            h = runs[j]["huge"]
            if not h:
                continue
            L.append(f"`-XX:+PrintCompilation` on JDK {j} while `HugeMethodCheck` calls each chain method "
                     "20,000 times (highest tier reached; absent = never compiled, stays interpreted):\n")
            L.append("| method | default flags | `-XX:-DontCompileHugeMethods` |")
            L.append("|---|---|---|")
            d = h["print_compilation_default"]["highest_tier"]
            a = h["print_compilation_huge_allowed"]["highest_tier"]
            sizes = h["bytecode_sizes"]
            names = ["Chain500.chain"] + [f"Chain500Grad.{n.split('/')[0]}"
                                          for n in sizes["ad4j.samples.bench.Chain500Grad"]
                                          if n.split("/")[0].startswith("chain") and
                                          not n.startswith("chainGradient")]
            groups = {}
            for nm in names:
                groups.setdefault(re.sub(r"\d+$", "<i>", nm), []).append(nm)
            def tiers(table, members):
                got = [table[m] for m in members if m in table]
                missing = len(members) - len(got)
                text = (f"tier {min(got)}" + (f"–{max(got)}" if max(got) != min(got) else "")) if got else ""
                if missing:
                    text += (", " if text else "") + f"**{missing} not compiled**"
                return text
            for key, members in groups.items():
                label = (f"`{key.replace('<i>', '1')}` … `{key.replace('<i>', str(len(members)))}`"
                         if len(members) > 1 else f"`{members[0]}`")
                L.append(f"| {label} | {tiers(d, members)} | {tiers(a, members)} |")
            L.append("")

    # compile time
    ct_path = os.path.join(results, "compile-time.json")
    ct = load(ct_path) if os.path.exists(ct_path) else None
    if ct:
        L.append("## Compile time\n")
        L.append(f"`{ct['javac']}` run directly (`scripts/compile_time.py`), a fresh process per "
                 f"compilation, wall clock, median of {ct['runs']} runs. *none* = `-proc:none` (the user's "
                 "class alone); *only* = `-proc:only` with the processor (analysis and writing `FooGrad.java`); "
                 "*full* = with the processor (processing and compiling the generated class: what a build "
                 "pays). The sources are written by `scripts/gen_sources.py` (`many`: 200 methods of about 14 "
                 "operations; `ops`: one chain method of x = x·a + sin y; y = cos(x)·b − y·c statements).\n")
        L.append("| case | methods | operations | none ms | only ms | full ms | processing (only − none) ms | "
                 "processing + compiling `FooGrad` (full − none) ms | per method (full − none) ms | "
                 "processing per 1000 operations ms | generated lines | result |")
        L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for c in ct["cases"]:
            m = c["modes"]
            proc = m["only"]["median_ms"] - m["none"]["median_ms"]
            extra = m["full"]["median_ms"] - m["none"]["median_ms"]
            errors = [e[e.index("error:"):] for e in m["full"].get("error", []) if "error:" in e]
            res = "ok" if m["full"]["exit_code"] == 0 else "**javac fails**: " + "; ".join(errors[:1])
            L.append(f"| {c['case']} | {c['methods']} | {c['operations']:,} | {m['none']['median_ms']:,.0f} | "
                     f"{m['only']['median_ms']:,.0f} | {m['full']['median_ms']:,.0f} | {proc:,.0f} | "
                     f"{extra:,.0f}{'' if m['full']['exit_code'] == 0 else ' (until the error)'} | "
                     f"{extra / c['methods']:,.1f} | {proc / c['operations'] * 1000:,.0f} | "
                     f"{m['only'].get('generated_lines', '–')} | {res} |")
        ops = [c for c in ct["cases"] if c["methods"] == 1]
        if len(ops) > 1:
            L.append("\nGrowth of the processing time (only − none) between consecutive sizes, per 1000 "
                     "added operations (constant = linear): " + "; ".join(
                         f"{a['operations']:,} → {b['operations']:,}: "
                         f"{((b['modes']['only']['median_ms'] - b['modes']['none']['median_ms']) - (a['modes']['only']['median_ms'] - a['modes']['none']['median_ms'])) / (b['operations'] - a['operations']) * 1000:,.0f} ms"
                         for a, b in zip(ops, ops[1:])) + ".")
        if ct.get("load_average_before"):
            L.append(f"\nLoad average (1, 5, 15 min) before {ct['load_average_before']}, after "
                     f"{ct['load_average_after']}.")
        L.append("")

    # findings
    L.append("## Findings\n")
    for jdk in jdks:
        t = runs[jdk]["table"]
        L.append(f"Targets, measured on JDK {jdk}:\n")
        L.append("| target | result | measured |")
        L.append("|---|---|---|")
        rev_primal = lambda tt, fs: measured(
            (title, ratio(get(tt, c, "reverseValueAndGradient"), get(tt, c, "primal"))) for c, title, _ in fs)
        rs = rev_primal(t, STRAIGHT)
        target_row(L, "reverse gradient / primal ≤ 3 for every straight-line function", rs,
                   lambda v: v <= 3, "{:.2f}")
        if rs:
            g = geomean([v for _, v in rs])
            L.append(f"| geometric mean ≤ 2.5 (straight-line functions) | {met(g <= 2.5)} | {g:.2f} |")
        loops = [(title, ratio(get(t, c, "reverseValueAndGradient"), get(t, c, "primal")),
                  ratio(get(t, c, "reverseValueAndGradient"), get(t, c, "handWritten")))
                 for c, title, _ in FUNCTIONS if c in LOOPS]
        loops = [x for x in loops if x[1] is not None]
        if loops:
            L.append(f"| loops: reverse / primal ≤ 4 (tape included) | {met(all(v <= 4 for _, v, _ in loops))} | "
                     + "; ".join(f"{k} {v:.2f}" + (f" (reverse / hand-written {h:.2f}×)" if h else "")
                                 for k, v, h in loops) + " |")
        hand = measured((title, ratio(get(t, c, "reverseValueAndGradient"), get(t, c, "handWritten")))
                        for c, title, _ in STRAIGHT)
        target_row(L, "generated gradient within 1.2× of hand-written", hand, lambda v: v <= 1.2, "{:.2f}×")
        allocation_row(L, t, FUNCTIONS)
        hip = measured((f"{title} (n={n})", ratio(get(t, c, "hipparchusGradient"),
                                                    get(t, c, "reverseValueAndGradient")))
                       for c, title, n in FUNCTIONS if n in (15, 30))
        target_row(L, "≥ 10× faster than Hipparchus `Gradient` at 15 and 30 inputs", hip,
                   lambda v: v >= 10, "{:.1f}×")
        fpath = os.path.join(results, f"focused-jdk{jdk}.json")
        if os.path.exists(fpath):
            ft = jmh_table(load(fpath))
            fh = measured((title, ratio(get(ft, c, "reverseValueAndGradient"), get(ft, c, "handWritten")))
                          for c, title, _ in STRAIGHT)
            target_row(L, "generated within 1.2× of hand-written, focused 3-fork re-run", fh,
                       lambda v: v <= 1.2, "{:.2f}×")
            target_row(L, "reverse / primal ≤ 3, focused 3-fork re-run", rev_primal(ft, STRAIGHT),
                       lambda v: v <= 3, "{:.2f}")
            target_row(L, "loops: reverse / primal ≤ 4, focused 3-fork re-run",
                       rev_primal(ft, [f for f in FUNCTIONS if f[0] in LOOPS]), lambda v: v <= 4, "{:.2f}")
        h = runs[jdk]["huge"]
        if h and "ad4j.samples.bench.Chain500Grad" in h.get("bytecode_sizes", {}):
            sizes = h["bytecode_sizes"]
            user = sizes["ad4j.samples.bench.Chain500"]["chain/5"]
            gen_all = sizes["ad4j.samples.bench.Chain500Grad"]
            gen = {k: v for k, v in gen_all.items() if v > 8000}
            d = h["print_compilation_default"]["highest_tier"]
            uncompiled = [k for k in gen_all if k.split("/")[0].startswith("chain")
                          and not k.startswith("chainGradient") and f"Chain500Grad.{k.split('/')[0]}" not in d]
            cliff = ratio(get(t, "ChainBench", "reverseValueAndGradient"), get(t, "ChainBench", "primal"))
            huge_ok = get(t, "ChainBench", "reverseValueAndGradientHugeCompiled")
            L.append(f"| no cliff on large methods | {met(not gen and not uncompiled)} | user's `chain` {user:,} bytes; "
                     + (", ".join(f"`{k}` {v:,} bytes" for k, v in gen.items()) + " → over 8000; "
                        if gen else f"largest generated method {max(gen_all.values()):,} bytes; ")
                     + (f"never JIT-compiled: {', '.join('`' + u + '`' for u in uncompiled)}; " if uncompiled
                        else "all generated methods JIT-compiled (PrintCompilation); ")
                     + (f"reverse / primal {cliff:.2f}" if cliff is not None else "ChainBench not in this run")
                     + (f", {ratio(huge_ok, get(t, 'ChainBench', 'primal')):.2f} with -XX:-DontCompileHugeMethods"
                        if huge_ok and get(t, 'ChainBench', 'primal') else "") + " |")
        L.append("")
    for name, jdk, t in named:
        functions = with_parameterized(ARRAY_FUNCTIONS, t)
        present = [f for f in functions if get(t, f[0], "primal") is not None]
        if not present:
            continue
        L.append(f"Targets for the array-parameter functions, run `{name}` on JDK {jdk}:\n")
        L.append("| target | result | measured |")
        L.append("|---|---|---|")
        rs = measured((title, ratio(get(t, c, "reverseValueAndGradient"), get(t, c, "primal")))
                      for c, title, _ in functions)
        target_row(L, "reverse gradient / primal ≤ 3 (issue 10's target for arrays; tape included)", rs,
                   lambda v: v <= 3, "{:.2f}")
        hand = measured((title, ratio(get(t, c, "reverseValueAndGradient"), get(t, c, "handWritten")))
                        for c, title, _ in functions)
        target_row(L, "generated gradient within 1.2× of hand-written", hand, lambda v: v <= 1.2, "{:.2f}×")
        allocation_row(L, t, functions)
        hip = measured((f"{title} (n={n})", ratio(get(t, c, "hipparchusGradient"),
                                                    get(t, c, "reverseValueAndGradient")))
                       for c, title, n in functions)
        target_row(L, "≥ 10× faster than Hipparchus `Gradient`", hip, lambda v: v >= 10, "{:.1f}×")
        L.append("")
    obs = os.path.join(results, "observations.md")
    if os.path.exists(obs):
        with open(obs, encoding="utf-8") as f:
            L.append(f.read().strip() + "\n")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(L))


if __name__ == "__main__":
    main(sys.argv)
