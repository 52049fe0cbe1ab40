"""_capi checks the agent's C API once, by version (prof_api_version, agent/include/prof/
prof.h), instead of probing each function: an agent older than the package's API_VERSION
gets one line saying so and no-ops; a process without an agent, silence. Fake libraries,
and the libprof.so built beside this package; no torch."""
import contextlib
import ctypes
import io
import os
import sys
import unittest

sys.path.insert(0, os.path.abspath("agent/python"))  # the helper, as Bazel places it

from libprof import _capi  # noqa: E402


class FakeFunction:
    def __init__(self, result=None):
        self.result = result
        self.restype = self.argtypes = "unset"

    def __call__(self, *_arguments):
        return self.result


class FakeLibrary:
    """Every function of the package's API_VERSION, and prof_api_version when given."""

    def __init__(self, version=None, agent=True):
        self.functions = {}
        if agent:
            self.functions = {"prof_" + name: FakeFunction() for name in _capi._SIGNATURES}
        if version is not None:
            self.functions["prof_api_version"] = FakeFunction(version)

    def __getattr__(self, name):
        try:
            return self.__dict__["functions"][name]
        except KeyError:
            raise AttributeError(name) from None


def bind(library):
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors):
        functions = _capi._bind(library, "the agent under test")
    return functions, errors.getvalue()


class CapiVersionTest(unittest.TestCase):
    def test_no_agent_is_silent(self):
        self.assertEqual(bind(FakeLibrary(agent=False)), (None, ""))

    def test_an_agent_older_than_the_version_function_gets_one_line(self):
        functions, said = bind(FakeLibrary(version=None))
        self.assertIsNone(functions)
        self.assertEqual(said.count("\n"), 1)
        self.assertIn("the agent under test has C API version 0", said)
        self.assertIn("needs %d" % _capi.API_VERSION, said)

    def test_an_older_version_gets_one_line(self):
        functions, said = bind(FakeLibrary(version=_capi.API_VERSION - 1))
        self.assertIsNone(functions)
        self.assertIn("C API version %d" % (_capi.API_VERSION - 1), said)

    def test_this_version_and_later_bind_every_function_once_checked(self):
        for version in (_capi.API_VERSION, _capi.API_VERSION + 1):
            functions, said = bind(FakeLibrary(version=version))
            self.assertEqual(said, "")
            self.assertEqual(set(functions), set(_capi._SIGNATURES))
            self.assertEqual(functions["recording"].restype, ctypes.c_int)

    def test_the_library_built_with_the_package_has_its_version(self):
        library = ctypes.CDLL(os.path.abspath("agent/libprof.so"), mode=os.RTLD_LOCAL)
        self.assertEqual(_capi.api_version(library), _capi.API_VERSION)
        functions, said = bind(library)
        self.assertEqual(said, "")
        self.assertEqual(set(functions), set(_capi._SIGNATURES))


if __name__ == "__main__":
    unittest.main()
