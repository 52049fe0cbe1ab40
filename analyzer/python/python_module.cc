// libprof._analysis_native: the C++ analyzer as a CPython extension (pybind11). The Python
// side (python/src/libprof/_analysis.py) wraps it in load_profiler_result() and
// ProfilerResult (summaries, tables, events, and the timeline export profanalyze's
// `export` writes); nothing here is meant to be called directly.
//
// Isolation: the module links Debian's shared libprotobuf and Abseil, as profanalyze does
// (their static archives are not position-independent); its own symbols are hidden
// (analysis_extension.lds exports PyInit__analysis_native only), it keeps its own
// pybind11 internals (below), and _analysis.py loads it with RTLD_DEEPBIND so a protobuf
// runtime another module exported first does not take its calls (analysis_test).
//
// The GIL is released while files are read and analyzed (the analyzer runs its own
// threads, which never touch Python objects) and held while results become Python values.

// Before any pybind11 header: a private internals id, so this module never shares
// pybind11's type registry with torch's or another extension's (built with other pybind11
// versions and options, whose registries must not be mixed).
#define PYBIND11_COMPILER_TYPE "_libprof_analysis"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analyzer/cli/export_timeline.h"
#include "analyzer/python/analysis_session.h"
#include "google/protobuf/stubs/common.h"
#include "analyzer/python/python_values.h"
#include "analyzer/read/trace_file_loader.h"

namespace py = pybind11;

namespace prof::analyzer {
namespace {

// absl::Status to the Python exception a caller expects.
[[noreturn]] void Raise(const absl::Status& status) {
  const std::string message(status.message());
  if (absl::IsInvalidArgument(status)) throw py::value_error(message);
  PyObject* type = absl::IsNotFound(status) ? PyExc_FileNotFoundError : PyExc_OSError;
  PyErr_SetString(type, message.c_str());
  throw py::error_already_set();
}

template <typename T>
std::function<void(SummaryCommandOptions*, py::handle)> Set(T SummaryCommandOptions::*member) {
  return [member](SummaryCommandOptions* options, py::handle value) {
    options->*member = py::cast<T>(value);
  };
}

// Every option of `profanalyze PATH...` (summary_command.h) by its long name, '-' as '_'
// (--no-op-detail is op_detail=False): analysis_test checks the list against
// `profanalyze --help`.
const std::map<std::string, std::function<void(SummaryCommandOptions*, py::handle)>>&
OptionSetters() {
  using O = SummaryCommandOptions;
  static const auto* setters = new std::map<std::string, std::function<void(O*, py::handle)>>{
      {"sorted_by", Set(&O::sorted_by)},
      {"views", Set(&O::views)},
      {"op_detail", Set(&O::op_detail)},
      {"thread_sep", Set(&O::thread_sep)},
      {"group_by_shape", Set(&O::group_by_shape)},
      {"self", Set(&O::self_time)},
      {"time_unit", Set(&O::time_unit)},
      {"top", Set(&O::top)},
      {"perf_skip", Set(&O::perf_skip)},
      {"include_setup", Set(&O::include_setup)},
      {"rank", Set(&O::rank)},
      {"all_ranks", Set(&O::all_ranks)},
      {"format", Set(&O::format)},
      {"threads", Set(&O::threads)},
      {"window", Set(&O::window)},
      {"type", Set(&O::types)},
      {"min_time", Set(&O::min_time)},
      {"name", Set(&O::name_regex)},
      {"aggregate_by", Set(&O::aggregate_by)},
      {"order_by", Set(&O::order_by)}};
  return *setters;
}

// analyze(paths, **options): the summary command's analysis with any of its options.
Session Analyze(std::vector<std::string> paths, const py::kwargs& kwargs) {
  SummaryCommandOptions options;
  options.paths = std::move(paths);
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::cast<std::string>(key);
    auto setter = OptionSetters().find(name);
    if (setter == OptionSetters().end())
      throw py::value_error("analyze: unknown option '" + name + "'");
    setter->second(&options, value);
  }
  absl::StatusOr<Session> session;
  {
    py::gil_scoped_release unlocked;  // reading and analysis touch no Python object
    session = AnalyzeSession(options);
  }
  if (!session.ok()) Raise(session.status());
  return *std::move(session);
}

std::vector<std::string> OptionNames() {
  std::vector<std::string> names;
  for (const auto& entry : OptionSetters()) names.push_back(entry.first);
  return names;
}

std::string Text(const Session& session, std::optional<std::string> time_unit,
                 std::optional<int> rank) {
  absl::StatusOr<std::string> text;
  {
    py::gil_scoped_release unlocked;
    text = SessionText(session, std::move(time_unit), rank);
  }
  if (!text.ok()) Raise(text.status());
  return *std::move(text);
}

// One dict per process: its identity and {table key: {"title", "rows"}}.
py::list Processes(const Session& session) {
  py::list processes;
  for (const ProcessReport& report : session.reports()) {
    py::dict process = ProcessDict(report);
    py::dict tables;
    for (const SummaryTable& table : report.tables) {
      tables[py::str(table.key)] =
          py::dict(py::arg("title") = table.title, py::arg("rows") = TableRows(table));
    }
    process["tables"] = std::move(tables);
    processes.append(std::move(process));
  }
  return processes;
}

py::object Ranks(const Session& session) {
  if (!session.ranks) return py::none();
  return py::dict(py::arg("title") = session.ranks->title,
                  py::arg("rows") = TableRows(*session.ranks));
}

// One window file's events (host clock, ns) and who recorded them.
py::dict ReadEvents(const std::string& path) {
  absl::StatusOr<TraceModel> model;
  {
    py::gil_scoped_release unlocked;
    model = LoadTraceFile(path);
  }
  if (!model.ok()) Raise(absl::Status(absl::StatusCode::kUnavailable, model.status().message()));
  ProcessReport identity;  // only for ProcessDict's keys
  identity.identity = model->identity;
  identity.files = model->files;
  identity.event_count = model->event_count;
  py::dict result;
  result["process"] = ProcessDict(identity);
  py::dict threads;
  for (const auto& [thread_id, name] : model->thread_names) {
    const absl::string_view text = model->names.Get(name);
    threads[py::int_(thread_id)] = py::str(text.data(), text.size());
  }
  result["thread_names"] = std::move(threads);
  result["events"] = WindowEvents(*std::move(model));
  return result;
}

// `profanalyze export PATHS -o OUTPUT --format FORMAT` in-process (the same
// ExportTimeline): {"summary": what was written, "unreadable": [message, ...]}.
py::dict Export(const std::vector<std::string>& paths, const std::string& output,
                const std::string& format) {
  TimelineExport result;
  absl::Status status;
  {
    py::gil_scoped_release unlocked;  // reading and writing touch no Python object
    status = ExportTimeline(paths, output, format, &result);
  }
  if (absl::IsFailedPrecondition(status) && !result.unreadable.empty()) {
    status = absl::FailedPreconditionError(
        absl::StrCat(status.message(), ":\n", absl::StrJoin(result.unreadable, "\n")));
  }
  if (!status.ok()) Raise(status);
  return py::dict(py::arg("summary") = result.summary, py::arg("unreadable") = result.unreadable);
}

}  // namespace
}  // namespace prof::analyzer

PYBIND11_MODULE(_analysis_native, module) {
  using namespace prof::analyzer;
  module.doc() =
      "The libprof analyzer (profanalyze) as a CPython extension; use libprof._analysis.";
  py::class_<Session>(module, "Session")
      .def("text", &Text, py::arg("time_unit") = py::none(), py::arg("rank") = py::none())
      .def("processes", &Processes)
      .def("ranks", &Ranks)
      .def_property_readonly("unreadable", &Session::unreadable)
      .def_property_readonly("files_read", &Session::files_read);
  py::class_<WindowEvents>(module, "WindowEvents")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &WindowEvents::Next);
  module.def("analyze", &Analyze, py::arg("paths"));
  module.def("summary_options", &OptionNames);
  module.def("read_events", &ReadEvents, py::arg("path"));
  module.def("export_timeline", &Export, py::arg("paths"), py::arg("output"),
             py::arg("format") = "chrome");
  // Which protobuf runtime this module's calls reach: Debian's answers "3.21.12"; another
  // runtime that a module loaded earlier exported would answer otherwise (analysis_test).
  module.def("protobuf_runtime",
             [] { return google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION); });
  module.attr("PYTHON_VERSION") =
      py::str(std::to_string(PY_MAJOR_VERSION) + "." + std::to_string(PY_MINOR_VERSION));
}
