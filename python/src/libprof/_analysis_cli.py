"""libprof._analysis on the profanalyze program instead of the extension module: the
same calls as _analysis_native (analyze, read_events, export_timeline), made by running
the profanalyze that came with this package (its --format json output for tables).

It needs no particular CPython (the extension is built for one), so the wheel uses it on
every interpreter. What differs from the extension: table values are rounded as
`profanalyze --format json` rounds them (times to 0.1 ns, ratios to 4 decimals), and
ProfilerResult.events() is not available (it needs the extension).
"""
import json
import os
import subprocess

from libprof._paths import packaged_profanalyze

_SORT_KEYS = ("CPUTotal", "CPUAvg", "CPUMax", "CPUMin", "GPUTotal", "GPUAvg", "GPUMax", "GPUMin")
_TIME_UNITS = ("s", "ms", "us", "ns")


def program():
    """The profanalyze this module runs, or None."""
    return packaged_profanalyze()


def _run(arguments):
    binary = program()
    if binary is None:
        raise ImportError("libprof._analysis: no profanalyze program beside the libprof package")
    return subprocess.run([binary] + arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def _check_paths(paths):
    for path in paths:
        if not os.path.exists(path):
            raise FileNotFoundError("%s: no such file or folder" % path)


def _failure(process):
    message = process.stderr.strip() or "profanalyze exited with status %d" % process.returncode
    return OSError(message.replace("profanalyze: ", ""))


def _flat_rows(table):
    """The JSON rows as the extension gives them: each statistics column ("cpu": {"total_ns",
    ...}) flattened to cpu_total_ns, ..., a '-' one (null) to None in each, and "group"."""
    stats = {}
    for row in table["rows"]:
        for key, value in row.items():
            if isinstance(value, dict):
                stats[key] = list(value)
    rows = []
    for row in table["rows"]:
        flat = {}
        for key, value in row.items():
            if key in stats:
                for part in stats[key]:
                    flat[key + "_" + part] = value.get(part) if value is not None else None
            else:
                flat[key] = value
        flat.setdefault("group", None)
        rows.append(flat)
    return rows


class Session:
    """What analyze() read (as _analysis_native.Session): one `profanalyze --format json`
    run, and a text run for each text() call."""

    def __init__(self, arguments, document):
        self._arguments = arguments
        self._document = document
        self.unreadable = list(document.get("unreadable_files", []))
        self.files_read = sum(len(process.get("files", [])) for process in document["processes"])

    def text(self, time_unit="ms", rank=-1):
        if time_unit not in _TIME_UNITS:
            raise ValueError("time_unit: '%s' is not one of s, ms, us, ns" % time_unit)
        arguments = self._arguments + ["--time-unit", time_unit]
        if rank >= 0:
            arguments += ["--rank", str(rank)]
        process = _run(arguments)
        if process.returncode != 0:
            raise _failure(process)
        return process.stdout

    def processes(self):
        processes = []
        for process in self._document["processes"]:
            entry = {key: value for key, value in process.items() if key != "tables"}
            entry["tables"] = {key: {"title": table["title"], "rows": _flat_rows(table)}
                               for key, table in process.get("tables", {}).items()}
            processes.append(entry)
        return processes

    def ranks(self):
        ranks = self._document.get("ranks")
        return None if ranks is None else {"title": ranks["title"], "rows": _flat_rows(ranks)}


def analyze(paths, sorted_by="CPUTotal", views="", op_detail=True, thread_sep=False, top=0,
            perf_skip=-1, threads=0):
    if sorted_by not in _SORT_KEYS:
        raise ValueError("sorted_by: unknown key '%s' (one of %s)" % (sorted_by, ", ".join(sorted(_SORT_KEYS))))
    if top < 0 or perf_skip < -1 or threads < 0:
        raise ValueError("top, perf_skip and threads must not be negative")
    if not paths:
        raise ValueError("give at least one trace file or folder")
    _check_paths(paths)
    arguments = list(paths) + ["--all-ranks", "--sorted-by", sorted_by, "--threads", str(threads)]
    if views:
        arguments += ["--views", views]
    if not op_detail:
        arguments.append("--no-op-detail")
    if thread_sep:
        arguments.append("--thread-sep")
    if top:
        arguments += ["--top", str(top)]
    if perf_skip >= 0:
        arguments += ["--perf-skip", str(perf_skip)]
    process = _run(arguments + ["--format", "json"])
    if process.returncode != 0:
        if process.returncode == 2:  # options profanalyze refused (views)
            raise ValueError(process.stderr.strip().replace("profanalyze: ", ""))
        raise _failure(process)
    return Session(arguments, json.loads(process.stdout))


def read_events(path):
    raise ImportError(
        "libprof._analysis: ProfilerResult.events() needs the analyzer's extension module "
        "(libprof._analysis_native, built for one CPython by `bazel build "
        "//agent/python:analysis_extension`), which this installation does not have; "
        "`profanalyze export %s -o trace.json` writes the events as a Chrome trace" % path)


def export_timeline(paths, output, format="chrome"):
    _check_paths(paths)
    process = _run(["export"] + list(paths) + ["-o", output, "--format", format])
    lines = [line[len("profanalyze export: "):] if line.startswith("profanalyze export: ") else line
             for line in process.stderr.splitlines() if line.strip()]
    if process.returncode != 0:
        raise OSError("\n".join(lines) or "profanalyze export exited with status %d" % process.returncode)
    written = [line for line in lines if line.startswith("wrote ")]
    summary = written[-1][len("wrote "):].rsplit(" to ", 1)[0] if written else ""
    return {"summary": summary, "unreadable": [line for line in lines if not line.startswith("wrote ")]}
