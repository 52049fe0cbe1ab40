"""Step boundaries: the explicit step() and the automatic one after an optimizer step.

An automatic boundary (PyTorch hooks) is due after the outermost optimizer step and is
placed where the next iteration begins: at the next model phase (usually the next batch
fetch), or at interpreter exit. So everything the loop does after optimizer.step()
(logging, loss.item()) belongs to its step, as with paddle's step() at the end of the
loop, and an explicit step() made there replaces it. Its sample count is the samples of
the batches fetched since the previous boundary. When a DataLoader is in use, an
optimizer step with no batch fetched since the previous boundary makes no new one: two
optimizers stepping on one batch (a GAN) make one step. Fetches from another dataset (an
evaluation loop) restart the count. The first explicit step() hands the boundaries to the
program for good.
"""
import atexit
import os

from libprof import _capi, _guard, _memory
from libprof._enums import RECORDING_STATES
from libprof._timer import StepTimer

# (before, after) callables run around every boundary on the stepping thread: what the
# ending step holds is handed to the agent before prof_step (the pending Forward, the
# ATen operators), and collection restarts after it when the new step records.
_around = []
# Callables run before the program changes the step state outside a boundary
# (Profiler.start/stop: prof_set_state), which may close the window.
_before_state_change = []
# The next step's state (prof_step_to's), -1 for the schedule's, while a boundary's
# callables run.
_next_state = -1
# True while the current step is quiet: no window records it and nothing would keep what
# the hooks see (no flight recorder, no operator collection running: _keeps_awake). The
# PyTorch hooks then only find where steps begin and end (phases.enter): their ranges,
# timestamps and calls to the agent are skipped, which is most of what they cost a step
# (docs/benchmarks.md). Decided at each boundary (prof_step_ended's answer); a window that
# opens during a quiet step (a trigger's seconds=S, prof_start from C) gets the hooks'
# phases and operators from the next boundary on.
quiet = False
_keeps_awake = []  # callables: True when the next step must not be quiet
_quiet_listeners = []  # callables(quiet) run where quiet changes
_RECORDING_VALUES = tuple(state.value for state in RECORDING_STATES)  # prof_schedule_state's
_when_due_while_quiet = []  # callables run as an automatic boundary turns due, quiet


def when_due_while_quiet(callback):
    _when_due_while_quiet.append(callback)


def around_boundary(before, after):
    _around.append((before, after))


def before_state_change(before):
    _before_state_change.append(before)


def keep_awake_while(predicate):
    """predicate() -> True keeps the steps after a boundary from being quiet."""
    _keeps_awake.append(predicate)


def on_quiet_change(listener):
    """listener(quiet) where steps turn quiet or stop being quiet (the hooks' wrappers)."""
    _quiet_listeners.append(listener)


def _set_quiet(value):
    global quiet
    if value != quiet:
        quiet = value
        for listener in _quiet_listeners:
            _guard.guarded(listener, value)


def _decide_quiet(records):
    # After prof_step: `records`, whether the new step records. The boundary's
    # after-callables start what a recorded step needs (operator collection), so none runs
    # in a quiet step.
    value = not records
    if value:
        for awake in _keeps_awake:
            if awake():
                value = False
                break
    _set_quiet(value)


def state_changing():
    """Called just before prof_set_state (which may open a window: not quiet from here)."""
    _set_quiet(False)
    for before in _before_state_change:
        _guard.guarded(before)


def boundary_state():
    """During a boundary's callables: the state the boundary gives the next step (for
    _capi.window_goes_on)."""
    return _next_state


class StepBoundaries:
    def __init__(self):
        self.automatic = True
        self.timer = StepTimer()
        self._dataloader_seen = False
        self.due = False             # an automatic boundary waits for the next phase
        self._due_samples = None
        self._made = 0               # boundaries made: the agent's index of the step now
        # Whether the step after this one records, as the agent said at this step's
        # boundary (prof_step_ended); None: not said, ask when needed.
        self._next_records = None
        self._forget_batches()

    def _forget_batches(self):
        self._batches = 0
        self._samples = 0
        self._samples_known = True
        self._dataset = None

    def batch_fetched(self, dataset, samples, started, seconds):
        self.timer.reader_finished(started, seconds)
        self._dataloader_seen = True
        if self._dataset is not None and dataset is not self._dataset:
            self._forget_batches()
        self._dataset = dataset
        self._batches += 1
        if samples is None:
            self._samples_known = False
        else:
            self._samples += samples

    def optimizer_stepped(self):
        if not self.automatic or self.due:
            return
        if self._dataloader_seen and self._batches == 0:
            return
        known = self._batches > 0 and self._samples_known
        self.due = True
        self._due_samples = self._samples if known else None
        self._forget_batches()
        if quiet:
            self._due_while_quiet()

    def _due_while_quiet(self):
        """A boundary is due in a quiet step, whose phase wrappers are out. When the next
        step records by the schedule they come back now, so the next phase places the
        boundary and is recorded as before; else the _when_due_while_quiet callables
        find where the next iteration begins (its first nn.Module call). A window that
        opens unannounced at that boundary (a trigger's steps=N) has its first step's
        Forward from that step's second outermost module call on (the loss module)."""
        next_records = self._next_records
        if next_records is None:
            state = _capi.applied_schedule_state(self._made + 1)
            next_records = state is None or state in _RECORDING_VALUES  # unknown: wake
        if next_records:
            _set_quiet(False)
            return
        for callback in _when_due_while_quiet:
            _guard.guarded(callback)

    def place_due_boundary(self):
        """Called where a new iteration begins; cheap when no boundary is due."""
        if self.due:
            self.due = False
            self._end_step(self._due_samples)

    def explicit_step(self, num_samples, next_state=None):
        """next_state: the agent state of the next step (the Profiler's scheduler,
        prof_step_to); returns the index of the window open after the boundary, or -1."""
        self.automatic = False
        self.due = False
        window = self._end_step(num_samples, next_state)
        self._forget_batches()
        return window

    def _end_step(self, samples, next_state=None):
        global _next_state
        count = samples if samples and samples > 0 else 0
        window = -1
        _next_state = -1 if next_state is None else next_state
        # A quiet step holds nothing to hand over (no Forward pending, no operators) and a
        # memory sample is kept only while a window records: around quiet steps these are
        # skipped.
        ending_quiet = quiet
        cuda_sampled = None  # not asked yet
        if not ending_quiet:
            # Device memory on both sides of the boundary: the ending step's last figures,
            # and the next step's first ones (a window may open or close at this boundary).
            cuda_sampled = _memory.sample()
            # The step ends here, where the program reached its boundary: what the
            # callables hand over (a window's operators, read at its last boundary: tens
            # of ms) is the profiler's time, not the step's (prof_step_stamp).
            _capi.step_stamp()
            for before, _ in _around:
                _guard.guarded(before)
        self._next_records = None
        step_ended = _capi.step_ended
        if next_state is None and step_ended is not None:
            # One ctypes call: a call costs ~5k instructions, more than the rest of a
            # quiet boundary (docs/benchmarks.md).
            flags = step_ended(count)
            records = flags & _capi.STEP_RECORDS
            self._next_records = bool(flags & _capi.NEXT_STEP_RECORDS)
        else:
            if next_state is None:
                _capi.step(count)
            else:
                window = _capi.step_to(count, next_state)
            records = _capi.recording()
        _decide_quiet(records)
        if not quiet:
            if cuda_sampled is not False:
                _memory.sample()
            for _, after in _around:
                if after is not None:
                    _guard.guarded(after)
        self._made += 1
        self.timer.step_ended(samples)
        return window


boundaries = StepBoundaries()


def _place_due_boundary_at_exit():
    boundaries.place_due_boundary()


def _fresh_in_child():
    global boundaries
    boundaries = StepBoundaries()  # a forked child's steps are its own
    _set_quiet(False)


atexit.register(_place_due_boundary_at_exit)
os.register_at_fork(after_in_child=_fresh_in_child)


def step(num_samples=None):
    """Ends the current step (paddle.profiler.Profiler.step). num_samples: the samples
    (e.g. the batch size) the step processed, for samples/s; None when unknown."""
    if _capi.AGENT_LOADED:
        boundaries.explicit_step(num_samples)


def step_info(unit="samples"):
    """paddle's step_info: " reader_cost: X s batch_cost: Y s ips: Z <unit>/s", averaged
    over the steps since the previous call (parts that are zero are left out). "" without
    the agent."""
    if not _capi.AGENT_LOADED:
        return ""
    return boundaries.timer.step_info(unit if unit else "samples")


def mark_ips_unit(unit):
    """Names the Perf Summary's IPS unit in the trace (a mark the analyzer reads,
    analyzer/summary/perf_summary.h; recorded while a window is open). Profiler.step_info
    does this; the module-level step_info does not (it adds nothing to the trace)."""
    _capi.mark("libprof.ips_unit=" + str(unit))
