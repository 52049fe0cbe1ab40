"""Device memory at step boundaries (libprof._memory): with CUDA initialized the helper hands
the caching allocator's figures to the agent before and after every step boundary, and the
Memory Summary shows them per step beside the host RSS, with the step of each peak. Driven
by a stand-in torch.cuda (programs/memory_stats.py), since there is no GPU here."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


def table(tables, key):
    return tables.get(key, {}).get("rows", [])


class MemorySamplesTest(unittest.TestCase):
    def test_allocator_figures_per_step_and_the_peak_step(self):
        run = agent_runner.run_python([agent_runner.program("memory_stats.py")])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.helper_failures(), [])
        # Two devices, two samples per boundary, three boundaries: 12 stats calls.
        self.assertIn("stats calls: 12", run.stdout)
        tables = agent_runner.analyzer_tables(run.output_dir)
        gpu = [(row["step"], row["allocated_bytes"], row["reserved_bytes"], row["peak_bytes"])
               for row in table(tables, "memory_allocator_steps") if row["place"] == "GPU0"]
        # Step k's last sample is taken just before its boundary, with FIGURES[k]; step 3
        # (closed at exit) has only the sample taken after the third boundary. Step 0 runs
        # from the interpreter's start: the analyzer shows it as set-up.
        self.assertEqual(gpu, [("ProfileStep#0 (set-up)", 1000, 4096, 1500),
                               ("ProfileStep#1", 3000, 8192, 5000),
                               ("ProfileStep#2", 2000, 8192, 5000),
                               ("ProfileStep#3", 2000, 8192, 5000)])
        places = {row["place"] for row in table(tables, "memory_allocator_steps")}
        self.assertEqual(places, {"GPU0", "Host"})  # device 1 never allocated
        host = [row["rss_bytes"] for row in table(tables, "memory_allocator_steps")
                if row["place"] == "Host"]
        self.assertEqual(len(host), 4)  # one per recorded step
        self.assertTrue(all(rss > 1 << 20 for rss in host), host)  # an interpreter's RSS
        peaks = {row["place"]: (row["peak_bytes"], row["step"])
                 for row in table(tables, "memory_allocator_peak")}
        self.assertEqual(peaks["GPU0"], (5000, "ProfileStep#1"))

    def test_nothing_without_initialized_cuda(self):
        run = agent_runner.run_python([agent_runner.program("memory_stats.py"), "--uninitialized"])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("stats calls: 0", run.stdout)
        tables = agent_runner.analyzer_tables(run.output_dir)
        places = {row["place"] for row in table(tables, "memory_allocator_steps")}
        self.assertEqual(places, {"Host"})  # the agent's own host RSS samples only

    def test_a_program_without_torch_never_imports_it(self):
        run = agent_runner.run_python(
            ["-c", "import sys, libprof; libprof.step(); libprof.step(); "
                   "print('torch imported:', 'torch' in sys.modules)"])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("torch imported: False", run.stdout)


if __name__ == "__main__":
    unittest.main()
