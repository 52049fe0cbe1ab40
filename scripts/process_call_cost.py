#!/usr/bin/env python3
"""Process-level cost of a recorded CUDA call: the agent's hook plus the writer's share.

Runs a launch loop (testdata/workloads/launch_stress) without the agent and under it
(recording host API calls only: PROF_ACTIVITIES=cuda), alternating, and divides the
difference out per launch, two ways:
  * CPU: user + system time of the whole process (every thread: the program's hook and the
    agent's writer), from wait4's rusage. Steady on a loaded machine.
  * wall: the loop's own launches/s (its truth file), 1/rate under the agent minus 1/rate
    without. On a machine with fewer idle cores than threads it also counts waiting for a core.
    Net of load and exit (the loop times itself): issue 26's figure, goal <= 40 ns.
Prints figures, each difference beside the goal; asserts nothing.

  process_call_cost.py --agent libprof.so --program launch_stress [--launches N] [--runs R]
                       [--goal-ns 40] [--env NAME=VALUE ...] [--baseline-agent old.so]
                       [--clock-cost agent/bench/clock_cost]

--baseline-agent adds a third variant, alternating with the other two: another build of the
agent (the commit before a change), so a change is measured against its baseline in one run.

--clock-cost (agent/bench/clock_cost, built -c opt) measures this machine's cost of one TSC
read and one clock_gettime, once per round of runs (median of the rounds), and prints the
added figures less two reads of the agent's clock (the TSC; clock_gettime under
PROF_CLOCK=monotonic) beside the goal: a recorded call needs a start and an end time, so
any tracer of a call's duration reads the clock twice, and on a machine where two reads
come near the goal the rest is what the agent can still make cheaper.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile


def run_once(program, launches, environment, folder):
    truth = os.path.join(folder, "truth.json")
    shutil.rmtree(os.path.join(folder, "out"), ignore_errors=True)
    env = dict(os.environ, PROF_OUTPUT_DIR=os.path.join(folder, "out"), PROF_LOG_LEVEL="error")
    env.update(environment)
    process = subprocess.Popen([program, "--launches", str(launches), "--truth", truth],
                               env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{program} failed (status {status})")
    with open(truth) as file:
        rate = float(json.load(file)["args"]["measured_launches_per_second"])
    return usage.ru_utime + usage.ru_stime, rate


def clock_cost(program):
    """One TSC read and one clock_gettime on this machine, ns: {"tsc_ns": .., ...}."""
    output = subprocess.run([program, "15", "200000"], check=True, capture_output=True,
                            text=True).stdout
    return {name: float(value) for name, value in (line.split() for line in output.splitlines())}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--launches", type=int, default=2000000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--goal-ns", type=float, default=40)
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the agent run")
    parser.add_argument("--baseline-agent", help="another libprof.so, measured alternating")
    parser.add_argument("--clock-cost", help="agent/bench/clock_cost: print the figure less two reads")
    args = parser.parse_args()
    agent_env = {"LD_PRELOAD": args.agent, "PROF_ACTIVITIES": "cuda"}
    agent_env.update(item.split("=", 1) for item in args.env)
    variants = {"without": {}, "agent": agent_env}
    if args.baseline_agent:
        variants["baseline"] = dict(agent_env, LD_PRELOAD=args.baseline_agent)
    results = {mode: [] for mode in variants}
    clocks = []
    with tempfile.TemporaryDirectory(prefix="prof-call-cost.") as folder:
        for _ in range(args.runs):
            for mode, environment in variants.items():
                results[mode].append(run_once(args.program, args.launches, environment, folder))
            if args.clock_cost:
                clocks.append(clock_cost(args.clock_cost))
    n = args.launches
    cpu = {mode: statistics.median(c for c, _ in runs) * 1e9 / n for mode, runs in results.items()}
    wall = {mode: statistics.median(1e9 / r for _, r in runs) for mode, runs in results.items()}
    shown = " ".join(f"{k}={v}" for k, v in agent_env.items() if k != "LD_PRELOAD")
    print(f"   launch loop, {n} launches, median of {args.runs} alternating runs; agent: {shown}")
    print(f"   CPU ns per launch (all threads): without {cpu['without']:7.1f}   under the agent "
          f"{cpu['agent']:7.1f}   added {cpu['agent'] - cpu['without']:6.1f}   goal <= {args.goal_ns:g}")
    print(f"   wall ns per launch (the loop):   without {wall['without']:7.1f}   under the agent "
          f"{wall['agent']:7.1f}   added {wall['agent'] - wall['without']:6.1f}   goal <= {args.goal_ns:g}")
    if args.baseline_agent:
        print(f"   baseline agent ({args.baseline_agent}), same runs: CPU added "
              f"{cpu['baseline'] - cpu['without']:6.1f}   wall added "
              f"{wall['baseline'] - wall['without']:6.1f}")
    if clocks:
        print_clock_bound(clocks, agent_env, cpu, wall, args.goal_ns)


def print_clock_bound(clocks, agent_env, cpu, wall, goal_ns):
    tsc = statistics.median(c["tsc_ns"] for c in clocks)
    gettime = statistics.median(c["clock_gettime_ns"] for c in clocks)
    monotonic = agent_env.get("PROF_CLOCK") == "monotonic"
    name, read = ("clock_gettime", gettime) if monotonic else ("TSC", tsc)
    print(f"   one clock read on this machine (clock_cost, thread CPU, median of {len(clocks)}): "
          f"TSC {tsc:.1f} ns, clock_gettime {gettime:.1f} ns")
    print(f"   the clock's floor: two {name} reads {2 * read:.1f} ns (a call's start and end, read by "
          f"any tracer of its duration)")
    print(f"   added less two {name} reads:     CPU {cpu['agent'] - cpu['without'] - 2 * read:6.1f}"
          f"   wall {wall['agent'] - wall['without'] - 2 * read:6.1f}   goal <= {goal_ns:g} with the "
          f"reads, {goal_ns - 2 * read:.1f} without")


if __name__ == "__main__":
    main()
