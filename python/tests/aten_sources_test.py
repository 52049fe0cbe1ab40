"""aten_sources: which source of ATen operators the helper picks (the agent's
RecordFunction observer, or torch's own collection) and the one line that says why. A fake
torch and a fake agent; no torch, no agent."""
import contextlib
import io
import os
import re
import sys
import types
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agent_runner  # noqa: E402

sys.path.insert(0, agent_runner.helper_folder())
from libprof import _capi  # noqa: E402
from libprof._torch import aten_replay, aten_sources  # noqa: E402

SCOPES_1_13 = ("FUNCTION", "BACKWARD_FUNCTION", "TORCHSCRIPT_FUNCTION", "KERNEL_FUNCTION_DTYPE",
               "CUSTOM_CLASS", "BUILD_FEATURE", "LITE_INTERPRETER", "USER_SCOPE",
               "STATIC_RUNTIME_OP", "STATIC_RUNTIME_MODEL")


def fake_torch(scopes=SCOPES_1_13):
    members = {name: value for value, name in enumerate(scopes)}
    record_scope = types.SimpleNamespace(__members__=members)
    return types.SimpleNamespace(_C=types.SimpleNamespace(
        _profiler=types.SimpleNamespace(RecordScope=record_scope)))


class AtenSourcesTest(unittest.TestCase):
    def test_both_sources_leave_out_the_same_utility_names(self):
        # torch.profiler's _filter_name, written once per source: in the observer's C++
        # (agent/torch/operator_stack.cc, kUtilities) and in the replay (_NOT_OPERATORS).
        with open(agent_runner.runfile("agent/torch/operator_stack.cc")) as source:
            text = source.read()
        listed = text[text.index("kUtilities[] = {"):]
        listed = listed[:listed.index("};")]
        names = set(re.findall(r'"([^"]+)"', listed))
        self.assertEqual(len(names), 8)
        self.assertEqual(names, set(aten_replay._NOT_OPERATORS))  # pylint: disable=protected-access

    def setUp(self):
        self.saved = {name: getattr(_capi, name) for name in (
            "config_value", "torch_observer_start", "torch_observer_stop")}
        self.config = {}
        self.calls = []
        _capi.config_value = self.config.get
        _capi.torch_observer_start = self.start
        _capi.torch_observer_stop = lambda: self.calls.append("stop")
        self.started = 1

    def tearDown(self):
        for name, value in self.saved.items():
            setattr(_capi, name, value)

    def start(self, scopes):
        self.calls.append(("start", scopes))
        return self.started

    def choose(self, torch=None, details=False):
        return aten_sources.choose(torch or fake_torch(), details, lambda: "profiler source")

    def test_record_scopes_counts_torchs_scopes_and_checks_user_scope(self):
        self.assertEqual(aten_sources.record_scopes(fake_torch()), 10)
        self.assertEqual(aten_sources.record_scopes(fake_torch(SCOPES_1_13 + ("NEW",))), 11)
        self.assertIsNone(aten_sources.record_scopes(fake_torch(SCOPES_1_13[1:])))  # USER_SCOPE 6
        self.assertIsNone(aten_sources.record_scopes(types.SimpleNamespace(_C=None)))

    def test_the_observer_by_default_tried_once_on_this_thread(self):
        source, why = self.choose()
        self.assertEqual(source.name, "observer")
        self.assertEqual(why, "PROF_ATEN_SOURCE=auto")
        self.assertEqual(self.calls, [("start", 10), "stop"])  # added and removed again
        self.calls.clear()
        self.assertTrue(source.start())
        source.stop(record=True)
        self.assertEqual(self.calls, [("start", 10), "stop"])

    def test_torchs_collection_when_asked_for_details_or_refused(self):
        self.config["PROF_ATEN_SOURCE"] = "profiler"
        self.assertEqual(self.choose(), ("profiler source", "PROF_ATEN_SOURCE=profiler"))
        self.config["PROF_ATEN_SOURCE"] = "observer"
        self.assertEqual(self.choose(details=True),
                         ("profiler source", "PROF_SHAPES/PROF_STACKS need the operators' inputs"))
        self.assertEqual(self.choose(fake_torch(SCOPES_1_13[1:]))[1],
                         "torch's RecordScope is not the layout the observer knows")
        self.started = 0
        self.assertEqual(self.choose()[1], "the observer found no libtorch_cpu functions "
                                           "(prof_torch_observer_start: 0)")
        _capi.torch_observer_start = None
        self.assertEqual(self.choose()[1], "this libprof.so has no RecordFunction observer")
        self.assertEqual(self.calls, [("start", 10)])  # nothing left to stop

    def test_one_line_at_info_and_a_warning_when_the_asked_observer_is_refused(self):
        def said(source, why):
            stderr = io.StringIO()
            with contextlib.redirect_stderr(stderr):
                aten_sources.announce(source, why)
            return stderr.getvalue()
        observer = aten_sources.ObserverSource(10)
        profiler = types.SimpleNamespace(name="profiler")
        self.assertEqual(said(observer, "PROF_ATEN_SOURCE=auto"), "")  # warn: quiet
        self.config["PROF_LOG_LEVEL"] = "info"
        self.assertEqual(said(observer, "PROF_ATEN_SOURCE=auto"),
                         "libprof: ATen operators from the agent's RecordFunction observer "
                         "(PROF_ATEN_SOURCE=auto)\n")
        self.config.update(PROF_LOG_LEVEL="warn", PROF_ATEN_SOURCE="observer")
        self.assertEqual(said(profiler, "no observer"),
                         "libprof: ATen operators from torch's profiler collection "
                         "(no observer)\n")
        self.config["PROF_LOG_LEVEL"] = "error"
        self.assertEqual(said(profiler, "no observer"), "")


if __name__ == "__main__":
    unittest.main()
