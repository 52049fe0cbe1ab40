#!/usr/bin/env python3
"""The flight recorder's cost on the held-out style launcher (issue 23).

Runs `train_ranks --ranks N` (forked ranks, DDP-style all-reduces plus the group
collectives each step, on the simulated NCCL) three ways, alternating: without the agent,
under it with a CLOSED schedule, and under it with a CLOSED schedule and PROF_FLIGHT=1.
Each run's figure is the median step time over the ranks' truth files (first 3 steps
skipped); each mode's, the median over runs. The recorder's cost is CLOSED+flight against
CLOSED (the same agent, the ring on or off), printed beside the goal; the agent's own
CLOSED cost against no agent is shown for scale. Prints figures; asserts nothing.

  flight_cost.py --agent libprof.so --cupti libcupti.so.13 --program train_ranks
                 [--ranks 2] [--steps 40] [--batch-size 32] [--runs 5] [--goal-pct 2]
"""
import argparse
import glob
import json
import os
import resource
import shutil
import statistics
import subprocess
import tempfile

CLOSED = "skip_first=1000000,record=1"  # every step CLOSED: no window ever opens


def median_step_ms(folder):
    medians = []
    for path in glob.glob(os.path.join(folder, "truth.rank*.json")):
        with open(path) as file:
            steps = json.load(file)["steps"][3:]
        medians.append(statistics.median((s["end_ns"] - s["start_ns"]) / 1e6 for s in steps))
    if not medians:
        raise SystemExit("flight_cost.py: no truth files written")
    return statistics.median(medians)


def run_once(args, environment, folder):
    for old in glob.glob(os.path.join(folder, "truth.rank*.json")):
        os.remove(old)
    shutil.rmtree(os.path.join(folder, "out"), ignore_errors=True)
    env = dict(os.environ, PROF_OUTPUT_DIR=os.path.join(folder, "out"), PROF_LOG_LEVEL="error",
               PROF_CUPTI_LIB=args.cupti)
    env.update(environment)
    command = [args.program, "--ranks", str(args.ranks), "--steps", str(args.steps),
               "--batch-size", str(args.batch_size), "--truth", os.path.join(folder, "truth.json")]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    status = subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The ranks are train_ranks' own children, waited for by it: their CPU time is in here.
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if status != 0:
        raise SystemExit(f"flight_cost.py: {' '.join(command)} failed (status {status})")
    dumps = glob.glob(os.path.join(folder, "out", "*.flight_*"))
    if dumps:
        raise SystemExit(f"flight_cost.py: a healthy run dumped: {dumps[0]}")
    return median_step_ms(folder), cpu_s


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--cupti", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--goal-pct", type=float, default=2)
    parser.add_argument("--base-agent",
                        help="another build (e.g. of the base commit) run CLOSED+flight alongside")
    args = parser.parse_args()
    modes = {
        "without": {},
        "CLOSED": {"LD_PRELOAD": args.agent, "PROF_SCHEDULE": CLOSED},
        "CLOSED+flight": {"LD_PRELOAD": args.agent, "PROF_SCHEDULE": CLOSED, "PROF_FLIGHT": "1"},
    }
    if args.base_agent:
        modes["base CLOSED+fl"] = {"LD_PRELOAD": args.base_agent, "PROF_SCHEDULE": CLOSED,
                                   "PROF_FLIGHT": "1"}
    results = {mode: [] for mode in modes}
    cpu = {mode: [] for mode in modes}
    with tempfile.TemporaryDirectory(prefix="prof-flight-cost.") as folder:
        for _ in range(args.runs):
            for mode, environment in modes.items():
                step_ms, cpu_s = run_once(args, environment, folder)
                results[mode].append(step_ms)
                cpu[mode].append(cpu_s)
    step = {mode: statistics.median(values) for mode, values in results.items()}
    cpu_s = {mode: statistics.median(values) for mode, values in cpu.items()}
    print(f"   train_ranks --ranks {args.ranks} --steps {args.steps} --batch-size {args.batch_size},"
          f" median step of {args.runs} alternating runs")
    print(f"   {'without':14} {step['without']:9.3f} ms")
    print(f"   {'CLOSED':14} {step['CLOSED']:9.3f} ms  {100 * (step['CLOSED'] / step['without'] - 1):+6.2f}% vs without")
    ratio = step["CLOSED+flight"] / step["CLOSED"]
    print(f"   {'CLOSED+flight':14} {step['CLOSED+flight']:9.3f} ms  ratio {ratio:.4f} to CLOSED"
          f" ({100 * (ratio - 1):+.2f}%)   goal <= {args.goal_pct:g}%")
    if args.base_agent:
        base = step["base CLOSED+fl"]
        print(f"   {'base CLOSED+fl':14} {base:9.3f} ms  ratio {base / step['CLOSED']:.4f} to CLOSED")
    # CPU time (user+sys of the whole job, median of the runs): steadier than step times on
    # a loaded machine, where a step's wall time includes waiting for a core.
    print(f"   CPU time of a run (user+sys, all ranks; median):")
    for mode in modes:
        print(f"   {mode:14} {cpu_s[mode]:9.3f} s  {100 * (cpu_s[mode] / cpu_s['CLOSED'] - 1):+6.2f}%"
              " vs CLOSED")


if __name__ == "__main__":
    main()
