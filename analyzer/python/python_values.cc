#include "analyzer/python/python_values.h"

#include <cctype>
#include <cmath>
#include <memory>
#include <string>

#include <pybind11/stl.h>

#include "analyzer/model/enum_names.h"

namespace py = pybind11;

namespace prof::analyzer {
namespace {

py::object Integer(double value) { return py::int_(static_cast<long long>(std::llround(value))); }

void AddStats(const std::string& key, const Cell& cell, py::dict* row) {
  const bool dash = cell.kind == Cell::Kind::kDashStats;
  const TimeStats& stats = cell.stats;
  (*row)[py::str(key + "_total_ns")] =
      dash ? py::object(py::none()) : py::object(py::float_(stats.total_ns));
  const bool only_total = dash || stats.only_total;
  for (auto [suffix, value] :
       {std::pair{"_avg_ns", stats.avg_ns}, {"_max_ns", stats.max_ns}, {"_min_ns", stats.min_ns}}) {
    (*row)[py::str(key + suffix)] =
        only_total ? py::object(py::none()) : py::object(py::float_(value));
  }
  (*row)[py::str(key + "_ratio_pct")] =
      dash ? py::object(py::none()) : py::object(py::float_(stats.ratio * 100));
}

// One cell as json_renderer.cc's WriteCell writes it (without its rounding).
void AddCell(const std::string& key, const Cell& cell, py::dict* row) {
  py::object value;
  switch (cell.kind) {
    case Cell::Kind::kStats:
    case Cell::Kind::kDashStats: AddStats(key, cell, row); return;
    case Cell::Kind::kText: value = py::str(cell.text); break;
    case Cell::Kind::kCount:
    case Cell::Kind::kBytes: value = Integer(cell.value); break;
    case Cell::Kind::kTime:
    case Cell::Kind::kNumber: value = py::float_(cell.value); break;
    case Cell::Kind::kRatio: value = py::float_(cell.value * 100); break;
    case Cell::Kind::kDash: value = py::none(); break;
  }
  (*row)[py::str(key)] = value;
}

py::str Name(const TraceModel& model, NameId id) {
  const absl::string_view name = model.names.Get(id);
  return py::str(name.data(), name.size());
}

py::dict RangeEvent(const TraceModel& model, const HostRange& range) {
  py::dict event;
  event["kind"] = "range";
  event["type"] = RangeTypeName(range.type);
  event["name"] = Name(model, range.name);
  event["thread_id"] = range.thread_id;
  event["start_ns"] = range.start_ns;
  event["end_ns"] = range.end_ns;
  if (range.type == RangeType::kProfileStep) {
    event["step"] = range.step_number;
    event["samples"] = range.sample_count;
  }
  return event;
}

py::dict ApiCallEvent(const TraceModel& model, const ApiCall& call) {
  py::dict event;
  event["kind"] = "api_call";
  event["name"] = Name(model, call.name);
  event["thread_id"] = call.thread_id;
  event["start_ns"] = call.start_ns;
  event["end_ns"] = call.end_ns;
  event["correlation_id"] = call.correlation_id;
  event["driver"] = call.driver;
  event["failed"] = call.failed();
  return event;
}

py::dict DeviceEvent(const TraceModel& model, const DeviceActivity& activity) {
  std::string kind = DeviceKindName(activity.kind);
  for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  py::dict event;
  event["kind"] = kind;
  event["name"] = Name(model, activity.name);
  event["device"] = activity.device;
  event["stream"] = activity.stream;
  event["start_ns"] = activity.start_ns;
  event["end_ns"] = activity.end_ns;
  event["correlation_id"] = activity.correlation_id;
  event["bytes"] = activity.bytes;
  event["nccl"] = activity.nccl;
  return event;
}

py::dict NcclEvent(const TraceModel&, const NcclCall& call) {
  py::dict event;
  event["kind"] = "nccl";
  event["operation"] = NcclOperationName(call.operation);
  event["thread_id"] = call.thread_id;
  event["start_ns"] = call.start_ns;
  event["end_ns"] = call.end_ns;
  event["bytes"] = call.bytes;
  event["comm_hash"] = call.comm_hash;
  event["rank_count"] = call.rank_count;
  return event;
}

py::dict MemoryEvent(const TraceModel&, const MemoryRecord& record) {
  py::dict event;
  event["kind"] = "memory";
  event["allocate"] = record.allocate;
  event["memory_kind"] = MemoryKindName(record.kind);
  event["time_ns"] = record.time_ns;
  event["address"] = record.address;
  event["bytes"] = record.bytes;
  event["device"] = record.device;
  event["thread_id"] = record.thread_id;
  event["call_stack"] = record.call_stack;
  return event;
}

}  // namespace

py::list TableRows(const SummaryTable& table) {
  py::list rows;
  std::string group;
  for (const Row& row : table.rows) {  // as json_renderer.cc's WriteRows
    if (row.kind == Row::Kind::kTitle) group = row.title;
    if (row.kind != Row::Kind::kData) continue;
    py::dict values;
    for (size_t i = 0; i < row.cells.size() && i < table.columns.size(); ++i) {
      AddCell(table.columns[i].key, row.cells[i], &values);
    }
    values["depth"] = row.indent / 2;
    const std::string& row_group = row.group.empty() ? group : row.group;
    values["group"] = row_group.empty() ? py::object(py::none()) : py::object(py::str(row_group));
    rows.append(std::move(values));
  }
  return rows;
}

py::dict ProcessDict(const ProcessReport& report) {
  py::dict process;
  process["rank"] = report.identity.rank;
  process["world_size"] = report.identity.world_size;
  process["host"] = report.identity.host;
  process["pid"] = report.identity.pid;
  process["events"] = report.event_count;
  process["files"] = py::cast(report.files);
  return process;
}

WindowEvents::WindowEvents(TraceModel model)
    : model_(std::make_shared<TraceModel>(std::move(model))) {}

py::object WindowEvents::Next() {
  const TraceModel& model = *model_;
  // Each column in turn; `next_` indexes the current one.
  for (;; ++column_, next_ = 0) {
    const size_t i = next_++;
    switch (column_) {
      case 0:
        if (i < model.ranges.size()) return RangeEvent(model, model.ranges[i]);
        break;
      case 1:
        if (i < model.api_calls.size()) return ApiCallEvent(model, model.api_calls[i]);
        break;
      case 2:
        if (i < model.device_activities.size())
          return DeviceEvent(model, model.device_activities[i]);
        break;
      case 3:
        if (i < model.nccl_calls.size()) return NcclEvent(model, model.nccl_calls[i]);
        break;
      case 4:
        if (i < model.memory.size()) return MemoryEvent(model, model.memory[i]);
        break;
      default: throw py::stop_iteration();
    }
  }
}

}  // namespace prof::analyzer
