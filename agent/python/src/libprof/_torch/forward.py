"""Forward: the outermost nn.Module call of a thread (the model, and the loss module)."""
from libprof._torch import phases


def install(torch, patches):
    patches.wrap(torch.nn.Module, "__call__", _make_module_call)


def _make_module_call(original):
    current = phases.current

    def module_call(self, *args, **kwargs):
        if current.open or not phases.hooks_live():
            return original(self, *args, **kwargs)
        return phases.run_in_phase("Forward", original, (self,) + args, kwargs)

    return module_call
