"""Build step of //agent/python:helper: writes each helper module's bytecode where the
interpreter looks for it, NAME.py -> __pycache__/NAME.<cache tag>.pyc.

Why: bazel-bin is read-only and PYTHONDONTWRITEBYTECODE may be set, so an interpreter
under the agent would otherwise compile the helper from source at every start (+3 ms on
`python3 -c pass`, scripts/bench.sh "Python start-up"). The bytecode is checked-hash
(PEP 552): valid whatever the files' times (a build-cache hit rewrites them), and ignored,
never used stale, once its source differs. Interpreters of other versions ignore it.

    compile_bytecode.py CACHE_TAG SOURCE...
"""
import os
import py_compile
import sys


def bytecode_path(source, cache_tag):
    folder, name = os.path.split(source)
    return os.path.join(folder, "__pycache__", "%s.%s.pyc" % (name[:-len(".py")], cache_tag))


def main():
    cache_tag, sources = sys.argv[1], sys.argv[2:]
    if sys.implementation.cache_tag != cache_tag:
        sys.exit("compile_bytecode.py: %s has cache tag %s, the build expects %s"
                 % (sys.executable, sys.implementation.cache_tag, cache_tag))
    for source in sources:
        py_compile.compile(source, cfile=bytecode_path(source, cache_tag), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)


if __name__ == "__main__":
    main()
