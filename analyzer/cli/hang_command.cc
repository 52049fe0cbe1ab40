#include "analyzer/cli/hang_command.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <utility>

#include "analyzer/cli/hang_dump.h"
#include "analyzer/cli/hang_render.h"
#include "analyzer/job/hang_analysis.h"
#include "analyzer/pipeline/run_processes.h"

namespace prof::analyzer {
namespace {

struct LoadedDumps {
  std::vector<RankDump> dumps;
  size_t not_flight = 0;
  std::vector<std::string> unreadable;
};

// Hang as a pipeline consumer: every window file's dump; per process (host, pid) only
// the latest (largest dump time). Processes are read one at a time (threads 1). A large
// file comes in slices (DumpBuilder carries the dump across them), so a dump of any size
// is read one slice at a time; a large file that is no dump is decoded but not kept.
class DumpConsumer : public ProcessConsumer {
 public:
  using Latest = std::map<std::pair<std::string, int64_t>, std::pair<uint64_t, RankDump>>;
  DumpConsumer(Latest* latest, size_t* not_flight) : latest_(latest), not_flight_(not_flight) {}
  void AddWindow(TraceModel model) override {
    EndFile();
    if (Start(model)) EndFile();
  }
  void AddSlice(TraceModel slice, const std::string&, size_t index) override {
    if (index == 0) {
      EndFile();
      Start(slice);
    } else if (building_) {
      builder_.Add(slice);
    }
  }
  void Finish(const ProcessOutcome&) override { EndFile(); }

 private:
  // The first (or only) part of a file; false when it is not a flight dump, or not later
  // than the dump already kept for its process.
  bool Start(const TraceModel& model) {
    if (model.headers.empty() || !model.headers.front().has_flight()) {
      ++*not_flight_;
      return false;
    }
    const trace::FileHeader& header = model.headers.front();
    key_ = std::make_pair(header.host_name(), header.pid());
    dump_ns_ = header.flight().dump_ns();
    auto it = latest_->find(key_);
    if (it != latest_->end() && it->second.first >= dump_ns_) return false;
    building_ = true;
    builder_.Add(model);
    return true;
  }
  void EndFile() {
    if (!building_) return;
    building_ = false;
    (*latest_)[key_] = {dump_ns_, builder_.Finish()};
  }

  Latest* latest_;
  size_t* not_flight_;
  DumpBuilder builder_;
  bool building_ = false;
  std::pair<std::string, int64_t> key_;
  uint64_t dump_ns_ = 0;
};

LoadedDumps LoadDumps(const Inputs& inputs) {
  LoadedDumps loaded;
  DumpConsumer::Latest latest;
  RunOptions options;
  options.slices = SliceOptions();
  RunSummary run = RunProcesses(inputs, options, [&](size_t) {
    return std::make_unique<DumpConsumer>(&latest, &loaded.not_flight);
  });
  loaded.unreadable = std::move(run.unreadable);
  for (auto& [key, entry] : latest) loaded.dumps.push_back(std::move(entry.second));
  return loaded;
}

}  // namespace

CLI::App* AddHangCommand(CLI::App* app, HangCommandOptions* options) {
  CLI::App* command = app->add_subcommand(
      "hang",
      "name the rank(s) a hung job waits for, from its flight-recorder dumps (PROF_FLIGHT=1)");
  command->add_option("paths", options->paths, "flight dumps or folders holding them")->required();
  command->add_option("--format", options->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  return command;
}

int RunHangCommand(const HangCommandOptions& options) {
  absl::StatusOr<Inputs> inputs = OpenInputs(options.paths);
  if (!inputs.ok()) {
    std::fprintf(stderr, "profanalyze hang: %s\n", std::string(inputs.status().message()).c_str());
    return 2;
  }
  LoadedDumps loaded = LoadDumps(*inputs);
  for (const std::string& message : loaded.unreadable)
    std::fprintf(stderr, "profanalyze hang: %s\n", message.c_str());
  if (loaded.not_flight > 0) {
    std::fprintf(stderr, "profanalyze hang: %zu trace file(s) are not flight dumps; skipped\n",
                 loaded.not_flight);
  }
  if (loaded.dumps.empty()) {
    std::fprintf(stderr, "profanalyze hang: no flight dump found (run with PROF_FLIGHT=1)\n");
    return 1;
  }
  const HangReport report = AnalyzeHang(std::move(loaded.dumps));
  const std::string out =
      options.format == "json" ? RenderHangJson(report) : RenderHangText(report);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace prof::analyzer
