"""PROF_SCHEDULE works on the steps the helper finds: 1:4 records steps 1, 2 and 3 of an
unchanged training script, and nothing else."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


class ScheduleTest(unittest.TestCase):
    def test_start_end_records_exactly_steps_1_2_3(self):
        agent_runner.require_torch(self)
        run = agent_runner.run_python([agent_runner.program("train.py"), "6", "8"],
                                      environment={"PROF_SCHEDULE": "1:4"})
        self.assertEqual(run.returncode, 0, run.stderr)
        facts = agent_runner.trace_facts(run.output_dir)
        self.assertEqual(len(facts["files"]), 1)
        self.assertEqual(facts["steps"], [1, 2, 3])
        self.assertEqual(facts["samples"], [8, 8, 8])
        # One Forward per step: the model's and the loss module's calls make one.
        self.assertEqual(agent_runner.phase_counts(facts), {
            "Dataloader": 3, "Forward": 3, "Backward": 3, "Optimization": 3})


if __name__ == "__main__":
    unittest.main()
