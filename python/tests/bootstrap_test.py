"""How libprof.so puts the helper on a Python process's path: first on PYTHONPATH, the
program's own entries kept, once however many Python processes it starts; PROF_PYTHON_PATH
names another folder; a missing helper is one warning, never a failure."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


def printed(run, label):
    for line in run.stdout.splitlines():
        if line.startswith(label + ": "):
            return line[len(label) + 2:]
    raise AssertionError("%r not printed in %r\n%s" % (label, run.stdout, run.stderr))


class BootstrapTest(unittest.TestCase):
    def setUp(self):
        self.own_entry = os.path.dirname(agent_runner.program("marker/libprof_probe_marker.py"))
        self.program = agent_runner.program("report_path.py")

    def test_helper_first_program_entries_kept_no_duplicates(self):
        run = agent_runner.run_python([self.program],
                                      environment={"PYTHONPATH": self.own_entry})
        self.assertEqual(run.returncode, 0, run.stderr)
        expected = agent_runner.helper_folder() + ":" + self.own_entry
        self.assertEqual(printed(run, "PYTHONPATH"), expected)
        self.assertEqual(printed(run, "child PYTHONPATH"), expected)
        self.assertEqual(printed(run, "libprof armed"), "True")

    def test_prof_python_path_names_the_folder(self):
        run = agent_runner.run_python([self.program], environment={
            "PYTHONPATH": self.own_entry, "PROF_PYTHON_PATH": agent_runner.helper_folder()})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(printed(run, "libprof armed"), "True")

    def test_a_missing_helper_is_one_warning(self):
        missing = os.path.join(os.environ.get("TEST_TMPDIR", "/tmp"), "no_helper_here")
        run = agent_runner.run_python([self.program], environment={
            "PYTHONPATH": self.own_entry, "PROF_PYTHON_PATH": missing})
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(printed(run, "PYTHONPATH"), self.own_entry)
        self.assertEqual(printed(run, "libprof armed"), "False")
        warnings = [line for line in run.stderr.splitlines() if "PROF_PYTHON_PATH" in line]
        self.assertEqual(len(warnings), 1, run.stderr)  # the child's went to the program
        self.assertIn(missing, warnings[0])


if __name__ == "__main__":
    unittest.main()
