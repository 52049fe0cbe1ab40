"""aten_replay: a drained profiler result becomes agent operator ranges: TorchOp events
only, less the utility names torch.profiler leaves out, in the agent's clock; with
details, the shapes, dtypes and calling Python line as torch.profiler prints them.
Fake event trees (the shape of torch 1.13's experimental_event_tree); no torch, no agent."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

sys.path.insert(0, agent_runner.helper_folder())
from libprof import _capi  # noqa: E402
from libprof._torch import aten_replay  # noqa: E402


class EventTypes:
    TorchOp = "TorchOp"
    PyCall = "PyCall"
    Kineto = "Kineto"


class Inputs:
    def __init__(self, shapes, dtypes):
        self.shapes = shapes
        self.dtypes = dtypes


class Fields:
    def __init__(self, inputs):
        self.inputs = inputs


class Node:
    def __init__(self, name, start, end, children=(), tag="TorchOp", inputs=None):
        self.name, self.start_time_ns, self.end_time_ns = name, start, end
        self.children, self.tag, self.extra_fields = list(children), tag, Fields(inputs)


class Result:
    def __init__(self, roots):
        self._roots = roots

    def experimental_event_tree(self):
        return self._roots


class AtenReplayTest(unittest.TestCase):
    def setUp(self):
        self.calls = []
        self.saved = {name: getattr(_capi, name, None)
                      for name in ("recording", "operator_range", "operator_range_detail")}
        self.saved_offset = aten_replay.realtime_minus_monotonic
        _capi.recording = lambda: 1
        _capi.operator_range = lambda *arguments: self.calls.append(arguments)
        aten_replay.realtime_minus_monotonic = lambda: 1000

    def tearDown(self):
        for name, value in self.saved.items():
            if value is None:
                if hasattr(_capi, name):
                    delattr(_capi, name)
            else:
                setattr(_capi, name, value)
        aten_replay.realtime_minus_monotonic = self.saved_offset

    def tree(self, python_frames=True):
        """Python frames (PyCall events) are in the tree only when PROF_STACKS asks."""
        def frame(name, start, end, children):
            if python_frames:
                return [Node(name, start, end, tag="PyCall", children=children)]
            return children
        return Result(frame("train.py(42): main", 1000, 9000, [
            Node("aten::linear", 1100, 1900, children=[
                Node("aten::t", 1110, 1150),
                Node("aten::addmm", 1200, 1800, inputs=Inputs(
                    [[8, 3, 32, 32], [16, 3, 3, 3], []], ["float", "float", ""])),
            ]),
            Node("aten::is_leaf", 2000, 2001),
        ] + frame("torch/nn/modules/loss.py(1164): forward", 3000, 4000,
                  [Node("aten::cross_entropy_loss", 3100, 3900)])) + [
            Node("[memory]", 5000, 5000),
            Node("profiler::_record_function_exit", 6000, 6100),
            Node("autograd::engine::evaluate_function: AddmmBackward0", 7000, 7500),
        ])

    def test_operators_in_the_agents_clock_utility_names_left_out(self):
        count = aten_replay.Replay(EventTypes, with_details=False).replay(self.tree(False))
        self.assertEqual(count, 5)
        self.assertEqual(sorted(self.calls), sorted([
            (b"aten::linear", 100, 900), (b"aten::t", 110, 150), (b"aten::addmm", 200, 800),
            (b"aten::cross_entropy_loss", 2100, 2900),
            (b"autograd::engine::evaluate_function: AddmmBackward0", 6000, 6500)]))

    def test_cuda_runtime_and_driver_calls_are_not_operators(self):
        # Where torch's Kineto holds CUPTI, a CPU-only collection still gets the CUDA
        # runtime and driver calls (Kineto's CUDA_RUNTIME/CUDA_DRIVER activities are CPU
        # types), as Kineto events under their operators: the agent records those calls.
        for details in (False, True):
            self.calls.clear()
            _capi.operator_range_detail = lambda *arguments: self.calls.append(arguments)
            tree = Result([Node("aten::addmm", 1000, 2000, children=[
                Node("cudaLaunchKernel", 1100, 1200, tag="Kineto"),
                Node("cudaLaunchKernelExC", 1300, 1400, tag="Kineto"),
                Node("cuLaunchKernel", 1500, 1600, tag="Kineto"),
                Node("cudaMemcpyAsync", 1700, 1800, tag="Kineto")]),
                Node("custom_block", 3000, 4000)])
            count = aten_replay.Replay(EventTypes, with_details=details).replay(tree)
            self.assertEqual(count, 2)
            self.assertEqual(sorted(call[0] for call in self.calls),
                             [b"aten::addmm", b"custom_block"])

    def test_nothing_while_the_agent_does_not_record(self):
        _capi.recording = lambda: 0
        replay = aten_replay.Replay(EventTypes, with_details=False)
        self.assertEqual(replay.replay(self.tree(False)), 0)
        self.assertEqual(self.calls, [])

    def test_details_shapes_dtypes_and_the_calling_python_line(self):
        _capi.operator_range_detail = lambda *arguments: self.calls.append(arguments)
        aten_replay.Replay(EventTypes, with_details=True).replay(self.tree())
        by_name = {call[0]: call for call in self.calls}
        self.assertEqual(by_name[b"aten::addmm"], (
            b"aten::addmm", 200, 800, "[[8, 3, 32, 32], [16, 3, 3, 3], []]", "[float, float, ]",
            "train.py:42"))
        # The program's line, not PyTorch's own file in between.
        self.assertEqual(by_name[b"aten::cross_entropy_loss"][5], "train.py:42")
        self.assertEqual(by_name[b"aten::t"][3:], ("", "", "train.py:42"))
        self.assertEqual(by_name[b"autograd::engine::evaluate_function: AddmmBackward0"][5], "")
        # Only PyTorch's own frames above: the innermost of them.
        _capi.recording = lambda: 1
        self.calls.clear()
        aten_replay.Replay(EventTypes, with_details=True).replay(Result([
            Node("torch/optim/sgd.py(213): _single_tensor_sgd", 0, 9000, tag="PyCall",
                 children=[Node("aten::add_", 1000, 2000)])]))
        self.assertEqual(self.calls[0][5], "torch/optim/sgd.py:213")

    def test_python_line(self):
        self.assertEqual(aten_replay.python_line("train.py(7): <module>"), "train.py:7")
        self.assertEqual(aten_replay.python_line("<built-in method zeros of type object>"), "")

    def test_clock_offset_is_realtime_minus_monotonic(self):
        import time
        offset = self.saved_offset()
        self.assertLess(abs(time.time_ns() - time.monotonic_ns() - offset), 50_000_000)


if __name__ == "__main__":
    unittest.main()
