"""The analyzer (profanalyze) from Python: the C++ analyzer itself, in-process.

    from libprof._analysis import load_profiler_result

    result = load_profiler_result("/traces")          # a file, a folder or a list of them
    print(result.summary(sorted_by="GPUTotal", views=["KernelView"]))
    rows = result.tables()["kernel"]                  # plain dicts, full names, ns
    frame = result.dataframe("kernel")                # with pandas installed
    for event in result.events():                     # ranges, API calls, kernels, ...
        ...
    result.export("trace.json")                       # as `profanalyze export`; or
    export("/traces", "trace.perfetto-trace", format="perfetto")

The native half, _analysis_native, is built by Bazel from the analyzer's sources
(//analyzer/python) and runs the summary command's own pipeline, so summary() returns
exactly what `profanalyze PATH --same-options` prints, and export() writes the bytes
`profanalyze export` writes. It is tied to the CPython minor version it was built for
(its file name says which). Where it is not installed (the wheel, which fits every
CPython >= 3.8, carries none) or built for another interpreter, the same calls run the
profanalyze program that came with the package (libprof._analysis_cli): the same text and
exports, tables rounded as its JSON output rounds them, and no events(). With neither,
importing this module raises an ImportError that says what is missing. Importing it
loads the native half; `import libprof` alone does not.
"""
import glob
import os
import sys
import sysconfig

from libprof._summary_options import check_names


def _load_native():
    # The extension uses Debian's shared libprotobuf and Abseil (their static archives
    # cannot go into a shared object). RTLD_DEEPBIND makes it and the libraries it brings
    # in look up symbols in their own group before the process's global scope, so a
    # protobuf runtime another module exported earlier (RTLD_GLOBAL) does not take its
    # calls. Off with PROF_ANALYSIS_DEEPBIND=0, and under AddressSanitizer, which refuses
    # RTLD_DEEPBIND. The interpreter's dlopen flags are shared by its threads: they are
    # set for this one import and put back (another thread importing an extension at that
    # very moment would get them too, which does it no harm).
    flags = sys.getdlopenflags()
    deepbind = getattr(os, "RTLD_DEEPBIND", 0)
    if os.environ.get("PROF_ANALYSIS_DEEPBIND", "1") == "0" or "libasan" in os.environ.get("LD_PRELOAD", ""):
        deepbind = 0
    try:
        sys.setdlopenflags(os.RTLD_NOW | os.RTLD_LOCAL | deepbind)
        from libprof import _analysis_native
        return _analysis_native
    except ImportError as error:
        raise ImportError(_native_import_problem(error)) from error
    finally:
        sys.setdlopenflags(flags)


def _native_import_problem(error):
    """Why the extension did not load, in words a user can act on."""
    here = os.path.dirname(os.path.abspath(__file__))
    found = sorted(os.path.basename(path) for path in glob.glob(os.path.join(here, "_analysis_native*.so")))
    wanted = "_analysis_native" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    running = "CPython %d.%d (%s)" % (sys.version_info[0], sys.version_info[1], sys.executable)
    if not found:
        return ("libprof._analysis: the analyzer extension is not installed beside %s "
                "(build //agent/python:analysis_extension); this is %s" % (here, running))
    if wanted not in found:
        return ("libprof._analysis: the analyzer extension was built for another Python: %s is here, "
                "this interpreter (%s) loads only %s. Use the interpreter it was built for "
                "(/usr/bin/python3 by default), or rebuild with PROF_PYTHON=%s bazel build "
                "//agent/python:analysis_extension" % (", ".join(found), running, wanted, sys.executable))
    return "libprof._analysis: the analyzer extension %s could not be loaded into %s: %s" % (
        wanted, running, error)


def _load_backend():
    """The extension, else the profanalyze program (libprof._analysis_cli)."""
    try:
        return _load_native()
    except ImportError as error:
        from libprof import _analysis_cli
        if _analysis_cli.program() is None:
            raise ImportError("%s; nor is there a profanalyze program beside the package to run "
                              "instead" % error) from error
        return _analysis_cli


_native = _load_backend()

__all__ = ["ProfilerResult", "export", "load_profiler_result", "summary_text"]

# export() formats -> the exporter's (profanalyze export --format): paddle says "json".
_EXPORT_FORMATS = {"json": "chrome", "chrome": "chrome", "perfetto": "perfetto"}


def _paths(path_or_paths):
    if isinstance(path_or_paths, (str, bytes, os.PathLike)):
        path_or_paths = [path_or_paths]
    paths = [os.fsdecode(path) for path in path_or_paths]
    if not paths:
        raise ValueError("give at least one trace file or folder")
    return paths


def _name(value):
    """A paddle enum member (SortedKeys.GPUTotal, SummaryView.KernelView) or a string."""
    return value if isinstance(value, str) else getattr(value, "name", str(value))


def _views(views):
    if views is None:
        return ""
    if isinstance(views, str) or not hasattr(views, "__iter__"):
        views = [views]
    return ",".join(_name(view) for view in views)


def _analysis_options(sorted_by, op_detail, thread_sep, views, top, perf_skip, more=None):
    """paddle's summary() arguments, plus any other option of the summary command
    (`more`: the names of _summary_options, as profanalyze's long options with "_" for
    "-"; `self_time` stands for "self", which a method cannot take as a keyword)."""
    options = dict(sorted_by=_name(sorted_by) if sorted_by is not None else "CPUTotal",
                   views=_views(views), op_detail=bool(op_detail), thread_sep=bool(thread_sep),
                   top=int(top), perf_skip=-1 if perf_skip is None else int(perf_skip))
    for key, value in (more or {}).items():
        options["self" if key == "self_time" else key] = value
    check_names(options)  # the same refusal whichever backend runs
    return options


class ProfilerResult:
    """What load_profiler_result() read: the trace files, their tables and events.

    Files that could not be read at all are listed in `unreadable` (one message each,
    as profanalyze prints them); damage inside readable files is counted in the Data
    quality table (`data_quality`).
    """

    def __init__(self, paths, threads=0):
        self.paths = _paths(paths)
        self._threads = int(threads)
        self._default_options = _analysis_options(None, True, False, None, 0, None)
        self._session = _native.analyze(self.paths, threads=self._threads, **self._default_options)
        self._processes = None

    # -- what was read -----------------------------------------------------------------

    @property
    def unreadable(self):
        """One message per file that could not be read (not a trace, newer version, ...)."""
        return list(self._session.unreadable)

    @property
    def files_read(self):
        return self._session.files_read

    @property
    def processes(self):
        """One dict per process (rank, world_size, host, pid, events, files)."""
        return [{key: value for key, value in process.items() if key != "tables"}
                for process in self._all_processes()]

    @property
    def data_quality(self):
        """{"unreadable": [...], "rows": Data quality table rows of every process}.

        No rows when every readable file was intact (the table is then left out)."""
        return {"unreadable": self.unreadable, "rows": self.tables().get("data_quality", [])}

    # -- tables ------------------------------------------------------------------------

    def summary(self, sorted_by=None, op_detail=True, thread_sep=False, time_unit="ms", views=None,
                top=0, perf_skip=None, rank=None, **options):
        """The text profanalyze prints for these options (paddle's summary() arguments;
        `views`: SummaryView members or names such as "KernelView", or our table names;
        `options`: any other summary option, e.g. min_time="1ms", type="kernel")."""
        options = _analysis_options(sorted_by, op_detail, thread_sep, views, top, perf_skip, options)
        session = self._session if options == self._default_options else \
            _native.analyze(self.paths, **dict({"threads": self._threads}, **options))
        return session.text(time_unit=_name(time_unit), rank=-1 if rank is None else int(rank))

    def tables(self, rank=None, pid=None):
        """{table key: [row dict, ...]} for every table profanalyze prints ("device",
        "overview", "model", "distributed", "operator", "kernel", "memory_manipulation",
        "userdefined", "perf", "cuda_api", "nccl", "memory", "memory_steps",
        "memory_alive", "data_quality", and "ranks" with several processes).

        Rows hold the JSON renderer's values under its column keys (times in ns, ratios
        in percent, None for '-', names in full); a Total/Avg/Max/Min/Ratio column "cpu"
        becomes "cpu_total_ns", "cpu_avg_ns", "cpu_max_ns", "cpu_min_ns", "cpu_ratio_pct".
        Each row also says its "depth", "group" and process ("rank", "host", "pid").
        `rank` or `pid` keeps one process's rows (and leaves "ranks" out)."""
        tables = {}
        for process in self._all_processes():
            if (rank is not None and process["rank"] != rank) or (pid is not None and process["pid"] != pid):
                continue
            identity = {"rank": process["rank"], "host": process["host"], "pid": process["pid"]}
            for key, table in process["tables"].items():
                tables.setdefault(key, []).extend(dict(row, **identity) for row in table["rows"])
        ranks = self._session.ranks()
        if ranks is not None and rank is None and pid is None:
            tables["ranks"] = [dict(row) for row in ranks["rows"]]
        return tables

    def dataframe(self, name, rank=None, pid=None):
        """The table `name` (a key of tables()) as a pandas DataFrame."""
        try:
            import pandas
        except ImportError as error:
            raise ImportError("ProfilerResult.dataframe() needs pandas, which this Python (%s) cannot "
                              "import (%s); tables() gives the same rows as plain dicts"
                              % (sys.executable, error)) from error
        tables = self.tables(rank=rank, pid=pid)
        if name not in tables:
            raise KeyError("no table %r in this result (tables: %s)" % (name, ", ".join(sorted(tables))))
        return pandas.DataFrame(tables[name])

    # -- events ------------------------------------------------------------------------

    def events(self, kinds=None):
        """Every event of every readable file, one dict each, one file at a time (so only
        one window's events are in memory): "kind" is "range" (steps, phases, operators,
        user and NVTX ranges, marks: see "type"), "api_call", "kernel", "memcpy",
        "memset", "synchronization", "nccl" or "memory"; times are ns on the host clock;
        "rank" and "pid" say whose. `kinds` keeps only those kinds."""
        wanted = None if kinds is None else set([kinds] if isinstance(kinds, str) else kinds)
        for path in self._files():
            try:
                window = _native.read_events(path)
            except OSError:
                continue  # listed in `unreadable`
            identity = {"rank": window["process"]["rank"], "pid": window["process"]["pid"]}
            for event in window["events"]:
                if wanted is None or event["kind"] in wanted:
                    event.update(identity)
                    yield event

    # -- timeline ----------------------------------------------------------------------

    def export(self, path, format="json"):
        """Writes the timeline of these files to `path`, as `profanalyze export` does:
        "json" (or "chrome"): Chrome trace-event JSON; "perfetto": Perfetto's protobuf
        trace. Returns {"summary", "unreadable"} (see export())."""
        return export(self.paths, path, format=format)

    def _files(self):
        return [path for process in self._all_processes() for path in process["files"]]

    def _all_processes(self):
        if self._processes is None:
            self._processes = self._session.processes()
        return self._processes

    def __repr__(self):
        return "<libprof ProfilerResult: %d process(es), %d file(s) read, %d unreadable>" % (
            len(self._all_processes()), self.files_read, len(self.unreadable))


def load_profiler_result(path_or_paths, threads=0):
    """Reads trace files (a file, a folder of *.pb files, or a list of either) with the
    C++ analyzer. Every intact chunk is read; files that cannot be read at all are in
    `unreadable`. Raises FileNotFoundError for a missing path and OSError when no file
    could be read (the message names each file's problem)."""
    return ProfilerResult(path_or_paths, threads=threads)


def export(path_or_paths, path, format="json"):
    """`profanalyze export PATHS -o path --format ...` in-process (the same exporter, the
    same bytes): "json" (or "chrome") writes Chrome trace-event JSON, "perfetto" Perfetto's
    protobuf trace. Reads one window file at a time. Returns {"summary": what was written,
    "unreadable": [one message per file left out]}. Raises ValueError for another format,
    FileNotFoundError for a missing path, OSError when no file could be read (nothing is
    written then) or `path` cannot be written."""
    if format not in _EXPORT_FORMATS:
        raise ValueError("export: format is one of %s, not %r" % (", ".join(sorted(_EXPORT_FORMATS)), format))
    return _native.export_timeline(_paths(path_or_paths), os.fsdecode(path), _EXPORT_FORMATS[format])


def summary_text(paths, sorted_by=None, op_detail=True, thread_sep=False, time_unit="ms", views=None,
                 top=0, perf_skip=None, rank=None, threads=0, **options):
    """`profanalyze PATHS` with these options, as the text it prints (`options` as in
    ProfilerResult.summary())."""
    options = _analysis_options(sorted_by, op_detail, thread_sep, views, top, perf_skip, options)
    session = _native.analyze(_paths(paths), threads=int(threads), **options)
    return session.text(time_unit=_name(time_unit), rank=-1 if rank is None else int(rank))
