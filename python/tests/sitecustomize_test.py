"""libprof's sitecustomize hides whatever sitecustomize came after it on sys.path; that
one must still run, and still be sys.modules["sitecustomize"]."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


def report(run):
    return dict(line.split(": ", 1) for line in run.stdout.splitlines() if ": " in line)


class SitecustomizeTest(unittest.TestCase):
    def test_the_program_s_own_sitecustomize_still_runs(self):
        agent_runner.require_torch(self)
        own_site = os.path.dirname(agent_runner.program("own_site/sitecustomize.py"))
        arguments = [agent_runner.program("report_site.py"), "--train"]
        environment = {"PYTHONPATH": own_site}
        plain = agent_runner.run_python(arguments, agent=False, environment=environment)
        profiled = agent_runner.run_python(arguments, environment=environment)
        self.assertEqual(profiled.returncode, 0, profiled.stderr)
        self.assertEqual(report(plain)["own sitecustomize ran"], "True")
        self.assertEqual(report(profiled)["own sitecustomize ran"], "True")
        self.assertEqual(report(profiled)["sitecustomize"], report(plain)["sitecustomize"])
        self.assertEqual(report(plain)["libprof armed"], "False")
        self.assertEqual(report(profiled)["libprof armed"], "True")
        facts = agent_runner.trace_facts(profiled.output_dir)
        self.assertEqual(agent_runner.phase_counts(facts), {
            "Dataloader": 0, "Forward": 1, "Backward": 1, "Optimization": 1})
        self.assertEqual(facts["steps"], [0, 1])

    def test_the_distribution_s_sitecustomize_still_runs(self):
        arguments = [agent_runner.program("report_site.py")]
        plain = agent_runner.run_python(arguments, agent=False)
        profiled = agent_runner.run_python(arguments)
        self.assertEqual(profiled.returncode, 0, profiled.stderr)
        self.assertEqual(report(profiled)["sitecustomize"], report(plain)["sitecustomize"])
        self.assertEqual(report(profiled)["libprof armed"], "True")
        self.assertEqual(profiled.stderr, plain.stderr)


if __name__ == "__main__":
    unittest.main()
