"""make_scheduler: paddle.profiler's step schedule, as a callable step -> ProfilerState
(what Profiler(scheduler=...) takes) that is also the PROF_SCHEDULE string the agent reads
at start, so older code that put it in the environment keeps working:

    prof = libprof.Profiler(scheduler=libprof.make_scheduler(closed=1, ready=1, record=3))
    os.environ["PROF_SCHEDULE"] = libprof.make_scheduler(closed=1, ready=1, record=3)
"""
from libprof._enums import ProfilerState


class Scheduler(str):
    """A str ("skip_first=0,closed=1,...") that computes paddle's states when called."""

    def __new__(cls, *, closed, ready, record, repeat=0, skip_first=0):
        values = {"skip_first": skip_first, "closed": closed, "ready": ready,
                  "record": record, "repeat": repeat}
        for name, value in values.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError("make_scheduler: %s must be an integer >= 0, not %r"
                                 % (name, value))
        if record < 1:
            raise ValueError("make_scheduler: record must be > 0")
        scheduler = super().__new__(cls, ",".join("%s=%d" % item for item in values.items()))
        scheduler.closed, scheduler.ready, scheduler.record = closed, ready, record
        scheduler.repeat, scheduler.skip_first = repeat, skip_first
        return scheduler

    def __call__(self, step):
        """paddle's make_scheduler: the state of step `step`. The specification is the
        agent's Schedule::StateOf (agent/control/schedule.cc, what PROF_SCHEDULE runs on):
        where the agent is loaded it answers (prof_schedule_state). The arithmetic below is
        for processes without it (make_scheduler is part of the paddle-style API, usable
        with no agent); scheduler_test.py checks it against the agent over a table of
        schedules."""
        from libprof import _capi  # loaded already by any Profiler; here for the API alone
        state = _capi.schedule_state(self, step)
        if state is not None:
            return ProfilerState(state)
        return self.without_agent(step)

    def without_agent(self, step):
        if step < self.skip_first:
            return ProfilerState.CLOSED
        step -= self.skip_first
        period = self.closed + self.ready + self.record
        if self.repeat > 0 and step // period >= self.repeat:
            return ProfilerState.CLOSED
        position = step % period
        if position < self.closed:
            return ProfilerState.CLOSED
        if position < self.closed + self.ready:
            return ProfilerState.READY
        if position < period - 1:
            return ProfilerState.RECORD
        return ProfilerState.RECORD_AND_RETURN


def make_scheduler(*, closed, ready, record, repeat=0, skip_first=0):
    """Steps are skipped (skip_first), then each cycle is `closed` steps off, `ready` steps
    warming up and `record` steps recorded, the last RECORD_AND_RETURN; `repeat` cycles
    (0: forever)."""
    return Scheduler(closed=closed, ready=ready, record=record, repeat=repeat,
                     skip_first=skip_first)


def scheduler_of(scheduler):
    """Profiler(scheduler=...) as a callable: None records every step; (start, end) records
    steps start..end-1 (paddle: closed=start-1, ready=1, or ready=0 when start is 0)."""
    if scheduler is None:
        return lambda step: ProfilerState.RECORD
    if isinstance(scheduler, (tuple, list)):
        if len(scheduler) != 2 or not all(isinstance(value, int) for value in scheduler):
            raise ValueError("scheduler: a (start, end) tuple of integers, not %r" % (scheduler,))
        start, end = scheduler
        if not 0 <= start < end:
            raise ValueError("scheduler: (start, end) needs 0 <= start < end, not %r"
                             % (scheduler,))
        return make_scheduler(closed=max(start - 1, 0), ready=1 if start > 0 else 0,
                              record=end - start, repeat=1)
    if callable(scheduler):
        return scheduler
    raise TypeError("scheduler: a callable step -> ProfilerState, a (start, end) tuple or "
                    "None, not %r" % (scheduler,))
