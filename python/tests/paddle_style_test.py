"""A paddle.profiler script (programs/paddle_style.py, only the import changed) under the
agent and without it (the Profiler then loads libprof.so into the interpreter): both
record exactly the windows make_scheduler(closed=1, ready=1, record=3, repeat=2) gives for
12 steps, steps 2-4 and 7-9 (paddle's documented schedule), call on_trace_ready once per
window, export a Chrome trace per window and print the summary. The Chrome traces come
from the analyzer's Python extension, in-process: the same JSON `profanalyze export` writes
for the window's file, with no profanalyze to run (PROF_ANALYZER points at a program that
fails)."""
import glob
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


def returned_windows(stdout):
    return [json.loads(line[len("returned "):]) for line in stdout.splitlines()
            if line.startswith("returned ")]


class PaddleStyleTest(unittest.TestCase):
    def check_run(self, agent):
        agent_runner.require_torch(self)
        export_dir = tempfile.mkdtemp(prefix="export_", dir=os.environ.get("TEST_TMPDIR"))
        trace_dir = tempfile.mkdtemp(prefix="in_process_", dir=os.environ.get("TEST_TMPDIR"))
        environment = {} if agent else {"PYTHONPATH": agent_runner.helper_folder(),
                                        "PROF_OUTPUT_DIR": trace_dir}
        environment["PROF_ANALYZER"] = "/bin/false"  # no subprocess exports anything
        run = agent_runner.run_python([agent_runner.program("paddle_style.py"), export_dir],
                                      agent=agent, environment=environment)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("agent loaded: True", run.stdout)
        windows = returned_windows(run.stdout)
        self.assertEqual(len(windows), 2, run.stdout)
        for files in windows:
            self.assertEqual(len(files), 1)
        folder = run.output_dir if agent else trace_dir
        facts = agent_runner.trace_facts(folder)
        self.assertEqual(facts["steps"], [2, 3, 4, 7, 8, 9])
        self.assertEqual(facts["samples"], [8] * 6)
        self.assertEqual(facts["ranges"].get("DataPrepare"), 6)
        # The helper's PyTorch phases, in-process too (its hooks go in when it loads the
        # agent, after the program made its model and optimizer).
        self.assertEqual(agent_runner.phase_counts(facts),
                         {"Dataloader": 0, "Forward": 6, "Backward": 6, "Optimization": 6})
        exported = sorted(glob.glob(os.path.join(export_dir, "*.paddle_trace.json")))
        self.assertEqual(len(exported), 2, exported)
        for path, files in zip(exported, windows):
            with open(path) as file:
                self.assertEqual(json.load(file), agent_runner.chrome_export(files))
        self.assertIn("ips:", run.stdout)
        self.assertIn("images/s", run.stdout)
        # step_info(unit="images") reaches the analyzer's Perf Summary too.
        perf = agent_runner.analyzer_tables(folder)["perf"]
        self.assertIn("Time Unit: s, IPS Unit: images/s", perf["preamble"])
        # stop() prints the analyzer's Perf Summary of the 12 steps the helper timed.
        self.assertIn("Steps: 12 recorded, first 10 skipped as warm-up (--perf-skip), 2 measured",
                      run.stdout)
        self.assertIn("Time Unit: s, IPS Unit: images/s", run.stdout)
        # summary(views=[...]) prints the analyzer's own tables (libprof._analysis).
        self.assertNotIn("libprof._analysis", run.stderr)
        self.assertIn("Overview Summary", run.stdout)

    def test_under_the_agent(self):
        self.check_run(agent=True)

    def test_in_process_without_preload(self):
        self.check_run(agent=False)


if __name__ == "__main__":
    unittest.main()
