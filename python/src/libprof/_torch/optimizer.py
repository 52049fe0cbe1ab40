"""Optimization and the step boundary: the outermost optimizer step of a thread.

Optimizer subclasses define their own step(), so Optimizer.step itself is rarely called:
the step() of every class in an optimizer's MRO is wrapped when the optimizer is created
(Optimizer.__init__), which covers torch.optim and the program's own optimizers alike.
GradScaler.step counts as an optimizer step too: it skips optimizer.step() when gradients
overflow, and the step boundary must not be skipped with it.
"""
from libprof import _guard, _steps
from libprof._torch import phases


def install(torch, patches):
    optimizer_class = torch.optim.Optimizer
    wrapped_classes = set()

    def wrap_steps_of(optimizer):
        for cls in type(optimizer).__mro__:
            if (cls not in wrapped_classes and "step" in cls.__dict__
                    and issubclass(cls, optimizer_class)):
                wrapped_classes.add(cls)
                patches.wrap(cls, "step", _make_step)

    def make_init(original):
        def init(self, *args, **kwargs):
            original(self, *args, **kwargs)
            _guard.guarded(wrap_steps_of, self)
        return init

    patches.wrap(optimizer_class, "__init__", make_init)
    from libprof import _capi
    if _capi.IN_PROCESS:
        # Loaded by the first Profiler (no LD_PRELOAD): the program's optimizers may exist
        # already, so every optimizer class defined now is wrapped too.
        pending = list(optimizer_class.__subclasses__())
        while pending:
            cls = pending.pop()
            pending.extend(cls.__subclasses__())
            if cls not in wrapped_classes and "step" in cls.__dict__:
                wrapped_classes.add(cls)
                patches.wrap(cls, "step", _make_step)
    scaler_class = _grad_scaler_class(torch)
    if scaler_class is not None and "step" in scaler_class.__dict__:
        patches.wrap(scaler_class, "step", _make_step)


def _grad_scaler_class(torch):
    try:
        return torch.cuda.amp.GradScaler
    except AttributeError:
        return None


def _make_step(original):
    current = phases.current

    def step(self, *args, **kwargs):
        if not phases.hooks_live():
            return original(self, *args, **kwargs)
        if _steps.quiet and not current.optimizer_depth:
            return _quiet_step(original, self, args, kwargs)
        current.optimizer_depth += 1
        try:
            if current.optimizer_depth == 1:
                result = phases.run_in_phase("Optimization", original, (self,) + args, kwargs)
            else:
                result = original(self, *args, **kwargs)
        finally:
            current.optimizer_depth -= 1
        if current.optimizer_depth == 0:
            _guard.guarded(_steps.boundaries.optimizer_stepped)
        return result

    return step


def _quiet_step(original, optimizer, args, kwargs):
    """The outermost optimizer step of a quiet step: no phase to record, only where a due
    boundary goes (this step's start, when no module call placed it) and the boundary
    after it."""
    boundaries = _steps.boundaries
    if boundaries.due:
        _guard.guarded(boundaries.place_due_boundary)
    current = phases.current
    current.optimizer_depth = 1
    try:
        result = original(optimizer, *args, **kwargs)
    finally:
        current.optimizer_depth = 0
    _guard.guarded(boundaries.optimizer_stepped)
    return result
