"""What the Profiler does with a finished window: paddle's export_chrome_tracing and
export_protobuf callbacks, Profiler.export, summary() and load_profiler_result through the
C++ analyzer.

Tables, results and the Chrome trace come from libprof._analysis, the analyzer built as a
Python extension (the same code as profanalyze, no second implementation, no subprocess):
export(path, "json") writes the bytes `profanalyze export` writes for the window's files,
"perfetto" its Perfetto protobuf trace. "pb" is the agent's own trace file, which
profanalyze reads, not paddle's nodetree protobuf.
"""
import datetime
import os
import shutil
import socket
import sys


def _analysis():
    try:
        from libprof import _analysis as analysis
    except ImportError as error:
        raise ImportError("libprof._analysis (the analyzer's Python extension) is not "
                          "available: %s; run `profanalyze FILES` on the trace files instead"
                          % error) from error
    return analysis


def summary_text(paths, sorted_by, op_detail, thread_sep, time_unit, views, **options):
    return _analysis().summary_text(list(paths), sorted_by=sorted_by, op_detail=op_detail,
                                    thread_sep=thread_sep, time_unit=time_unit, views=views, **options)


def load_profiler_result(path):
    """The events and summary tables of a trace file (or a folder of them), as paddle's
    load_profiler_result returns a result to summarize."""
    paths = path if isinstance(path, (list, tuple)) else [path]
    return _analysis().load_profiler_result([os.fspath(entry) for entry in paths])


def export_files(paths, path, format):
    """Writes the window's trace `paths` to `path`: Chrome trace JSON ("json"), Perfetto's
    protobuf trace ("perfetto") or the agent's protobuf trace ("pb"). False, with a
    message, when it cannot (an on_trace_ready callback does not stop the program)."""
    if format not in ("json", "perfetto", "pb"):
        raise ValueError("export: format is 'json', 'perfetto' or 'pb', not %r" % (format,))
    if not paths:
        sys.stderr.write("libprof: nothing to export (no window has finished with data)\n")
        return False
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    if format == "pb":
        shutil.copyfile(paths[0], path)  # one file per window
        return True
    try:
        written = _analysis().export(list(paths), path, format=format)
    except (ImportError, OSError) as error:
        sys.stderr.write("libprof: export %s: %s\n" % (path, error))
        return False
    for message in written["unreadable"]:
        sys.stderr.write("libprof: export %s: left out %s\n" % (path, message))
    return True


def _file_name(dir_name, worker_name, extension):
    worker = worker_name or "host_%spid_%d" % (socket.gethostname(), os.getpid())
    stamp = datetime.datetime.now().strftime("%Y_%m_%d_%H_%M_%S_%f")
    return os.path.join(dir_name, "%s_time_%s.paddle_trace.%s" % (worker, stamp, extension))


def export_chrome_tracing(dir_name, worker_name=None):
    """on_trace_ready callback: each finished window as
    <dir_name>/<worker_name>_time_<timestamp>.paddle_trace.json (Chrome trace)."""
    def handle(profiler):
        profiler.export(_file_name(dir_name, worker_name, "json"), "json")
    return handle


def export_protobuf(dir_name, worker_name=None):
    """on_trace_ready callback: each finished window's trace file as
    <dir_name>/<worker_name>_time_<timestamp>.paddle_trace.pb."""
    def handle(profiler):
        profiler.export(_file_name(dir_name, worker_name, "pb"), "pb")
    return handle
