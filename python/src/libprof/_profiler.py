"""libprof.Profiler: paddle.profiler.Profiler's signature and semantics on libprof.so, so a
paddle script runs with only `import paddle.profiler as profiler` changed to
`import libprof as profiler`.

The scheduler (a (start, end) tuple, make_scheduler(...), or any callable step ->
ProfilerState) is evaluated here, at every step(); the agent applies each state at the
step boundary itself (prof_step_to), so windows open and close exactly at the boundary's
timestamp and READY subscribes device activity a step ahead, as PROF_SCHEDULE does. From
the Profiler's start() on, the Profiler alone decides the windows (PROF_SCHEDULE, or the
record-everything default, ends there; ProfileStep numbers keep counting the process's
steps).

The transitions are paddle's (§2.5 of reference/paddle-summary-semantics.md): a window
ending in RECORD_AND_RETURN, or open at stop(), is returned: the Profiler waits for the
agent to finish its file (prof_flush, usually tens of milliseconds), keeps it as the
latest result and calls on_trace_ready(profiler) on the thread that called step()/stop().
A window that ends without RECORD_AND_RETURN (RECORD -> CLOSED) is discarded with a
warning, as paddle does (its file stays on disk).

Without LD_PRELOAD, the first Profiler loads libprof.so into the interpreter
(_capi.load_in_process: what that loses is said there) with PROF_SCHEDULE=off, so nothing
is recorded outside the Profiler's windows.
"""
import os
import sys
import warnings

from libprof import _capi
from libprof import _export
from libprof._benchmark import Benchmark
from libprof._enums import (RECORDING_STATES, ProfilerState, ProfilerTarget, SortedKeys,
                            VIEW_NAMES)
from libprof._scheduler import scheduler_of

_FLUSH_TIMEOUT_MS = 10000  # a window's file is normally finished within ~50 ms


def _load_agent(record_shapes, with_flops):
    """The agent, preloaded or loaded here; the recording switches as PROF_* variables
    (read by the agent at load, by the helper when it installs its PyTorch hooks)."""
    switches = {}
    if record_shapes or with_flops:  # FLOPs are computed from the operators' input shapes
        switches.update(PROF_SHAPES="1", PROF_PYTHON_OPS="1")
    for name, value in switches.items():
        os.environ.setdefault(name, value)
    if _capi.AGENT_LOADED:
        return True
    if not _capi.load_in_process({"PROF_SCHEDULE": "off"}):
        sys.stderr.write("libprof: libprof.so was not found (set PROF_LIBRARY, or run under "
                         "LD_PRELOAD=libprof.so); the Profiler records nothing\n")
        return False
    from libprof._autostart import arm
    arm()  # the PyTorch hooks (phases, operators), now or when torch is imported
    return True


def _state(value):
    return value if isinstance(value, ProfilerState) else ProfilerState(value)


class Profiler:
    def __init__(self, *, targets=None, scheduler=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, timer_only=False,
                 emit_nvtx=False, custom_device_types=None, with_flops=False):
        self.targets = list(targets) if targets is not None else [ProfilerTarget.CPU,
                                                                   ProfilerTarget.GPU]
        self.scheduler = scheduler_of(scheduler)
        self.on_trace_ready = (on_trace_ready if on_trace_ready is not None
                               else _export.export_chrome_tracing("./profiler_log/"))
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory  # memory is recorded unless PROF_ACTIVITIES says no
        self.with_flops = with_flops
        self.timer_only = timer_only
        self.emit_nvtx = emit_nvtx
        self.custom_device_types = custom_device_types
        self.step_num = 0
        self.previous_state = ProfilerState.CLOSED
        self.current_state = self._scheduled(0)
        self.agent_loaded = _load_agent(record_shapes, with_flops)
        self._window = -1         # the agent's open window (its index), -1: none
        self._result = []         # the latest returned window's trace files
        self._benchmark = None
        self._running = False
        self._ips_unit = None  # step_info(unit), marked again in every window it opens

    def _scheduled(self, step):
        return ProfilerState.CLOSED if self.timer_only else _state(self.scheduler(step))

    # paddle: start() applies CLOSED -> scheduler(0).
    def start(self):
        from libprof import _steps
        _steps.boundaries.automatic = False  # the Profiler's step() marks the steps
        self._benchmark = Benchmark()
        _steps.boundaries.timer.history = self._benchmark
        _steps.boundaries.timer.restart()
        self._running = True
        self.current_state = self._scheduled(self.step_num)
        _steps.state_changing()
        self._window = _capi.set_state(self.current_state.value)

    def step(self, num_samples=None):
        """Ends the current step (num_samples: the samples it processed, for ips)."""
        from libprof import _steps
        ended = self._window
        self.previous_state = self.current_state
        self.step_num += 1
        self.current_state = self._scheduled(self.step_num)
        self._window = _steps.boundaries.explicit_step(num_samples, self.current_state.value)
        if self._ips_unit and self._window >= 0 and self._window != ended:
            _steps.mark_ips_unit(self._ips_unit)
        if self.previous_state == ProfilerState.RECORD_AND_RETURN:
            self._returned(ended)
        elif (self.previous_state == ProfilerState.RECORD
              and self.current_state not in RECORDING_STATES):
            warnings.warn("libprof.Profiler: the scheduler left RECORD without "
                          "RECORD_AND_RETURN at step %d; that window's data is not returned"
                          % self.step_num)

    def stop(self):
        """Ends profiling: prints the Perf Summary (the analyzer's, of every step since
        start()), and returns the window open now, if any (on_trace_ready)."""
        from libprof import _steps
        if not self._running:
            return
        self._running = False
        _steps.boundaries.timer.history = None
        table = self._benchmark.perf_summary()
        if table:
            print(table)
        if self.timer_only:
            return
        open_window = self._window
        state = self.current_state
        _steps.state_changing()
        self._window = _capi.set_state(ProfilerState.CLOSED.value)
        self.current_state = ProfilerState.CLOSED
        if state in RECORDING_STATES:
            self._returned(open_window)

    def _returned(self, first_index):
        """Window `first_index` (and any files it continued in: PROF_STEPS_PER_FILE) has
        ended: waits for its files, keeps them as the result, calls on_trace_ready."""
        if first_index is None or first_index < 0:
            return
        if _capi.flush(_FLUSH_TIMEOUT_MS) == 0:
            sys.stderr.write("libprof: the agent did not finish window %d within %d ms\n"
                             % (first_index, _FLUSH_TIMEOUT_MS))
        files = []
        index = first_index
        while index != self._window:
            path = _capi.window_path(index)
            if path is None:
                break
            if path:
                files.append(path)
            index += 1
        self._result = files
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    @property
    def result_files(self):
        """The trace files of the latest returned window (what summary/export use)."""
        return list(self._result)

    def step_info(self, unit=None):
        """paddle's step_info: " reader_cost: X s batch_cost: Y s ips: Z <unit>/s" over
        the steps since the previous call; `unit` also names the Perf Summary's IPS unit."""
        from libprof import _steps
        if unit:
            self._ips_unit = unit
            if self._benchmark is not None:
                self._benchmark.unit = unit
            _steps.mark_ips_unit(unit)
        return _steps.boundaries.timer.step_info(unit or "samples")

    def export(self, path="", format="json"):
        """The latest returned window to `path`: Chrome trace JSON ("json", the bytes
        `profanalyze export` writes, from the analyzer's extension in-process), Perfetto's
        protobuf trace ("perfetto") or the agent's protobuf trace ("pb")."""
        return _export.export_files(self._result, path, format)

    def summary(self, sorted_by=SortedKeys.CPUTotal, op_detail=True, thread_sep=False,
                time_unit="ms", views=None, **options):
        """Prints profanalyze's tables for the latest returned window (nothing without
        one). views: a SummaryView or a list of them (None: all); `options`: any other
        summary option (libprof._analysis.ProfilerResult.summary)."""
        if not self._result:
            return
        if views is not None and not isinstance(views, (list, tuple, set)):
            views = [views]
        names = None if views is None else [VIEW_NAMES[view] for view in views]
        key = sorted_by.name if isinstance(sorted_by, SortedKeys) else sorted_by
        try:
            text = _export.summary_text(self._result, key, op_detail, thread_sep, time_unit,
                                        names, **options)
        except ImportError as error:
            sys.stderr.write("libprof: summary: %s\n" % error)
            return
        print(text)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exception):
        self.stop()
        return False
