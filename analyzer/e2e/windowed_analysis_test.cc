// A cycling schedule writes one trace file per recording window. profanalyze analyzes a
// process one window at a time (AnalyzeInputs: each window's events are dropped once its
// figures are added); the tables must equal those of all windows merged into one model
// first (LoadInputs + BuildProcessReport), number for number.
#include <unistd.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/cli/analyze_inputs.h"
#include "analyzer/testing/load_inputs.h"
#include "analyzer/e2e/workload_runner.h"
#include "analyzer/read/input_paths.h"
#include "analyzer/read/trace_file_loader.h"
#include "analyzer/render/report_text.h"
#include "analyzer/summary/report.h"
#include "analyzer/testing/scratch.h"

namespace prof::analyzer::e2e {
namespace {

TEST_CASE("windows analyzed one at a time give the tables of the merged windows") {
  const std::string output = FreshFolder("windowed");
  const absl::Status run =
      RunUnderAgent({{Runfile("testdata/workloads/train"),
                      {"--steps", "14", "--batch-size", "8"},
                      {{"PROF_SCHEDULE", "closed=1,ready=1,record=2,repeat=3"}}}},
                    output);
  INFO(run.ToString());
  REQUIRE(run.ok());

  // Each window's file holds its own steps' ranges: every step starts with a Dataloader
  // range, and the first one of a window is recorded into that window even when the
  // writer learns of the window after the range has ended.
  absl::StatusOr<std::vector<std::string>> files = ExpandInputPaths({output});
  REQUIRE(files.ok());
  REQUIRE(files->size() == 3);
  for (const std::string& file : *files) {
    absl::StatusOr<TraceModel> window = LoadTraceFile(file);
    REQUIRE(window.ok());
    int steps = 0, dataloaders = 0;
    for (const HostRange& range : window->ranges) {
      steps += range.type == RangeType::kProfileStep;
      dataloaders += range.type == RangeType::kDataloader;
    }
    INFO(file);
    CHECK(steps == 2);
    CHECK(dataloaders == 2);
  }

  const ViewSet views = AllViews();
  absl::StatusOr<AnalyzedInputs> streamed = AnalyzeInputs({output}, SummaryOptions{}, views, 1);
  REQUIRE(streamed.ok());
  REQUIRE(streamed->reports.size() == 1);
  CHECK(streamed->files_read == 3);
  CHECK(streamed->reports[0].files.size() == 3);
  CHECK(streamed->reports[0].step_count == 6);

  absl::StatusOr<LoadedInputs> loaded = LoadInputs({output}, 1);
  REQUIRE(loaded.ok());
  REQUIRE(loaded->processes.size() == 1);
  std::vector<ProcessReport> merged;
  merged.push_back(BuildProcessReport(std::move(loaded->processes[0]), SummaryOptions{}, views));

  const std::string streamed_text =
      RenderReportsText(streamed->reports, std::nullopt, TimeUnit::kMicroseconds);
  const std::string merged_text = RenderReportsText(merged, std::nullopt, TimeUnit::kMicroseconds);
  INFO(testing::FirstDifferentLine(streamed_text, merged_text));
  CHECK(streamed_text == merged_text);
  CHECK(streamed_text.find("Kernel Summary") != std::string::npos);
  CHECK(streamed_text.find("Steps: 6 recorded") != std::string::npos);

  // The agent's CPU readings at each window's open and close: paddle's CPU rows.
  std::map<std::string, double> device_rows;
  for (const SummaryTable& table : streamed->reports[0].tables) {
    if (table.key != "device") continue;
    for (const Row& row : table.rows) {
      if (row.kind == Row::Kind::kData) device_rows[row.cells[0].text] = row.cells[1].value;
    }
  }
  REQUIRE(device_rows.count("CPU(Process)") == 1);
  CHECK(device_rows["CPU(Process)"] > 0);
  CHECK(device_rows["CPU(Process)"] <= 1.05 * sysconf(_SC_NPROCESSORS_ONLN));
  // /proc/stat counts 10 ms ticks; these windows are shorter, so the row may be absent.
  if (device_rows.count("CPU(System)")) {
    CHECK(device_rows["CPU(System)"] >= 0);
    CHECK(device_rows["CPU(System)"] <= 1);
  }
}

TEST_CASE("a range open across PROF_STEPS_PER_FILE boundaries goes on in the next file, whole") {
  const std::string output = FreshFolder("split_epoch");
  const absl::Status run = RunUnderAgent(
      // 40 steps take over 100 ms: the first files are finished (30 ms after their end)
      // while the range is still open.
      {{Runfile("testdata/workloads/train"),
        {"--steps", "40", "--batch-size", "8", "--epoch-range", "1"},
        {{"PROF_STEPS_PER_FILE", "2"}}}},
      output);
  INFO(run.ToString());
  REQUIRE(run.ok());
  absl::StatusOr<LoadedInputs> loaded = LoadInputs({output}, 1);
  REQUIRE(loaded.ok());
  REQUIRE(loaded->processes.size() == 1);
  const TraceModel& model = loaded->processes[0];
  CHECK(model.files.size() == 21);  // 41 steps: 40 and the one closed at exit
  // Each file's header names the steps it was meant to hold: [2k, 2k + 2).
  for (const trace::FileHeader& header : model.headers) {
    INFO("file " << header.window_index());
    CHECK(header.window_first_step() == 2 * static_cast<int64_t>(header.window_index()));
    CHECK(header.window_end_step() == header.window_first_step() + 2);
  }
  CHECK(model.quality.losses.count("LOSS_KIND_RANGE_OPEN_AT_END") == 0);
  int epochs = 0;
  uint64_t epoch_start = 0, epoch_end = 0, last_step_start = 0;
  for (const HostRange& range : model.ranges) {
    if (model.names.Get(range.name) == "epoch") {
      ++epochs;
      epoch_start = range.start_ns;
      epoch_end = range.end_ns;
    }
    if (range.type == RangeType::kProfileStep)
      last_step_start = std::max(last_step_start, range.start_ns);
  }
  CHECK(epochs == 1);
  // It began in the first file and ended after the last training step began.
  CHECK(epoch_start > 0);
  CHECK(epoch_end > last_step_start);
}

}  // namespace
}  // namespace prof::analyzer::e2e
