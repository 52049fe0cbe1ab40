#!/usr/bin/env python3
"""The baseline of the analyzer benchmark: the Kernel Summary (per kernel name: calls,
total, average, max, min, ratio of all kernel time) computed the way a user would with
pandas from a Chrome trace-event JSON (`profanalyze export`). Prints the top rows and the
number of kernel records; exits 3 with a note when pandas is missing.

    kernel_summary_pandas.py trace.json [--top N]
"""
import json
import sys


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import pandas as pd
    except ImportError:
        print("note: python3 pandas is not installed (Debian: apt-get install python3-pandas); "
              "baseline skipped", file=sys.stderr)
        return 3
    top = int(argv[argv.index("--top") + 1]) if "--top" in argv else 10
    with open(argv[1]) as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    frame = pd.DataFrame(events, columns=["ph", "cat", "name", "dur"])
    kernels = frame[(frame["ph"] == "X") & (frame["cat"] == "Kernel")]
    summary = kernels.groupby("name")["dur"].agg(["count", "sum", "mean", "max", "min"])
    summary["ratio_pct"] = 100.0 * summary["sum"] / summary["sum"].sum()
    summary = summary.sort_values("sum", ascending=False)
    with pd.option_context("display.width", 200, "display.max_colwidth", 60):
        print(summary.head(top).to_string())
    print(f"kernel records: {len(kernels)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
