"""PyTorch with no code change: model phases and steps from PyTorch's own entry points.

    Dataloader    each DataLoader fetch (_BaseDataLoaderIter.__next__)
    Forward       the outermost nn.Module call
    Backward      Tensor.backward / torch.autograd.backward
    Optimization  the outermost optimizer step (Optimizer subclasses, GradScaler.step);
                  a step boundary follows where the next iteration begins (libprof._steps)
    operators     torch functions and Tensor methods, with PROF_PYTHON_OPS=1 (or on, true, yes)

Only the outermost phase of a thread is recorded (a Forward inside an LBFGS closure is
part of its Optimization), as the analyzer shows only top-most phases anyway. Every hook
calls through untouched inside DataLoader workers and after the helper has failed.
"""
from libprof import _flags, _guard
from libprof._torch import backward, dataloader, forward, operators, optimizer
from libprof._torch.patches import Patches


def install(torch):
    patches = Patches()
    _guard.on_failure(patches.restore_all)
    dataloader.install(torch, patches)
    forward.install(torch, patches)
    backward.install(torch, patches)
    optimizer.install(torch, patches)
    if _flags.flag("PROF_PYTHON_OPS", False):
        _guard.on_failure(operators.install(torch))
