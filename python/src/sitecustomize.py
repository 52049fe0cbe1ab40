"""Put first on PYTHONPATH by libprof.so in Python processes (agent/control/python_bootstrap).

Arms the helper's PyTorch hooks (an import hook only, until the program imports torch:
libprof/_autostart.py) of the libprof package beside this file (Bazel's layout, the
release tarball's) or, in the wheel (libprof/_lib/python/sitecustomize.py), of the
package two folders up, whatever libprof this interpreter would import otherwise; then
runs the sitecustomize that this file hides (the program's own, or the distribution's),
so both take effect as if this one were not there.
"""
import os
import sys


def _import_wheel_package(here):
    """In the wheel this file is libprof/_lib/python/sitecustomize.py: imports that package
    as `libprof` (an interpreter of another environment has none of its own)."""
    if os.path.isdir(os.path.join(here, "libprof")):
        return  # beside this file, first on the path
    package = os.path.dirname(os.path.dirname(here))
    if os.path.basename(package) != "libprof" or not os.path.isfile(os.path.join(package, "__init__.py")):
        return
    path_finder, module_from_spec = _import_machinery()
    spec = path_finder.find_spec("libprof", [os.path.dirname(package)])
    if spec is None or spec.loader is None:
        return
    module = module_from_spec(spec)
    sys.modules["libprof"] = module
    spec.loader.exec_module(module)


def _arm_libprof():
    try:
        _import_wheel_package(os.path.dirname(os.path.abspath(__file__)))
        import libprof._autostart
        libprof._autostart.arm()
    except Exception as error:  # never stop the interpreter from starting
        sys.stderr.write("libprof: the Python helper did not start (%s: %s)\n"
                         % (type(error).__name__, error))


def _other_folders(entries, here):
    """The entries of `entries` that are not the folder `here`, compared by identity: one
    stat each (os.path.realpath lstat's every component of every entry: 560 us against
    100 us for Debian's eight entries, timed on a loaded 2-core machine)."""
    try:
        this = os.stat(here)
    except OSError:
        return list(entries)
    others = []
    for entry in entries:
        try:
            if os.path.samestat(os.stat(entry or os.curdir), this):
                continue
        except OSError:  # a missing entry is not this folder
            pass
        others.append(entry)
    return others


def _import_machinery():
    """PathFinder and module_from_spec, from the import system CPython has already loaded
    (importlib.util would bring contextlib and collections into every process)."""
    try:
        import _frozen_importlib
        import _frozen_importlib_external
        return _frozen_importlib_external.PathFinder, _frozen_importlib.module_from_spec
    except ImportError:  # not CPython
        import importlib.machinery
        import importlib.util
        return importlib.machinery.PathFinder, importlib.util.module_from_spec


def _run_hidden_sitecustomize():
    """Runs the next sitecustomize on sys.path and leaves it as sys.modules['sitecustomize'].

    Its exceptions propagate: site.py then reports them exactly as it would have.
    """
    path_finder, module_from_spec = _import_machinery()
    here = os.path.dirname(os.path.abspath(__file__))
    search_path = _other_folders(sys.path, here)
    spec = path_finder.find_spec("sitecustomize", search_path)
    if spec is None or spec.loader is None:
        return
    module = module_from_spec(spec)
    # The import system hands back whatever sys.modules holds once this file has run.
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


_arm_libprof()
_run_hidden_sitecustomize()
