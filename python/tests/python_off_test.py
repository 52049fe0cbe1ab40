"""PROF_PYTHON=0: the agent leaves Python alone (no helper, no phases, no steps), and the
program runs as usual. On CPU-only PyTorch nothing is then recorded, so no file is left."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


class PythonOffTest(unittest.TestCase):
    def test_no_helper_no_phases(self):
        agent_runner.require_torch(self)
        arguments = [agent_runner.program("train.py"), "3", "4"]
        plain = agent_runner.run_python(arguments, agent=False)
        profiled = agent_runner.run_python(arguments, environment={"PROF_PYTHON": "0"})
        self.assertEqual(profiled.returncode, 0, profiled.stderr)
        self.assertEqual(profiled.stdout, plain.stdout)
        facts = agent_runner.trace_facts(profiled.output_dir)
        self.assertNotIn("RANGE_KIND_MODEL_PHASE", facts["ranges_by_kind"])
        self.assertEqual(facts["steps"], [])
        self.assertEqual(os.listdir(profiled.output_dir) if os.path.isdir(profiled.output_dir) else [], [])

    def test_every_off_spelling_of_the_agent(self):
        """PROF_PYTHON takes the spellings of every PROF_* flag, with no warning."""
        for value in ("false", " Off ", "NO"):
            run = agent_runner.run_python([agent_runner.program("report_site.py")],
                                          environment={"PROF_PYTHON": value})
            self.assertIn("libprof armed: False", run.stdout, value)
            self.assertEqual(run.stderr, "", value)

    def test_an_inherited_helper_obeys_the_same_spellings(self):
        """A Python child of a profiled Python inherits PYTHONPATH with the helper in it:
        the helper itself must then read PROF_PYTHON as the agent does."""
        agent_runner.require_torch(self)
        arguments = [agent_runner.program("train.py"), "3", "4"]
        profiled = agent_runner.run_python(arguments, environment={
            "PROF_PYTHON": " Off ", "PYTHONPATH": agent_runner.helper_folder()})
        self.assertEqual(profiled.returncode, 0, profiled.stderr)
        facts = agent_runner.trace_facts(profiled.output_dir)
        self.assertNotIn("RANGE_KIND_MODEL_PHASE", facts["ranges_by_kind"])

    def test_the_helper_is_not_imported(self):
        run = agent_runner.run_python([agent_runner.program("report_site.py")],
                                      environment={"PROF_PYTHON": "0"})
        self.assertIn("libprof armed: False", run.stdout)


if __name__ == "__main__":
    unittest.main()
