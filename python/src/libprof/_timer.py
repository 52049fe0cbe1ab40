"""What step_info reports: paddle.profiler's benchmark window (§8 of
reference/paddle-summary-semantics.md), measured by the helper itself.

batch_cost is the wall time between consecutive step boundaries; reader_cost the time
inside each DataLoader fetch; ips the samples (or steps, once any step had no sample
count) per second of batch time. The window restarts at every step_info() call. The
first boundary has no start of its own (the process began long before the loop), so the
clock starts at the first DataLoader fetch, or else at the first step.
"""
import time


class StepTimer:
    def __init__(self):
        self._last_boundary = None
        self._steps_mode = False  # paddle: one step without a sample count switches for good
        # A running Profiler's benchmark (libprof._benchmark): every step's and read's
        # time, from its start() to its stop(); None when no Profiler runs.
        self.history = None
        self._reset_window()

    def _reset_window(self):
        self._steps = 0
        self._batch_seconds = 0.0
        self._samples = 0
        self._reads = 0
        self._read_seconds = 0.0

    def reader_finished(self, started, seconds):
        if self._last_boundary is None:
            self._last_boundary = started
        if seconds > 0:
            self._reads += 1
            self._read_seconds += seconds
            if self.history is not None:
                self.history.read(seconds)

    def restart(self):
        """The next boundary starts a step (Profiler.start: paddle's batch_cost of the
        first step runs from start())."""
        self._last_boundary = time.perf_counter()

    def step_ended(self, samples):
        now = time.perf_counter()
        if self._last_boundary is None:
            self._last_boundary = now
            return
        self._steps += 1
        self._batch_seconds += now - self._last_boundary
        if self.history is not None:
            self.history.step(now - self._last_boundary, samples)
        self._last_boundary = now
        if samples is None:
            self._steps_mode = True
        else:
            self._samples += samples

    def step_info(self, unit):
        parts = []
        if self._reads and self._read_seconds > 0:
            parts.append(" reader_cost: %.5f s" % (self._read_seconds / self._reads))
        if self._steps and self._batch_seconds > 0:
            parts.append(" batch_cost: %.5f s" % (self._batch_seconds / self._steps))
            done = self._steps if self._steps_mode else self._samples
            if done:
                parts.append(" ips: %.3f %s/s" % (done / self._batch_seconds,
                                                 "steps" if self._steps_mode else unit))
        self._reset_window()
        return "".join(parts)
