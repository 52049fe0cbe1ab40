"""The agent's C API (agent/include/prof/prof.h) through ctypes.

Under LD_PRELOAD, libprof.so's symbols are in the process's global scope, where
ctypes.CDLL(None) finds them. Without it every function here is a no-op until
load_in_process() (the first Profiler) loads the library into the running interpreter:
then the functions are bound to that library's handle. Names are passed as str and
encoded here (UTF-8, undecodable characters replaced).
"""
import array
import ctypes
import os
import sys

# The C API version this package calls (agent/include/prof/prof.h, PROF_API_VERSION): an
# agent of that version or later has every function below.
API_VERSION = 3
# What each version added (prof.h), to say what an older agent lacks.
_ADDED = {2: ("prof_user_range",),
          3: ("prof_config_get", "prof_schedule_state", "prof_window_goes_on")}
# Bound when the agent has them, else left out (callers fall back): prof_step_ended came
# late in version 3, after agents of that version were built; prof_step_stamp later still.
_OPTIONAL = {"step_ended": (ctypes.c_int, [ctypes.c_int64]), "step_stamp": (None, []),
             # The agent's own RecordFunction callbacks (agent/torch/torch_observer.h).
             "torch_observer_start": (ctypes.c_int, [ctypes.c_int]),
             "torch_observer_stop": (ctypes.c_int, []),
             "torch_observer_counts": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_int])}
STEP_RECORDS, NEXT_STEP_RECORDS = 1, 2  # prof_step_ended's flags (prof.h)

_VOID = ("range_pop", "phase_pop", "operator_pop")
_NAMED = ("range_push", "phase_push", "operator_push", "mark")
# name -> (restype, argtypes) of the window functions (prof.h, "Windows on demand").
_WINDOWS = {
    "start": (ctypes.c_int, []),
    "stop": (ctypes.c_int, []),
    "flush": (ctypes.c_int, [ctypes.c_int]),
    "windows_finished": (ctypes.c_int, []),
    "window_file": (ctypes.c_int, [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]),
    "step_to": (ctypes.c_int, [ctypes.c_int64, ctypes.c_int]),
    "set_state": (ctypes.c_int, [ctypes.c_int]),
}
_TEXT = ctypes.c_char_p
_TIMES = [ctypes.c_uint64, ctypes.c_uint64]
# name -> (restype, argtypes) of the other functions.
_OTHERS = {
    "step": (None, [ctypes.c_int64]),
    # (name_bytes, start_ns, end_ns): a whole range that already ended, CLOCK_MONOTONIC ns.
    "operator_range": (None, [_TEXT] + _TIMES),
    # (count, names, starts, ends): as many operator_range calls, in one. The three arrays
    # are passed as addresses (_with_arrays).
    "operator_ranges": (None, [ctypes.c_size_t] + [ctypes.c_void_p] * 3),
    "phase_range": (None, [_TEXT] + _TIMES),
    "user_range": (None, [_TEXT] + _TIMES),  # a whole user range (record_function's)
    "recording": (ctypes.c_int, []),  # 1 while a window records
    # (next_state): 1 when the open window goes on past the next step boundary
    "window_goes_on": (ctypes.c_int, [ctypes.c_int]),
    "operator_push_detail": (None, [_TEXT] * 4),  # (name, shapes, dtypes, source)
    "operator_range_detail": (None, [_TEXT] + _TIMES + [_TEXT] * 3),
    "memory_sample": (None, [ctypes.c_int32, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64]),
    # The agent's answers (prof.h, version 3): config_value() and schedule_state() below.
    "config_get": (ctypes.c_int, [_TEXT, ctypes.c_char_p, ctypes.c_size_t]),
    "schedule_state": (ctypes.c_int, [_TEXT, ctypes.c_int64]),
}
_SIGNATURES = dict(_OTHERS, **_WINDOWS,
                   **{name: (None, []) for name in _VOID},
                   **{name: (None, [ctypes.c_char_p]) for name in _NAMED})


def _noop(*_arguments):
    return None


def _zero(*_arguments):
    return 0


def _minus_one(*_arguments):
    return -1


def api_version(library):
    """prof_api_version() of `library` (a ctypes.CDLL); 0 for an agent older than the
    version function; None when it holds no agent."""
    if getattr(library, "prof_step", None) is None:
        return None
    function = getattr(library, "prof_api_version", None)
    if function is None:
        return 0
    function.restype = ctypes.c_int
    function.argtypes = []
    return function()


def _bind(library, where):
    """The C API's functions in `library` (a ctypes.CDLL, the agent `where` says which),
    checked once by version; None when it holds no agent, or an older one (said in one
    line: its calls would miss functions this package makes)."""
    version = api_version(library)
    if version is None:
        return None
    if version < API_VERSION:
        missing = [name for added in range(max(version, 1) + 1, API_VERSION + 1)
                   for name in _ADDED.get(added, ())]
        sys.stderr.write("libprof: %s has C API version %d and this Python package needs %d "
                         "(it lacks %s): the package's calls do nothing (use the libprof.so "
                         "that came with it: libprof.library_path())\n"
                         % (where, version, API_VERSION,
                            ", ".join(missing) if version >= 1 else "prof_api_version"))
        return None
    functions = {}
    for name, (restype, argtypes) in _SIGNATURES.items():
        function = getattr(library, "prof_" + name)
        function.restype = restype
        function.argtypes = argtypes
        functions[name] = function
    for name, (restype, argtypes) in _OPTIONAL.items():
        function = getattr(library, "prof_" + name, None)
        if function is not None:
            function.restype = restype
            function.argtypes = argtypes
            functions[name] = function
    return functions


def _with_name(function):
    def call(name):
        function(name.encode("utf-8", "replace"))
    return call


def _encoded(text):
    return None if text is None else text.encode("utf-8", "replace")


def _with_details(function):
    """operator_push_detail(name, shapes=None, dtypes=None, source=None), texts as str."""
    def call(name, shapes=None, dtypes=None, source=None):
        function(_encoded(name), _encoded(shapes), _encoded(dtypes), _encoded(source))
    return call


def _with_range_details(function):
    """operator_range_detail(name_bytes, start_ns, end_ns, shapes, dtypes, source): the name
    already encoded (callers cache it), the texts as str or None."""
    def call(name_bytes, start_ns, end_ns, shapes=None, dtypes=None, source=None):
        function(name_bytes, start_ns, end_ns, _encoded(shapes), _encoded(dtypes),
                 _encoded(source))
    return call


def text_address(raw):
    """The address of the NUL-terminated text of `raw` (bytes), for operator_ranges: valid
    while the caller keeps `raw` alive (CPython never moves an object)."""
    return ctypes.cast(ctypes.c_char_p(raw), ctypes.c_void_p).value


def _with_arrays(function):
    """operator_ranges(name_addresses, starts_ns, ends_ns): three lists of ints of one
    length, each name the text_address of bytes the caller keeps alive. array.array turns
    each list into a C array in one C loop: a ctypes array of names built element by
    element cost about 0.13 us an operator, these 0.01."""
    def call(names, starts, ends):
        count = len(names)
        if count:
            arrays = [array.array("Q", values) for values in (names, starts, ends)]
            function(count, *(values.buffer_info()[0] for values in arrays))
    return call


def _install(functions):
    """Makes this module's functions those of `functions` (None: the no-ops)."""
    names = globals()
    names["AGENT_LOADED"] = functions is not None
    functions = functions or {}
    for name in ("step",) + _VOID:
        names[name] = functions.get(name, _noop)
    for name in _NAMED:
        names[name] = _with_name(functions[name]) if name in functions else _noop
    for name in _WINDOWS:
        names[name] = functions.get(name, _minus_one)
    for name in ("operator_range", "user_range", "phase_range", "recording", "memory_sample"):
        names[name] = functions.get(name, _noop)
    names["operator_ranges"] = (_with_arrays(functions["operator_ranges"])
                                if "operator_ranges" in functions else _noop)
    names["window_goes_on"] = functions.get("window_goes_on", _zero)
    names["_config_get"] = functions.get("config_get")
    names["_schedule_state"] = functions.get("schedule_state")
    # None where the agent lacks it (step() and recording() then, as before it).
    names["step_ended"] = functions.get("step_ended")
    names["step_stamp"] = functions.get("step_stamp", _noop)
    # None where the agent has no RecordFunction observer (the helper then collects itself).
    names["torch_observer_start"] = functions.get("torch_observer_start")
    names["torch_observer_stop"] = functions.get("torch_observer_stop", _zero)
    names["_torch_observer_counts"] = functions.get("torch_observer_counts")
    # Details: an agent without them records the operator by its name only.
    if "operator_push_detail" in functions:
        names["operator_push_detail"] = _with_details(functions["operator_push_detail"])
    else:
        push = names["operator_push"]
        names["operator_push_detail"] = lambda name, shapes=None, dtypes=None, source=None: push(name)
    # Absent with an older agent: callers check with hasattr.
    if "operator_range_detail" in functions:
        names["operator_range_detail"] = _with_range_details(functions["operator_range_detail"])
    else:
        names.pop("operator_range_detail", None)


_OBSERVER_COUNTS = ("threads", "folded", "async", "overflowed", "unmatched", "no_stack",
                    "out_of_order")


def torch_observer_counts():
    """{name: count} of what the agent's observer saw (prof_torch_observer_counts); {}
    without it."""
    function = globals().get("_torch_observer_counts")
    if function is None:
        return {}
    values = (ctypes.c_uint64 * 16)()
    count = min(function(ctypes.addressof(values), 16), 16, len(_OBSERVER_COUNTS))
    return {name: values[i] for i, name in enumerate(_OBSERVER_COUNTS[:count])}


def _preloaded():
    try:
        return _bind(ctypes.CDLL(None), "the libprof.so in LD_PRELOAD")
    except OSError:
        return None


_install(_preloaded())
IN_PROCESS = False  # True once load_in_process() loaded the library itself


def window_path(index):
    """The file of finished window `index`: its path, "" when it recorded nothing, None when
    not finished (or no agent)."""
    if index is None or index < 0:
        return None
    size = 4096
    while True:
        buffer = ctypes.create_string_buffer(size)
        found = window_file(index, buffer, size)
        if found == -2 and size < 1 << 20:
            size *= 4
            continue
        if found == 1:
            return os.fsdecode(buffer.value)
        return "" if found == 0 else None


def config_value(name):
    """The agent's applied value of the PROF_* variable `name` (prof_config_get: flags as
    "1" or "0", as the trace header lists them); None without an agent, or for a variable
    it does not read."""
    if _config_get is None:
        return None
    buffer = ctypes.create_string_buffer(256)
    if _config_get(name.encode("ascii"), buffer, len(buffer)) == -2:
        buffer = ctypes.create_string_buffer(1 << 16)  # PROF_STEP_MARKER rules can be long
    if _config_get(name.encode("ascii"), buffer, len(buffer)) != 1:
        return None
    return buffer.value.decode("utf-8", "replace")


def schedule_state(schedule, step):
    """The agent's state (0..3, ProfilerState's values) of `step` under the PROF_SCHEDULE
    text `schedule` (prof_schedule_state); None without an agent or for refused text."""
    if _schedule_state is None:
        return None
    state = _schedule_state(schedule.encode("ascii"), step)
    return None if state < 0 else state


def applied_schedule_state(step):
    """schedule_state of `step` under the agent's applied PROF_SCHEDULE (no text to
    parse); None without an agent."""
    if _schedule_state is None:
        return None
    state = _schedule_state(None, step)
    return None if state < 0 else state


def library_candidates():
    """Where libprof.so may be: PROF_LIBRARY, then beside this package (libprof._paths
    says where each layout puts it)."""
    from libprof._paths import library_candidates as candidates
    return candidates()


def load_in_process(environment=None):
    """Loads libprof.so into this interpreter when it was not preloaded; returns whether
    the agent is loaded. `environment`: PROF_* defaults for the agent's configuration (read
    once, by its constructor, during the load), applied where the user did not set them.

    What is lost without preloading: the CUDA runtime and NCCL calls are not interposed,
    so NCCL call arguments (op, bytes, communicator) and the agent's own API timing are
    missing; CUPTI still reports kernels, copies, memsets and runtime/driver calls, and the
    helper its steps, phases, ranges and operators."""
    global IN_PROCESS
    if AGENT_LOADED:
        return True
    path = next((candidate for candidate in library_candidates() if os.path.isfile(candidate)),
                None)
    if path is None:
        return False
    added = {"PROF_IN_PROCESS": "1"}  # lifecycle.cc: no PYTHONPATH offer
    for name, value in (environment or {}).items():
        if name not in os.environ:
            added[name] = value
    os.environ.update(added)
    try:
        # RTLD_LOCAL: the library's cuda*/nccl* symbols stay out of the global scope, so
        # libraries loaded later still bind to the real runtime (no half interposition).
        functions = _bind(ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_LOCAL), path)
    except OSError:
        functions = None
    finally:
        for name in added:
            os.environ.pop(name, None)
    if functions is None:
        return False
    _install(functions)
    IN_PROCESS = True
    return True
