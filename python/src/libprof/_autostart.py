"""What the sitecustomize runs in every Python process under the agent, so it must stay
cheap (goal: under 1 ms on `python3 -c pass`, scripts/bench.sh): it notes whether this may be
a multiprocessing child (_process) and registers an import hook for torch. Nothing else
loads until the program imports torch: then ctypes finds the agent (_capi) and, where it is
loaded and its applied PROF_PYTHON is on (_flags: a child may inherit the helper on
PYTHONPATH with PROF_PYTHON=0 of its own), the PyTorch hooks go in. The explicit API (import libprof) loads its own modules at first use.
The import hook lives here rather than in a module of its own: each module the
sitecustomize loads costs about 0.1 ms of every interpreter's start."""
import sys

from libprof import _process  # noqa: F401  (reads sys.argv now, before spawn replaces it)


def arm():
    call_after_import("torch", _install_torch_hooks)


def _install_torch_hooks(torch):
    from libprof import _capi, _flags, _guard
    if not _capi.AGENT_LOADED:  # the helper inherited on PYTHONPATH, the agent not
        return
    if not _flags.flag("PROF_PYTHON", True):
        return
    from libprof._torch import install
    _guard.guarded(install, torch)


# Runs a callback right after a top-level module finishes importing (call_after_import).
#
# A finder placed first on sys.meta_path asks the other finders for the module's spec and
# wraps that spec's loader instance (not its class) so that exec_module calls back once the
# module's code has run: the callback sees a fully imported module before the importer
# does. A module that fails to import never reaches the callback. A spec found without
# being imported (importlib.util.find_spec("torch") to test availability) costs nothing:
# the finder stays until the module really runs.
class _AfterImportFinder:
    def __init__(self, module_name, callback):
        self._module_name = module_name
        self._callback = callback
        self._searching = False
        self._called_back = False

    def find_spec(self, name, path=None, target=None):
        if name != self._module_name or self._searching or self._called_back:
            return None
        self._searching = True
        try:
            spec = self._spec_from_other_finders(name, path, target)
        finally:
            self._searching = False
        # A class as loader (built-in and frozen modules) is shared: leave it alone.
        if spec is not None and spec.loader is not None and not isinstance(spec.loader, type):
            self._call_back_after(spec.loader)
        return spec

    def _spec_from_other_finders(self, name, path, target):
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                return spec
        return None

    def _call_back_after(self, loader):
        exec_module = getattr(loader, "exec_module", None)
        if exec_module is None:
            return

        def exec_module_then_call_back(module):
            exec_module(module)
            try:
                del loader.exec_module  # the loader is itself again
            except AttributeError:
                pass
            if not self._called_back:  # one import, one callback
                self._called_back = True
                self._remove_self()
                self._callback(module)

        try:
            loader.exec_module = exec_module_then_call_back
        except (AttributeError, TypeError):
            pass  # a loader that takes no attributes: no hooks, the import as usual

    def _remove_self(self):
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass


def call_after_import(module_name, callback):
    """callback(module) once `module_name` is imported (now, if it already is)."""
    module = sys.modules.get(module_name)
    if module is not None:
        callback(module)
        return
    sys.meta_path.insert(0, _AfterImportFinder(module_name, callback))
