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

import agent_runner  # noqa: E402


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
        self.assertIn("needs %d (it lacks prof_api_version)" % _capi.API_VERSION, said)

    def test_an_older_version_gets_one_line(self):
        functions, said = bind(FakeLibrary(version=2))
        self.assertIsNone(functions)
        self.assertEqual(said.count("\n"), 1)
        self.assertIn("C API version 2 and this Python package needs 3 (it lacks "
                      "prof_config_get, prof_schedule_state, prof_window_goes_on)", said)
        _, said = bind(FakeLibrary(version=1))
        self.assertIn("(it lacks prof_user_range, prof_config_get, prof_schedule_state, "
                      "prof_window_goes_on)", said)

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
        # Every optional function too, the RecordFunction observer's among them.
        self.assertEqual(set(functions), set(_capi._SIGNATURES) | {
            "step_ended", "step_stamp", "torch_observer_start", "torch_observer_stop",
            "torch_observer_counts"})
        self.assertEqual(functions["step_ended"].restype, ctypes.c_int)
        self.assertEqual(functions["torch_observer_start"].argtypes, [ctypes.c_int])

    def test_an_agent_of_this_version_without_step_ended_binds_without_it(self):
        # Built before prof_step_ended joined version 3: the boundaries fall back to
        # prof_step and prof_recording (_steps.py), rather than refusing the agent.
        library = FakeLibrary(version=_capi.API_VERSION)
        functions, _ = bind(library)
        self.assertNotIn("step_ended", functions)
        library.functions["prof_step_ended"] = FakeFunction(3)
        functions, said = bind(library)
        self.assertEqual(said, "")
        self.assertEqual(functions["step_ended"](8), 3)
        self.assertEqual(functions["step_ended"].argtypes, [ctypes.c_int64])


class FlagsFromTheAgentTest(unittest.TestCase):
    """_flags asks the agent (prof_config_get) for the values it applied: its spellings (any
    case, spaces), and the defaults where no agent is loaded."""

    PRINT_FLAGS = ("from libprof import _flags; print(_flags.flag('PROF_SHAPES', False), "
                   "_flags.flag('PROF_STACKS', True), _flags.flag('PROF_ATEN_STACKS', False), "
                   "_flags.python_operators())")
    SET = {"PROF_SHAPES": " Yes ", "PROF_STACKS": "OFF", "PROF_ATEN_STACKS": "on",
           "PROF_PYTHON_OPS": "Python"}

    def test_under_the_agent(self):
        run = agent_runner.run_python(["-c", self.PRINT_FLAGS], environment=self.SET)
        self.assertEqual(run.stdout, "True False True python\n", run.stderr)

    def test_without_an_agent_the_defaults(self):
        environment = dict(self.SET, PYTHONPATH=agent_runner.helper_folder())
        run = agent_runner.run_python(["-c", self.PRINT_FLAGS], agent=False,
                                      environment=environment)
        self.assertEqual(run.stdout, "False True False aten\n", run.stderr)


if __name__ == "__main__":
    unittest.main()
