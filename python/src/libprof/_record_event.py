"""RecordEvent: a user range (UserDefined Summary), like paddle.profiler.RecordEvent.

    with RecordEvent("augment"):
        ...
    event = RecordEvent("eval"); event.begin(); ...; event.end()

    @RecordEvent("load_checkpoint")
    def load_checkpoint(): ...

begin() and end() must run on the same thread (the agent keeps one range stack per
thread). Without the agent both are no-ops.
"""
import contextlib

from libprof import _capi


class RecordEvent(contextlib.ContextDecorator):
    def __init__(self, name, event_type=None):
        self.name = str(name)
        self.event_type = event_type  # accepted for paddle compatibility; not used
        self._open = False

    def begin(self):
        if _capi.AGENT_LOADED and not self._open:
            _capi.range_push(self.name)
            self._open = True

    def end(self):
        if self._open:
            self._open = False
            _capi.range_pop()

    def __enter__(self):
        self.begin()
        return self

    def __exit__(self, *exception):
        self.end()
        return False

    def _recreate_cm(self):
        # As a decorator, each call gets its own event, so recursion and threads nest.
        return RecordEvent(self.name, self.event_type)
