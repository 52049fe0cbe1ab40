"""Python-level operator ranges (PROF_PYTHON_OPS=python): every torch function and Tensor
method called from Python, named as PyTorch's Python API names it (linear, relu, mse_loss,
add_, ...). PROF_PYTHON_OPS=1 records ATen operators instead (aten_operators).

PyTorch 1.13 has no global operator callback reachable from Python without its own
profiler; torch.overrides.TorchFunctionMode (public since 1.13) sees every call that
goes through __torch_function__. Its mode stack is per thread, so the mode is entered on
the thread that imports torch and on every thread that opens its first model phase.
Calls made inside an operator (PyTorch's own Python code) are not recorded again.
Attribute reads (tensor.grad, tensor.shape) are not operators and are left out.
"""
import threading

from libprof import _capi, _guard
from libprof._torch import phases


def install(torch):
    """Enters the mode on this thread; returns the callable that turns it off."""
    mode_class = torch.overrides.TorchFunctionMode
    names = {}
    entered = threading.local()

    class OperatorRanges(mode_class):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            name = names.get(func, False)
            if name is False:
                name = names[func] = _operator_name(func)
            if name is None or not phases.hooks_live():
                return func(*args, **kwargs)
            pushed = _guard.guarded(_push, name)
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


def _push(name):
    _capi.operator_push(name)
    return True


def _operator_name(func):
    name = getattr(func, "__name__", None)
    if not name or name in ("__get__", "__set__", "__delete__"):
        return None
    if name.startswith("__") and name.endswith("__") and len(name) > 4:
        return name[2:-2]  # __add__ -> add; add_ keeps its underscore (in place)
    return name
