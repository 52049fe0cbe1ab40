#!/usr/bin/env python3
"""The agent's sustained-rate figures (issue 12): the highest call rate that loses nothing
at the default PROF_BUFFER_MB, for 1 and for 8 threads, and the loss at twice that rate.

Two workloads, each paced (spinning) to a rate per thread for about --seconds (long enough
that the pool alone cannot absorb a fast run: the writer must keep up):
  events    agent/bench:record_rate_benchmark, cudaEventRecord: the agent's own ceiling
  launches  testdata/workloads:launch_stress, cudaLaunchKernel with the simulated CUPTI
The trace is read with agent/tests:trace_counts. A rate is "zero loss" when every call is
in the trace and no loss counter is set. Prints figures; asserts nothing.

  sustained_rate.py --bin BAZEL_BIN --agent LIBPROF --cupti LIBCUPTI [--seconds 2]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile


# LossKind values of host records (buffer full, no buffer, control record, range dropped);
# the others are CUPTI's (device activity), reported apart.
HOST_LOSS_KINDS = {1, 7, 8, 9}


def run(args, workload, threads, rate, seconds, scratch):
    """One paced run: (calls made, calls in the trace, records lost, achieved rate)."""
    out = os.path.join(scratch, "out")
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, LD_PRELOAD=args.agent, PROF_OUTPUT_DIR=out,
               PROF_CUPTI_LIB=args.cupti, PROF_LOG_LEVEL="error")
    if workload == "events":
        printed = subprocess.run(
            [os.path.join(args.bin, "agent/bench/record_rate_benchmark"), str(threads),
             str(int(rate)), str(seconds)],
            env=env, check=True, capture_output=True, text=True).stdout
        match = re.search(r"calls (\d+) rate (\d+)", printed)
        calls, achieved = int(match.group(1)), float(match.group(2))
        pattern = r"^api cudaEventRecord (\d+)$"
    else:
        # Unpaced: as many launches as ~1.5M/s would make (the simulated runtime's pace).
        per_thread = int((rate or 1.5e6 / threads) * seconds)
        calls = per_thread * threads
        truth = os.path.join(scratch, "truth.json")
        subprocess.run([os.path.join(args.bin, "testdata/workloads/launch_stress"),
                        "--threads", str(threads), "--launches", str(calls), "--rounds", "1",
                        "--rate", str(int(rate)), "--truth", truth],
                       env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        achieved = float(json.load(open(truth))["args"]["measured_launches_per_second"])
        pattern = r"^launch \S+ (\d+)$"
    counts = subprocess.run([os.path.join(args.bin, "agent/tests/trace_counts"), out],
                            check=True, capture_output=True, text=True).stdout
    recorded = sum(int(m.group(1)) for m in re.finditer(pattern, counts, re.M))
    losses = {int(m.group(1)): int(m.group(2))
              for m in re.finditer(r"^loss kind=(\d+) (\d+)$", counts, re.M)}
    host = sum(count for kind, count in losses.items() if kind in HOST_LOSS_KINDS)
    device = sum(count for kind, count in losses.items() if kind not in HOST_LOSS_KINDS)
    return calls, recorded, host, achieved, device


def zero_loss(result):
    """Every call in the trace, no host record lost (CUPTI's own drops are shown apart)."""
    calls, recorded, lost = result[:3]
    return lost == 0 and recorded == calls


def percent(part, whole):
    return f"{100 * part / max(whole, 1):.2f}%"


def figures(args, workload, threads, goal, scratch):
    # As fast as it goes: the machine's ceiling for this many threads.
    ceiling = run(args, workload, threads, 0, args.seconds, scratch)
    best = None
    if zero_loss(ceiling):
        best = ceiling[3] / threads
        note = "no loss even unpaced: the call rate itself is the limit"
    else:
        low, high = 0.0, ceiling[3] / threads
        for _ in range(args.steps):
            rate = (low + high) / 2
            result = run(args, workload, threads, rate, args.seconds, scratch)
            if zero_loss(result):
                low, best = rate, result[3] / threads
            else:
                high = rate
        note = "bisected below the unpaced rate"
    print(f"   {workload}, {threads} thread(s): unpaced {ceiling[3]:,.0f} calls/s, host "
          f"{percent(ceiling[2], ceiling[0])} lost, CUPTI dropped {ceiling[4]:,} records")
    print(f"     highest zero-loss rate {(best or 0) * threads:,.0f} events/s "
          f"({best or 0:,.0f}/thread; goal >= {goal:,.0f}/thread)  [{note}]")
    if best:
        double = run(args, workload, threads, 2 * best, args.seconds, scratch)
        print(f"     at 2x ({2 * best:,.0f}/thread asked, {double[3] / threads:,.0f} achieved): "
              f"host {percent(double[2], double[0])} lost, CUPTI dropped {double[4]:,} records")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--cupti", required=True)
    parser.add_argument("--seconds", type=float, default=2)
    parser.add_argument("--steps", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="prof-rate.") as scratch:
        for workload in ("events", "launches"):
            figures(args, workload, 1, 5e6, scratch)
            figures(args, workload, 8, 1e6, scratch)


if __name__ == "__main__":
    main()
