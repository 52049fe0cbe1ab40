// The pipeline hands each process's readable windows to one consumer, in window order,
// each read once, and lists every file it could not read exactly once.
#include "analyzer/pipeline/run_processes.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/read/trace_file_loader.h"
#include "analyzer/testing/scratch.h"
#include "analyzer/testing/synthetic_trace.h"

namespace prof::analyzer {
namespace {

struct Seen {
  std::vector<uint32_t> windows;  // window_index of each window handed over, in order
  std::vector<size_t> slice_indices;  // of each slice handed over, in order
  int finished = 0;
  size_t finished_files_read = 0;
};

class Recorder : public ProcessConsumer {
 public:
  explicit Recorder(Seen* seen) : seen_(seen) {}
  void AddWindow(TraceModel window) override {
    seen_->windows.push_back(window.headers.front().window_index());
  }
  void AddSlice(TraceModel slice, const std::string& path, size_t index) override {
    seen_->slice_indices.push_back(index);
    CHECK(path.find("window") != std::string::npos);
    AddWindow(std::move(slice));
  }
  void Finish(const ProcessOutcome& outcome) override {
    ++seen_->finished;
    seen_->finished_files_read = outcome.files_read;
  }

 private:
  Seen* seen_;
};

// A folder of 4 window files of one process and a file that is not a trace.
std::string FourWindowsAndJunk() {
  const std::string folder = testing::ScratchFolder("pipeline");
  REQUIRE(WriteSyntheticTrace(folder, 20000, 4) > 0);
  std::ofstream(folder + "/junk.pb") << "not a trace";
  return folder;
}

TEST_CASE("each window reaches the process's consumer once, in window order; junk is one line") {
  absl::StatusOr<Inputs> inputs = OpenInputs({FourWindowsAndJunk()});
  REQUIRE(inputs.ok());
  REQUIRE(inputs->processes.size() == 1);
  CHECK(inputs->FileCount() == 4);
  REQUIRE(inputs->unreadable.size() == 1);
  CHECK(inputs->unreadable[0].find("junk.pb") != std::string::npos);

  Seen seen;
  const RunSummary run = RunProcesses(*inputs, RunOptions{},
                                      [&](size_t) { return std::make_unique<Recorder>(&seen); });
  CHECK(seen.windows == std::vector<uint32_t>{0, 1, 2, 3});
  CHECK(seen.finished == 1);
  CHECK(seen.finished_files_read == 4);
  CHECK(run.files_read == 4);
  CHECK(run.unreadable == inputs->unreadable);
}

TEST_CASE("--window K: only that window reaches the consumer") {
  absl::StatusOr<Inputs> inputs = OpenInputs({FourWindowsAndJunk()});
  REQUIRE(inputs.ok());
  RunOptions options;
  options.window = 2;
  Seen seen;
  const RunSummary run =
      RunProcesses(*inputs, options, [&](size_t) { return std::make_unique<Recorder>(&seen); });
  CHECK(seen.windows == std::vector<uint32_t>{2});
  CHECK(run.files_read == 1);
}

TEST_CASE("a window decoded by an earlier pass is handed over, not read again") {
  absl::StatusOr<Inputs> inputs = OpenInputs({FourWindowsAndJunk()});
  REQUIRE(inputs.ok());
  const std::vector<std::string>& paths = inputs->processes[0].paths;
  std::map<std::string, TraceModel> decoded;
  absl::StatusOr<TraceModel> first = LoadTraceFile(paths[0]);
  REQUIRE(first.ok());
  decoded[paths[0]] = *std::move(first);
  // Gone from disk after grouping: the decoded window still arrives, the others' loss is
  // one line each.
  REQUIRE(std::remove(paths[0].c_str()) == 0);
  REQUIRE(std::remove(paths[3].c_str()) == 0);
  RunOptions options;
  options.decoded = &decoded;
  options.threads = 2;  // read-ahead on: one process, two threads
  Seen seen;
  const RunSummary run =
      RunProcesses(*inputs, options, [&](size_t) { return std::make_unique<Recorder>(&seen); });
  CHECK(seen.windows == std::vector<uint32_t>{0, 1, 2});
  CHECK(run.files_read == 3);
  REQUIRE(run.unreadable.size() == 2);  // junk.pb, then window 3
  CHECK(run.unreadable[1].find(paths[3]) != std::string::npos);
}

TEST_CASE("with slices, a large window reaches the consumer as several, counted as one file") {
  const std::string folder = testing::ScratchFolder("pipeline_sliced");
  // Two windows of 150000 events: three chunks and 30 steps each.
  REQUIRE(WriteSyntheticTrace(folder, 300000, 2) > 0);
  absl::StatusOr<Inputs> inputs = OpenInputs({folder});
  REQUIRE(inputs.ok());
  RunOptions options;
  options.slices = SliceOptions{0, 1};  // every file sliced, a segment per chunk
  options.threads = 2;                  // read-ahead on: not for sliced files
  Seen seen;
  RunSummary run =
      RunProcesses(*inputs, options, [&](size_t) { return std::make_unique<Recorder>(&seen); });
  CHECK(run.files_read == 2);
  CHECK(seen.finished_files_read == 2);
  REQUIRE(seen.windows.size() >= 4);
  CHECK(std::is_sorted(seen.windows.begin(), seen.windows.end()));
  CHECK(seen.windows.front() == 0);
  CHECK(seen.windows.back() == 1);
  // Numbered from 0 in each file: 0 1 .. 0 1 ..
  REQUIRE(seen.slice_indices.size() == seen.windows.size());
  CHECK(std::count(seen.slice_indices.begin(), seen.slice_indices.end(), size_t{0}) == 2);
  for (size_t i = 1; i < seen.slice_indices.size(); ++i) {
    if (seen.slice_indices[i] != 0) CHECK(seen.slice_indices[i] == seen.slice_indices[i - 1] + 1);
  }

  options.window = 1;
  Seen only;
  run = RunProcesses(*inputs, options, [&](size_t) { return std::make_unique<Recorder>(&only); });
  CHECK(run.files_read == 1);
  CHECK(only.windows.size() >= 2);
  CHECK(static_cast<size_t>(std::count(only.windows.begin(), only.windows.end(), 1u)) ==
        only.windows.size());
}

TEST_CASE("a missing PATH stops OpenInputs and is one line of OpenEachInput") {
  const std::string folder = FourWindowsAndJunk();
  CHECK(!OpenInputs({folder, folder + "/absent.pb"}).ok());
  const Inputs inputs = OpenEachInput({folder + "/absent.pb", folder});
  CHECK(inputs.FileCount() == 4);
  REQUIRE(inputs.unreadable.size() == 2);
  CHECK(inputs.unreadable[0].find("absent.pb: no such file") != std::string::npos);
}

}  // namespace
}  // namespace prof::analyzer
