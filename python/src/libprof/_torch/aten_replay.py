"""One drain of PyTorch's operator collection (a profiler result) replayed to the agent:
each operator becomes one prof_operator_range on the draining thread (each
record_function range a prof_user_range), with the times
PyTorch took for it, so operators nest among themselves, under the model phases and over
the CUDA calls they made, by time (the analyzer's range tree).

The operators are the TorchOp events of the result's event tree, less what
torch.profiler itself leaves out of its tables, so that names and counts are those of its
key_averages (torch/autograd/profiler.py, profiler_util.py, 1.13):
- the utility names of _filter_name (aten::is_leaf, [memory], ...);
- EventList._remove_dup_nodes: a call that is the only child of a call of the same name
  (autocast's aten::bmm calling the kernel's aten::bmm), to a fixed point (_folded_children).
  torch applies it to a tree it rebuilds from whole microseconds, where now and then a
  child seems to end after its parent or a call to lie inside its sibling; the helper uses
  the event tree's nanoseconds, which costs nothing but a look at each call's children
  (rebuilding torch's tree costs about 5 us an operator), so the two may differ by those
  few calls, as two runs of torch.profiler differ from each other. PyTorch
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
    def __init__(self, event_types, with_details, user_scope=None):
        """with_details: the collection records shapes or Python frames (PROF_SHAPES,
        PROF_STACKS). Without it (and without memory events, which the helper never asks
        for) every event of the tree is an operator, so the fast path compares no event
        types (a pybind enum comparison costs about as much as the rest of an event).
        user_scope: torch's RecordScope.USER_SCOPE. An event of that scope is a
        record_function range (Optimizer.step#AdamW.step, enumerate(DataLoader)#...),
        which torch.profiler writes as a user_annotation, not a cpu_op: it is replayed as
        a user range (_capi.user_range). Its scope is read once per name."""
        self._torch_op = event_types.TorchOp
        self._kineto = getattr(event_types, "Kineto", None)
        self._python_call = getattr(event_types, "PyCall", None)
        self._user_scope = user_scope
        # name -> _Name (few distinct names); kept for the process, so the addresses of
        # their texts handed to the agent stay valid.
        self._names = {}
        self._detail = getattr(_capi, "operator_range_detail", None) if with_details else None

    def _name(self, node, name):
        """What replaying needs of `name`, read once per name from its first `node`."""
        known = self._names.get(name)
        if known is None:
            scope = getattr(node.extra_fields, "scope", None)
            known = self._names[name] = _Name(name, self._user_scope is not None
                                              and scope == self._user_scope)
        return known

    def replay(self, result):
        """Records the operators of `result` (while the agent records); returns how many."""
        if not _capi.recording():
            return 0
        roots = result.experimental_event_tree()
        offset = realtime_minus_monotonic()
        if self._detail is not None:
            return self._replay_with_details(roots, offset)
        # One C call for the whole drain's operators (prof_operator_ranges): a ctypes call
        # each cost about as much as walking the tree. User ranges are few (a step's
        # optimizer and DataLoader ranges): a call each. Each event's name, children and
        # times are read once: a pybind attribute read costs 0.25-0.45 us, most of the walk.
        names, starts, ends, users = [], [], [], []
        known_names, kineto = self._names, self._kineto
        pending = [(root, root.name) for root in roots]
        while pending:
            node, name = pending.pop()
            children = node.children
            if children:
                pending.extend(_folded_children(children, name))
            known = known_names.get(name) or self._name(node, name)
            if known.skipped or (known.runtime_prefixed and node.tag == kineto):
                continue
            if known.user:
                users.append((known.raw, node.start_time_ns - offset, node.end_time_ns - offset))
                continue
            names.append(known.address)
            starts.append(node.start_time_ns - offset)
            ends.append(node.end_time_ns - offset)
        _capi.operator_ranges(names, starts, ends)
        for user_range in users:
            _capi.user_range(*user_range)
        return len(names) + len(users)

    def _replay_with_details(self, roots, offset):
        count = 0
        # (node, its name, program's line, any line)
        pending = [(root, root.name, "", "") for root in roots]
        while pending:
            node, name, program_line, any_line = pending.pop()
            tag = node.tag
            if tag == self._python_call:
                line = python_line(name)
                if line:
                    any_line = line
                    if not line.startswith(_TORCH_FILES):
                        program_line = line
            children = node.children
            if children:
                pending.extend((child, child_name, program_line, any_line)
                               for child, child_name in _folded_children(children, name))
            if tag != self._torch_op or name in _NOT_OPERATORS:
                continue
            known = self._name(node, name)
            start, end = node.start_time_ns - offset, node.end_time_ns - offset
            if known.user:
                _capi.user_range(known.raw, start, end)
            else:
                shapes, dtypes = inputs_text(node)
                self._detail(known.raw, start, end, shapes, dtypes, program_line or any_line)
            count += 1
        return count


class _Name:
    """An event name as replaying needs it: its UTF-8 text, that text's address for
    prof_operator_ranges, whether it is left out (a utility name), a user range, or maybe
    a CUDA runtime or driver call (then the event's type decides)."""
    __slots__ = ("raw", "address", "skipped", "user", "runtime_prefixed")

    def __init__(self, name, user):
        self.raw = name.encode("utf-8", "replace")
        self.address = _capi.text_address(self.raw)
        self.skipped = name in _NOT_OPERATORS
        self.user = user
        self.runtime_prefixed = name.startswith(_RUNTIME_PREFIXES)


def _folded_children(children, name):
    """(child, its name) for each of `children` (those of an event named `name`), where a
    child that is its only one and has its name is replaced by that child's own children,
    to a fixed point (torch.profiler's _remove_dup_nodes). The names torch leaves out are
    no children. Each child's name is read here once, and handed on with it."""
    named = [(child, child.name) for child in children]
    while named:
        if len(named) > 1:
            counted = [pair for pair in named if pair[1] not in _NOT_OPERATORS]
            if len(counted) != 1:
                return named
            only, only_name = counted[0]
        else:
            only, only_name = named[0]
        if only_name != name:
            return named
        named = [(child, child.name) for child in only.children]
    return named


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
    PyTorch recorded no shapes (record_shapes off, or a torch whose event fields differ).
    torch 1.13 keeps them as inputs.shapes and inputs.dtypes; torch 2 as a list of the
    inputs themselves (_listed_inputs_text)."""
    inputs = getattr(node.extra_fields, "inputs", None)
    if isinstance(inputs, list):
        return _listed_inputs_text(inputs) if inputs else ("", "")
    shapes = getattr(inputs, "shapes", None)
    dtypes = getattr(inputs, "dtypes", None)
    if not isinstance(shapes, list) or not isinstance(dtypes, list):
        return "", ""
    return str(shapes), "[" + ", ".join(str(dtype) for dtype in dtypes) + "]"


# torch 2's dtypes by the C++ type names its profiler prints (KinetoEvent.dtypes(), 1.13's
# inputs.dtypes): the names of c10's TypeMeta.
_DTYPE_NAMES = {
    "torch.float32": "float", "torch.float64": "double", "torch.float16": "c10::Half",
    "torch.bfloat16": "c10::BFloat16", "torch.int64": "long int", "torch.int32": "int",
    "torch.int16": "short int", "torch.int8": "signed char", "torch.uint8": "unsigned char",
    "torch.bool": "bool", "torch.complex64": "c10::complex<float>",
    "torch.complex128": "c10::complex<double>",
}


def _listed_inputs_text(inputs):
    """torch 2's inputs: a _TensorMetadata (.sizes, .dtype) per tensor, a list of them per
    tensor list, the value of a scalar (a number or a bool) and None for what the event tree
    does not expose (int lists among them). Shapes as torch.profiler's record_shapes: the
    sizes of a tensor, [] for anything else; dtypes as torch's C++ names, TensorList,
    Scalar, or "" where the tree exposes nothing (torch itself says ScalarList for some)."""
    shapes, dtypes = [], []
    for value in inputs:
        sizes = getattr(value, "sizes", None)
        if sizes is not None:
            shapes.append(list(sizes))
            dtype = str(getattr(value, "dtype", ""))
            dtypes.append(_DTYPE_NAMES.get(dtype, dtype.replace("torch.", "")))
            continue
        shapes.append([])
        if isinstance(value, list):
            dtypes.append("TensorList")
        elif isinstance(value, (bool, int, float, complex)):
            dtypes.append("Scalar")
        else:
            dtypes.append("")
    return str(shapes), "[" + ", ".join(dtypes) + "]"
