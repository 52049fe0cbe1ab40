"""The Perf Summary Profiler.stop() prints is the analyzer's (`profanalyze perf-summary`,
summary/perf_summary.cc) of the steps the helper timed: the same text, a table at 10 steps
or fewer too (it once printed nothing there, unlike profanalyze). Hand-worked figures:
0.1, 0.2 and 0.3 s steps of 32 samples, 0.05 s of reading in each: batch_cost 0.2 s avg,
reader ratio 25%, 160 samples/s. No agent, no torch."""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.abspath("agent/python"))  # the helper, as Bazel places it

from libprof._benchmark import Benchmark  # noqa: E402

PROFANALYZE = os.path.abspath("analyzer/cli/profanalyze")


def timed(steps, reads=(), unit=None):
    """A Benchmark fed as the step timer feeds it: `reads` as (step index, seconds)."""
    benchmark = Benchmark()
    benchmark.unit = unit
    for index, (seconds, samples) in enumerate(steps):
        for step, read in reads:
            if step == index:
                benchmark.read(read)
        benchmark.step(seconds, samples)
    return benchmark


class BenchmarkTest(unittest.TestCase):
    def test_three_steps_print_the_analyzers_table(self):
        benchmark = timed([(0.1, 32), (0.2, 32), (0.3, 32)],
                          reads=[(0, 0.05), (1, 0.02), (1, 0.03), (2, 0.05)], unit="images")
        self.assertEqual(benchmark.figures(), "100000000 50000000 32\n"
                                              "200000000 50000000 32\n"
                                              "300000000 50000000 32\n")
        table = benchmark.perf_summary()
        self.assertIn("Steps: 3 recorded, first 0 skipped as warm-up (--perf-skip), 3 measured",
                      table)
        self.assertIn("Reader Ratio: 25.000%", table)
        self.assertIn("IPS Unit: images/s", table)
        self.assertIn("|    batch_cost   |     0.20000     |     0.30000     |     0.10000     |",
                      table)
        self.assertIn("|       ips       |    160.00000    |    320.00000    |    106.66667    |",
                      table)
        printed = subprocess.run([PROFANALYZE, "perf-summary", "--ips-unit", "images"],
                                 input=benchmark.figures(), capture_output=True, text=True,
                                 check=True).stdout
        self.assertEqual(table, printed.rstrip("\n"))

    def test_unknown_samples_and_the_warm_up(self):
        table = timed([(0.9, None)] * 10 + [(0.5, 4), (0.5, None)]).perf_summary()
        self.assertIn("first 10 skipped as warm-up", table)
        self.assertIn("IPS Unit: steps/s", table)
        self.assertIn("|    batch_cost   |     0.50000     |     0.50000     |     0.50000     |",
                      table)

    def test_nothing_timed_prints_nothing(self):
        self.assertEqual(Benchmark().perf_summary(), "")


if __name__ == "__main__":
    unittest.main()
