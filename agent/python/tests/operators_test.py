"""PROF_PYTHON_OPS=1: PyTorch's operators become operator ranges (through
TorchFunctionMode), inside the phases, and the program runs as usual."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


class OperatorsTest(unittest.TestCase):
    def test_operator_ranges(self):
        agent_runner.require_torch(self)
        arguments = [agent_runner.program("train.py"), "3", "4"]
        plain = agent_runner.run_python(arguments, agent=False)
        # "on": PROF_PYTHON_OPS takes the spellings of every PROF_* flag, like the agent.
        profiled = agent_runner.run_python(arguments, environment={"PROF_PYTHON_OPS": "on"})
        self.assertEqual(profiled.returncode, 0, profiled.stderr)
        self.assertEqual(profiled.stdout, plain.stdout)
        self.assertEqual(profiled.helper_failures(), [])
        facts = agent_runner.trace_facts(profiled.output_dir)
        for operator in ("linear", "relu", "mse_loss", "backward"):
            self.assertGreaterEqual(facts["ranges"].get(operator, 0), 3, operator)
        self.assertNotIn("__get__", facts["ranges"])
        self.assertEqual(agent_runner.phase_counts(facts), {
            "Dataloader": 4, "Forward": 6, "Backward": 3, "Optimization": 3})
        tables = agent_runner.analyzer_tables(profiled.output_dir)
        names = {row["name"] for row in tables["operator"]["rows"]}
        self.assertIn("linear", names)


if __name__ == "__main__":
    unittest.main()
