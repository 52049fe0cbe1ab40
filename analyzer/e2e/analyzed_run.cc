#include "analyzer/e2e/analyzed_run.h"

#include <utility>

#include <catch2/catch.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_replace.h"
#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/testing/load_inputs.h"
#include "analyzer/model/enum_names.h"
#include "analyzer/summary/named_items.h"
#include "proto/schema_names.h"

namespace prof::analyzer::e2e {
namespace {

const SummaryTable* FindTable(const ProcessReport& report, const std::string& key) {
  for (const SummaryTable& table : report.tables) {
    if (table.key == key) return &table;
  }
  return nullptr;
}

template <typename Visit>
void ForEachDataRow(const ProcessReport& report, const std::string& key, Visit visit) {
  const SummaryTable* table = FindTable(report, key);
  if (!table) return;
  for (const Row& row : table->rows) {
    if (row.kind == Row::Kind::kData && !row.cells.empty()) visit(row);
  }
}

// Copies and kernels straight from the model's columns (before the report takes it).
void ReadModelColumns(const TraceModel& model, ProcessFigures* figures) {
  for (const DeviceActivity& activity : model.device_activities) {
    const std::string name(model.names.Get(activity.name));
    if (activity.kind == DeviceKind::kKernel) {
      CountAndTime& kernel = figures->kernels[name];
      ++kernel.count;
      kernel.total_ns += activity.end_ns - activity.start_ns;
    } else if (activity.kind == DeviceKind::kMemcpy && absl::StartsWith(name, "MEMCPY_")) {
      CountAndBytes& copy = figures->memcpy_by_kind[name.substr(7)];
      ++copy.count;
      copy.bytes += activity.bytes;
    }
  }
}

void ReadCommunicators(const TraceModel& model, ProcessFigures* figures) {
  for (const NcclCall& call : model.nccl_calls) {
    if (call.operation == schema::NCCL_OPERATION_GROUP_START ||
        call.operation == schema::NCCL_OPERATION_GROUP_END)
      continue;
    figures->comm_hashes[CollectiveKey(NcclOperationName(call.operation))].insert(call.comm_hash);
  }
}

void ReadTables(ProcessFigures* figures) {
  const ProcessReport& report = figures->report;
  ForEachDataRow(report, "kernel", [&](const Row& row) {
    CountAndTime& kernel = figures->kernel_rows[row.cells[0].text];  // equal names add up
    kernel.count += static_cast<uint64_t>(row.cells[1].value);
    kernel.total_ns += static_cast<uint64_t>(row.cells[2].stats.total_ns);
    kernel.ratio += row.cells[2].stats.ratio;
  });
  ForEachDataRow(report, "model", [&](const Row& row) {
    const TimeStats& gpu = row.cells[3].stats;
    figures->model_rows[row.cells[0].text] = {static_cast<uint64_t>(row.cells[1].value),
                                              gpu.total_ns, gpu.max_ns, gpu.min_ns, gpu.ratio};
  });
  ForEachDataRow(report, "memory_manipulation", [&](const Row& row) {
    if (row.cells[4].kind != Cell::Kind::kBytes) return;  // a range row, not a call
    figures->copy_rows[row.cells[0].text] = {
        static_cast<uint64_t>(row.cells[1].value), row.cells[3].stats.total_ns,
        static_cast<uint64_t>(row.cells[4].value),
        row.cells[5].kind == Cell::Kind::kNumber ? row.cells[5].value : 0};
  });
  ForEachDataRow(report, "setup",
                 [&](const Row& row) { figures->setup_kernel_ns += row.cells[3].value; });
  ForEachDataRow(report, "nccl", [&](const Row& row) {
    CountAndBytes& collective = figures->collectives[CollectiveKey(row.cells[0].text)];
    collective.count += static_cast<uint64_t>(row.cells[2].value);
    collective.bytes += static_cast<uint64_t>(row.cells[4].value);
    CollectiveRows& rows = figures->collective_rows[CollectiveKey(row.cells[0].text)];
    const double time = row.cells[3].stats.total_ns;
    rows.time_ns += time;
    rows.algbw_time_product += row.cells[5].value * time;
    rows.busbw_time_product += row.cells[6].value * time;
    rows.ranks.insert(static_cast<int>(row.cells[7].value));
  });
}

}  // namespace

absl::StatusOr<std::vector<ProcessFigures>> AnalyzeFolder(const std::string& folder,
                                                          const SummaryOptions& options) {
  // The tables come from profanalyze's own pipeline (one window file at a time); the raw
  // columns from all windows merged into one model.
  absl::StatusOr<AnalyzedInputs> analyzed = AnalyzeInputs({folder}, options, AllViews(), 1);
  if (!analyzed.ok()) return analyzed.status();
  absl::StatusOr<LoadedInputs> inputs = LoadInputs({folder}, 1);
  if (!inputs.ok()) return inputs.status();
  if (inputs->processes.size() != analyzed->reports.size()) {
    return absl::InternalError("the two pipelines found different processes");
  }
  std::vector<ProcessFigures> processes;
  for (size_t i = 0; i < inputs->processes.size(); ++i) {
    const TraceModel& model = inputs->processes[i];
    ProcessFigures figures;
    figures.rank = model.identity.rank;
    ReadModelColumns(model, &figures);
    ReadCommunicators(model, &figures);
    figures.report = std::move(analyzed->reports[i]);
    figures.step_count = figures.report.step_count;
    ReadTables(&figures);
    processes.push_back(std::move(figures));
  }
  return processes;
}

std::string KernelRowName(const std::string& demangled) {
  return demangled;  // the Kernel Summary keeps whole names; only its text rendering shortens them
}

std::string CollectiveKey(const std::string& name) {
  return absl::AsciiStrToUpper(absl::StrReplaceAll(name, {{"_", ""}}));
}

const SummaryTable& TableOf(const ProcessFigures& figures, const std::string& key) {
  for (const SummaryTable& table : figures.report.tables) {
    if (table.key == key) return table;
  }
  FAIL("no table " << key);
  return figures.report.tables.at(0);
}

const Cell& CellOf(const SummaryTable& table, const Row& row, const std::string& key) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].key == key) return row.cells.at(i);
  }
  FAIL("no column " << key);
  return row.cells.at(0);
}

const Row& TopRow(const SummaryTable& table, const std::string& name) {
  for (const Row& row : table.rows) {
    if (row.kind == Row::Kind::kData && row.indent == 0 && row.cells[0].text == name) return row;
  }
  FAIL("no row " << name);
  return table.rows.at(0);
}

}  // namespace prof::analyzer::e2e
