"""Where this package's native parts are, in each layout it ships in (no other import).

    wheel    site-packages/libprof/_lib/libprof.so, libprof/_bin/profanalyze
             (release/make_wheel.py)
    tarball  lib/python/libprof/ beside lib/libprof.so and bin/profanalyze
             (release/make_package.sh)
    Bazel    bazel-bin/agent/python/libprof/ beside bazel-bin/agent/libprof.so and
             bazel-bin/analyzer/cli/profanalyze
"""
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_ABOVE = os.path.dirname(os.path.dirname(_HERE))  # lib/ or bazel-bin/agent/


def library_candidates():
    """Where libprof.so may be: PROF_LIBRARY, then the places this package ships it."""
    configured = os.environ.get("PROF_LIBRARY", "").strip()
    return ([configured] if configured else []) + packaged_library_candidates()


def packaged_library_candidates():
    return [os.path.join(_HERE, "_lib", "libprof.so"),
            os.path.join(_HERE, "libprof.so"),
            os.path.join(os.path.dirname(_HERE), "libprof.so"),
            os.path.join(_ABOVE, "libprof.so")]


def packaged_library():
    """The libprof.so that came with this package, or None."""
    return next((path for path in packaged_library_candidates() if os.path.isfile(path)), None)


def packaged_profanalyze():
    """The profanalyze program that came with this package, or None."""
    top = os.path.dirname(_ABOVE)  # the tarball's root, or bazel-bin/
    for path in (os.path.join(_HERE, "_bin", "profanalyze"),
                 os.path.join(top, "bin", "profanalyze"),
                 os.path.join(top, "analyzer", "cli", "profanalyze")):
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None
