"""Asserts what a 2-rank run of allreduce_train.py under a launcher left in a folder:

    check_ranks.py DIR STEPS LAUNCHER

one trace file per rank, named with its rank; each file's header carries rank R of world
size 2 (`profanalyze info`); `profanalyze DIR` reads both: its per-rank table has ranks 0
and 1 with STEPS steps each (the set-up step before the first optimizer step is left out
and the last step runs to the exit: STEPS boundaries, STEPS steps), and each rank's
Communication covers at least the all_reduce calls of the STEPS - 1 steps after the set-up
(2 parameters each). Prints one line per problem; exit status 1 if any.
"""
import glob
import json
import os
import re
import subprocess
import sys


def main():
    folder, steps, launcher = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    problems = []
    files = sorted(glob.glob(os.path.join(folder, "*.pb")))
    ranks = {}
    for path in files:
        named = re.search(r"_rank_(\d+)\.", os.path.basename(path))
        if not named:
            problems.append("%s: no rank in the file name" % path)
            continue
        info = subprocess.run(["profanalyze", "info", path], capture_output=True, text=True).stdout
        header = re.search(r", rank (\d+)/(\d+),", info)
        if not header or header.groups() != (named.group(1), "2"):
            problems.append("%s: header says %r, expected rank %s/2"
                            % (path, header.group(0) if header else info[:200], named.group(1)))
        ranks.setdefault(int(named.group(1)), []).append(path)
    if sorted(ranks) != [0, 1] or any(len(paths) != 1 for paths in ranks.values()):
        problems.append("expected one file for each of ranks 0 and 1, found %s" % files)
    report = json.loads(subprocess.run(["profanalyze", folder, "--format", "json"],
                                       capture_output=True, text=True, check=True).stdout)
    rows = report["ranks"]["rows"] if report.get("ranks") else []
    if sorted(row["rank"] for row in rows) != ["0", "1"]:
        problems.append("the per-rank table has ranks %s" % [row["rank"] for row in rows])
    for row in rows:
        if row["steps"] != steps:
            problems.append("rank %s: %s steps, expected %d" % (row["rank"], row["steps"], steps))
    for process in report["processes"]:
        if process["world_size"] != 2:
            problems.append("rank %s: world size %s" % (process["rank"], process["world_size"]))
        calls = [row["calls"] for row in process["tables"]["overview"]["rows"]
                 if row["event_type"] == "Communication"]
        if not calls or calls[0] < 2 * (steps - 1):
            problems.append("rank %s: Communication calls %s, expected >= %d"
                            % (process["rank"], calls, 2 * (steps - 1)))
    for problem in problems:
        print("FAIL: %s: %s" % (launcher, problem))
    if not problems:
        print("PASS: %s: ranks 0 and 1 of 2, one file each, %d steps each, read together (%s)"
              % (launcher, steps, ", ".join(os.path.basename(path) for path in files)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
