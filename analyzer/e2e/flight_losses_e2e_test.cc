// The flight recorder end to end, what a dump could not keep and the step it cut short:
// `train_ranks` on 4 simulated ranks with host rings of 64 entries (about two steps of a
// thread's CUDA calls and ranges), rank 1 stopping before all-reduce #25 inside Backward.
// Every dump counts what its host rings overwrote as loss records (Data Quality) and
// `profanalyze hang` prints their sum; the culprit's dump holds the step in progress at
// the dump, marked open, so its Backward (open since rank 1 stopped) lies inside the steps
// and the Overview's ratio for it stays within 100%.
#include <sys/wait.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analyzer/e2e/flight_e2e_support.h"
#include "analyzer/e2e/workload_runner.h"
#include "analyzer/read/trace_file_loader.h"
#include "proto/events.h"

namespace prof::analyzer::e2e {
namespace {

namespace fs = std::filesystem;

struct Dump {
  std::string path;
  TraceModel model;
};

int RankOf(const TraceModel& model) {
  for (const NcclCall& call : model.nccl_calls) {
    if (call.rank_count == 4) return call.comm_rank;
  }
  return -1;
}

// The Overview's "Ratio (%)" of `row` (its fourth column) in `profanalyze PATH`'s text.
double OverviewRatio(const std::string& text, const std::string& row) {
  const size_t table = text.find("Overview Summary");
  if (table == std::string::npos) return -1;
  const size_t at = text.find(" " + row + " ", table);  // indented under ProfileStep
  if (at == std::string::npos) return -1;
  std::istringstream line(text.substr(at + row.size() + 2));
  double calls = 0, cpu = 0, ratio = -1;
  line >> calls >> cpu >> ratio;
  return ratio;
}

TEST_CASE("host ring losses are counted in every dump and by hang; the hung step is kept open") {
  const std::string out = FreshFolder("flight_losses");
  int status = 0;
  const std::string log = RunCommand(
      FlightRanks(4, out,
                  "PROF_FLIGHT_HOST_ENTRIES=64 " + HangLimits(),
                  "--steps 14 --group-size 0 --stop-rank 1 --stop-before 25"),
      &status);
  INFO(log);
  // The latest dump of each rank: the one `hang` reads.
  std::map<int, Dump> latest;
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string path = entry.path().string();
    if (path.find(".flight_") == std::string::npos) continue;
    absl::StatusOr<TraceModel> model = LoadTraceFile(path);
    REQUIRE(model.ok());
    const trace::FlightDump& flight = model->headers.front().flight();
    // Each dump's host ring losses are loss records too, with the header's counts.
    CHECK(flight.host_entries() == 64);
    CHECK(flight.host_overwritten() > 0);  // 14 steps of ~30 entries each on the main thread
    CHECK(model->quality.losses["LOSS_KIND_FLIGHT_HOST_OVERWRITTEN"] == flight.host_overwritten());
    CHECK(model->quality.losses["LOSS_KIND_FLIGHT_HOST_THREAD_REFUSED"] == 0);
    const int rank = RankOf(*model);
    auto it = latest.find(rank);
    if (it == latest.end() ||
        it->second.model.headers.front().flight().dump_ns() < flight.dump_ns()) {
      latest[rank] = {path, std::move(*model)};
    }
  }
  REQUIRE(latest.size() == 4);
  uint64_t overwritten = 0;
  for (const auto& [rank, dump] : latest)
    overwritten += dump.model.headers.front().flight().host_overwritten();

  const std::string json = HangJson(out);
  INFO(json);
  CHECK(json.find("\"culprits\":[{\"rank\":1,") != std::string::npos);
  CHECK(json.find("\"host_overwritten\":" + std::to_string(overwritten) + ",") !=
        std::string::npos);
  CHECK(json.find("\"host_threads_refused\":0") != std::string::npos);
  CHECK(json.find("\"last_range\":\"Backward (open at the dump)\"") != std::string::npos);
  const std::string text =
      RunCommand(Runfile("analyzer/cli/profanalyze") + " hang " + out, &status);
  INFO(text);
  CHECK(text.find("Not kept by the recorders (not in the dumps): NCCL calls: ") !=
        std::string::npos);
  CHECK(text.find("CUDA calls and ranges: " + std::to_string(overwritten) + " overwritten") !=
        std::string::npos);

  // The culprit's dump: the step in progress is written, ending at the dump, marked open,
  // and the Backward open since rank 1 stopped lies inside it.
  const Dump& culprit = latest.at(1);
  const uint64_t dump_ns = culprit.model.headers.front().flight().dump_ns();
  const HostRange* open_step = nullptr;
  int64_t last_completed = -1;
  for (const HostRange& range : culprit.model.ranges) {
    if (range.type != RangeType::kProfileStep) continue;
    if (range.sample_count == kStepOpenAtExit) {
      open_step = &range;
    } else {
      last_completed = std::max(last_completed, range.step_number);
    }
  }
  REQUIRE(open_step != nullptr);
  CHECK(open_step->end_ns == dump_ns);
  // Two world all-reduces a step (the gradient buckets), from step 0: #25 is step 12's
  // first, so steps 0-11 completed and 12 was in progress.
  CHECK(last_completed == 11);
  CHECK(open_step->step_number == 12);
  CHECK(json.find("\"last_step\":" + std::to_string(last_completed) + ",") != std::string::npos);
  const HostRange* backward = nullptr;
  for (const HostRange& range : culprit.model.ranges) {
    if (culprit.model.names.Get(range.name) == "Backward" && range.end_ns == dump_ns)
      backward = &range;
  }
  REQUIRE(backward != nullptr);
  CHECK(backward->start_ns >= open_step->start_ns);
  CHECK(culprit.model.quality.losses.at("LOSS_KIND_RANGE_OPEN_AT_END") >= 1);

  const std::string summary =
      RunCommand(Runfile("analyzer/cli/profanalyze") + " " + culprit.path, &status);
  INFO(summary);
  const double backward_ratio = OverviewRatio(summary, "Backward");
  CHECK(backward_ratio > 0);
  CHECK(backward_ratio <= 100.0);
  CHECK(NumberAfter(summary, "CUDA calls and ranges overwritten in the flight rings") ==
        static_cast<long long>(culprit.model.headers.front().flight().host_overwritten()));
  CHECK(NumberAfter(summary, "ranges open at the file's end") >= 1);
}

}  // namespace
}  // namespace prof::analyzer::e2e
