"""Verdicts of scripts/gpu_check.sh (Python 3, stdlib only). Each subcommand compares the
agent's side (profanalyze --format json, profanalyze export) with the truth (a program's
own counts, torch.profiler's tables and Chrome trace) and appends rows to VERDICTS (TSV:
check, PASS|FAIL|SKIP, measured, expected); `table` prints them and exits 1 on a FAIL.

  compare.py VERDICTS app LABEL AGENT_JSON APP_STDOUT STEPS
  compare.py VERDICTS ops LABEL AGENT_JSON TRAIN_JSON
  compare.py VERDICTS kernels LABEL AGENT_CHROME TORCH_CHROME
  compare.py VERDICTS kineto LABEL AGENT_KINETO TORCH_CHROME
  compare.py VERDICTS unmatched LABEL AGENT_JSON
  compare.py VERDICTS count LABEL MEASURED EXPECTED        (equal integers)
  compare.py VERDICTS torch_kernels LABEL CHROME CHROME_ALONE
  compare.py VERDICTS nccl LABEL AGENT_JSON CALLS BYTES
  compare.py VERDICTS cost LABEL LIMIT_PCT MS... / BASE_MS...   (median ratio, interleaved rounds)
  compare.py VERDICTS skip LABEL REASON
  compare.py VERDICTS table [EXPECTED_FAILURE...]
"""
import collections
import json
import statistics
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        sys.exit("compare.py: cannot read %s: %s" % (path, error))


def tables(path):
    processes = load(path).get("processes") or [{}]
    return processes[0].get("tables", {})


def rows(path, table):
    return tables(path).get(table, {}).get("rows", [])


def unmatched(path):
    """Device records without their launching call (the Data Quality table's rows)."""
    return sum(row.get("count", 0) for row in rows(path, "data_quality")
               if row.get("item", "").startswith("unmatched"))


def chrome_events(path):
    data = load(path)
    return data["traceEvents"] if isinstance(data, dict) else data


def kernels_by_name(path):
    """{name: (calls, total us)} of a Chrome trace's kernels (torch's and profanalyze's)."""
    found = collections.defaultdict(lambda: [0, 0.0])
    for event in chrome_events(path):
        if event.get("ph") == "X" and event.get("cat", "").lower() == "kernel":
            found[event["name"]][0] += 1
            found[event["name"]][1] += float(event.get("dur", 0))
    return found


class Verdicts:
    def __init__(self, path):
        self.path = path

    def add(self, check, ok, measured, expected):
        verdict = ok if ok in ("SKIP",) else ("PASS" if ok else "FAIL")
        with open(self.path, "a") as f:
            f.write("\t".join((check, verdict, str(measured), str(expected))) + "\n")


def app(v, label, agent_json, app_stdout, steps):
    """(a)/(e): the C++ program's counts per step equal what it says it did."""
    truth = json.loads([line for line in open(app_stdout) if line.startswith("{")][-1])
    per_step, steps = truth["per_step"], int(steps)
    overview = {row["event_type"]: row["calls"] for row in rows(agent_json, "overview")}
    recorded = overview.get("ProfileStep", 0)
    v.add(label + ": steps recorded", recorded == steps, recorded, steps)
    for kind, key in (("Kernel", "kernels"), ("Memcpy", "memcpy"), ("Memset", "memset")):
        measured = overview.get(kind, 0)
        v.add("%s: %s per step" % (label, key), measured == per_step[key] * steps,
              "%d in %d steps" % (measured, recorded), "%d x %d" % (per_step[key], steps))
    graph = sum(row["calls"] for row in rows(agent_json, "kernel") if row["name"].startswith("k_graph"))
    v.add("e: CUDA graph replay kernels (%s)" % label, graph == per_step["graph_kernels"] * steps,
          graph, "%d x %d" % (per_step["graph_kernels"], steps))
    api = len(rows(agent_json, "cuda_api"))
    v.add(label + ": CUDA API table present", api > 0, "%d rows" % api, "> 0 rows")
    count = unmatched(agent_json)
    v.add(label + ": unmatched correlation ids", count == 0, count, 0)


def ops(v, label, agent_json, train_json):
    """(b): ATen operator names and counts equal torch.profiler's key_averages."""
    ours = collections.Counter()
    for row in rows(agent_json, "operator"):
        if row["name"].startswith("aten::") and row.get("depth", 0) == 0:
            ours[row["name"]] += row["calls"]
    theirs = collections.Counter({name: calls for name, calls in
                                  (load(train_json).get("torch_operators") or {}).items()
                                  if name.startswith("aten::")})
    # The names alone: what torch's microsecond nesting folds (see the counts below) does
    # not take a name away.
    missing, extra = sorted(set(theirs) - set(ours)), sorted(set(ours) - set(theirs))
    v.add(label.replace("names and counts", "names"), bool(theirs) and not missing and not extra,
          "%d names%s" % (len(ours), "; missing %s; extra %s" % (missing[:3], extra[:3])
                          if missing or extra else ""), "%d names" % len(theirs))
    # Exact counts: torch.profiler folds a call into a parent of its name by whole
    # microseconds (EventList._remove_dup_nodes on times truncated to us), so its own
    # counts differ by a call or two from run to run (aten::bmm, aten::empty), and the
    # agent, folding as torch does, by its own run's microseconds.
    differ = sorted(name for name in set(ours) | set(theirs) if ours[name] != theirs[name])
    detail = ", ".join("%s %d/%d" % (name, ours[name], theirs[name]) for name in differ[:4])
    v.add(label, bool(theirs) and not differ,
          "%d names, %d calls%s" % (len(ours), sum(ours.values()), "; differ: " + detail if differ else ""),
          "%d names, %d calls" % (len(theirs), sum(theirs.values())))


def kernels(v, label, agent_chrome, torch_chrome):
    """(b): kernel names and counts equal torch.profiler's, GPU time within 1%."""
    ours, theirs = kernels_by_name(agent_chrome), kernels_by_name(torch_chrome)
    differ = sorted(name for name in set(ours) | set(theirs)
                    if ours.get(name, [0])[0] != theirs.get(name, [0])[0])
    count = lambda found: sum(calls for calls, _ in found.values())
    v.add(label + ": kernel names and counts", bool(theirs) and not differ,
          "%d kernels, %d names%s" % (count(ours), len(ours), ", %d differ (e.g. %s)" % (
              len(differ), differ[0][:60]) if differ else ""),
          "%d kernels, %d names" % (count(theirs), len(theirs)))
    ours_us = sum(total for _, total in ours.values())
    theirs_us = sum(total for _, total in theirs.values())
    change = 100.0 * (ours_us / theirs_us - 1) if theirs_us else float("inf")
    v.add(label + ": GPU time within 1%", abs(change) <= 1.0,
          "%.1f us (%+.2f%%)" % (ours_us, change), "%.1f us +-1%%" % theirs_us)


def kineto(v, label, agent_kineto, torch_chrome):
    """profanalyze export --format kineto against torch.profiler's own export of the same
    loop: every category we write is one torch wrote, and for each category both wrote, every
    argument key we write is one torch wrote (we leave out what the trace does not record)."""
    def layout(path):
        keys = collections.defaultdict(set)
        for event in chrome_events(path):
            if event.get("ph") in ("X", "i", "s", "f") and "cat" in event:
                keys[event["cat"]].update((event.get("args") or {}).keys())
        return keys
    ours, theirs = layout(agent_kineto), layout(torch_chrome)
    if not theirs:
        v.add(label, "SKIP", "torch.profiler wrote no categories", "a Kineto trace (PyTorch 2)")
        return
    extra_categories = sorted(set(ours) - set(theirs))
    extra_keys = sorted("%s.%s" % (cat, key) for cat in set(ours) & set(theirs)
                        for key in ours[cat] - theirs[cat])
    v.add(label + ": categories", not extra_categories,
          "%d categories%s" % (len(ours), "; not torch's: " + ", ".join(extra_categories) if extra_categories else ""),
          "within torch's %d: %s" % (len(theirs), ", ".join(sorted(theirs))))
    v.add(label + ": argument keys", not extra_keys,
          "%d keys%s" % (sum(len(k) for k in ours.values()),
                         "; not torch's: " + ", ".join(extra_keys[:5]) if extra_keys else ""),
          "within torch's")
    kineto_names(v, label, agent_kineto, torch_chrome)
    def steps(path):
        return [event["name"] for event in sorted(
            (event for event in chrome_events(path) if event.get("ph") == "X"
             and event.get("name", "").startswith("ProfilerStep#")), key=lambda event: event["ts"])]
    ours_steps, theirs_steps = steps(agent_kineto), steps(torch_chrome)
    v.add(label + ": ProfilerStep ranges", bool(theirs_steps) and ours_steps == theirs_steps,
          ", ".join(ours_steps) or "none", ", ".join(theirs_steps) or "none")
    gpu_annotations(v, label, agent_kineto, torch_chrome)


def gpu_annotations(v, label, agent_kineto, torch_chrome):
    """The GPU spans Kineto draws for record_function ranges (gpu_user_annotation): the same
    names, as many of each (one per range and stream that ran its launches)."""
    def found(path):
        return collections.Counter(event["name"] for event in chrome_events(path)
                                   if event.get("ph") == "X"
                                   and event.get("cat") == "gpu_user_annotation")
    ours, theirs = found(agent_kineto), found(torch_chrome)
    check = label + ": GPU annotations"
    if not theirs:
        v.add(check, "SKIP", "torch.profiler wrote none", "gpu_user_annotation (a GPU)")
        return
    differ = sorted(name for name in set(ours) | set(theirs) if ours[name] != theirs[name])
    v.add(check, not differ, "%d names, %d spans%s" % (
        len(ours), sum(ours.values()), "; differ: " + ", ".join(
            "%s %d/%d" % (name, ours[name], theirs[name]) for name in differ[:4]) if differ else ""),
          "%d names, %d spans" % (len(theirs), sum(theirs.values())))


def kineto_names(v, label, agent_kineto, torch_chrome):
    """Every host range torch wrote (cpu_op, user_annotation) we write under its name and
    category: HTA and TensorBoard group operators by category. ProfilerStep#N is left out
    (torch writes it only under a schedule); names only we write (the helper's phases) and
    the counts are shown, not judged: torch's trace keeps a call nested in one of its own
    name (autocast's), which the agent folds as key_averages does."""
    def host_ranges(path):
        found = collections.defaultdict(collections.Counter)
        for event in chrome_events(path):
            if event.get("ph") == "X" and event.get("cat") in ("cpu_op", "user_annotation") \
                    and not event.get("name", "").startswith("ProfilerStep#"):
                found[event["name"]][event["cat"]] += 1
        return found
    ours, theirs = host_ranges(agent_kineto), host_ranges(torch_chrome)
    wrong = sorted("%s: %s, torch's %s" % (name, "/".join(ours[name]) or "none", "/".join(theirs[name]))
                   for name in theirs if set(ours[name]) != set(theirs[name]))
    extra = sorted(name for name in ours if name not in theirs)
    count = lambda found, name: sum(found[name].values())
    differ = sorted(name for name in theirs if count(ours, name) != count(theirs, name))
    total = lambda found: sum(sum(c.values()) for c in found.values())
    v.add(label + ": host range names and categories", bool(theirs) and not wrong,
          "%d names, %d ranges%s%s; %d counts differ%s" % (
              len(ours), total(ours), "; wrong: " + "; ".join(wrong[:3]) if wrong else "",
              "; ours only: " + ", ".join(extra[:5]) if extra else "", len(differ),
              " (%s)" % ", ".join("%s %d/%d" % (name, count(ours, name), count(theirs, name))
                                  for name in differ[:6]) if differ else ""),
          "torch's %d names, %d ranges" % (len(theirs), total(theirs)))


def nccl(v, label, agent_json, calls, bytes_):
    table = rows(agent_json, "nccl")
    measured_calls = sum(row["calls"] for row in table)
    measured_bytes = sum(row.get("bytes", 0) for row in table)
    v.add(label, measured_calls == int(calls) and measured_bytes == int(bytes_),
          "%d calls, %d bytes" % (measured_calls, measured_bytes), "%s calls, %s bytes" % (calls, bytes_))


def cost(v, label, limit_pct, values):
    """Median over interleaved rounds of each side; ratio of the medians."""
    split = values.index("/")
    measured = statistics.median(float(x) for x in values[:split])
    base = statistics.median(float(x) for x in values[split + 1:])
    change = 100.0 * (measured / base - 1)
    v.add(label, change <= float(limit_pct), "%.3f vs %.3f ms (%+.1f%%, x%.3f)" % (
        measured, base, change, measured / base), "<= %+.0f%%" % float(limit_pct))


def table(path, expected_failures):
    """Prints the verdicts; a FAIL listed as expected shows as XFAIL (a known, filed gap)
    and does not fail the run, but an expected failure that passes does (XPASS). One
    listed as "~PREFIX" varies from run to run: XFAIL or PASS, neither fails the run."""
    lines = [line.rstrip("\n").split("\t") for line in open(path)] if path else []
    width = max([len(line[0]) for line in lines] + [5])
    print("%-*s  %-6s %-44s %s" % (width, "check", "", "measured", "expected"))
    failed = False
    counts = collections.Counter()
    for check, verdict, measured, expected in lines:
        varies = any(prefix.startswith("~") and check.startswith(prefix[1:])
                     for prefix in expected_failures)
        known = any(check.startswith(prefix) for prefix in expected_failures)
        if varies:
            verdict = {"FAIL": "XFAIL"}.get(verdict, verdict)
        elif known:
            verdict = {"FAIL": "XFAIL", "PASS": "XPASS"}.get(verdict, verdict)
        failed |= verdict in ("FAIL", "XPASS")
        counts[verdict] += 1
        print("%-*s  %-6s %-44s %s" % (width, check, verdict, measured, expected))
    print(", ".join("%d %s" % (counts[verdict], verdict) for verdict in
                    ("PASS", "FAIL", "SKIP", "XFAIL", "XPASS") if counts[verdict] or verdict == "FAIL"))
    return 1 if failed or not lines else 0


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    v, command, args = Verdicts(argv[1]), argv[2], argv[3:]
    if command == "table":
        return table(argv[1], args)
    label = args[0]
    if command == "app":
        app(v, label, *args[1:])
    elif command == "ops":
        ops(v, label, *args[1:])
    elif command == "kernels":
        kernels(v, label, *args[1:])
    elif command == "kineto":
        kineto(v, label, *args[1:])
    elif command == "unmatched":
        count = unmatched(args[1])
        v.add(label, count == 0, count, 0)
    elif command == "count":
        # Integers only: a count that is missing (a run that failed) is no match.
        numbers = all(value.strip().lstrip("-").isdigit() for value in args[1:3])
        v.add(label, numbers and args[1] == args[2], args[1] or "none", args[2] or "none")
    elif command == "torch_kernels":
        ours, alone = kernels_by_name(args[1]), kernels_by_name(args[2])
        count = lambda found: sum(calls for calls, _ in found.values())
        v.add(label, count(alone) > 0 and count(ours) == count(alone), count(ours), count(alone))
    elif command == "nccl":
        nccl(v, label, *args[1:])
    elif command == "cost":
        cost(v, label, args[1], args[2:])
    elif command == "skip":
        v.add(label, "SKIP", args[1], "-")
    else:
        sys.exit("compare.py: unknown subcommand %r (see its header)" % command)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
