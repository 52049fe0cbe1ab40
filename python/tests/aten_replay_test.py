"""aten_replay: a drained profiler result becomes agent operator ranges: TorchOp events
only, less the utility names torch.profiler leaves out, in the agent's clock; with
details, the shapes, dtypes and calling Python line as torch.profiler prints them.
Fake event trees (the shape of torch 1.13's experimental_event_tree, and torch 2's inputs);
no torch, no agent."""
import ctypes
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


class TensorMetadata:
    """torch 2's _TensorMetadata: what the helper reads of it."""
    def __init__(self, sizes, dtype):
        self.sizes, self.dtype = sizes, dtype


class Fields:
    def __init__(self, inputs, scope="FUNCTION"):
        self.inputs, self.scope = inputs, scope


class Node:
    def __init__(self, name, start, end, children=(), tag="TorchOp", inputs=None, tid=1):
        self.name, self.start_time_ns, self.end_time_ns = name, start, end
        self.start_tid = tid
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
                      for name in ("recording", "operator_ranges", "operator_range_detail",
                                   "user_range")}
        self.saved_offset = aten_replay.realtime_minus_monotonic
        _capi.recording = lambda: 1
        # The names come as the addresses of their texts (_capi.text_address).
        _capi.operator_ranges = lambda names, starts, ends: self.calls.extend(
            zip([ctypes.string_at(name) for name in names], starts, ends))
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

    def names(self, roots, details=False):
        """The operators replayed from `roots`, by name: {name: calls}."""
        self.calls.clear()
        _capi.operator_range_detail = lambda *arguments: self.calls.append(arguments)
        count = aten_replay.Replay(EventTypes, with_details=details).replay(Result(roots))
        self.assertEqual(count, len(self.calls))
        found = {}
        for call in self.calls:
            name = call[0].decode()
            found[name] = found.get(name, 0) + 1
        return found

    def test_the_only_child_of_a_call_of_the_same_name_is_folded_into_it(self):
        # torch.profiler's EventList._remove_dup_nodes: autocast's aten::bmm calls the
        # kernel's aten::bmm, and the table counts one call. Repeated to a fixed point: a
        # chain of three is one call. With details too.
        for details in (False, True):
            self.assertEqual(self.names([
                Node("aten::bmm", 10_000, 50_000, [Node("aten::bmm", 11_000, 49_000)]),
                Node("aten::div", 60_000, 90_000, [Node("aten::div", 61_000, 89_000, [
                    Node("aten::div", 62_000, 88_000, [Node("aten::mul", 63_000, 70_000)])])]),
            ], details), {"aten::bmm": 1, "aten::div": 1, "aten::mul": 1})
        # The folded call's times are the outer call's.
        self.names([Node("aten::bmm", 10_000, 50_000, [Node("aten::bmm", 11_000, 49_000)])])
        self.assertEqual(self.calls[0][1:3], (9_000, 49_000))

    def test_not_folded_beside_another_child(self):
        # Autocast's aten::bmm casting an input first: two children, both counted. The
        # names torch.profiler leaves out are no children (aten::is_leaf below).
        self.assertEqual(self.names([
            Node("aten::bmm", 10_000, 50_000, [Node("aten::to", 11_000, 12_000),
                                                Node("aten::bmm", 13_000, 49_000)]),
            Node("aten::div_", 60_000, 90_000, [Node("aten::is_leaf", 61_000, 62_000),
                                                 Node("aten::div_", 63_000, 89_000)]),
        ]), {"aten::bmm": 2, "aten::to": 1, "aten::div_": 1})

    def test_nesting_by_the_event_trees_nanoseconds(self):
        # The event tree's own nesting, not torch.profiler's whole microseconds (where a
        # child can seem to end after its parent, or a call to lie inside its sibling):
        # a nested call of the same name is folded, siblings never are.
        self.assertEqual(self.names([
            Node("aten::div", 100_900, 104_800, [Node("aten::div", 101_000, 104_700)]),
        ]), {"aten::div": 1})
        self.assertEqual(self.names([
            Node("aten::native_batch_norm", 90_000, 200_000, [
                Node("aten::empty", 100_200, 100_900), Node("aten::empty", 100_950, 102_000)]),
        ]), {"aten::native_batch_norm": 1, "aten::empty": 2})

    def test_threads_apart(self):
        self.assertEqual(self.names([
            Node("aten::bmm", 10_000, 50_000, tid=1),
            Node("aten::bmm", 11_000, 49_000, tid=2),
        ]), {"aten::bmm": 2})

    def test_cuda_runtime_calls_are_children_there(self):
        # In torch.profiler's tree a runtime call is a child of its operator too.
        self.assertEqual(self.names([
            Node("aten::bmm", 10_000, 50_000, [
                Node("aten::bmm", 11_000, 40_000),
                Node("cudaLaunchKernel", 41_000, 42_000, tag="Kineto")]),
        ]), {"aten::bmm": 2})

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

    def test_torch_2_inputs_a_list_of_tensors_scalars_and_tensor_lists(self):
        # torch 2's inputs: the values themselves (dtypes as torch.dtype prints them).
        node = Node("aten::addmm", 0, 1, inputs=[
            TensorMetadata([10], "torch.float32"), TensorMetadata([4, 512], "torch.bfloat16"),
            TensorMetadata([], "torch.int64"), 0.5, True, None,
            [TensorMetadata([2], "torch.float32")], TensorMetadata([1], "torch.float8_e4m3fn")])
        self.assertEqual(aten_replay.inputs_text(node), (
            "[[10], [4, 512], [], [], [], [], [], [1]]",
            "[float, c10::BFloat16, long int, Scalar, Scalar, , TensorList, float8_e4m3fn]"))
        # record_shapes off: an empty list, as 1.13's empty fields give nothing.
        self.assertEqual(aten_replay.inputs_text(Node("aten::t", 0, 1, inputs=[])), ("", ""))
        self.assertEqual(aten_replay.inputs_text(Node("aten::t", 0, 1)), ("", ""))

    def test_record_function_ranges_are_user_ranges(self):
        # torch writes its record_function ranges (RecordScope.USER_SCOPE) as
        # user_annotation: they are the agent's user ranges, with and without details.
        def optimizer_step():
            step = Node("Optimizer.step#AdamW.step", 2000, 5000,
                        children=[Node("aten::add_", 3000, 4000)])
            step.extra_fields.scope = "USER_SCOPE"
            return Result([step])
        users = []
        _capi.user_range = lambda *arguments: users.append(arguments)
        count = aten_replay.Replay(EventTypes, False, "USER_SCOPE").replay(optimizer_step())
        self.assertEqual(count, 2)
        self.assertEqual(users, [(b"Optimizer.step#AdamW.step", 1000, 4000)])
        self.assertEqual(self.calls, [(b"aten::add_", 2000, 3000)])
        users.clear()
        self.calls.clear()
        _capi.operator_range_detail = lambda *arguments: self.calls.append(arguments[:3])
        aten_replay.Replay(EventTypes, True, "USER_SCOPE").replay(optimizer_step())
        self.assertEqual(users, [(b"Optimizer.step#AdamW.step", 1000, 4000)])
        self.assertEqual(self.calls, [(b"aten::add_", 2000, 3000)])
        # Without a user scope (a caller that names none), every event is an operator.
        self.calls.clear()
        aten_replay.Replay(EventTypes, False).replay(optimizer_step())
        self.assertEqual(len(self.calls), 2)

    def test_python_line(self):
        self.assertEqual(aten_replay.python_line("train.py(7): <module>"), "train.py:7")
        self.assertEqual(aten_replay.python_line("<built-in method zeros of type object>"), "")

    def test_clock_offset_is_realtime_minus_monotonic(self):
        import time
        offset = self.saved_offset()
        self.assertLess(abs(time.time_ns() - time.monotonic_ns() - offset), 50_000_000)


if __name__ == "__main__":
    unittest.main()
