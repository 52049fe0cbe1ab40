"""_capi.operator_push_detail: operator ranges with shapes, dtypes and source reach the
trace and the analyzer's Operator Summary (FLOPs from the shapes, the source line); a
no-op without the agent."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

sys.path.insert(0, agent_runner.helper_folder())
from libprof import _capi  # noqa: E402  (this test process has no agent)


class OperatorDetailTest(unittest.TestCase):
    def test_no_op_without_the_agent(self):
        self.assertFalse(_capi.AGENT_LOADED)
        self.assertIsNone(_capi.operator_push_detail("aten::mm", "[[1]]", None, "x.py:1"))

    def test_details_reach_the_operator_summary(self):
        run = agent_runner.run_python([agent_runner.program("operator_detail.py")],
                                      environment={"PROF_SHAPES": "1"})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("operator_detail: done", run.stdout)
        rows = {row["name"]: row
                for row in agent_runner.analyzer_tables(run.output_dir)["operator"]["rows"]}
        self.assertEqual(rows["aten::mm"]["calls"], 3)
        # [4, 8] x [8, 2]: 4 * 2 * 8 = 64 multiply-adds, 128 FLOPs a call.
        self.assertEqual(rows["aten::mm"]["flops"], 3 * 128)
        self.assertEqual(rows["aten::mm"]["source"], "operator_detail.py:7")
        self.assertEqual(rows["aten::relu"]["calls"], 3)
        self.assertIsNone(rows["aten::relu"]["flops"])  # "-": no FLOPs rule for relu
        self.assertEqual(rows["aten::relu"]["source"], "")


if __name__ == "__main__":
    unittest.main()
