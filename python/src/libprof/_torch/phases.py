"""The model phase open on each thread. Only a thread's outermost phase is recorded: a
phase hook that finds one open calls straight through (one attribute test), which keeps
the cost of the many nested nn.Module calls of a forward pass low. An outermost phase is
also where a due step boundary is placed (see _steps)."""
import threading

from libprof import _capi, _guard, _process, _steps


class _ThreadPhase(threading.local):
    open = False          # a phase is open on this thread
    recorded = False      # it was handed to the agent (not opened in a quiet step)
    optimizer_depth = 0   # nested optimizer steps (a subclass calling super().step())
    seen = False          # this thread has run a phase hook before


current = _ThreadPhase()
_first_use_in_thread = []  # callables run on a thread's first phase (operators' mode)
_each_outermost_phase = []  # callables(name) run as each outermost phase opens


def on_first_use_in_thread(callback):
    _first_use_in_thread.append(callback)


def on_outermost_phase(callback):
    """callback(name) as each outermost phase of a thread opens, before it is recorded
    (the pending Forward ends here; ATen operator collection catches up)."""
    _each_outermost_phase.append(callback)


def hooks_live():
    """False once the helper failed, and in DataLoader workers. (Run at each outermost
    phase: the worker question is asked only in a process that may be one.)"""
    return _guard.active and not (_process.maybe_worker and _process.in_dataloader_worker())


def enter(name, push=True):
    """Opens phase `name` unless one is open on this thread; True when it did. With
    push=False the caller records the phase itself (forward: one range per step), when
    `recorded()` says so: a phase opened in a quiet step (_steps.quiet) only marks where
    a due boundary goes."""
    state = current
    if state.open:
        return False
    boundaries = _steps.boundaries
    if boundaries.due:  # a new iteration may begin here
        boundaries.place_due_boundary()
    if _steps.quiet:
        state.open = True
        state.recorded = False
        return True
    if not state.seen:
        state.seen = True
        for callback in _first_use_in_thread:
            callback()
    for callback in _each_outermost_phase:
        callback(name)
    state.open = True
    state.recorded = True
    if push:
        _capi.phase_push(name)
    return True


def recorded():
    """Whether the phase open on this thread was recorded (see enter)."""
    return current.recorded


def leave(pop=True):
    """Closes this thread's phase; returns whether it was recorded (see enter)."""
    state = current
    state.open = False
    if pop and state.recorded:
        _capi.phase_pop()
    return state.recorded


def run_in_phase(name, function, args, kwargs):
    """function(*args, **kwargs) inside phase `name` (when it is the outermost)."""
    opened = _guard.guarded(enter, name)
    try:
        return function(*args, **kwargs)
    finally:
        if opened:
            _guard.guarded(leave)
