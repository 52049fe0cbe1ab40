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


def _find_detail():
    """prof_operator_push_detail(name, shapes, dtypes, source), or None (an older agent)."""
    try:
        function = getattr(ctypes.CDLL(None), "prof_operator_push_detail")
    except (OSError, AttributeError):
        return None
    function.restype = None
    function.argtypes = [ctypes.c_char_p] * 4
    return function


def _find_range_detail():
    """prof_operator_range_detail(name, start_ns, end_ns, shapes, dtypes, source), or None."""
    try:
        function = getattr(ctypes.CDLL(None), "prof_operator_range_detail")
    except (OSError, AttributeError):
        return None
    function.restype = None
    function.argtypes = [ctypes.c_char_p, ctypes.c_uint64, ctypes.c_uint64] + [ctypes.c_char_p] * 3
    return function


def _with_range_details(function):
    def call(name_bytes, start_ns, end_ns, shapes=None, dtypes=None, source=None):
        function(name_bytes, start_ns, end_ns, _encoded(shapes), _encoded(dtypes), _encoded(source))
    return call


def _encoded(text):
    return None if text is None else text.encode("utf-8", "replace")


def _with_details(function):
    def call(name, shapes=None, dtypes=None, source=None):
        function(_encoded(name), _encoded(shapes), _encoded(dtypes), _encoded(source))
    return call


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
    _detail = _find_detail()
    # operator_push_detail(name, shapes, dtypes, source): each but name may be None.
    # Absent (an agent without it): falls back to operator_push with the name only.
    if _detail is not None:
        operator_push_detail = _with_details(_detail)
    else:
        def operator_push_detail(name, shapes=None, dtypes=None, source=None):
            operator_push(name)
    # operator_range(name_bytes, start_ns, end_ns): an ended operator, CLOCK_MONOTONIC ns;
    # the name already encoded (callers cache it).
    operator_range = _agent["operator_range"]
    phase_range = _agent["phase_range"]         # (name_bytes, start_ns, end_ns), likewise
    recording = _agent["recording"]             # 1 while a window records
    # operator_range_detail(name_bytes, start_ns, end_ns, shapes, dtypes, source): texts
    # as str or None. Absent with an older agent (callers check with hasattr).
    _range_detail = _find_range_detail()
    if _range_detail is not None:
        operator_range_detail = _with_range_details(_range_detail)
    memory_sample = _find_memory_sample()   # memory_sample(device, allocated, reserved, peak)
else:
    step = range_push = range_pop = phase_push = phase_pop = _noop
    operator_push = operator_pop = mark = operator_push_detail = _noop
    operator_range = phase_range = recording = memory_sample = _noop
