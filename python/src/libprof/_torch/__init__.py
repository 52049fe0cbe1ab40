"""PyTorch with no code change: model phases and steps from PyTorch's own entry points.

    Dataloader    each DataLoader fetch (_BaseDataLoaderIter.__next__)
    Forward       from the first outermost nn.Module call of a step to the last one
                  before Backward (the model and the loss module: one Forward)
    Backward      Tensor.backward / torch.autograd.backward
    Optimization  the outermost optimizer step (Optimizer subclasses, GradScaler.step);
                  a step boundary follows where the next iteration begins (libprof._steps)
    operators     PROF_PYTHON_OPS=1 (or aten, on, true, yes): ATen operators as
                  torch.profiler names them (aten_operators); PROF_PYTHON_OPS=python:
                  torch functions and Tensor methods called from Python (python_functions)

In a quiet step (nothing records it: _steps.quiet) the hooks only place step boundaries.
Only the outermost phase of a thread is recorded (a Forward inside an LBFGS closure is
part of its Optimization), as the analyzer shows only top-most phases anyway. Every hook
calls through untouched inside DataLoader workers and after the helper has failed.
"""
from libprof import _flags, _guard, _steps
from libprof._torch import (aten_operators, backward, dataloader, forward, optimizer,
                            python_functions)
from libprof._torch.patches import Patches


def install(torch):
    patches = Patches()
    _guard.on_failure(patches.restore_all)
    _steps.on_quiet_change(patches.quiet_changed)
    dataloader.install(torch, patches)
    forward.install(torch, patches)
    backward.install(torch, patches)
    optimizer.install(torch, patches)
    if _flags.flag("PROF_FLIGHT", False):  # the flight recorder keeps phases in any step
        _steps.keep_awake_while(lambda: True)
    operators = _flags.python_operators()
    if _flags.flag("PROF_TIMER_ONLY", False):
        operators = None  # the agent keeps only steps and Dataloader ranges then
    if operators == "aten":
        _guard.on_failure(aten_operators.install(torch, patches))
    elif operators == "python":
        _guard.on_failure(python_functions.install(torch))
