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
            "operator_push", "operator_pop", "mark", "operator_range", "phase_range", "recording")}
    except (OSError, AttributeError):
        return None
    for name, function in functions.items():
        function.restype = None  # (recording: c_int, below)
        if name == "step":
            function.argtypes = [ctypes.c_int64]
        elif name in ("operator_range", "phase_range"):
            function.argtypes = [ctypes.c_char_p, ctypes.c_uint64, ctypes.c_uint64]
        elif name == "recording":
            function.argtypes = []
            function.restype = ctypes.c_int
        elif name.endswith("push") or name == "mark":
            function.argtypes = [ctypes.c_char_p]
        else:
            function.argtypes = []
    return functions


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
    # operator_range(name_bytes, start_ns, end_ns): an ended operator, CLOCK_MONOTONIC ns;
    # the name already encoded (callers cache it).
    operator_range = _agent["operator_range"]
    phase_range = _agent["phase_range"]         # (name_bytes, start_ns, end_ns), likewise
    recording = _agent["recording"]             # 1 while a window records
else:
    step = range_push = range_pop = phase_push = phase_pop = _noop
    operator_push = operator_pop = mark = operator_range = phase_range = recording = _noop
