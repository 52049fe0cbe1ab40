#!/usr/bin/env python3
"""Checks that workload truth files are self-consistent.

For every file: the schema and keys are there, step_count matches the steps array, and
for every category (kernels, memcpy, memset, collectives, NVTX ranges, user ranges,
marks) the steps plus outside_steps add up exactly to totals, per name as well as in
total. Program-specific checks follow from --program. Exit status 0 when all hold.

usage: check_truth.py --program NAME --steps N [--ranks R] [--launches N] TRUTH_FILE...
"""
import argparse
import json
import sys

SECTIONS = ("kernels", "memcpy", "memset", "collectives", "nvtx_ranges", "user_ranges", "marks")


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def flatten(section):
    """{(category, name, field): value} for every additive number of a section."""
    flat = {}
    for field in ("count", "total_ns", "bytes"):
        if field in section["memset"]:
            flat[("memset", "", field)] = section["memset"][field]
    for category, nested in (("kernels", "by_name"), ("memcpy", "by_kind"),
                             ("collectives", "by_op"), ("nvtx_ranges", "by_name"),
                             ("user_ranges", "by_name"), ("marks", "by_name")):
        block = section[category]
        for field, value in block.items():
            if isinstance(value, int):
                flat[(category, "", field)] = value
        for name, entry in block[nested].items():
            if isinstance(entry, int):
                flat[(category, name, "count")] = entry
                continue
            for field in ("count", "total_ns", "bytes", "elements", "kernel_ns"):
                if field in entry:
                    flat[(category, name, field)] = entry[field]
    return flat


def check_section_internals(section, where):
    kernels = section["kernels"]
    if kernels["count"] != sum(k["count"] for k in kernels["by_name"].values()):
        fail(where + ": kernel count differs from the sum over names")
    if kernels["total_ns"] != sum(k["total_ns"] for k in kernels["by_name"].values()):
        fail(where + ": kernel total_ns differs from the sum over names")
    for name, k in kernels["by_name"].items():
        if k["count"] and not k["min_ns"] * k["count"] <= k["total_ns"] <= k["max_ns"] * k["count"]:
            fail("%s: %s total_ns outside count*[min, max]" % (where, name))


def check_additivity(truth, path):
    total = flatten(truth["totals"])
    summed = dict(flatten(truth["outside_steps"]))
    for step in truth["steps"]:
        check_section_internals(step, "%s step %d" % (path, step["index"]))
        for key, value in flatten(step).items():
            summed[key] = summed.get(key, 0) + value
    for key in set(total) | set(summed):
        if key[2] in ("min_ns", "max_ns"):
            continue
        if total.get(key, 0) != summed.get(key, 0):
            fail("%s: %s totals %s != steps + outside %s" % (path, key, total.get(key), summed.get(key)))


def check_common(truth, path, steps):
    for key in ("schema", "program", "pid", "rank", "world_size", "args", "step_count",
                "totals", "outside_steps", "steps"):
        if key not in truth:
            fail("%s: missing key %s" % (path, key))
    if truth["schema"] != "prof-sim-truth/1":
        fail(path + ": unknown schema")
    if truth["step_count"] != len(truth["steps"]) or (steps is not None and truth["step_count"] != steps):
        fail("%s: %d steps, expected %s" % (path, truth["step_count"], steps))
    check_section_internals(truth["totals"], path + " totals")
    check_additivity(truth, path)


def check_uniform_steps(truth, path):
    """Training steps repeat the same work: kernels per step * steps == total in steps."""
    steps = truth["steps"]
    per_step = steps[0]["kernels"]["count"]
    if any(s["kernels"]["count"] != per_step for s in steps):
        fail(path + ": kernel count differs between steps")
    in_steps = truth["totals"]["kernels"]["count"] - truth["outside_steps"]["kernels"]["count"]
    if per_step * len(steps) != in_steps:
        fail(path + ": kernels per step * steps != kernels in steps")
    for name in ("Dataloader", "Forward", "Backward", "Optimization"):
        if truth["totals"]["nvtx_ranges"]["by_name"].get(name) != len(steps):
            fail("%s: NVTX range %s not once per step" % (path, name))
    batch = int(truth["args"]["batch-size"])
    if any(s["num_samples"] != batch for s in steps):
        fail(path + ": num_samples differs from the batch size")


def check_program(args, truths):
    if args.program in ("train", "train_ranks"):
        for path, truth in truths:
            check_uniform_steps(truth, path)
    if args.program == "train_ranks":
        if len(truths) != args.ranks:
            fail("expected %d rank files, got %d" % (args.ranks, len(truths)))
        collectives = [t["totals"]["collectives"] for _, t in truths]
        if any(c != collectives[0] for c in collectives) or collectives[0]["count"] == 0:
            fail("ranks disagree on collectives, or none ran")
        for path, truth in truths:
            nccl = [k for k, v in truth["totals"]["kernels"]["by_name"].items() if v["library"] == "nccl"]
            if not nccl or not all(k.startswith(("ncclDevKernel_", "ncclKernel_")) for k in nccl):
                fail(path + ": no NCCL-named kernels")
    if args.program == "launch_stress":
        if truths[0][1]["totals"]["kernels"]["count"] != args.launches:
            fail("launch count differs from --launches")
    if args.program == "threads_fork_graph":
        path, truth = truths[0]
        graph = truth["graph"]
        replayed = sum(s["kernels"]["count"] for s in truth["steps"])
        if replayed != graph["nodes"] * graph["replays"]:
            fail(path + ": replayed kernels != nodes * replays")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--program", required=True)
    parser.add_argument("--steps", type=int)
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--launches", type=int)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    truths = []
    for path in args.files:
        with open(path) as handle:
            truth = json.load(handle)
        check_common(truth, path, args.steps)
        truths.append((path, truth))
    check_program(args, truths)
    print("OK: %d truth file(s) consistent" % len(truths))


if __name__ == "__main__":
    main()
