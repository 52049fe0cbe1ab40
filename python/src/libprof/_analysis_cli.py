"""libprof._analysis on the profanalyze program instead of the extension module: the
same calls as _analysis_native (analyze, read_events, export_timeline), made by running
the profanalyze that came with this package (its --format json output for tables).

It needs no particular CPython (the extension is built for one), so the wheel uses it on
every interpreter. It takes every option of the summary command (_summary_options) and
forwards it: profanalyze itself checks the values, and text() prints what the extension's
does. What differs from the extension: table values are rounded as
`profanalyze --format json` rounds them (times to 0.1 ns, ratios to 4 decimals), and
ProfilerResult.events() is not available (it needs the extension).
"""
import json
import os
import subprocess

from libprof._paths import packaged_profanalyze
from libprof._summary_options import check_names, command_arguments


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
    """What analyze() read (as _analysis_native.Session): one `profanalyze --format json
    --all-ranks` run for the tables, and a run with the caller's options for each text()."""

    def __init__(self, paths, options, document):
        self._paths = paths
        self._options = options
        self._document = document
        self.unreadable = list(document.get("unreadable_files", []))
        self.files_read = sum(len(process.get("files", [])) for process in document["processes"])

    def text(self, time_unit=None, rank=None):
        """What `profanalyze PATHS OPTIONS` prints; time_unit and rank (None or -1: the
        options') as the extension's text() takes them."""
        options = dict(self._options)
        if time_unit is not None:
            options["time_unit"] = time_unit
        if rank is not None and rank >= 0:
            options["rank"] = rank
        process = _run(self._paths + command_arguments(options))
        if process.returncode != 0:
            raise _refused(process)
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


def _refused(process):
    """Options profanalyze refused (exit status 2) as ValueError, as the extension raises
    them; any other failure as OSError."""
    if process.returncode == 2:
        return ValueError(process.stderr.strip().replace("profanalyze: ", ""))
    return _failure(process)


def analyze(paths, **options):
    """The summary command's analysis with any of its options (_summary_options names),
    forwarded to profanalyze as they are."""
    check_names(options)
    if not paths:
        raise ValueError("give at least one trace file or folder")
    _check_paths(paths)
    # The tables of every rank, as JSON: what processes() and ranks() read.
    tables = dict(options, format="json", all_ranks=True, rank=None)
    process = _run(list(paths) + command_arguments(tables))
    if process.returncode != 0:
        raise _refused(process)
    return Session(list(paths), options, json.loads(process.stdout))


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
