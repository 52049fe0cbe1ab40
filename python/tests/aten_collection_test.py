"""aten_operators: PyTorch's operator collection runs through a recording window and is
read once, before the boundary that ends the window (as the agent says), not at every
step boundary; also read before Profiler.start/stop change the state, when it has run
_READ_AFTER_S, and at every boundary while another thread collects. A fake torch (its
profiler entry points count the starts and reads) and a fake agent; no torch, no agent."""
import os
import sys
import types
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

sys.path.insert(0, agent_runner.helper_folder())
from libprof import _capi, _steps  # noqa: E402
from libprof._torch import aten_operators, aten_replay  # noqa: E402


class Node:
    def __init__(self, name, start, end):
        self.name, self.start_time_ns, self.end_time_ns = name, start, end
        self.children, self.tag = [], "TorchOp"
        self.extra_fields = types.SimpleNamespace(scope="FUNCTION")


class FakeTorch:
    """What AtenOperators uses of torch. Each collection holds one aten::add per
    operator() call made while it ran."""

    def __init__(self):
        self.starts = self.reads = 0
        self.running = []
        profiler = types.SimpleNamespace(config=lambda: "config", kineto_activities={"CPU"})
        self.autograd = types.SimpleNamespace(
            profiler=types.SimpleNamespace(profile=lambda **_options: profiler))
        self._C = types.SimpleNamespace(
            _autograd=types.SimpleNamespace(_prepare_profiler=lambda *_: None,
                                            _enable_profiler=self._enable,
                                            _disable_profiler=self._disable),
            _profiler=types.SimpleNamespace(
                _EventType=types.SimpleNamespace(TorchOp="TorchOp"),
                RecordScope=types.SimpleNamespace(USER_SCOPE="USER_SCOPE")))

    def _enable(self, *_):
        self.starts += 1
        self.running = []

    def _disable(self):
        self.reads += 1
        roots, self.running = self.running, []
        return types.SimpleNamespace(experimental_event_tree=lambda: roots)

    def operator(self, time_ns):
        self.running.append(Node("aten::add", time_ns, time_ns + 10))


class AtenCollectionTest(unittest.TestCase):
    def setUp(self):
        self.saved = {name: getattr(_capi, name) for name in (
            "recording", "operator_ranges", "user_range", "window_goes_on", "step", "step_to")}
        self.saved_hooks = list(_steps._around), list(_steps._before_state_change)
        self.saved_offset = aten_replay.realtime_minus_monotonic
        aten_replay.realtime_minus_monotonic = lambda: 0
        self.recorded = []   # operator start times, in the order handed to the agent
        self.goes_on = []    # the agent's answers, one per boundary
        self.asked = []      # the next states it was asked about
        _capi.recording = lambda: 1
        _capi.operator_ranges = lambda names, starts, ends: self.recorded.extend(starts)
        _capi.user_range = lambda *_: None
        _capi.step = lambda _samples: None

        def window_goes_on(state):
            self.asked.append(state)
            return self.goes_on.pop(0)
        _capi.window_goes_on = window_goes_on
        self.torch = FakeTorch()
        self.operators = aten_operators.AtenOperators(self.torch)
        # What install() registers.
        _steps._around[:] = [(self.operators.before_boundary, self.operators.after_boundary)]
        _steps._before_state_change[:] = [self.operators.before_state_change]

    def tearDown(self):
        for name, value in self.saved.items():
            setattr(_capi, name, value)
        _steps._around[:], _steps._before_state_change[:] = self.saved_hooks
        aten_replay.realtime_minus_monotonic = self.saved_offset

    def steps(self, answers, operators_per_step=2):
        """One step of operators, then a boundary, per answer of the agent."""
        self.goes_on.extend(answers)
        for _ in answers:
            for _ in range(operators_per_step):
                self.torch.operator(1000)
            _steps.boundaries.explicit_step(None)

    def test_read_once_at_the_boundary_that_ends_the_window(self):
        self.operators.start_on_this_thread()
        self.steps([1, 1, 0])
        self.assertEqual((self.torch.starts, self.torch.reads), (2, 1))  # restarted after
        self.assertEqual(len(self.recorded), 6)  # the three steps' operators, in one read
        self.assertEqual(self.asked, [-1, -1, -1])  # prof_step's boundaries: the schedule's
        self.steps([0])
        self.assertEqual((self.torch.starts, self.torch.reads), (3, 2))
        self.assertEqual(len(self.recorded), 8)

    def test_the_next_state_of_prof_step_to_is_asked_about(self):
        self.operators.start_on_this_thread()
        self.goes_on.extend([1, 0])
        _capi.step_to = lambda _samples, _state: 0
        _steps.boundaries.explicit_step(None, next_state=2)
        _steps.boundaries.explicit_step(None, next_state=3)
        self.assertEqual(self.asked, [2, 3])
        self.assertEqual((self.torch.reads, len(self.recorded)), (1, 0))  # nothing collected

    def test_read_before_the_state_changes_outside_a_boundary(self):
        self.operators.start_on_this_thread()
        self.steps([1])
        self.torch.operator(5000)
        _steps.state_changing()  # Profiler.stop, before prof_set_state
        self.assertEqual((self.torch.reads, len(self.recorded)), (1, 3))

    def test_read_after_a_while_even_when_the_window_goes_on(self):
        saved = aten_operators._READ_AFTER_S
        aten_operators._READ_AFTER_S = 0.0
        try:
            self.operators.start_on_this_thread()
            self.steps([1, 1])
        finally:
            aten_operators._READ_AFTER_S = saved
        self.assertEqual(self.torch.reads, 2)
        self.assertEqual(self.asked, [])  # not even asked
        self.assertEqual(len(self.recorded), 4)

    def test_read_at_every_boundary_while_another_thread_collects(self):
        self.operators.start_on_this_thread()
        self.operators._collecting.add(-1)  # another thread's collection runs
        self.steps([1, 1])
        self.assertEqual(self.torch.reads, 2)
        self.assertEqual(len(self.recorded), 4)


if __name__ == "__main__":
    unittest.main()
