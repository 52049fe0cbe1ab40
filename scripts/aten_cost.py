#!/usr/bin/env python3
"""Host cost per PyTorch operator: the agent's operators (PROF_PYTHON_OPS=1, ATen; and
=python, the Python-level functions) beside torch.profiler's CPU-only profiling, on one
small CPU training loop (conv, ReLU, linear, cross-entropy, SGD), with Debian's
/usr/bin/python3 and torch.

    aten_cost.py --agent LIBPROF_SO --cupti LIBCUPTI [--runs N] [--iterations N]
                 [--baseline-agent OTHER_LIBPROF_SO]

Each variant runs in its own process, alternating (a drifting machine load falls on all
alike); a process times `iterations` iterations after a warm-up, and the median over the
runs is printed. Cost per operator = (iteration time - plain iteration time) / operators
per iteration, where the operators are those torch.profiler reports (what the agent
records with PROF_PYTHON_OPS=1). torch.profiler is shown twice: while it collects, and
with its own end (profile.__exit__, which turns what it collected into events) spread over
the iterations. PROF_PYTHON_OPS=1 takes its operators from the agent's RecordFunction
observer (the default source); PROF_ATEN_SOURCE=profiler is the helper's own collection
through torch's profiler, whose figure includes its reads of that collection.
--baseline-agent adds PROF_PYTHON_OPS=1 under another build (with its own helper beside
it), alternating with the rest: a change's effect, side by side.

The last lines set the figure beside its goal (PROF_PYTHON_OPS=1 no costlier per operator
than torch.profiler's collection, in the same run), as a difference and a ratio, also net
of the agent's phases (what phases-only costs), and the parts of the helper's own read,
timed in one process under the agent: torch's collection, stopping it (torch builds its
result), and the replay (walking the event tree, one pybind read per field, and the one
call to the agent), per operator.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

PYTHON = "/usr/bin/python3"


def training_iteration():
    """One iteration of the measured loop, as a function (also aten_callgrind_loop.py's)."""
    import torch
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(),
                                torch.nn.Flatten(), torch.nn.Linear(8 * 8 * 8, 10))
    loss_function = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    images, labels = torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,))

    def iteration():
        optimizer.zero_grad()
        loss_function(model(images), labels).backward()
        optimizer.step()

    return iteration


def child(mode, iterations, warmup):
    import torch
    iteration = training_iteration()
    for _ in range(warmup):
        iteration()
    profiler = None
    if mode == "torch.profiler":
        profiler = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])
        profiler.__enter__()
    started = time.perf_counter(), time.process_time()
    for _ in range(iterations):
        iteration()
    collected = time.perf_counter(), time.process_time()
    operators = 0
    if profiler is not None:
        profiler.__exit__(None, None, None)
    ended = time.perf_counter(), time.process_time()
    if profiler is not None:
        operators = len(profiler.events()) / iterations
    print(json.dumps({
        "loop": [(collected[i] - started[i]) / iterations for i in (0, 1)],
        "with_end": [(ended[i] - started[i]) / iterations for i in (0, 1)],
        "operators": operators}))


VARIANTS = (  # label, under the agent, PROF_PYTHON_OPS
    ("plain", False, None),
    ("agent, phases only", True, "0"),
    ("agent, PROF_PYTHON_OPS=1", True, "1"),
    ("agent, PROF_ATEN_SOURCE=profiler", True, "1"),
    ("agent, PROF_PYTHON_OPS=python", True, "python"),
    ("torch.profiler", False, None),
)


def run_variant(arguments, label, agent, operators, scratch):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROF_") and k != "LD_PRELOAD"}
    if agent:
        library = arguments.baseline_agent if label.startswith("baseline") else arguments.agent
        env.update({"LD_PRELOAD": library, "PROF_CUPTI_LIB": arguments.cupti,
                    "PROF_OUTPUT_DIR": tempfile.mkdtemp(dir=scratch), "PROF_PYTHON_OPS": operators})
        if "PROF_ATEN_SOURCE=profiler" in label:
            env["PROF_ATEN_SOURCE"] = "profiler"
    mode = "torch.profiler" if label == "torch.profiler" else "plain"
    completed = subprocess.run(
        [PYTHON, os.path.abspath(__file__), "--child", mode, "--iterations",
         str(arguments.iterations)], env=env, capture_output=True, text=True, check=True)
    return json.loads(completed.stdout.splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent")
    parser.add_argument("--cupti")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--baseline-agent")
    parser.add_argument("--child")
    arguments = parser.parse_args()
    if arguments.child == "parts":
        parts(arguments.iterations)
        return
    if arguments.child:
        child(arguments.child, arguments.iterations, warmup=20)
        return
    variants = VARIANTS
    if arguments.baseline_agent:
        variants += (("baseline agent, PROF_PYTHON_OPS=1", True, "1"),)
    results = {label: [] for label, _, _ in variants}
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(arguments.runs):
            for label, agent, operators in variants:
                results[label].append(run_variant(arguments, label, agent, operators, scratch))
    operators = results["torch.profiler"][0]["operators"]
    plain = [statistics.median(r["loop"][i] for r in results["plain"]) for i in (0, 1)]
    print("   %d operators per iteration (torch.profiler's count), %d iterations x %d runs;" %
          (operators, arguments.iterations, arguments.runs))
    print("   CPU: the process's CPU time (all its threads: the agent's writer included)")
    print("   %-34s %12s %12s %14s %14s" % ("", "wall us/it", "CPU us/it", "wall us/op", "CPU us/op"))
    for label, _, _ in variants:
        rows = [("", "loop")] if label != "torch.profiler" else [
            (" (collecting)", "loop"), (" (with its end)", "with_end")]
        for suffix, key in rows:
            wall, cpu = (statistics.median(r[key][i] for r in results[label]) for i in (0, 1))
            per_op = "" if label == "plain" else "%+14.2f %+14.2f" % (
                (wall - plain[0]) * 1e6 / operators, (cpu - plain[1]) * 1e6 / operators)
            print("   %-34s %12.1f %12.1f %s" % (label + suffix, wall * 1e6, cpu * 1e6, per_op))
    print_goal(results, plain, operators)
    env = dict(os.environ, LD_PRELOAD=arguments.agent, PROF_CUPTI_LIB=arguments.cupti,
               PROF_PYTHON_OPS="0", PROF_OUTPUT_DIR=tempfile.mkdtemp())  # parts() collects
    completed = subprocess.run([PYTHON, os.path.abspath(__file__), "--child", "parts",
                                "--iterations", str(arguments.iterations)], env=env,
                               capture_output=True, text=True)
    print(completed.stdout.rstrip() or "   parts: failed: " + completed.stderr.strip()[-300:])


def cpu_per_operator(results, label, plain, operators):
    cpu = statistics.median(r["loop"][1] for r in results[label])
    return (cpu - plain[1]) * 1e6 / operators


def print_goal(results, plain, operators):
    ours = cpu_per_operator(results, "agent, PROF_PYTHON_OPS=1", plain, operators)
    old = cpu_per_operator(results, "agent, PROF_ATEN_SOURCE=profiler", plain, operators)
    phases = cpu_per_operator(results, "agent, phases only", plain, operators)
    torch_collecting = cpu_per_operator(results, "torch.profiler", plain, operators)
    print("   goal: PROF_PYTHON_OPS=1 costs no more CPU per operator than torch.profiler's "
          "collection (same run)")
    for label, cost in (("PROF_PYTHON_OPS=1 (observer)", ours),
                        ("net of the agent's phases", ours - phases),
                        ("PROF_ATEN_SOURCE=profiler", old),
                        ("net of the agent's phases", old - phases)):
        print("   %-34s %+.2f us/op vs %+.2f: %+.2f us/op, x%.2f  %s" % (
            label, cost, torch_collecting, cost - torch_collecting,
            cost / torch_collecting if torch_collecting > 0 else float("inf"),
            "met" if cost <= torch_collecting else "not met"))


def parts(iterations):
    """In this process (under the agent with PROF_PYTHON_OPS=0: the helper's phases, and
    the collection started here with the helper's own settings): CPU us per
    operator of torch's collection (over the plain loop), of stopping it, and of the
    replay, each over one collection of `iterations` iterations, median of 5."""
    import torch
    from libprof._torch import aten_operators
    from libprof._torch.aten_replay import Replay
    iteration = training_iteration()

    def loop():
        for _ in range(iterations):
            iteration()

    # The helper's own collection (PROF_ATEN_SOURCE=profiler), with its settings.
    config, activities = aten_operators._profiler_settings(torch, False, with_stack=False)
    replay = Replay(torch._C._profiler._EventType, False,
                    torch._C._profiler.RecordScope.USER_SCOPE)
    autograd = torch._C._autograd
    clock = time.process_time
    figures = {"plain loop": [], "collection": [], "stopping it": [], "replay": []}
    count = 0
    for _ in range(5):
        started = clock()
        loop()
        figures["plain loop"].append(clock() - started)
        autograd._prepare_profiler(config, activities)
        autograd._enable_profiler(config, activities)
        started = clock()
        loop()
        figures["collection"].append(clock() - started)
        started = clock()
        result = autograd._disable_profiler()
        figures["stopping it"].append(clock() - started)
        started = clock()
        count = replay.replay(result)
        figures["replay"].append(clock() - started)
    per = {name: statistics.median(values) * 1e6 / max(count, 1)
           for name, values in figures.items()}
    per["collection"] -= per["plain loop"]
    print("   parts, in one process (CPU us per operator, %d operators a read): collection "
          "%+.2f, stopping it %.2f, replay %.2f" % (
              count, per["collection"], per["stopping it"], per["replay"]))

if __name__ == "__main__":
    sys.exit(main())
