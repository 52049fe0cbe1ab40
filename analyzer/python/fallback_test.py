"""libprof._analysis without the extension (another CPython, the wheel): it runs the
profanalyze program (_analysis_cli), forwarding every summary option, so it prints what
the extension prints; and the option table (_summary_options) is the command's. Run by
analysis_test.sh on the traces it records, beside the extension, which is the reference."""
import os
import unittest

import analysis_test as shared  # the traces, the option sets, the profanalyze runner
from libprof import _analysis  # noqa: E402  (analysis_test put the package on the path)

OPTION_SETS, NATIVE_OPTION_SETS = shared.OPTION_SETS, shared.NATIVE_OPTION_SETS
TRAIN, RANKS, profanalyze = shared.TRAIN, shared.RANKS, shared.profanalyze


class FallbackTest(unittest.TestCase):

    def setUp(self):
        from libprof import _analysis_cli
        self.native, self.fallback = _analysis._native, _analysis_cli
        self.assertIsNotNone(_analysis_cli.program())

    def tearDown(self):
        _analysis._native = self.native

    def test_the_option_table_is_the_commands(self):
        from libprof._summary_options import SUMMARY_OPTIONS
        self.assertEqual(sorted(SUMMARY_OPTIONS), sorted(self.native.summary_options()))

    def test_the_same_text_as_the_extension(self):
        sets = [kwargs for kwargs, _ in OPTION_SETS] + [
            {("self_time" if key == "self" else key): value for key, value in kwargs.items()}
            for kwargs, _ in NATIVE_OPTION_SETS] + [{"rank": 1, "perf_skip": 0}]
        compared = 0
        for folder in (TRAIN, RANKS):
            for kwargs in sets:
                with self.subTest(folder=os.path.basename(folder), options=kwargs):
                    _analysis._native = self.native
                    expected = _analysis.summary_text([folder], **kwargs)
                    _analysis._native = self.fallback
                    self.assertEqual(_analysis.summary_text([folder], **kwargs), expected)
                    compared += 1
        self.assertEqual(compared, 2 * (len(OPTION_SETS) + len(NATIVE_OPTION_SETS) + 1))

    def test_a_session_and_its_tables(self):
        _analysis._native = self.fallback
        result = _analysis.load_profiler_result(RANKS)
        self.assertEqual([process["rank"] for process in result.processes], [0, 1])
        self.assertEqual(result.summary(type="kernel", time_unit="us"),
                         profanalyze(RANKS, "--type", "kernel", "--time-unit", "us").stdout)

    def test_refusals(self):
        with self.assertRaisesRegex(ValueError, "unknown option 'sort_by'"):
            self.fallback.analyze([TRAIN], sort_by="GPUTotal")
        # The tables are read as JSON whatever the caller's format: that one is checked
        # when its text is asked for.
        with self.assertRaisesRegex(ValueError, "format"):
            self.fallback.analyze([TRAIN], format="xml").text()
        with self.assertRaisesRegex(ValueError, "order-by|order_by"):
            self.fallback.analyze([TRAIN], order_by="-nothing").text()


if __name__ == "__main__":
    unittest.main()
