"""Python-level operator ranges (PROF_PYTHON_OPS=python): every torch function and Tensor
method called from Python, named as PyTorch's Python API names it (linear, relu, mse_loss,
add_, ...). PROF_PYTHON_OPS=1 records ATen operators instead (aten_operators).

PyTorch 1.13 has no global operator callback reachable from Python without its own
profiler; torch.overrides.TorchFunctionMode (public since 1.13) sees every call that
goes through __torch_function__. Its mode stack is per thread, so the mode is entered on
the thread that imports torch and on every thread that opens its first model phase.
Calls made inside an operator (PyTorch's own Python code) are not recorded again.
Attribute reads (tensor.grad, tensor.shape) are not operators and are left out.

With PROF_SHAPES=1 each call also carries its positional arguments' shapes and dtypes
("[[8, 16], [32, 16], [32]]", "[float32, float32, float32]"; [] for a non-tensor), and
with PROF_STACKS=1 the program's line that called it ("train.py:38": the innermost frame
outside PyTorch's own files), through prof_operator_push_detail.
"""
import os
import sys
import threading

from libprof import _capi, _flags, _guard
from libprof._torch import phases


def install(torch):
    """Enters the mode on this thread; returns the callable that turns it off."""
    mode_class = torch.overrides.TorchFunctionMode
    names = {}
    entered = threading.local()
    details = _Details(torch.Tensor, _flags.flag("PROF_SHAPES", False),
                       _flags.flag("PROF_STACKS", False))
    push = details.push if details.wanted else _push

    class OperatorRanges(mode_class):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = names.get(func, False)
            if name is False:
                name = names[func] = _operator_name(func)
            if name is None or not phases.hooks_live():
                return func(*args, **kwargs)
            pushed = _guard.guarded(push, name, args)
            try:
                return func(*args, **kwargs)
            finally:
                if pushed:
                    _guard.guarded(_capi.operator_pop)

    def enter_on_this_thread():
        if getattr(entered, "mode", None) is None and _guard.active:
            entered.mode = OperatorRanges()
            entered.mode.__enter__()

    def turn_off():
        # A mode can only be left on its own thread, and only when it is the innermost
        # one; the modes left in place call straight through from now on.
        mode = getattr(entered, "mode", None)
        current = getattr(torch.overrides, "_get_current_function_mode", lambda: None)
        if mode is not None and current() is mode:
            mode.__exit__(None, None, None)

    enter_on_this_thread()
    phases.on_first_use_in_thread(enter_on_this_thread)
    return turn_off


def _push(name, _args):
    _capi.operator_push(name)
    return True


# Frames in these files are PyTorch's own: a call's source line is the innermost frame
# outside them (the program's line that called into PyTorch).
_TORCH_FILES = (os.sep + "torch" + os.sep, os.sep + "libprof" + os.sep)


class _Details:
    """Shapes, dtypes and source line of a call (PROF_SHAPES / PROF_STACKS)."""

    def __init__(self, tensor_type, shapes, stacks):
        self._tensor = tensor_type
        self._shapes = shapes
        self._stacks = stacks
        self.wanted = shapes or stacks

    def push(self, name, args):
        shapes = dtypes = source = None
        if self._shapes:
            tensors = [arg if isinstance(arg, self._tensor) else None for arg in args]
            shapes = "[%s]" % ", ".join(
                "[%s]" % ", ".join(str(size) for size in tensor.shape) if tensor is not None
                else "[]" for tensor in tensors)
            dtypes = "[%s]" % ", ".join(
                str(tensor.dtype).replace("torch.", "") if tensor is not None else ""
                for tensor in tensors)
        if self._stacks:
            source = _source_line()
        _capi.operator_push_detail(name, shapes, dtypes, source)
        return True


def _source_line():
    frame = sys._getframe(2)  # the caller of __torch_function__'s caller
    innermost = None
    while frame is not None:
        path = frame.f_code.co_filename
        if innermost is None:
            innermost = frame
        if not any(part in path for part in _TORCH_FILES):
            return "%s:%d" % (os.path.basename(path), frame.f_lineno)
        frame = frame.f_back
    if innermost is None:
        return None
    return "%s:%d" % (os.path.basename(innermost.f_code.co_filename), innermost.f_lineno)


def _operator_name(func):
    name = getattr(func, "__name__", None)
    if not name or name in ("__get__", "__set__", "__delete__"):
        return None
    if name.startswith("__") and name.endswith("__") and len(name) > 4:
        return name[2:-2]  # __add__ -> add; add_ keeps its underscore (in place)
    return name
