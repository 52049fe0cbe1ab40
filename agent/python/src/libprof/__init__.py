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
"""
from libprof._capi import AGENT_LOADED as _AGENT_LOADED
from libprof._record_event import RecordEvent
from libprof._scheduler import make_scheduler
from libprof._steps import step, step_info

__all__ = ["RecordEvent", "agent_loaded", "make_scheduler", "step", "step_info"]


def agent_loaded():
    """True when libprof.so is loaded into this process (its C API was found)."""
    return _AGENT_LOADED
