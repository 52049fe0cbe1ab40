#!/usr/bin/env python3
"""Step-time cost of profiling gpu_check's training loop (testdata/gpu/train.py: conv +
attention blocks or the MLP, AMP, a DataLoader with 2 workers, AdamW) on Debian's CPU torch:
the process's CPU time per step (all its threads: the agent's writer, torch's collection),
which a loaded machine does not inflate as it does wall time.

    step_cost.py --agent LIBPROF_SO --cupti LIBCUPTI [--runs N] [--steps N] [--model M]
                 [--baseline-agent OTHER_LIBPROF_SO]

Variants, each in its own process, alternating: plain; CLOSED with PROF_PYTHON=0 and with
the Python helper (a schedule that never records); RECORD every step (PROF_SCHEDULE as
gpu_check.sh's: skip 2, ready 2, then record) with PROF_PYTHON_OPS=0 and =1 (the default);
torch.profiler with CPU activity recording every step from step 2 (train.py's
--torch-profiler). Each figure: the median over runs of the mean CPU per step over steps
5..N-1 (the mean counts the helper's reads of torch's collection, every 0.2 s and at the
window's end, which the median step leaves out: the two apart show the collection and the
read), beside the plain run and beside its goal (issue 24: CLOSED <= +1%,
RECORD <= +10%; issue 26 item 7: RECORD's operators no costlier than torch.profiler's
collection), and per ATen operator (torch.profiler's count a step).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

PYTHON = "/usr/bin/python3"
TRAIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "gpu",
                     "train.py")
NEVER = "skip_first=1000000000,record=1"
RECORD = "skip_first=2,ready=2,record=100000,repeat=1"
VARIANTS = (  # label, agent environment (None: no agent), torch.profiler
    ("plain", None, False),
    ("CLOSED, PROF_PYTHON=0", {"PROF_SCHEDULE": NEVER, "PROF_PYTHON": "0"}, False),
    ("CLOSED", {"PROF_SCHEDULE": NEVER}, False),
    ("RECORD, PROF_PYTHON_OPS=0", {"PROF_SCHEDULE": RECORD, "PROF_PYTHON_OPS": "0"}, False),
    ("RECORD", {"PROF_SCHEDULE": RECORD}, False),
    ("torch.profiler (CPU)", None, True),
)
GOALS = {"CLOSED": 1.0, "RECORD": 10.0}  # percent over plain


def run(arguments, library, agent_env, torch_profiler, scratch):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROF_") and k != "LD_PRELOAD"}
    if agent_env is not None:
        env.update({"LD_PRELOAD": library, "PROF_CUPTI_LIB": arguments.cupti,
                    "PROF_OUTPUT_DIR": tempfile.mkdtemp(dir=scratch)})
        env.update(agent_env)
    out = os.path.join(scratch, "out.json")
    command = [PYTHON, TRAIN, out, "--steps", str(arguments.steps), "--model", arguments.model]
    if torch_profiler:
        command += ["--torch-profiler", "2:end", os.path.join(scratch, "tp.json")]
    subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    with open(out) as f:
        result = json.load(f)
    cpu = result["step_cpu_ms"][5:]
    operators = None
    if result["torch_operators"]:
        operators = sum(result["torch_operators"].values()) / (arguments.steps - 2)
    return (statistics.mean(cpu), statistics.median(cpu)), operators


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--cupti", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--model", default="mixed")
    parser.add_argument("--baseline-agent")
    arguments = parser.parse_args()
    variants = [(label, arguments.agent, env, tp) for label, env, tp in VARIANTS]
    if arguments.baseline_agent:
        variants += [("baseline " + label, arguments.baseline_agent, env, tp)
                     for label, env, tp in VARIANTS if label in ("CLOSED", "RECORD")]
    results = {label: [] for label, _, _, _ in variants}  # (mean, median) a run
    operators = []
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(arguments.runs):
            for label, library, env, tp in variants:
                cpu, ops = run(arguments, library, env, tp, scratch)
                results[label].append(cpu)
                if ops:
                    operators.append(ops)
    per_step_ops = statistics.median(operators)
    median = {label: statistics.median(value[0] for value in values)
              for label, values in results.items()}
    typical = {label: statistics.median(value[1] for value in values)
               for label, values in results.items()}
    plain = median["plain"]
    print("   train.py --model %s on the CPU: %.0f ATen operators a step (torch.profiler's count);"
          % (arguments.model, per_step_ops))
    print("   CPU ms per step (process, all threads), mean of steps 5-%d, median of %d "
          "alternating runs" % (arguments.steps - 1, arguments.runs))
    print("   %-34s %9s %9s %10s %13s  %s" % ("", "CPU ms", "vs plain", "us/op",
                                             "median step", "goal"))
    for label, _, _, _ in variants:
        added = median[label] - plain
        percent = 100 * added / plain
        goal = GOALS.get(label.replace("baseline ", ""))
        verdict = "" if goal is None else "<= %+.0f%%: %s" % (goal, "met" if percent <= goal else "not met")
        print("   %-34s %9.3f %+8.1f%% %+10.2f %+12.1f%%  %s" % (
            label, median[label], percent, 1e3 * added / per_step_ops,
            100 * (typical[label] / typical["plain"] - 1), verdict))
    ops_cost = median["RECORD"] - median["RECORD, PROF_PYTHON_OPS=0"]
    torch_cost = median["torch.profiler (CPU)"] - plain
    print("   RECORD's operators (RECORD - RECORD with PROF_PYTHON_OPS=0): %+.2f us/op; "
          "torch.profiler's whole collection: %+.2f us/op; goal: no more: %s" % (
              1e3 * ops_cost / per_step_ops, 1e3 * torch_cost / per_step_ops,
              "met" if ops_cost <= torch_cost else "not met"))


if __name__ == "__main__":
    sys.exit(main())
