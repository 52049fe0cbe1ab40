"""ATen operators (PROF_PYTHON_OPS=1), forward and backward, named and counted as
torch.profiler names and counts them: aten::addmm, aten::add_, aten::convolution_backward,
autograd::engine::evaluate_function: AddmmBackward0, Optimizer.step#SGD.step.

Two sources (aten_sources.py), started and stopped per thread by the same rules below:
the agent's own RecordFunction callbacks (the default where the agent offers them: each
operator recorded as it ends, nothing to read back, so a window goes on past every
boundary) and torch's own profiler collection, read and replayed (PROF_SHAPES,
PROF_STACKS, PROF_ATEN_SOURCE=profiler, and the fallback). What follows describes the
second, which the first replaced as the default.

Why PyTorch's own collection (measured on Debian's torch 1.13, docs/pytorch.md): torch
gives Python no per-operator callback (RecordFunction callbacks are C++ only, and a C++
shim would bind to one libtorch build's C++ ABI); TorchFunctionMode sees Python calls
only, and TorchDispatchMode misses the CompositeImplicit operators (aten::linear,
aten::conv2d) and every operator called inside another, so neither can count what
torch.profiler counts. So the helper runs what torch.profiler runs with CPU activity
only (the KINETO state: RecordFunction callbacks appending to a per-thread queue),
started through torch's own profiler entry points (their ProfilerConfig is built by
torch.autograd.profiler.profile, so it fits the torch in use):

- on each thread that runs a model phase (PyTorch's profiler is per thread; autograd's
  threads inherit it during backward), and only while the agent records a step
  (_capi.recording), so steps outside the schedule pay nothing;
- kept running through a recording window and drained (read) once: before the step
  boundary that ends the window (or continues it in a new file), as the agent says
  (_capi.window_goes_on), before the program changes the step state (Profiler.start/stop),
  at exit, and at the first boundary 0.2 s after it started, so its memory stays bounded
  (about 0.2 s of operators). Other threads catch up at their next phase after such a
  read; while another thread collects too, every boundary reads. The operators are
  replayed to the agent as ranges with their own times (aten_replay), on the draining
  thread, while the window still records, so each lands in its window and step by its
  time; then it starts again when the next step records. Reading it at every boundary instead
  (stopping and restarting torch's collection each time) cost about twice as much CPU per
  operator on a CPU loop of 0.3 ms steps (scripts/aten_cost.py, docs/benchmarks.md).

Device tracing goes on beside it: torch prepares Kineto for CUDA whenever CUDA is present,
so the first collection initializes Kineto's CUPTI subscription for the process; the agent
shares CUPTI with it (docs/recording.md, "Sharing CUPTI"), so the kernels stay the agent's
and a program's own torch.profiler started later still records CUDA.

The program's own profiler (torch.profiler, autograd.profiler.profile, emit_nvtx) comes
first: PyTorch allows one profiler per thread, so when the program starts one on a
thread where ours runs, ours is drained and stopped there, and starts again at that
thread's first model phase after the program's profiler stops. torch 2 traces one Kineto
collection per process: a thread whose start torch refuses while another's runs records
no operators until then. A forked child stops the collection it inherited.
"""
import atexit
import os
import threading
import time

from libprof import _capi, _flags, _guard, _steps
from libprof._torch import aten_sources, phases
from libprof._torch.aten_replay import Replay


# A collection that has run this long is read at the next step boundary even when the
# window goes on there: torch holds every operator until then (a few hundred bytes each).
_READ_AFTER_S = 0.2


class _ThreadState(threading.local):
    collection = None      # a _Collection while ours runs on this thread
    program_owns = False   # the program's own profiler runs on this thread
    reads = 0              # the reads (AtenOperators._reads) this thread has caught up with


class _Collection:
    """Our collection on one thread, held in its thread-local state. When a thread ends
    with it running, the thread's locals are freed on that thread as it exits, and this
    drains it there: its last operators are recorded on their own thread, and PyTorch's
    profiler is not left enabled on a dead thread (it would print a warning). Another
    thread may free them too (a forked child frees the other threads' states): only the
    owner, in its own process, drains."""

    def __init__(self, operators):
        self.operators = operators
        self.open = True
        self.owner = (os.getpid(), threading.get_ident())
        self.started = time.monotonic()

    def __del__(self):
        if self.open and self.owner == (os.getpid(), threading.get_ident()):
            _guard.guarded(self.operators.drain, self)


class AtenOperators:
    def __init__(self, torch):
        details = hasattr(_capi, "operator_range_detail")
        shapes = details and _flags.flag("PROF_SHAPES", False)
        # Python source lines need torch's Python tracer (with_stack), and torch 1.13's
        # asserts ("Python replay stack is empty") when a collection stops inside Python
        # frames, which is where every step boundary stops it: only torch versions whose
        # tracer survives that get source lines (PROF_ATEN_STACKS=1 to try).
        self._stacks = (details and _flags.flag("PROF_STACKS", False)
                        and _flags.flag("PROF_ATEN_STACKS", False))
        self._stack_config = None
        if self._stacks:  # torch's Python tracer is one per process: the main thread only
            self._stack_config, _ = _profiler_settings(torch, shapes, with_stack=True)

        def profiler_source():
            config, activities = _profiler_settings(torch, shapes, with_stack=False)
            replay = Replay(torch._C._profiler._EventType, shapes or self._stacks,
                            torch._C._profiler.RecordScope.USER_SCOPE)
            return aten_sources.ProfilerSource(torch, config, activities, replay)

        self._source, why = aten_sources.choose(torch, shapes or self._stacks, profiler_source)
        aten_sources.announce(self._source, why)
        # The observer records each operator as it ends: nothing to read at boundaries.
        self._observer = self._source.name == "observer"
        self._thread = _ThreadState()
        self._reads = 0  # boundaries where the stepping thread read its collection
        self._collecting = set()  # the threads whose collection runs (their idents)
        self._goes_on = False  # the boundary under way keeps the collection running
        self._closed = False  # at exit, or after the helper failed: never start again

    def start_on_this_thread(self):
        state = self._thread
        if state.collection or state.program_owns or self._closed or not _capi.recording():
            return
        config = None
        if self._stacks and threading.current_thread() is threading.main_thread():
            config = self._stack_config
        if not self._source.start(config):
            return
        state.collection = _Collection(self)
        self._collecting.add(threading.get_ident())

    def collecting(self):
        """Whether a collection runs on any thread."""
        return bool(self._collecting)

    def drain_this_thread(self):
        collection = self._thread.collection
        if collection is not None:
            self._thread.collection = None
            self.drain(collection)

    def drain(self, collection):
        """Stops `collection` (on its own thread) and records what it holds (nothing once
        the helper has failed)."""
        collection.open = False
        self._collecting.discard(collection.owner[1])
        self._source.stop(record=_guard.active)

    def before_boundary(self):
        """Reads this thread's collection unless it can go on past the boundary: the
        window goes on there, no other thread collects, and it is younger than
        _READ_AFTER_S."""
        collection = self._thread.collection
        self._goes_on = (collection is not None
                         and (self._observer or (len(self._collecting) == 1 and
                                                 time.monotonic() - collection.started
                                                 < _READ_AFTER_S))
                         and _capi.window_goes_on(_steps.boundary_state()) == 1)
        if not self._goes_on:
            self.drain_this_thread()

    def after_boundary(self):
        if self._goes_on:
            self._goes_on = False
            return
        self._reads += 1
        self._thread.reads = self._reads
        self.start_on_this_thread()

    def before_state_change(self):
        """Profiler.start/stop change the step state now, which may close the window."""
        self.drain_this_thread()

    def catch_up(self, _phase_name):
        """At each outermost phase of a thread: drains what it ran before the latest
        read (once), and starts it when the step records."""
        state = self._thread
        if state.reads != self._reads:
            state.reads = self._reads
            self.drain_this_thread()
        if state.collection is None:
            self.start_on_this_thread()

    def program_starts_profiler(self):
        self.drain_this_thread()
        self._thread.program_owns = True

    def program_stopped_profiler(self):
        # Ours starts again at this thread's next outermost phase (catch_up), not here: a
        # thread that only waits after its profiler (joins a training thread) would hold
        # torch 2's one Kineto collection per process and keep the others from theirs.
        self._thread.program_owns = False

    def close_at_exit(self):
        self._closed = True
        self.drain_this_thread()
        self._source.report_losses()

    def stop(self):
        """The helper failed: stops collecting on this thread and records nothing more
        (another thread's collection, if any, stops when that thread ends)."""
        self._closed = True
        self._stop_without_recording()

    def forget_in_child(self):
        self._stop_without_recording()  # the parent's operators: not this process's
        self._collecting.clear()  # the child has no other thread

    def _stop_without_recording(self):
        collection = self._thread.collection
        if collection is not None:
            self._thread.collection = None
            collection.open = False
            self._collecting.discard(collection.owner[1])
            self._source.stop(record=False)


def _profiler_settings(torch, record_shapes, with_stack):
    """(ProfilerConfig, activities) of torch.profiler with CPU activity only."""
    settings = torch.autograd.profiler.profile(
        record_shapes=record_shapes, with_stack=with_stack)
    return settings.config(), settings.kineto_activities


def install(torch, patches):
    """Returns the callable that stops the collection when the helper fails."""
    operators = AtenOperators(torch)
    phases.on_outermost_phase(operators.catch_up)
    _steps.around_boundary(operators.before_boundary, operators.after_boundary)
    _steps.before_state_change(operators.before_state_change)
    # A thread's collection is drained at its next phase (catch_up): not in quiet steps.
    _steps.keep_awake_while(operators.collecting)
    _yield_to_program_profiler(torch, patches, operators)
    atexit.register(_guard.guarded, operators.close_at_exit)
    os.register_at_fork(after_in_child=lambda: _guard.guarded(operators.forget_in_child))
    return operators.stop


def _yield_to_program_profiler(torch, patches, operators):
    """Wraps the profiler entry points torch's profilers call, as module globals:
    torch.autograd.profiler's (profile, emit_nvtx, emit_itt; torch.profiler goes through
    profile) and torch.autograd.profiler_legacy's."""
    _wrap_entry_points(torch.autograd.profiler, patches, operators,
                       ("_prepare_profiler", "_enable_profiler"), "_disable_profiler")
    legacy = getattr(torch.autograd, "profiler_legacy", None)
    if legacy is not None:
        _wrap_entry_points(legacy, patches, operators, ("_enable_profiler_legacy",),
                           "_disable_profiler_legacy")


def _wrap_entry_points(module, patches, operators, starts, stop_name):

    def make_start(original):
        def start(*args, **kwargs):
            if phases.hooks_live():
                _guard.guarded(operators.program_starts_profiler)
            return original(*args, **kwargs)
        return start

    def make_stop(original):
        def stop(*args, **kwargs):
            result = original(*args, **kwargs)
            if phases.hooks_live():
                _guard.guarded(operators.program_stopped_profiler)
            return result
        return stop

    for name in starts:
        if name in module.__dict__:
            patches.wrap(module, name, make_start)
    if stop_name in module.__dict__:
        patches.wrap(module, stop_name, make_stop)
