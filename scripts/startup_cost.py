#!/usr/bin/env python3
"""What libprof.so adds to a process that never touches CUDA: wall time and peak RSS of a
command run plainly and under variants of the agent's environment, alternating runs (so
a machine's drifting load falls on every variant alike), medians printed beside a goal.

    startup_cost.py --spawner SPAWN_COST --runs N --goal-ms G [--goal-kib K] \
        LABEL:ENV=VALUE,... -- COMMAND...

The first variant is the baseline (usually "plain:" with no variables); every other line
shows its median minus the baseline's. ENV values may not contain commas. Each run is one
call of agent/bench/spawn_cost (fork, exec, wait4: wall and CPU time, ru_maxrss), a small
static program, since a child of this Python process would report Python's RSS. Python
may write .pyc files (PYTHONDONTWRITEBYTECODE is dropped): the first run of each variant
is a warm-up.
"""
import argparse
import os
import subprocess
import statistics
import sys


def parse_variant(text):
    label, _, assignments = text.partition(":")
    extra = {}
    for assignment in filter(None, assignments.split(",")):
        name, _, value = assignment.partition("=")
        extra[name] = value
    return label, extra


def run_once(spawner, command, environment):
    completed = subprocess.run([spawner] + command, env=environment, capture_output=True,
                               text=True)
    if completed.returncode != 0:
        raise SystemExit("startup_cost: %s exited with %d\n%s"
                         % (command, completed.returncode, completed.stderr))
    elapsed_ms, rss_kib, cpu_ms = completed.stdout.split()
    return float(elapsed_ms), int(rss_kib), float(cpu_ms)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spawner", required=True, help="agent/bench/spawn_cost")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--goal-ms", type=float, required=True)
    parser.add_argument("--goal-kib", type=float, default=None)
    parser.add_argument("variants", nargs="+")
    argv = sys.argv[1:]
    if "--" not in argv:
        parser.error("no -- COMMAND")
    split = argv.index("--")
    arguments, command = parser.parse_args(argv[:split]), argv[split + 1:]
    variants = [parse_variant(text) for text in arguments.variants]
    base_environment = {k: v for k, v in os.environ.items()
                        if k not in ("LD_PRELOAD", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")
                        and not k.startswith("PROF_")}
    samples = {label: ([], [], []) for label, _ in variants}
    for label, extra in variants:  # one warm-up each (page cache, .pyc files)
        run_once(arguments.spawner, command, dict(base_environment, **extra))
    for _ in range(arguments.runs):
        for label, extra in variants:
            run = run_once(arguments.spawner, command, dict(base_environment, **extra))
            for column, value in zip(samples[label], run):
                column.append(value)
    base_label = variants[0][0]
    base = [statistics.median(column) for column in samples[base_label]]
    print("   %-24s %9s %9s %9s %9s %9s %9s %9s" % (
        "", "wall ms", "added", "CPU ms", "added", "vs above", "RSS KiB", "added"))
    above = None
    for label, _ in variants:
        ms, kib, cpu = (statistics.median(column) for column in samples[label])
        first = label == base_label
        print("   %-24s %9.3f %9s %9.3f %9s %9s %9.0f %9s" % (
            label, ms, "" if first else "%+.3f" % (ms - base[0]),
            cpu, "" if first else "%+.3f" % (cpu - base[2]),
            "" if above is None or len(variants) < 3 else "%+.3f" % (cpu - above), kib,
            "" if first else "%+.0f" % (kib - base[1])))
        above = cpu
    goals = "goal: <= %.1f ms" % arguments.goal_ms
    if arguments.goal_kib is not None:
        goals += " and <= %.0f KiB" % arguments.goal_kib
    print("   (medians of %d alternating runs each; %s added; CPU time is user +"
          " system, steadier than wall time on a busy machine)" % (arguments.runs, goals))


if __name__ == "__main__":
    main()
