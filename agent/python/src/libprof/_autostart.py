"""What the sitecustomize runs: arms the PyTorch hooks when the agent is loaded and
PROF_PYTHON is not off (0, false, no, off: _flags). torch itself is not imported here; the hooks go in when the program
imports it."""
from libprof import _capi, _flags, _guard
from libprof import _process  # noqa: F401  (reads sys.argv now, before spawn replaces it)
from libprof._import_hook import call_after_import


def arm():
    if not _flags.flag("PROF_PYTHON", True) or not _capi.AGENT_LOADED:
        return
    call_after_import("torch", _install_torch_hooks)


def _install_torch_hooks(torch):
    from libprof._torch import install
    _guard.guarded(install, torch)
