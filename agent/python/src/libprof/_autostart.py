"""What the sitecustomize runs in every Python process under the agent, so it must stay
cheap (goal: under 1 ms on `python3 -c pass`, scripts/bench.sh): it reads PROF_PYTHON
(off: 0, false, no, off: _flags), notes whether this may be a multiprocessing child
(_process) and registers an import hook for torch. Nothing else loads until the program
imports torch: then ctypes finds the agent (_capi) and, where it is loaded, the PyTorch
hooks go in. The explicit API (import libprof) loads its own modules at first use."""
from libprof import _flags
from libprof import _process  # noqa: F401  (reads sys.argv now, before spawn replaces it)
from libprof._import_hook import call_after_import


def arm():
    if not _flags.flag("PROF_PYTHON", True):
        return
    call_after_import("torch", _install_torch_hooks)


def _install_torch_hooks(torch):
    from libprof import _capi, _guard
    if not _capi.AGENT_LOADED:  # the helper inherited on PYTHONPATH, the agent not
        return
    from libprof._torch import install
    _guard.guarded(install, torch)
