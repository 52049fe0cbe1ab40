"""libprof's Python helper: paddle.profiler-style calls on top of libprof.so's C API.

    import libprof as profiler

    for batch in loader:
        with profiler.RecordEvent("my_block"):
            ...
        profiler.step(num_samples=len(batch))
        print(profiler.step_info(unit="images"))

Under `LD_PRELOAD=libprof.so` every call reaches the agent; without it every call is a
cheap no-op (step_info returns ""), so programs run unchanged either way. The same
package, armed by its sitecustomize, records PyTorch's steps and model phases with no
code change (see libprof._torch).

Importing the package costs next to nothing: the sitecustomize imports it in every
Python process under the agent. The API's modules (and ctypes, which finds the agent)
load at the first use of a name below (PEP 562 module __getattr__).
"""
__all__ = ["RecordEvent", "agent_loaded", "make_scheduler", "step", "step_info"]

# Public name -> the module that defines it.
_LAZY = {
    "RecordEvent": "libprof._record_event",
    "make_scheduler": "libprof._scheduler",
    "step": "libprof._steps",
    "step_info": "libprof._steps",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError("module 'libprof' has no attribute %r" % name)
    import importlib  # here, not at the top: the package itself stays cheap
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is an ordinary attribute
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


def agent_loaded():
    """True when libprof.so is loaded into this process (its C API was found)."""
    from libprof._capi import AGENT_LOADED
    return AGENT_LOADED
