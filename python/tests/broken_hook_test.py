"""A failure inside the helper is reported once on stderr, its hooks remove themselves,
and the program goes on to its normal end."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


class BrokenHookTest(unittest.TestCase):
    def test_reported_once_and_the_program_succeeds(self):
        agent_runner.require_torch(self)
        arguments = [agent_runner.program("broken_train.py"), "4", "8"]
        plain = agent_runner.run_python(arguments, agent=False)
        profiled = agent_runner.run_python(arguments)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        self.assertEqual(profiled.returncode, 0, profiled.stderr)
        self.assertEqual(profiled.stdout, plain.stdout)
        self.assertIn("Module.__call__ is PyTorch's own: True", profiled.stdout)
        failures = profiled.helper_failures()
        self.assertEqual(len(failures), 1, profiled.stderr)
        self.assertIn("deliberately broken for the test", failures[0])
        # The first fetch's phase was closed properly; nothing after it was recorded.
        facts = agent_runner.trace_facts(profiled.output_dir)
        self.assertEqual(agent_runner.phase_counts(facts), {
            "Dataloader": 1, "Forward": 0, "Backward": 0, "Optimization": 0})
        self.assertEqual(facts["losses"], 0)


if __name__ == "__main__":
    unittest.main()
