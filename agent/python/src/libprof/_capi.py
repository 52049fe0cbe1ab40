"""The agent's C API (agent/include/prof/prof.h) through ctypes.

libprof.so is preloaded, so its symbols are in the process's global scope, where
ctypes.CDLL(None) finds them. Without the agent every function here is a no-op.
Names are passed as str and encoded here (UTF-8, undecodable characters replaced).
"""
import ctypes


def _noop(*_arguments):
    return None


def _find_agent():
    try:
        process = ctypes.CDLL(None)
        functions = {name: getattr(process, "prof_" + name) for name in (
            "step", "range_push", "range_pop", "phase_push", "phase_pop",
            "operator_push", "operator_pop", "mark")}
    except (OSError, AttributeError):
        return None
    for name, function in functions.items():
        function.restype = None
        if name == "step":
            function.argtypes = [ctypes.c_int64]
        elif name.endswith("push") or name == "mark":
            function.argtypes = [ctypes.c_char_p]
        else:
            function.argtypes = []
    return functions


def _find_memory_sample():
    """prof_memory_sample(device, allocated, reserved, peak), or a no-op with an agent that
    does not have it."""
    try:
        function = ctypes.CDLL(None).prof_memory_sample
    except (OSError, AttributeError):
        return _noop
    function.restype = None
    function.argtypes = [ctypes.c_int32, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64]
    return function


def _with_name(function):
    def call(name):
        function(name.encode("utf-8", "replace"))
    return call


_agent = _find_agent()
AGENT_LOADED = _agent is not None

if AGENT_LOADED:
    step = _agent["step"]                       # step(samples); samples <= 0: unknown
    range_push = _with_name(_agent["range_push"])
    range_pop = _agent["range_pop"]
    phase_push = _with_name(_agent["phase_push"])
    phase_pop = _agent["phase_pop"]
    operator_push = _with_name(_agent["operator_push"])
    operator_pop = _agent["operator_pop"]
    mark = _with_name(_agent["mark"])
    memory_sample = _find_memory_sample()   # memory_sample(device, allocated, reserved, peak)
else:
    step = range_push = range_pop = phase_push = phase_pop = _noop
    operator_push = operator_pop = mark = _noop
    memory_sample = _noop
