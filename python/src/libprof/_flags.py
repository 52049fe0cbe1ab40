"""PROF_* flags as libprof.so applied them. The agent parsed them once, at load
(agent/control/config.cc: their spellings, bounds and the one-line warning about a bad
value); the helper asks it for the result (prof_config_get) and has no parsing of its own.
Without an agent nothing records, and each flag is its default."""
from libprof import _capi


def flag(name, default):
    value = _capi.config_value(name)
    return default if value is None else value == "1"


def python_operators():
    """PROF_PYTHON_OPS as the agent applied it (agent/control/config.h, PythonOperators):
    "aten" (its default), "python", or None when off."""
    value = _capi.config_value("PROF_PYTHON_OPS")
    if value is None:
        return "aten"
    return {"1": "aten", "python": "python"}.get(value)
