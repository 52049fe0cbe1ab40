"""One drain of PyTorch's operator collection (a profiler result) replayed to the agent:
each operator becomes one prof_operator_range on the draining thread, with the times
PyTorch took for it, so operators nest among themselves, under the model phases and over
the CUDA calls they made, by time (the analyzer's range tree).

The operators are the TorchOp events of the result's event tree, less what
torch.profiler itself leaves out of its tables, so that names and counts are those of its
key_averages for the same events (torch/autograd/profiler.py, profiler_util.py, 1.13):
- the utility names of _filter_name (aten::is_leaf, [memory], ...);
- EventList._remove_dup_nodes: a call that is the only child of a call of the same name
  (autocast's aten::bmm calling the kernel's aten::bmm), to a fixed point, where the
  tree is torch's own: nested per thread by whole microseconds (start // 1000, that +
  duration // 1000), not by the nanoseconds of the event tree, so a child may end after
  its parent there, and a call may lie inside a sibling (table_folded).
torch counts what its events say: two runs of a program differ by the calls the
microseconds fold or not. PyTorch
stamps them with CLOCK_REALTIME nanoseconds; the agent's host clock is CLOCK_MONOTONIC,
so each drain measures the offset between the two once.

With PROF_SHAPES=1 / PROF_STACKS=1 and an agent that takes details
(_capi.operator_range_detail), each operator also carries its input shapes
("[[8, 3, 32, 32], [16, 3, 3, 3], []]"), dtypes ("[float, float, ]") and the Python
line that called it ("train.py:42": the innermost frame PyTorch recorded above it that is
not in PyTorch's own files).
"""
import time

from libprof import _capi

# torch.profiler's _filter_name: utility operators that are not rows of its tables.
_NOT_OPERATORS = frozenset((
    "[memory]",
    "[OutOfMemory]",
    "profiler::_record_function_enter",
    "profiler::_record_function_enter_new",
    "profiler::_record_function_exit",
    "aten::is_leaf",
    "aten::output_nr",
    "aten::_version",
))


# CUDA runtime and driver calls (cudaLaunchKernel, cuLaunchKernel, ...): where torch's
# Kineto holds CUPTI, even a CPU-only collection holds them (Kineto counts CUDA_RUNTIME and
# CUDA_DRIVER among its CPU activities), as Kineto events under their operators. They are
# not operators; the agent records them itself. Only names with this prefix pay for the
# event-type comparison.
_RUNTIME_PREFIXES = ("cu", "hip")


def realtime_minus_monotonic():
    """CLOCK_REALTIME - CLOCK_MONOTONIC in ns, from the tightest of three readings."""
    best = None
    for _ in range(3):
        before = time.monotonic_ns()
        real = time.time_ns()
        after = time.monotonic_ns()
        if best is None or after - before < best[0]:
            best = (after - before, real - (before + after) // 2)
    return best[1]


class Replay:
    def __init__(self, event_types, with_details):
        """with_details: the collection records shapes or Python frames (PROF_SHAPES,
        PROF_STACKS). Without it (and without memory events, which the helper never asks
        for) every event of the tree is an operator, so the fast path compares no event
        types (a pybind enum comparison costs about as much as the rest of an event)."""
        self._torch_op = event_types.TorchOp
        self._kineto = getattr(event_types, "Kineto", None)
        self._python_call = getattr(event_types, "PyCall", None)
        self._encoded = {}  # operator name -> its UTF-8 bytes (few distinct names)
        self._detail = getattr(_capi, "operator_range_detail", None) if with_details else None

    def replay(self, result):
        """Records the operators of `result` (while the agent records); returns how many."""
        if not _capi.recording():
            return 0
        roots = result.experimental_event_tree()
        offset = realtime_minus_monotonic()
        if self._detail is not None:
            return self._replay_with_details(roots, offset)
        emit = _capi.operator_range
        encoded = self._encoded
        nodes, names, times = [], [], []
        pending = list(roots)
        while pending:
            node = pending.pop()
            pending.extend(node.children)
            name = node.name
            if name not in _NOT_OPERATORS:
                nodes.append(node)
                names.append(name)
                times.append((node.start_tid, node.start_time_ns, node.end_time_ns))
        folded = table_folded(names, times)
        count = 0
        for index, name in enumerate(names):
            if index in folded:
                continue
            if name.startswith(_RUNTIME_PREFIXES) and nodes[index].tag == self._kineto:
                continue
            raw = encoded.get(name)
            if raw is None:
                raw = encoded[name] = name.encode("utf-8", "replace")
            _, start, end = times[index]
            emit(raw, start - offset, end - offset)
            count += 1
        return count

    def _replay_with_details(self, roots, offset):
        found = []  # (node, its Python line)
        pending = [(node, "", "") for node in roots]  # (node, program's line, any line)
        while pending:
            node, program_line, any_line = pending.pop()
            if node.tag == self._python_call:
                line = python_line(node.name)
                if line:
                    any_line = line
                    if not line.startswith(_TORCH_FILES):
                        program_line = line
            pending.extend((child, program_line, any_line) for child in node.children)
            if node.name in _NOT_OPERATORS or node.tag not in (self._torch_op, self._kineto):
                continue
            found.append((node, program_line or any_line))
        folded = table_folded([node.name for node, _ in found], [
            (node.start_tid, node.start_time_ns, node.end_time_ns) for node, _ in found])
        count = 0
        for index, (node, line) in enumerate(found):
            if index in folded or node.tag != self._torch_op:
                continue
            shapes, dtypes = inputs_text(node)
            self._detail(node.name.encode("utf-8", "replace"), node.start_time_ns - offset,
                         node.end_time_ns - offset, shapes, dtypes, line)
            count += 1
        return count


def table_folded(names, times):
    """The indices of the events (names, and (thread, start ns, end ns) each) that torch.profiler's tables fold
    into their parent (EventList._remove_dup_nodes), in torch's tree: per thread, by
    whole microseconds, sorted by (start, -end), each event the child of the innermost
    open event that contains it ([start, end] within, starting before its end).
    Per event: a key tuple, a (nearly sorted) sort and a pass over a stack, about 1.5 us
    on the CI machine; the folding itself only where a call has a parent of its name."""
    keys = []
    for index, (tid, start, end) in enumerate(times):
        start_us = start // 1000
        # Equal microseconds: the order torch keeps (its events' order, calls before
        # what they call).
        keys.append((tid, start_us, -(start_us + (end - start) // 1000),
                     start, -end, index))
    keys.sort()
    parent = [None] * len(names)
    children = {}
    stack = []
    thread = None
    suspects = []
    for tid, start_us, minus_end_us, _, _, index in keys:
        if tid != thread:
            thread, stack = tid, []
        while stack:
            up_end_us, up = stack[-1]
            if start_us >= up_end_us or -minus_end_us > up_end_us:
                stack.pop()
                continue
            parent[index] = up
            children.setdefault(up, []).append(index)
            if names[up] == names[index]:
                suspects.append(index)
            break
        stack.append((-minus_end_us, index))
    folded = set()
    if not suspects:
        return folded
    # _remove_dup_nodes, literally: passes in torch's order until none folds.
    order = [key[-1] for key in keys]
    while True:
        this_pass = []
        for index in order:
            up = parent[index]
            if (up is not None and names[up] == names[index]
                    and len(children.get(up, ())) == 1):
                mine = children.get(index, [])
                children[up] = mine
                for child in mine:
                    parent[child] = up
                this_pass.append(index)
        if not this_pass:
            return folded
        folded.update(this_pass)
        dropped = set(this_pass)
        order = [index for index in order if index not in dropped]


# How torch.profiler names the frames of PyTorch's own Python files: the source line of
# an operator is the innermost frame outside them (the program's line that called into
# PyTorch), or else the innermost one.
_TORCH_FILES = ("torch/", "<built-in")


def python_line(frame_name):
    """"torch/nn/modules/linear.py(114): forward" -> "torch/nn/modules/linear.py:114"."""
    location, _, _ = frame_name.rpartition("): ")
    path, _, line = location.rpartition("(")
    return "%s:%s" % (path, line) if path and line.isdigit() else ""


def inputs_text(node):
    """("[[8, 3, 32, 32], [16, 3, 3, 3], []]", "[float, float, ]"), or ("", "") when
    PyTorch recorded no shapes (record_shapes off, or a torch whose event fields differ)."""
    inputs = getattr(node.extra_fields, "inputs", None)
    shapes = getattr(inputs, "shapes", None)
    dtypes = getattr(inputs, "dtypes", None)
    if not isinstance(shapes, list) or not isinstance(dtypes, list):
        return "", ""
    return str(shapes), "[" + ", ".join(str(dtype) for dtype in dtypes) + "]"
