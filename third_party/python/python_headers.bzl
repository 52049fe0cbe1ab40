"""The CPython headers a Python extension is compiled against, from Debian's python3-dev.

The interpreter is /usr/bin/python3 (Debian's, the one with python3-torch), or $PROF_PYTHON.
It is asked where its headers are and which file-name suffix its extensions carry
(".cpython-311-x86_64-linux-gnu.so"): an extension is tied to one CPython minor version, and
that suffix makes every other version skip the file instead of loading it. The result is
@python_headers//:python_headers (headers only: an extension never links libpython, the
interpreter provides its symbols) and @python_headers//:defs.bzl with EXTENSION_SUFFIX,
PYTHON_VERSION and PYTHON (the interpreter, which also compiles the helper's bytecode).
pybind11's headers (Debian's pybind11-dev) are in /usr/include already.
"""

_QUERY = "; ".join([
    "import sys, sysconfig",
    "print(sysconfig.get_paths()['include'])",
    "print(sysconfig.get_config_var('EXT_SUFFIX'))",
    "print('%d.%d' % sys.version_info[:2])",
])

def _write_repository(repository_ctx, python, suffix, version, library):
    repository_ctx.file("WORKSPACE", 'workspace(name = "{}")\n'.format(repository_ctx.name))
    repository_ctx.file("defs.bzl", "\n".join([
        "# Written by //third_party/python:python_headers.bzl for " + python + ".",
        "EXTENSION_SUFFIX = " + repr(suffix),
        "PYTHON = " + repr(python),
        "PYTHON_VERSION = " + repr(version),
        "",
    ]))
    repository_ctx.file("BUILD.bazel", """
package(default_visibility = ["//visibility:public"])

exports_files(["defs.bzl"])
""" + library)

def _python_headers_impl(repository_ctx):
    python = repository_ctx.os.environ.get("PROF_PYTHON", "/usr/bin/python3")
    result = repository_ctx.execute([python, "-c", _QUERY])
    problem = None
    if result.return_code != 0:
        problem = "{} could not say where its headers are: {}".format(python, result.stderr.strip())
    else:
        include, suffix, version = result.stdout.strip().split("\n")
        if not repository_ctx.path(include + "/Python.h").exists:
            problem = "no Python.h in {}: install python3-dev".format(include)
    if problem:
        # Only what needs the headers fails, when built, with the reason; everything that
        # merely loads defs.bzl (the helper package's BUILD file) still builds.
        message = "python_headers: {} (run ./scripts/setup.sh)".format(problem)
        _write_repository(repository_ctx, python, ".so", "unknown", """
genrule(
    name = "missing",
    outs = ["missing.h"],
    cmd = "echo '{message}' >&2; exit 1",
)

cc_library(
    name = "python_headers",
    hdrs = [":missing.h"],
)
""".format(message = "".join([c for c in message.elems() if c not in "'\"$`\\"])))
        return
    repository_ctx.symlink(include, "include")
    _write_repository(repository_ctx, python, suffix, version, """
cc_library(
    name = "python_headers",
    hdrs = glob(["include/**/*.h"]),
    includes = ["include"],
)
""")

python_headers = repository_rule(
    implementation = _python_headers_impl,
    environ = ["PROF_PYTHON"],
    local = True,
)
