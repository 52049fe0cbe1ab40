"""PROF_PYTHON_OPS=python: torch functions and Tensor methods called from Python become
operator ranges (through TorchFunctionMode), named as PyTorch's Python API names them,
inside the phases, and the program runs as usual. (PROF_PYTHON_OPS=1 records ATen
operators: aten_operators_test.)"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


class PythonFunctionsTest(unittest.TestCase):
    def test_python_level_operator_ranges(self):
        agent_runner.require_torch(self)
        arguments = [agent_runner.program("train.py"), "3", "4"]
        plain = agent_runner.run_python(arguments, agent=False)
        profiled = agent_runner.run_python(arguments,
                                           environment={"PROF_PYTHON_OPS": " Python "})
        self.assertEqual(profiled.returncode, 0, profiled.stderr)
        self.assertEqual(profiled.stdout, plain.stdout)
        self.assertEqual(profiled.helper_failures(), [])
        facts = agent_runner.trace_facts(profiled.output_dir)
        for operator in ("linear", "relu", "mse_loss", "backward"):
            self.assertGreaterEqual(facts["ranges"].get(operator, 0), 3, operator)
        # In place keeps its underscore (SGD's param.add_), as PyTorch names it.
        self.assertGreaterEqual(facts["ranges"].get("add_", 0), 3)
        self.assertNotIn("__get__", facts["ranges"])
        self.assertFalse([name for name in facts["ranges"] if name.startswith("aten::")])
        self.assertEqual(agent_runner.phase_counts(facts), {
            "Dataloader": 4, "Forward": 3, "Backward": 3, "Optimization": 3})
        tables = agent_runner.analyzer_tables(profiled.output_dir)
        names = {row["name"] for row in tables["operator"]["rows"]}
        self.assertIn("linear", names)

    def test_shapes_dtypes_and_source_lines(self):
        # PROF_SHAPES=1 and PROF_STACKS=1: each call carries its arguments' shapes and dtypes
        # and the program's line that called it; the Operator Summary computes FLOPs.
        agent_runner.require_torch(self)
        profiled = agent_runner.run_python(
            [agent_runner.program("train.py"), "3", "4"],
            environment={"PROF_PYTHON_OPS": "python", "PROF_SHAPES": "1", "PROF_STACKS": "1"})
        self.assertEqual(profiled.returncode, 0, profiled.stderr)
        self.assertEqual(profiled.helper_failures(), [])
        linear = [event for event in agent_runner.chrome_events(profiled.output_dir)
                  if event["name"] == "linear"]
        # Two Linear layers per step, batch 4: [4, 16] x [32, 16] + [32], [4, 32] x [1, 32] + [1].
        self.assertEqual(sorted({event["args"]["Input Dims"] for event in linear}),
                         ["[[4, 16], [32, 16], [32]]", "[[4, 32], [1, 32], [1]]"])
        self.assertEqual({event["args"]["Input type"] for event in linear},
                         {"[float32, float32, float32]"})
        # model(inputs) in train.py's loop: the innermost frame outside PyTorch's files.
        self.assertEqual({event["args"]["Source"] for event in linear}, {"train.py:38"})
        rows = {row["name"]: row for row in
                agent_runner.analyzer_tables(profiled.output_dir)["operator"]["rows"]}
        # 2 FLOPs per multiply-add: 2*4*16*32 + 2*4*32*1 per step, over every recorded call.
        calls = len(linear) // 2
        self.assertEqual(rows["linear"]["flops"], calls * (2 * 4 * 16 * 32 + 2 * 4 * 32 * 1))


if __name__ == "__main__":
    unittest.main()
