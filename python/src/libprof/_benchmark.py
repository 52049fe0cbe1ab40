"""The Profiler's benchmark (paddle's timer.py, §8 of reference/paddle-summary-semantics.md):
every step's batch_cost and every DataLoader read between Profiler.start() and stop(),
measured by the helper itself (so it works with timer_only, which records no trace).

The Perf Summary that stop() prints is the analyzer's (`profanalyze perf-summary`, the
same code as profanalyze's own Perf Summary: summary/perf_summary.cc), given these
figures: the warm-up skip, averages and extremes are computed there only.
"""
import subprocess
import sys

from libprof._paths import packaged_profanalyze


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

    def figures(self):
        """The steps as `profanalyze perf-summary` reads them: "DURATION_NS READER_NS
        SAMPLES" a line, the reads inside each step summed (0 samples: unknown)."""
        reader = [0.0] * len(self.batch)
        for done, seconds in self.reads:
            if done < len(reader):  # a read after the last step ended belongs to none
                reader[done] += seconds
        return "".join("%d %d %d\n" % (round(seconds * 1e9), round(read * 1e9), count or 0)
                       for seconds, read, count in zip(self.batch, reader, self.samples))

    def perf_summary(self):
        """The Perf Summary table; "" with no step to measure, or when no profanalyze came
        with this package (said in one line)."""
        if not self.batch:
            return ""
        program = packaged_profanalyze()
        if program is None:
            sys.stderr.write("libprof: no Perf Summary of the %d steps: no profanalyze program "
                             "beside the libprof package\n" % len(self.batch))
            return ""
        arguments = [program, "perf-summary"] + (["--ips-unit", self.unit] if self.unit else [])
        process = subprocess.run(arguments, input=self.figures(), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, universal_newlines=True)
        if process.returncode != 0:
            if process.returncode != 1:  # 1: no step left to measure, nothing to say
                sys.stderr.write("libprof: no Perf Summary: %s\n" % process.stderr.strip())
            return ""
        return process.stdout.rstrip("\n")
