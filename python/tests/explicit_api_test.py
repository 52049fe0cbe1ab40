"""The explicit API (import libprof as profiler): no-ops without the agent, the agent's
user ranges and steps with it, paddle's step_info string and make_scheduler."""
import os
import re
import sys
import timeit
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

sys.path.insert(0, agent_runner.helper_folder())
import libprof as profiler  # noqa: E402  (this test process has no agent)

BATCH_COST = r" batch_cost: \d+\.\d{5} s"
IPS = r" ips: \d+\.\d{3} images/s"


def printed(run, label):
    for line in run.stdout.splitlines():
        if line.startswith(label + ": "):
            return line[len(label) + 2:]
    raise AssertionError("%r not printed in %r" % (label, run.stdout))


class WithoutAgentTest(unittest.TestCase):
    def test_every_call_is_a_cheap_no_op(self):
        self.assertFalse(profiler.agent_loaded())
        with profiler.RecordEvent("nothing"):
            profiler.step(num_samples=8)
        self.assertEqual(profiler.step_info(), "")
        seconds = timeit.timeit(lambda: profiler.step(8), number=100000) / 100000
        self.assertLess(seconds, 5e-6)

    def test_program_runs_unchanged(self):
        run = agent_runner.run_python(
            [agent_runner.program("explicit_api.py")], agent=False,
            environment={"PYTHONPATH": agent_runner.helper_folder()})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(printed(run, "agent loaded"), "False")
        self.assertEqual(printed(run, "step_info"), "''")


class MakeSchedulerTest(unittest.TestCase):
    def test_the_prof_schedule_string(self):
        self.assertEqual(profiler.make_scheduler(closed=1, ready=1, record=2, repeat=1),
                         "skip_first=0,closed=1,ready=1,record=2,repeat=1")
        self.assertEqual(
            profiler.make_scheduler(closed=0, ready=1, record=5, skip_first=10),
            "skip_first=10,closed=0,ready=1,record=5,repeat=0")
        with self.assertRaises(ValueError):
            profiler.make_scheduler(closed=0, ready=0, record=0)
        with self.assertRaises(ValueError):
            profiler.make_scheduler(closed=-1, ready=0, record=1)


class WithAgentTest(unittest.TestCase):
    def test_ranges_steps_and_step_info(self):
        run = agent_runner.run_python([agent_runner.program("explicit_api.py")])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(printed(run, "agent loaded"), "True")
        self.assertRegex(printed(run, "step_info"), "^'" + BATCH_COST + IPS + "'$")
        self.assertEqual(printed(run, "step_info again"), "''")  # a new, empty window
        facts = agent_runner.trace_facts(run.output_dir)
        self.assertEqual(facts["ranges"], {"work": 5, "manual": 5, "decorated": 5})
        self.assertEqual(facts["ranges_by_kind"], {"RANGE_KIND_USER": 15})
        self.assertEqual(facts["steps"], [0, 1, 2, 3, 4, 5])
        # The last step is the one the agent closes at exit, marked -1 (teardown).
        self.assertEqual(facts["samples"], [4, 4, 4, 4, 4, -1])

    def test_make_scheduler_drives_the_agent(self):
        schedule = profiler.make_scheduler(closed=1, ready=1, record=2, repeat=1)
        run = agent_runner.run_python([agent_runner.program("explicit_api.py")],
                                      environment={"PROF_SCHEDULE": schedule})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(agent_runner.trace_facts(run.output_dir)["steps"], [2, 3])

    def test_explicit_steps_replace_the_automatic_ones(self):
        agent_runner.require_torch(self)
        run = agent_runner.run_python([agent_runner.program("explicit_api.py"), "--loader"])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertRegex(printed(run, "step_info"),
                         r"^' reader_cost: \d+\.\d{5} s" + BATCH_COST + IPS + "'$")
        facts = agent_runner.trace_facts(run.output_dir)
        self.assertEqual(facts["steps"], [0, 1, 2, 3, 4, 5])
        self.assertEqual(facts["ranges"]["Dataloader"], 6)
        self.assertEqual(facts["ranges"]["Optimization"], 5)


if __name__ == "__main__":
    unittest.main()
