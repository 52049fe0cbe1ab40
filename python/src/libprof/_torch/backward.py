"""Backward: Tensor.backward and torch.autograd.backward (the first calls the second,
which then finds the phase open and calls through)."""
from libprof._torch import phases


def install(torch, patches):
    patches.wrap(torch.Tensor, "backward", _make_backward, off_while_quiet=True)
    patches.wrap(torch.autograd, "backward", _make_backward, off_while_quiet=True)


def _make_backward(original):
    current = phases.current

    def backward(*args, **kwargs):
        if current.open or not phases.hooks_live():
            return original(*args, **kwargs)
        return phases.run_in_phase("Backward", original, args, kwargs)

    return backward
