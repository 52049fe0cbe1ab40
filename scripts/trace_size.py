#!/usr/bin/env python3
"""Bytes per event on disk for the held-out style launcher: launch_stress paced to one launch
a microsecond (--rate 1000000) under the agent with the simulated CUPTI, so every launch
gives an API call and a kernel. Divides the trace files' bytes by the events in them (read
by agent/tests:trace_counts: API calls, kernels, ranges, marks, steps, memory events) and
checks that nothing was lost: every launch and every kernel is in the trace.
Prints figures; asserts nothing.

  trace_size.py --bin BAZEL_BIN --agent LIBPROF --cupti LIBCUPTI [--launches N] [--goal 6]
"""
import argparse
import json
import os
import re
import subprocess
import tempfile


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--cupti", required=True)
    parser.add_argument("--launches", type=int, default=200000)
    parser.add_argument("--goal", type=float, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="prof-trace-size.") as folder:
        out = os.path.join(folder, "out")
        env = dict(os.environ, LD_PRELOAD=args.agent, PROF_CUPTI_LIB=args.cupti,
                   PROF_OUTPUT_DIR=out, PROF_LOG_LEVEL="error")
        subprocess.run([os.path.join(args.bin, "testdata/workloads/launch_stress"),
                        "--launches", str(args.launches), "--rate", "1000000",
                        "--truth", os.path.join(folder, "truth.json")],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        size = sum(os.path.getsize(os.path.join(out, name)) for name in os.listdir(out))
        counts = subprocess.run([os.path.join(args.bin, "agent/tests/trace_counts"), out],
                                check=True, capture_output=True, text=True).stdout
    count = lambda kind: sum(int(m.group(1)) for m in re.finditer(rf"^{kind} \S+ (\d+)$", counts, re.M))
    steps = int(re.search(r"^steps (\d+) memory (\d+)", counts, re.M).group(1))
    memory = int(re.search(r"^steps (\d+) memory (\d+)", counts, re.M).group(2))
    lost = sum(int(m.group(1)) for m in re.finditer(r"^loss kind=\d+ (\d+)$", counts, re.M))
    events = count("api") + count("kernel") + count("range") + count("mark") + steps + memory
    print(f"   launch_stress --rate 1000000, {args.launches} launches: {size} bytes, {events} events "
          f"({count('launch')} launches, {count('kernel')} kernels, {lost} lost)")
    print(f"   bytes per event on disk: {size / max(events, 1):.2f}   goal <= {args.goal:g}")


if __name__ == "__main__":
    main()
