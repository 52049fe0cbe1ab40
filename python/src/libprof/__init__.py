"""libprof's Python helper: paddle.profiler's API on top of libprof.so's C API.

    import libprof as profiler            # instead of: import paddle.profiler as profiler

    with profiler.Profiler(scheduler=profiler.make_scheduler(closed=1, ready=1, record=3),
                           on_trace_ready=profiler.export_chrome_tracing("./log")) as prof:
        for batch in loader:
            ...
            prof.step(num_samples=len(batch))
    prof.summary(views=[profiler.SummaryView.OverView])

The Profiler works with LD_PRELOAD=libprof.so and without it (it then loads libprof.so
into the interpreter: libprof._capi.load_in_process). The module-level calls below are
the zero-setup form:

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
__all__ = ["Profiler", "ProfilerState", "ProfilerTarget", "RecordEvent", "SortedKeys",
           "SummaryView", "agent_loaded", "export_chrome_tracing", "export_protobuf",
           "library_path", "load_profiler_result", "make_scheduler", "step", "step_info"]

# Public name -> the module that defines it.
_LAZY = {
    "Profiler": "libprof._profiler",
    "ProfilerState": "libprof._enums",
    "ProfilerTarget": "libprof._enums",
    "RecordEvent": "libprof._record_event",
    "SortedKeys": "libprof._enums",
    "SummaryView": "libprof._enums",
    "export_chrome_tracing": "libprof._export",
    "export_protobuf": "libprof._export",
    "load_profiler_result": "libprof._export",
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


def library_path():
    """The libprof.so that came with this package, for LD_PRELOAD:

        LD_PRELOAD=$(python -c 'import libprof; print(libprof.library_path())') python train.py

    (`libprof-run -- python train.py` does the same.) Raises FileNotFoundError when this
    copy of the package has none beside it."""
    from libprof._paths import packaged_library, packaged_library_candidates
    path = packaged_library()
    if path is None:
        raise FileNotFoundError("libprof: no libprof.so beside this package (looked at %s)"
                                % ", ".join(packaged_library_candidates()))
    return path
