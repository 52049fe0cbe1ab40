"""Forward: one phase per step on a thread, from its first outermost nn.Module call to
the last one before another phase opens (Backward, usually), so the model and the loss
module make one Forward, as a training iteration has one forward pass.

The end of a Forward is known only when the next phase opens (or the step ends, or the
program exits), so it is recorded then, as a whole range with the times of its first
call's start and its last call's end (_capi.phase_range). Under torch.no_grad() or
inference_mode (evaluation, inference) no backward follows: each outermost call is a
Forward of its own, recorded as it ends.
"""
import atexit
import threading
import time

from libprof import _capi, _guard, _steps
from libprof._torch import phases

_FORWARD = b"Forward"


class _PendingForward(threading.local):
    start_ns = 0      # 0: no Forward pending on this thread
    end_ns = 0
    mergeable = False  # later calls may extend it (gradients were enabled)


pending = _PendingForward()


def install(torch, patches):
    grad_enabled = torch.is_grad_enabled
    patches.wrap(torch.nn.Module, "__call__", lambda original: _make_module_call(
        original, grad_enabled), off_while_quiet=True)
    phases.on_outermost_phase(_end_before_other_phase)
    _steps.around_boundary(flush, None)
    next_module_call = _NextModuleCall(torch)
    _guard.on_failure(next_module_call.disarm)
    _steps.when_due_while_quiet(next_module_call.arm)
    atexit.register(_guard.guarded, flush)


def _make_module_call(original, grad_enabled):
    current = phases.current

    def module_call(self, *args, **kwargs):
        if current.open or not phases.hooks_live():
            return original(self, *args, **kwargs)
        opened = _guard.guarded(_begin, grad_enabled)
        try:
            return original(self, *args, **kwargs)
        finally:
            if opened:
                _guard.guarded(_end)

    return module_call


class _NextModuleCall:
    """In a quiet step the wrapper above is out: a global forward pre-hook, armed only
    until the next module call, places the due boundary there. (An armed global hook
    sends every module call down nn.Module's slower path: hence only until then.) The hook
    is registered once and then put in and taken out of torch's dict of global hooks by
    its key: a RemovableHandle each time would cost more than the rest of the boundary."""

    def __init__(self, torch):
        self._register = torch.nn.modules.module.register_module_forward_pre_hook
        self._hook = self._first_call
        handle = self._register(self._hook)
        handle.remove()
        # torch's handle (1.13 to 2.x) holds the dict and the key; a torch whose handle
        # does not gets a new handle at each arm().
        dict_ref, self._key = getattr(handle, "hooks_dict_ref", None), getattr(handle, "id", None)
        self._hooks = dict_ref() if dict_ref is not None and self._key is not None else None
        self._handle = None

    def arm(self):
        if self._hooks is not None:
            self._hooks[self._key] = self._hook
        elif self._handle is None:
            self._handle = self._register(self._hook)

    def disarm(self):
        if self._hooks is not None:
            self._hooks.pop(self._key, None)
        elif self._handle is not None:
            self._handle.remove()
            self._handle = None

    def _first_call(self, _module, _inputs):
        self.disarm()
        if _guard.active and not phases.current.open:  # (a worker's boundaries: none due)
            _guard.guarded(_steps.boundaries.place_due_boundary)


def _begin(grad_enabled):
    if not phases.enter("Forward", push=False):
        return False
    if not phases.current.recorded:
        return True  # a quiet step: only the boundary mattered
    mergeable = bool(grad_enabled())
    state = pending
    if state.start_ns and not (state.mergeable and mergeable):
        flush()
    if not state.start_ns:
        state.start_ns = time.monotonic_ns()
        state.mergeable = mergeable
    return True


def _end():
    if not phases.leave(pop=False):
        return
    pending.end_ns = time.monotonic_ns()
    if not pending.mergeable:
        flush()


def _end_before_other_phase(name):
    if name != "Forward":
        flush()


def flush():
    """Records this thread's pending Forward, if any."""
    state = pending
    if state.start_ns:
        start, end = state.start_ns, max(state.end_ns, state.start_ns)
        state.start_ns = state.end_ns = 0
        _capi.phase_range(_FORWARD, start, end)
