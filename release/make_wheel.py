#!/usr/bin/env python3
"""Assembles the wheel from built products with the standard library only (zipfile; no
pip, no setuptools, no network); scripts/package.sh (bazel -c opt, dist/) and
//release:wheel (the wheel test's copy) both call it, so the test checks what ships.

    make_wheel.py --version V --libprof LIBPROF_SO --profanalyze PROFANALYZE \\
                  --helper HELPER_DIR --out-dir DIR

writes DIR/libprof-V-py3-none-manylinux2014_x86_64.whl and prints its path.

The tag: py3-none because nothing in it is tied to a CPython version or ABI (the helper
is pure Python for any CPython >= 3.8, the analyzer's CPython extension is left out, and
libprof._analysis runs the packaged profanalyze instead); manylinux2014_x86_64 because
both native programs need only glibc >= 2.17 and the kernel (agent/self_contained_test.sh
checks them; package.sh refuses to build a wheel otherwise).

Layout (site-packages/ once installed):
  libprof/                       the Python package (HELPER_DIR/libprof/*.py)
  libprof/_lib/libprof.so        the agent; libprof.library_path() names it
  libprof/_lib/python/sitecustomize.py
                                 the helper folder the agent puts on PYTHONPATH (python/
                                 beside itself), which imports the package two folders up
  libprof/_bin/profanalyze       the analyzer
  libprof-V.dist-info/           METADATA, WHEEL, entry_points.txt (the console scripts
                                 profanalyze and libprof-run), top_level.txt, RECORD
"""
import argparse
import base64
import hashlib
import os
import re
import sys
import zipfile

TAG = "py3-none-manylinux2014_x86_64"
# PEP 440, as pip accepts it (a local label after "+" included).
_VERSION = re.compile(r"^\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?(\+[a-z0-9]+(\.[a-z0-9]+)*)?$")
_EPOCH = (1980, 1, 1, 0, 0, 0)  # fixed times: the same inputs give the same bytes

METADATA = """\
Metadata-Version: 2.1
Name: libprof
Version: {version}
Summary: GPU profiler for training and inference jobs: libprof.so (LD_PRELOAD agent) and profanalyze
Requires-Python: >=3.8
Classifier: Programming Language :: Python :: 3
Classifier: Operating System :: POSIX :: Linux
Description-Content-Type: text/markdown

# libprof

    libprof-run -o profiler_log -- python train.py     # record (LD_PRELOAD=libprof.so)
    profanalyze profiler_log/                           # paddle.profiler-style summaries

`import libprof` is paddle.profiler's API (Profiler, RecordEvent, make_scheduler, ...);
`libprof.library_path()` is the agent for LD_PRELOAD. Any x86-64 Linux with glibc >= 2.17,
any CPython >= 3.8.
"""

WHEEL = """\
Wheel-Version: 1.0
Generator: libprof release/make_wheel.py
Root-Is-Purelib: false
Tag: {tag}
"""

ENTRY_POINTS = """\
[console_scripts]
libprof-run = libprof._commands:run
profanalyze = libprof._commands:profanalyze
"""


def _digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _helper_files(helper):
    """(path in the wheel, source) of the package's Python files: no tests, no compiled
    extension (it is built for one CPython), no bytecode."""
    package = os.path.join(helper, "libprof")
    if not os.path.isfile(os.path.join(package, "__init__.py")):
        sys.exit("make_wheel.py: no libprof package in %s" % helper)
    files = []
    for folder, folders, names in os.walk(package):
        folders[:] = sorted(name for name in folders if name not in ("__pycache__", "tests"))
        for name in sorted(names):
            if name.endswith(".py"):
                source = os.path.join(folder, name)
                files.append(("libprof/" + os.path.relpath(source, package).replace(os.sep, "/"), source))
    return files


def build(version, libprof, profanalyze, helper, out_dir):
    if not _VERSION.match(version):
        sys.exit("make_wheel.py: %r is not a PEP 440 version (e.g. 0.1, 0.1+g1234abc)" % version)
    sitecustomize = os.path.join(helper, "sitecustomize.py")
    for path in (libprof, profanalyze, sitecustomize):
        if not os.path.isfile(path):
            sys.exit("make_wheel.py: %s is missing" % path)
    dist_info = "libprof-%s.dist-info" % version
    # (path in the wheel, bytes, mode)
    entries = []
    for name, source in _helper_files(helper):
        with open(source, "rb") as file:
            entries.append((name, file.read(), 0o644))
    for name, source, mode in (("libprof/_lib/libprof.so", libprof, 0o755),
                               ("libprof/_lib/python/sitecustomize.py", sitecustomize, 0o644),
                               ("libprof/_bin/profanalyze", profanalyze, 0o755)):
        with open(source, "rb") as file:
            entries.append((name, file.read(), mode))
    for name, text in (("METADATA", METADATA.format(version=version)),
                       ("WHEEL", WHEEL.format(tag=TAG)),
                       ("entry_points.txt", ENTRY_POINTS),
                       ("top_level.txt", "libprof\n")):
        entries.append((dist_info + "/" + name, text.encode(), 0o644))
    record = "".join("%s,%s,%d\n" % (name, _digest(data), len(data)) for name, data, _ in entries)
    record += dist_info + "/RECORD,,\n"
    entries.append((dist_info + "/RECORD", record.encode(), 0o644))

    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "libprof-%s-%s.whl" % (version, TAG))
    partial = path + ".partial"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.external_attr = (0o100000 | mode) << 16  # a regular file, its permissions
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    os.replace(partial, path)
    return path


def main():
    parser = argparse.ArgumentParser(description="Builds the libprof wheel (see this file's header).")
    for option in ("--version", "--libprof", "--profanalyze", "--helper", "--out-dir"):
        parser.add_argument(option, required=True)
    options = parser.parse_args()
    print(build(options.version, options.libprof, options.profanalyze, options.helper, options.out_dir))


if __name__ == "__main__":
    main()
