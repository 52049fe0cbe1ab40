"""Signals under LD_PRELOAD=libprof.so, seen from Python: the dispositions
signal.getsignal reports, Ctrl-C as KeyboardInterrupt, save/restore of handlers, the
program's own handlers and the exit status of each way of dying are a plain run's; where a
flush was possible, the trace is complete."""
import os
import signal
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402


def run_both(mode, helper="0"):
    """A plain run and one under the agent; `helper`: PROF_PYTHON (the Python helper)."""
    arguments = [agent_runner.program("signals.py"), mode]
    plain = agent_runner.run_python(arguments, agent=False)
    profiled = agent_runner.run_python(arguments, environment={"PROF_PYTHON": helper})
    return plain, profiled


class SignalsTest(unittest.TestCase):
    def assert_same_outcome(self, mode):
        plain, profiled = run_both(mode)
        self.assertEqual(profiled.returncode, plain.returncode, profiled.stderr)
        self.assertEqual(profiled.stdout, plain.stdout)
        self.assertEqual(profiled.stderr, "", "the agent printed nothing")
        return plain, profiled

    def test_getsignal_reports_what_a_plain_run_reports(self):
        plain, _ = self.assert_same_outcome("dispositions")
        self.assertIn("SIGINT default_int_handler", plain.stdout)
        self.assertIn("SIGTERM SIG_DFL", plain.stdout)

    def test_ctrl_c_raises_keyboard_interrupt_and_finally_runs(self):
        plain, _ = self.assert_same_outcome("keyboard-interrupt")
        self.assertEqual(plain.stdout.split("\n")[-3:], ["KeyboardInterrupt caught", "finally ran", ""])

    def test_with_the_python_helper_too(self):
        for mode in ("dispositions", "keyboard-interrupt", "save-restore"):
            with self.subTest(mode=mode):
                plain, profiled = run_both(mode, helper="1")
                self.assertEqual(profiled.returncode, plain.returncode, profiled.stderr)
                self.assertEqual(profiled.stdout, plain.stdout)

    def test_saving_and_restoring_a_handler_works(self):
        plain, _ = self.assert_same_outcome("save-restore")
        self.assertIn("restored SIG_DFL", plain.stdout)

    def test_a_handler_installed_by_the_program_runs(self):
        plain, _ = self.assert_same_outcome("own-handler")
        self.assertEqual(plain.returncode, 3)
        self.assertIn("own handler ran for SIGTERM", plain.stdout)

    def test_exit_from_a_thread_keeps_its_status(self):
        plain, _ = self.assert_same_outcome("exit-from-thread")
        self.assertEqual(plain.returncode, 4)

    def test_killed_by_a_signal_with_its_default_action(self):
        # SIGINT is Python's: KeyboardInterrupt unwinds, then Python resets SIGINT to
        # SIG_DFL and kills itself with it, before C's exit handlers run. That file, like
        # SIGKILL's, ends at the writer's last periodic chunk (at most 100 ms lost).
        for name, flushed in (("SIGTERM", True), ("SIGHUP", True), ("SIGABRT", True),
                              ("SIGINT", False), ("SIGKILL", False)):
            with self.subTest(signal=name):
                plain, profiled = run_both("killed-by-" + name)
                number = getattr(signal, name)
                self.assertEqual(plain.returncode, -number)
                self.assertEqual(profiled.returncode, plain.returncode, profiled.stderr)
                self.assertEqual(profiled.stdout, plain.stdout)
                facts = agent_runner.trace_facts(profiled.output_dir)
                self.assertEqual(len(facts["files"]), 1)
                self.assertEqual(facts["files"][0]["complete"], flushed, name)
                self.assertEqual(facts["steps"][:3], [0, 1, 2], "steps before the last chunk")


if __name__ == "__main__":
    unittest.main()
