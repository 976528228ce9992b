#!/usr/bin/env python3
"""Lines of the code ad4j generates for ad-samples, by file and in total.

  generated_lines.py [GENERATED_DIR] [--files]

GENERATED_DIR defaults to ad-samples/target/generated-sources/annotations (after a bench build,
`mvn -q -B -Pbench -DskipTests package -pl ad-samples -am`, it holds the bench classes' code too).
Counts the companions ad4j writes, `*Grad.java` and `*GradSweeps.java`, and nothing of JMH's
(`jmh_generated`). Prints the totals of the samples and of the bench classes and, with --files,
every file's lines, longest first.
"""
import os
import sys


def counts(root):
    files = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "jmh_generated"]
        for name in names:
            if name.endswith("Grad.java") or name.endswith("GradSweeps.java"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    files[os.path.relpath(path, root)] = sum(1 for _ in f)
    return files


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    here = os.path.dirname(os.path.abspath(__file__))
    root = args[0] if args else os.path.join(here, "..", "..", "..", "target", "generated-sources",
                                             "annotations")
    files = counts(root)
    bench = sum(n for p, n in files.items() if os.sep + "bench" + os.sep in os.sep + p)
    total = sum(files.values())
    if "--files" in argv:
        for path, n in sorted(files.items(), key=lambda item: -item[1]):
            print(f"{n:9d}  {path}")
    print(f"{total - bench:9d}  samples")
    print(f"{bench:9d}  bench")
    print(f"{total:9d}  total ({len(files)} files)")


if __name__ == "__main__":
    main(sys.argv)
