#!/usr/bin/env python3
"""The agent's sustained-rate figures (issue 12): the highest launch rate that loses nothing
at the default PROF_BUFFER_MB, for 1 and for 8 threads, and the loss at twice that rate.

Runs testdata/workloads/launch_stress under the agent, paced with --rate, each run lasting
about --seconds (long enough that the pool alone cannot absorb it: the writer must keep
up), and reads the trace with agent/tests:trace_counts. A rate is "zero loss" when every
launch is in the trace and no loss counter is set. Prints figures; asserts nothing.

  sustained_rate.py --bin BAZEL_BIN --agent LIBPROF --cupti LIBCUPTI [--seconds 3]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile


def run(args, threads, rate, seconds, scratch):
    """One paced run: (launches asked, launches in the trace, records lost, achieved rate)."""
    per_thread = int(rate * seconds) if rate else int(8e6 * seconds / threads)
    launches = per_thread * threads
    out = os.path.join(scratch, "out")
    shutil.rmtree(out, ignore_errors=True)
    truth = os.path.join(scratch, "truth.json")
    env = dict(os.environ, LD_PRELOAD=args.agent, PROF_OUTPUT_DIR=out,
               PROF_CUPTI_LIB=args.cupti, PROF_LOG_LEVEL="error")
    subprocess.run([os.path.join(args.bin, "testdata/workloads/launch_stress"),
                    "--threads", str(threads), "--launches", str(launches), "--rounds", "1",
                    "--rate", str(int(rate)), "--truth", truth],
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    counts = subprocess.run([os.path.join(args.bin, "agent/tests/trace_counts"), out],
                            check=True, capture_output=True, text=True).stdout
    recorded = sum(int(m.group(1)) for m in re.finditer(r"^launch \S+ (\d+)$", counts, re.M))
    lost = sum(int(m.group(1)) for m in re.finditer(r"^loss kind=\d+ (\d+)$", counts, re.M))
    achieved = float(json.load(open(truth))["args"]["measured_launches_per_second"])
    return launches, recorded, lost, achieved


def zero_loss(result):
    launches, recorded, lost, _ = result
    return lost == 0 and recorded == launches


def figures(args, threads, goal, scratch):
    # As fast as the runtime returns: the machine's ceiling for this many threads.
    ceiling = run(args, threads, 0, args.seconds, scratch)
    best = None
    if zero_loss(ceiling):
        best = ceiling[3] / threads
        note = "no loss even unpaced: the limit is the launch rate itself"
    else:
        low, high = 0.0, ceiling[3] / threads
        for _ in range(args.steps):
            rate = (low + high) / 2 if low else high / 4
            result = run(args, threads, rate, args.seconds, scratch)
            if zero_loss(result):
                low, best = rate, result[3] / threads
            else:
                high = rate
        note = "binary search between 0 and the unpaced rate"
    total = best * threads if best else 0
    print(f"   {threads} thread(s): unpaced {ceiling[3]:,.0f} launches/s "
          f"({100 * ceiling[2] / max(ceiling[0], 1):.2f}% lost)")
    print(f"     highest zero-loss rate: {total:,.0f} events/s ({best or 0:,.0f} per thread)"
          f"   goal >= {goal:,.0f} per thread   [{note}]")
    if best:
        double = run(args, threads, 2 * best, args.seconds, scratch)
        print(f"     at 2x ({2 * best:,.0f}/thread asked, {double[3] / threads:,.0f} achieved): "
              f"{100 * double[2] / max(double[0], 1):.2f}% lost")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--cupti", required=True)
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--steps", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="prof-rate.") as scratch:
        figures(args, 1, 5e6, scratch)
        figures(args, 8, 1e6, scratch)


if __name__ == "__main__":
    main()
