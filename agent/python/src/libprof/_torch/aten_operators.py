"""ATen operators (PROF_PYTHON_OPS=1), forward and backward, named and counted as
torch.profiler names and counts them: aten::addmm, aten::add_, aten::convolution_backward,
autograd::engine::evaluate_function: AddmmBackward0, Optimizer.step#SGD.step.

Why PyTorch's own collection (measured on Debian's torch 1.13, README "PyTorch"): torch
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
- drained before each step boundary, on the stepping thread (other threads catch up at
  their next phase), and at exit: the operators are replayed to the agent as ranges with
  their own times (aten_replay), on the draining thread, then it starts again when the
  next step records.

The program's own profiler (torch.profiler, autograd.profiler.profile, emit_nvtx) comes
first: PyTorch allows one profiler per thread, so when the program starts one on a
thread where ours runs, ours is drained and stopped there, and starts again after the
program's profiler stops. A forked child stops the collection it inherited.
"""
import atexit
import os
import threading

from libprof import _capi, _flags, _guard, _steps
from libprof._torch import phases
from libprof._torch.aten_replay import Replay


class _ThreadState(threading.local):
    running = False        # our collection runs on this thread
    program_owns = False   # the program's own profiler runs on this thread
    boundaries = 0         # the step boundaries this thread has caught up with


class AtenOperators:
    def __init__(self, torch):
        autograd = torch._C._autograd
        self._prepare = autograd._prepare_profiler
        self._enable = autograd._enable_profiler
        self._disable = autograd._disable_profiler
        details = hasattr(_capi, "operator_range_detail")
        shapes = details and _flags.flag("PROF_SHAPES", False)
        self._stacks = details and _flags.flag("PROF_STACKS", False)
        self._config, self._activities = _profiler_settings(torch, shapes, with_stack=False)
        if self._stacks:  # torch's Python tracer is one per process: the main thread only
            self._stack_config, _ = _profiler_settings(torch, shapes, with_stack=True)
        self._replay = Replay(torch._C._profiler._EventType, shapes or self._stacks)
        self._thread = _ThreadState()
        self._boundaries = 0
        self._closed = False  # at exit, or after the helper failed: never start again

    def start_on_this_thread(self):
        state = self._thread
        if state.running or state.program_owns or self._closed or not _capi.recording():
            return
        config = self._config
        if self._stacks and threading.current_thread() is threading.main_thread():
            config = self._stack_config
        self._prepare(config, self._activities)
        self._enable(config, self._activities)
        state.running = True

    def drain_this_thread(self):
        state = self._thread
        if state.running:
            state.running = False
            self._replay.replay(self._disable())

    def before_boundary(self):
        self.drain_this_thread()

    def after_boundary(self):
        self._boundaries += 1
        self._thread.boundaries = self._boundaries
        self.start_on_this_thread()

    def catch_up(self, _phase_name):
        """At each outermost phase of a thread: drains what it ran before the latest
        boundary (once), and starts it when the step records."""
        state = self._thread
        if state.boundaries != self._boundaries:
            state.boundaries = self._boundaries
            self.drain_this_thread()
        if not state.running:
            self.start_on_this_thread()

    def program_starts_profiler(self):
        self.drain_this_thread()
        self._thread.program_owns = True

    def program_stopped_profiler(self):
        self._thread.program_owns = False
        self.start_on_this_thread()

    def close_at_exit(self):
        self._closed = True
        self.drain_this_thread()

    def stop(self):
        """The helper failed: stops collecting on this thread (others stop at their next
        phase, which no longer runs hooks) and records nothing more."""
        self._closed = True
        state = self._thread
        if state.running:
            state.running = False
            self._disable()

    def forget_in_child(self):
        state = self._thread
        if state.running:
            state.running = False
            self._disable()  # the parent's operators: not this process's


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
    _yield_to_program_profiler(torch, patches, operators)
    atexit.register(_guard.guarded, operators.close_at_exit)
    os.register_at_fork(after_in_child=lambda: _guard.guarded(operators.forget_in_child))
    return operators.stop


def _yield_to_program_profiler(torch, patches, operators):
    """Wraps the profiler entry points torch.autograd.profiler calls (its module globals:
    profile, emit_nvtx, emit_itt and torch.profiler all go through them)."""
    module = torch.autograd.profiler

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

    for name in ("_prepare_profiler", "_enable_profiler"):
        if name in module.__dict__:
            patches.wrap(module, name, make_start)
    if "_disable_profiler" in module.__dict__:
        patches.wrap(module, "_disable_profiler", make_stop)
