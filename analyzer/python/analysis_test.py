"""libprof._analysis against profanalyze on traces of the simulated workloads.

Run by analysis_test.sh, which records the traces: summary() must print profanalyze's
stdout byte for byte for the same options, tables() must hold the JSON renderer's values,
events() must agree with the workload's ground truth, export() must write the bytes
`profanalyze export` writes (Chrome JSON and Perfetto), and the module must load beside
torch and beside another protobuf runtime, and say clearly when it cannot load.
"""
import ctypes
import json
import os
import shutil
import subprocess
import sys
import unittest

WORK = os.environ["ANALYSIS_TEST_WORK"]
PROFANALYZE = os.environ["ANALYSIS_TEST_PROFANALYZE"]
PACKAGE_ROOT = os.environ["ANALYSIS_TEST_PACKAGE_ROOT"]
OTHER_PROTOBUF = os.environ["ANALYSIS_TEST_OTHER_PROTOBUF"]
LIBPROF = os.environ["ANALYSIS_TEST_LIBPROF"]
TRAIN = os.path.join(WORK, "train")
RANKS = os.path.join(WORK, "ranks")
sys.path.insert(0, PACKAGE_ROOT)

from libprof import _analysis  # noqa: E402  (after the path is set)


def profanalyze(*args, check=True):
    done = subprocess.run([PROFANALYZE] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    if check and done.returncode != 0:
        raise AssertionError("profanalyze %s: exit %d: %s" % (args, done.returncode, done.stderr))
    return done


def run_python(code, **environment):
    """`code` in a fresh /usr/bin/python3 that finds the package; (exit status, output)."""
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT, **environment)
    done = subprocess.run(["/usr/bin/python3", "-B", "-c", code], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    return done.returncode, done.stdout


# (summary() keyword arguments, the same as profanalyze options)
OPTION_SETS = [
    ({}, []),
    ({"sorted_by": "GPUTotal"}, ["--sorted-by", "GPUTotal"]),
    ({"sorted_by": "CPUMin", "op_detail": False}, ["--sorted-by", "CPUMin", "--no-op-detail"]),
    ({"thread_sep": True, "time_unit": "us"}, ["--thread-sep", "--time-unit", "us"]),
    ({"time_unit": "s", "top": 3}, ["--time-unit", "s", "--top", "3"]),
    ({"views": ["KernelView", "OverView", "ModelView"]}, ["--views", "KernelView,OverView,ModelView"]),
    ({"views": "DistributedView", "time_unit": "ns"}, ["--views", "DistributedView", "--time-unit", "ns"]),
    ({"perf_skip": 1, "views": ["perf", "cuda_api"]}, ["--perf-skip", "1", "--views", "perf,cuda_api"]),
]


class SummaryTextTest(unittest.TestCase):
    def test_summary_is_profanalyze_stdout(self):
        for folder in (TRAIN, RANKS):
            result = _analysis.load_profiler_result(folder)
            for kwargs, args in OPTION_SETS:
                with self.subTest(folder=os.path.basename(folder), options=args):
                    expected = profanalyze(folder, *args).stdout
                    if not args:
                        self.assertIn("Kernel Summary", expected)
                    self.assertEqual(result.summary(**kwargs), expected)
                    self.assertEqual(_analysis.summary_text([folder], **kwargs), expected)

    def test_one_rank_and_file_list(self):
        files = sorted(os.path.join(RANKS, name) for name in os.listdir(RANKS))
        result = _analysis.load_profiler_result(files)
        self.assertEqual(len(result.processes), 2)
        self.assertEqual([process["rank"] for process in result.processes], [0, 1])
        expected = profanalyze(*files, "--rank", "1").stdout
        self.assertIn("Rank 1 ", expected)
        self.assertEqual(result.summary(rank=1), expected)

    def test_paddle_enum_members(self):
        class SortedKeys:  # what paddle's enum members look like: a .name
            name = "GPUAvg"

        class KernelView:
            name = "KernelView"

        self.assertEqual(_analysis.summary_text(TRAIN, sorted_by=SortedKeys(), views=[KernelView()]),
                         profanalyze(TRAIN, "--sorted-by", "GPUAvg", "--views", "KernelView").stdout)

    def test_bad_options(self):
        result = _analysis.load_profiler_result(TRAIN)
        with self.assertRaisesRegex(ValueError, "sorted_by"):
            result.summary(sorted_by="GPUSum")
        with self.assertRaisesRegex(ValueError, "NoSuchView"):
            result.summary(views=["NoSuchView"])
        with self.assertRaisesRegex(ValueError, "time_unit"):
            result.summary(time_unit="min")


# Options beyond paddle's six, straight through the native analyze() and through the
# summary() wrapper: (keyword arguments, profanalyze options).
NATIVE_OPTION_SETS = [
    ({"group_by_shape": True, "self": True}, ["--group-by-shape", "--self"]),
    ({"include_setup": True, "views": "perf,overview"}, ["--include-setup", "--views", "perf,overview"]),
    ({"window": 0}, ["--window", "0"]),
    ({"min_time": "1us", "name": "ernel|mm", "aggregate_by": "base"},
     ["--min-time", "1us", "--name", "ernel|mm", "--aggregate-by", "base"]),
    ({"type": "kernel,operator", "order_by": "-calls"}, ["--type", "kernel,operator", "--order-by", "-calls"]),
    ({"format": "json", "views": "kernel"}, ["--format", "json", "--views", "kernel"]),
    ({"all_ranks": True, "time_unit": "us"}, ["--all-ranks", "--time-unit", "us"]),
]


class NativeOptionsTest(unittest.TestCase):
    """The native analyze() takes every option of `profanalyze PATH...` by its name."""

    def test_every_summary_option_reaches_python(self):
        help_text = profanalyze("--help").stdout.split("Subcommands:")[0]
        names = set()
        for line in help_text.splitlines():  # "  --sorted-by TEXT:{...}", "  -h,--help  ..."
            if not line.strip().startswith("-"):
                continue
            for option in line.split()[0].split(","):
                if option.startswith("--") and option not in ("--help", "--version") \
                        and not option.startswith("--no-"):
                    names.add(option[2:].split("{")[0].replace("-", "_"))
        self.assertEqual(sorted(names), sorted(_analysis._native.summary_options()))

    def test_native_text_is_profanalyze_stdout(self):
        for folder in (TRAIN, RANKS):
            for kwargs, args in NATIVE_OPTION_SETS:
                with self.subTest(folder=os.path.basename(folder), options=args):
                    expected = profanalyze(folder, *args).stdout
                    self.assertTrue(expected)
                    session = _analysis._native.analyze([folder], **kwargs)
                    self.assertEqual(session.text(), expected)

    def test_summary_forwards_every_option(self):
        for folder in (TRAIN, RANKS):
            result = _analysis.load_profiler_result(folder)
            for kwargs, args in NATIVE_OPTION_SETS:
                # "self" is a method's own first parameter: the wrapper takes self_time for it.
                wrapper_kwargs = {("self_time" if key == "self" else key): value for key, value in kwargs.items()}
                with self.subTest(folder=os.path.basename(folder), options=args):
                    expected = profanalyze(folder, *args).stdout
                    self.assertEqual(result.summary(**wrapper_kwargs), expected)
                    self.assertEqual(_analysis.summary_text([folder], **wrapper_kwargs), expected)

    def test_an_option_beyond_the_six_changes_the_text_as_profanalyze(self):
        result = _analysis.load_profiler_result(TRAIN)
        everything = profanalyze(TRAIN).stdout
        kernels_only = profanalyze(TRAIN, "--type", "kernel").stdout
        self.assertIn("Kernel Summary", kernels_only)
        self.assertNotIn("Operator Summary", kernels_only)
        self.assertNotEqual(kernels_only, everything)
        self.assertEqual(result.summary(type="kernel"), kernels_only)
        self.assertEqual(result.summary(), everything)  # the session's defaults are not changed by it

    def test_unknown_and_bad_native_options(self):
        with self.assertRaisesRegex(ValueError, "unknown option 'sort_by'"):
            _analysis._native.analyze([TRAIN], sort_by="GPUTotal")
        with self.assertRaisesRegex(ValueError, "format"):
            _analysis._native.analyze([TRAIN], format="xml")
        with self.assertRaisesRegex(ValueError, "aggregate"):
            _analysis._native.analyze([TRAIN], aggregate_by="nothing")


STATS_PARTS = ("total_ns", "avg_ns", "max_ns", "min_ns", "ratio_pct")


def flatten_json_row(row, python_row):
    """The JSON row with its composite cells as tables() names them: {"cpu": {...}} as
    cpu_total_ns ... cpu_ratio_pct; a '-' composite (null) as five None."""
    flat = {}
    for key, value in row.items():
        if isinstance(value, dict):  # a Total/Avg/Max/Min/Ratio cell
            for part, number in value.items():
                flat[key + "_" + part] = number
        elif value is None and key + "_total_ns" in python_row:
            flat.update((key + "_" + part, None) for part in STATS_PARTS)
        else:
            flat[key] = value
    return flat


def read_json(path):
    with open(path) as file:
        return json.load(file)


class TablesTest(unittest.TestCase):
    def assert_rows_equal(self, rows, json_rows, where):
        self.assertEqual(len(rows), len(json_rows), where)
        for index, (row, json_row) in enumerate(zip(rows, json_rows)):
            expected = flatten_json_row(json_row, row)
            expected.setdefault("group", None)
            # tables() adds the process to each row; the ranks table has those columns.
            got = {key: value for key, value in row.items()
                   if key in expected or key not in ("rank", "host", "pid")}
            self.assertEqual(sorted(got), sorted(expected), "%s row %d" % (where, index))
            for key, value in expected.items():
                if isinstance(value, float) or isinstance(got[key], float):
                    # JSON rounds times to 0.1 ns, ratios to 1e-4 %, numbers to decimals + 2.
                    self.assertAlmostEqual(got[key], value, delta=0.05 + 1e-9 * abs(value),
                                           msg="%s row %d %s" % (where, index, key))
                else:
                    self.assertEqual(got[key], value, "%s row %d %s" % (where, index, key))

    def test_tables_hold_the_json_renderers_values(self):
        for folder in (TRAIN, RANKS):
            document = json.loads(profanalyze(folder, "--format", "json").stdout)
            result = _analysis.load_profiler_result(folder)
            for process in document["processes"]:
                tables = result.tables(rank=process["rank"])
                self.assertEqual(sorted(tables), sorted(process["tables"]))
                for key, table in process["tables"].items():
                    self.assert_rows_equal(tables[key], table["rows"], "%s rank %d %s" % (
                        os.path.basename(folder), process["rank"], key))
            if "ranks" in document:
                self.assert_rows_equal(result.tables()["ranks"], document["ranks"]["rows"], "ranks")

    def test_names_are_full(self):
        kernels = _analysis.load_profiler_result(TRAIN).tables()["kernel"]
        truth = read_json(os.path.join(WORK, "train_truth.json"))
        demangled = {entry["demangled"] for entry in truth["totals"]["kernels"]["by_name"].values()}
        names = {row["name"] for row in kernels if row["depth"] == 0}
        # Tables hold whole demangled names; only the text renderer shortens them.
        self.assertEqual(names, demangled)

    def test_dataframe(self):
        result = _analysis.load_profiler_result(TRAIN)
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("no pandas for %s (scripts/setup.sh installs python3-pandas)" % sys.executable)
        frame = result.dataframe("kernel")
        rows = result.tables()["kernel"]
        self.assertEqual(len(frame), len(rows))
        self.assertEqual(list(frame["name"]), [row["name"] for row in rows])
        self.assertEqual(list(frame["gpu_total_ns"]), [row["gpu_total_ns"] for row in rows])
        with self.assertRaisesRegex(KeyError, "no table 'nope'"):
            result.dataframe("nope")

    def test_dataframe_without_pandas(self):
        result = _analysis.load_profiler_result(TRAIN)
        saved = sys.modules.get("pandas")
        sys.modules["pandas"] = None  # makes `import pandas` raise ImportError
        try:
            with self.assertRaisesRegex(ImportError, "dataframe\\(\\) needs pandas"):
                result.dataframe("kernel")
        finally:
            if saved is None:
                del sys.modules["pandas"]
            else:
                sys.modules["pandas"] = saved


class EventsTest(unittest.TestCase):
    def test_events_match_the_ground_truth(self):
        truth = read_json(os.path.join(WORK, "train_truth.json"))
        events = list(_analysis.load_profiler_result(TRAIN).events())
        steps = sorted((e for e in events if e["kind"] == "range" and e["type"] == "ProfileStep"),
                       key=lambda e: e["step"])
        self.assertEqual([step["step"] for step in steps], [2, 3, 4, 5])
        kernels = [e for e in events if e["kind"] == "kernel"]
        for step in steps:
            inside = [k for k in kernels if step["start_ns"] <= k["start_ns"] < step["end_ns"]]
            expected = truth["steps"][step["step"]]["kernels"]
            self.assertEqual(len(inside), expected["count"], "step %d" % step["step"])
            self.assertEqual(sum(k["end_ns"] - k["start_ns"] for k in inside), expected["total_ns"])
        self.assertTrue(all(e["pid"] == truth["pid"] for e in events))
        self.assertTrue(any(e["kind"] == "api_call" and e["name"] == "cudaLaunchKernel" for e in events))

    def test_kinds_filter(self):
        result = _analysis.load_profiler_result(TRAIN)
        memcpys = list(result.events(kinds="memcpy"))
        self.assertTrue(memcpys)
        self.assertEqual({e["kind"] for e in memcpys}, {"memcpy"})


class UnreadableTest(unittest.TestCase):
    def setUp(self):
        self.folder = os.path.join(WORK, "damaged")
        shutil.rmtree(self.folder, ignore_errors=True)
        os.makedirs(self.folder)
        source = os.path.join(TRAIN, sorted(os.listdir(TRAIN))[0])
        with open(source, "rb") as file:
            data = file.read()
        with open(os.path.join(self.folder, "a_truncated.pb"), "wb") as out:
            out.write(data[:len(data) * 2 // 3])  # a crash in the middle of a chunk
        with open(os.path.join(self.folder, "b_not_a_trace.pb"), "wb") as out:
            out.write(b"this is not a trace file\n" * 10)

    def test_what_could_not_be_read(self):
        expected = profanalyze(self.folder)
        result = _analysis.load_profiler_result(self.folder)
        self.assertEqual(result.summary(), expected.stdout)
        # stderr: the unreadable files, then "the trace holds no events" (the truncated
        # file's only chunk was cut).
        self.assertEqual(["profanalyze: " + line for line in result.unreadable],
                         expected.stderr.splitlines()[:len(result.unreadable)])
        self.assertEqual(len(result.unreadable), 1)
        self.assertIn("b_not_a_trace.pb", result.unreadable[0])
        quality = result.data_quality
        self.assertEqual(quality["unreadable"], result.unreadable)
        self.assertTrue(quality["rows"], "the truncated file's damage is counted")

    def test_nothing_readable(self):
        with self.assertRaisesRegex(OSError, "b_not_a_trace.pb"):
            _analysis.load_profiler_result(os.path.join(self.folder, "b_not_a_trace.pb"))
        with self.assertRaises(FileNotFoundError):
            _analysis.load_profiler_result(os.path.join(WORK, "no_such_folder"))


def read_bytes(path):
    with open(path, "rb") as file:
        return file.read()


class ExportTest(unittest.TestCase):
    """export() runs `profanalyze export`'s own exporter in-process: the same bytes."""

    def setUp(self):
        self.folder = os.path.join(WORK, "export")
        shutil.rmtree(self.folder, ignore_errors=True)
        os.makedirs(self.folder)

    def expected(self, inputs, format):
        out = os.path.join(self.folder, "expected_%s" % format)
        done = profanalyze("export", *inputs, "-o", out, "--format", format)
        return read_bytes(out), done.stderr

    def test_chrome_and_perfetto_are_profanalyzes_bytes(self):
        for folder in (TRAIN, RANKS):
            for format, names in (("chrome", ("json", "chrome")), ("perfetto", ("perfetto",))):
                expected, stderr = self.expected([folder], format)
                self.assertGreater(len(expected), 1000)
                for name in names:
                    with self.subTest(folder=os.path.basename(folder), format=name):
                        out = os.path.join(self.folder, "module." + name)
                        written = _analysis.export(folder, out, format=name)
                        self.assertEqual(read_bytes(out), expected)
                        self.assertEqual(written["unreadable"], [])
                        # profanalyze's stderr: "profanalyze export: wrote <summary> to <out>"
                        self.assertIn("wrote %s to " % written["summary"], stderr)
                        out = os.path.join(self.folder, "result." + name)
                        _analysis.load_profiler_result(folder).export(out, format=name)
                        self.assertEqual(read_bytes(out), expected)

    def test_default_is_chrome_json_of_a_file_list(self):
        files = sorted(os.path.join(RANKS, name) for name in os.listdir(RANKS))
        expected, _ = self.expected(files, "chrome")
        out = os.path.join(self.folder, "list.json")
        _analysis.export(files, out)
        self.assertEqual(read_bytes(out), expected)
        self.assertIsInstance(json.loads(expected), (dict, list))

    def test_unreadable_files_are_listed(self):
        damaged = os.path.join(self.folder, "damaged")
        os.makedirs(damaged)
        shutil.copy(os.path.join(TRAIN, sorted(os.listdir(TRAIN))[0]), damaged)
        with open(os.path.join(damaged, "b_not_a_trace.pb"), "wb") as out:
            out.write(b"this is not a trace file\n" * 10)
        expected, stderr = self.expected([damaged], "chrome")
        out = os.path.join(self.folder, "damaged.json")
        written = _analysis.export(damaged, out)
        self.assertEqual(read_bytes(out), expected)
        self.assertEqual(len(written["unreadable"]), 1)
        self.assertIn("b_not_a_trace.pb", written["unreadable"][0])
        self.assertIn("profanalyze export: " + written["unreadable"][0], stderr.splitlines())

    def test_errors(self):
        out = os.path.join(self.folder, "error.json")
        with self.assertRaisesRegex(ValueError, "perfetto"):
            _analysis.export(TRAIN, out, format="pb")
        with self.assertRaises(FileNotFoundError):
            _analysis.export(os.path.join(WORK, "no_such_folder"), out)
        not_a_trace = os.path.join(self.folder, "not_a_trace.pb")
        with open(not_a_trace, "wb") as file:
            file.write(b"this is not a trace file\n" * 10)
        with self.assertRaisesRegex(OSError, "(?s)nothing could be read.*not_a_trace.pb"):
            _analysis.export(not_a_trace, out)
        self.assertFalse(os.path.exists(out), "nothing is written when nothing could be read")
        with self.assertRaisesRegex(OSError, "no_such_dir"):
            _analysis.export(TRAIN, os.path.join(self.folder, "no_such_dir", "out.json"))


CHECK_SUMMARY = (
    "from libprof import _analysis\n"
    "print(_analysis.load_profiler_result(%r).summary(views=['KernelView']), end='')\n" % TRAIN)


class IsolationTest(unittest.TestCase):
    def expected(self):
        return profanalyze(TRAIN, "--views", "KernelView").stdout

    def test_torch_imported_before(self):
        status, output = run_python("import torch\n" + CHECK_SUMMARY + "print(torch.ones(2).sum().item())")
        self.assertEqual(status, 0, output)
        self.assertEqual(output, self.expected() + "2.0\n")

    def test_torch_imported_after(self):
        status, output = run_python(CHECK_SUMMARY + "import torch\nprint(torch.ones(2).sum().item())")
        self.assertEqual(status, 0, output)
        self.assertEqual(output, self.expected() + "2.0\n")

    def test_another_protobuf_runtime_in_the_global_scope(self):
        code = ("import ctypes, os\n"
                "other = ctypes.CDLL(%r, mode=os.RTLD_NOW | os.RTLD_GLOBAL)\n" % OTHER_PROTOBUF
                + CHECK_SUMMARY)
        status, output = run_python(code + "print(_analysis._native.protobuf_runtime())\n"
                                    "print(other.other_runtime_version is not None)")
        self.assertEqual(status, 0, output)
        # The analyzer's protobuf calls reach Debian's runtime, not the one exported first.
        self.assertEqual(output, self.expected() + "3.21.12\nTrue\n")


    def test_exports_only_its_entry_point(self):
        package = os.path.join(PACKAGE_ROOT, "libprof")
        [extension] = [name for name in os.listdir(package) if name.startswith("_analysis_native")]
        symbols = subprocess.run(["nm", "-D", "--defined-only", os.path.join(package, extension)],
                                 stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
        exported = [line.split()[-1] for line in symbols.splitlines() if line.split()[1].isupper()]
        self.assertEqual(exported, ["PyInit__analysis_native"])

    def test_inside_a_program_under_the_agent(self):
        # What Profiler.summary() does: the analyzer inside the profiled program.
        status, output = run_python("import torch\n" + CHECK_SUMMARY, LD_PRELOAD=LIBPROF,
                                    PROF_OUTPUT_DIR=os.path.join(WORK, "under_agent"))
        self.assertEqual(status, 0, output)
        self.assertEqual(output, self.expected())


class WrongPythonTest(unittest.TestCase):
    def test_an_extension_for_another_python_is_named(self):
        # The package as it would be with an extension built for CPython 3.99.
        root = os.path.join(WORK, "other_python")
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(os.path.join(PACKAGE_ROOT, "libprof"), os.path.join(root, "libprof"))
        package = os.path.join(root, "libprof")
        for name in os.listdir(package):
            if name.startswith("_analysis_native"):
                os.rename(os.path.join(package, name),
                          os.path.join(package, "_analysis_native.cpython-399-x86_64-linux-gnu.so"))
        env = dict(os.environ, PYTHONPATH=root)
        done = subprocess.run(["/usr/bin/python3", "-B", "-c", "import libprof._analysis"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("ImportError: libprof._analysis: the analyzer extension was built for another Python",
                      done.stdout)
        self.assertIn("_analysis_native.cpython-399-x86_64-linux-gnu.so", done.stdout)
        self.assertIn("CPython %d.%d" % sys.version_info[:2], done.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
