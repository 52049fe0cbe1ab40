"""An unchanged PyTorch training script under LD_PRELOAD=libprof.so: same output and exit
status, one step per optimizer step with the batch size as its sample count, the four
model phases, and DataLoader workers that do not pass for the training process."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

STEPS = 6
BATCH_SIZE = 8


class ZeroChangeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        agent_runner.require_torch(cls)
        arguments = [agent_runner.program("train.py"), str(STEPS), str(BATCH_SIZE)]
        cls.plain = agent_runner.run_python(arguments, agent=False)
        cls.profiled = agent_runner.run_python(arguments)
        cls.facts = agent_runner.trace_facts(cls.profiled.output_dir)

    def test_output_and_exit_status_are_the_program_s_own(self):
        self.assertEqual(self.plain.returncode, 0)
        self.assertEqual(self.profiled.returncode, 0)
        self.assertEqual(self.profiled.stdout, self.plain.stdout)
        self.assertIn("trained %d steps" % STEPS, self.profiled.stdout)
        self.assertEqual(self.profiled.helper_failures(), [])

    def test_one_step_per_optimizer_step_with_the_batch_size(self):
        # Then the step still open at exit, closed by the agent (no samples).
        self.assertEqual(self.facts["steps"], list(range(STEPS + 1)))
        # The last step is the one the agent closes at exit, marked -1 (teardown).
        self.assertEqual(self.facts["samples"], [BATCH_SIZE] * STEPS + [-1])

    def test_each_phase_once_per_step_on_the_training_process_only(self):
        self.assertEqual(len(self.facts["files"]), 1, "worker processes wrote no file")
        self.assertTrue(self.facts["files"][0]["complete"])
        self.assertEqual(agent_runner.phase_counts(self.facts), {
            "Dataloader": STEPS + 1,    # and the fetch that ends the epoch
            "Forward": STEPS,           # one: the model and the loss module together
            "Backward": STEPS,
            "Optimization": STEPS,
        })
        self.assertEqual(self.facts["ranges_by_kind"].get("RANGE_KIND_MODEL_PHASE"),
                         sum(agent_runner.phase_counts(self.facts).values()))
        # ATen operators by default (PROF_PYTHON_OPS unset), inside the recorded steps.
        self.assertGreater(self.facts["ranges_by_kind"].get("RANGE_KIND_OPERATOR", 0), 0)
        self.assertEqual(self.facts["losses"], 0)

    def test_model_summary_has_the_four_phase_rows(self):
        tables = agent_runner.analyzer_tables(self.profiled.output_dir)
        calls = {row["name"]: row["calls"] for row in tables["model"]["rows"]}
        # STEPS + 1 steps, the first (interpreter start to the first boundary) shown apart
        # as set-up.
        self.assertEqual(calls["ProfileStep"], STEPS)
        self.assertEqual([row["name"] for row in tables["setup"]["rows"]],
                         ["ProfileStep#0 (set-up)"])
        for phase in agent_runner.PHASES:
            self.assertIn(phase, calls)
            self.assertGreater(calls[phase], 0)


class DataLoaderWorkerTest(unittest.TestCase):
    def test_workers_call_through_and_the_parent_records(self):
        agent_runner.require_torch(self)
        run = agent_runner.run_python([agent_runner.program("worker_probe.py")])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout.strip(), "workers saw no phase: True; parent saw one: True")


if __name__ == "__main__":
    unittest.main()
