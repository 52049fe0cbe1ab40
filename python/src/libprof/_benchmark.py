"""The Profiler's benchmark (paddle's timer.py, §8 of reference/paddle-summary-semantics.md):
every step's batch_cost and every DataLoader read between Profiler.start() and stop(),
measured by the helper itself (so it works with timer_only, which records no trace), and
the Perf Summary that stop() prints.

Where paddle is wrong we differ, as profanalyze's Perf Summary does: the warm-up skip is
explicit and printed (the first 10 steps when there are more than 10), averages divide by
the number of values they sum, and min/max are true minima and maxima (no `inf`).
"""
WARM_UP_STEPS = 10


class Benchmark:
    def __init__(self):
        self.batch = []    # seconds per step
        self.samples = []  # samples per step (None: unknown)
        self.reads = []    # (steps completed before the read, seconds)
        self.unit = None   # step_info(unit): the IPS unit

    def step(self, seconds, samples):
        self.batch.append(seconds)
        self.samples.append(samples)

    def read(self, seconds):
        self.reads.append((len(self.batch), seconds))

    def perf_summary(self):
        """The Perf Summary table, or "" with too few steps to skip the warm-up."""
        if len(self.batch) <= WARM_UP_STEPS:
            return ""
        batch = self.batch[WARM_UP_STEPS:]
        samples = self.samples[WARM_UP_STEPS:]
        reads = [seconds for done, seconds in self.reads if done >= WARM_UP_STEPS]
        steps_mode = any(count is None for count in self.samples)
        speeds = [(1 if steps_mode else count) / seconds
                  for seconds, count in zip(batch, samples) if seconds > 0]
        total = sum(batch)
        done = len(batch) if steps_mode else sum(samples)
        unit = "steps/s" if steps_mode else "%s/s" % (self.unit or "samples")
        rows = []
        if reads:
            rows.append(("reader_cost", sum(reads) / len(reads), max(reads), min(reads)))
        rows.append(("batch_cost", total / len(batch), max(batch), min(batch)))
        if speeds and total > 0:
            rows.append(("ips", done / total, max(speeds), min(speeds)))
        lines = ["{:=^100}".format("Perf Summary")]
        if reads:
            lines.append("Reader Ratio: %.3f%%" % (rows[0][1] / rows[1][1] * 100))
        lines.append("Time Unit: s, IPS Unit: %s (steps %d-%d; the first %d are warm-up)"
                     % (unit, WARM_UP_STEPS, len(self.batch) - 1, WARM_UP_STEPS))
        lines.append("| %15s | %s | %s | %s |" % ("", "avg".center(15), "max".center(15),
                                                 "min".center(15)))
        for name, average, largest, smallest in rows:
            lines.append("| %s | %s | %s | %s |" % tuple(
                [name.center(15)] + [("%.5f" % value).center(15)
                                     for value in (average, largest, smallest)]))
        return "\n".join(lines)
