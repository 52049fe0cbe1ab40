"""Where the ATen operators come from (aten_operators.py starts and stops one per thread):

- the agent's own RecordFunction callbacks (_capi.torch_observer_start/stop,
  agent/torch/torch_observer.h): torch calls the agent at each operator's start and end,
  and the agent records the operator there, named and counted as torch.profiler's tables;
  no collection to stop, nothing to read back in Python. The default where the agent
  offers it (PROF_ATEN_SOURCE=auto).
- torch's own profiler collection (CPU activity), read back and replayed (aten_replay):
  for PROF_SHAPES=1 / PROF_STACKS=1 (the observer does not read operators' inputs or
  Python frames), PROF_ATEN_SOURCE=profiler, and wherever the observer cannot run (an
  older agent, a torch whose RecordScope differs or whose functions are missing).

One line on stderr (PROF_LOG_LEVEL=info; warn where PROF_ATEN_SOURCE=observer was asked
for and refused) says which and why.
"""
import sys

from libprof import _capi


class ProfilerSource:
    """torch's profiler collection on the calling thread (see aten_operators.py)."""
    name = "profiler"

    def __init__(self, torch, config, activities, replay):
        autograd = torch._C._autograd
        self._prepare = autograd._prepare_profiler
        self._enable = autograd._enable_profiler
        self._disable = autograd._disable_profiler
        self._config, self._activities, self._replay = config, activities, replay

    def start(self, config=None):
        """Starts collecting on this thread; False where torch refuses. torch 2's Kineto
        traces one collection per process: while another thread's runs,
        _prepare_profiler raises ("Can't disable Kineto profiler when it's not running",
        torch 2.6) and enabling after that crashes torch at the next disable. This thread
        then records no operators until that collection stops (the program goes on)."""
        config = config or self._config
        try:
            self._prepare(config, self._activities)
        except RuntimeError:
            return False
        self._enable(config, self._activities)
        return True

    def stop(self, record):
        result = self._disable()
        if record:
            self._replay.replay(result)

    @staticmethod
    def report_losses():
        """torch's collection loses nothing the replay could count."""


class ObserverSource:
    """The agent's RecordFunction callbacks on the calling thread: operators are recorded
    as they end, so stopping reads nothing."""
    name = "observer"

    def __init__(self, scopes):
        self._scopes = scopes

    def start(self, _config=None):
        return _capi.torch_observer_start(self._scopes) == 1

    def stop(self, record):  # pylint: disable=unused-argument
        _capi.torch_observer_stop()  # what ended is recorded already

    @staticmethod
    def report_losses():
        """At exit: one warning line when the observer left operators unrecorded (nothing
        dropped silently); empty counts (an older agent) say nothing."""
        counts = _capi.torch_observer_counts()
        lost = ["%d %s" % (counts[key], what) for key, what in _LOSSES if counts.get(key)]
        if lost and (_capi.config_value("PROF_LOG_LEVEL") or "warn") != "error":
            sys.stderr.write("libprof: PyTorch operators not recorded: %s\n" % ", ".join(lost))


# The observer's counts (prof_torch_observer_counts) that are operators it did not record;
# folded calls are torch.profiler's own rule, and out-of-order ends are still recorded.
_LOSSES = (("async", "async (they end on another thread)"),
           ("overflowed", "nested deeper than 128 calls"),
           ("unmatched", "ended without a start the observer saw"),
           ("no_stack", "on threads without memory for their stack"))


def record_scopes(torch):
    """The number of torch's at::RecordScope values, or None when USER_SCOPE is not the
    8th (the agent's callbacks tell record_function ranges apart by it)."""
    scope = getattr(getattr(torch._C, "_profiler", None), "RecordScope", None)
    members = getattr(scope, "__members__", None)
    if not members or "USER_SCOPE" not in members or int(members["USER_SCOPE"]) != 7:
        return None
    return len(members)


def choose(torch, details, make_profiler_source):
    """The source for this process: (source, why)."""
    asked = _capi.config_value("PROF_ATEN_SOURCE") or "auto"
    if asked == "profiler":
        return make_profiler_source(), "PROF_ATEN_SOURCE=profiler"
    if details:
        return make_profiler_source(), "PROF_SHAPES/PROF_STACKS need the operators' inputs"
    refusal = _observer_refusal(torch)
    if refusal is None:
        return ObserverSource(record_scopes(torch)), "PROF_ATEN_SOURCE=%s" % asked
    return make_profiler_source(), refusal


def _observer_refusal(torch):
    """Why the agent's observer cannot run here, or None when it can (tried once: its
    callbacks are added and removed on this thread)."""
    if _capi.torch_observer_start is None:
        return "this libprof.so has no RecordFunction observer"
    scopes = record_scopes(torch)
    if scopes is None:
        return "torch's RecordScope is not the layout the observer knows"
    started = _capi.torch_observer_start(scopes)
    if started != 1:
        return "the observer found no libtorch_cpu functions (prof_torch_observer_start: %d)" % started
    _capi.torch_observer_stop()
    return None


def announce(source, why):
    """The one line saying where operators come from (info; warn when the observer was
    asked for and refused)."""
    level = _capi.config_value("PROF_LOG_LEVEL") or "warn"
    asked = _capi.config_value("PROF_ATEN_SOURCE") or "auto"
    refused = asked == "observer" and source.name != "observer"
    if level in ("info", "debug") or (refused and level == "warn"):
        what = ("the agent's RecordFunction observer" if source.name == "observer"
                else "torch's profiler collection")
        sys.stderr.write("libprof: ATen operators from %s (%s)\n" % (what, why))
