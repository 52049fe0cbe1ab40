"""PROF_* flags as libprof.so reads them (agent/control/config_values.h, ParseFlagText):
1/true/yes/on and 0/false/no/off, any case, spaces ignored; unset, blank or anything
else is the default. The agent itself warns about a bad value (one line, at load time),
so the helper stays silent."""
import os

_ON = ("1", "true", "yes", "on")
_OFF = ("0", "false", "no", "off")


def flag(name, default):
    value = os.environ.get(name, "").strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    return default


def python_operators():
    """PROF_PYTHON_OPS as the agent reads it (agent/control/config.h, PythonOperators):
    "aten" for 1, aten, any on spelling, unset or unreadable (the default); "python" for
    python; None for any off spelling."""
    value = os.environ.get("PROF_PYTHON_OPS", "").strip().lower()
    if value == "python":
        return "python"
    if value in _OFF:
        return None
    return "aten"
