// The buffer pool end to end (issue 12): launch_stress on the simulated runtime, at full
// speed, must leave every launch and every step in the trace at the default budget; with a
// budget far too small it must still keep every step boundary and say, step by step, how
// many records it lost. Expected values come from the workload's flags and ground truth:
// R rounds of T threads x N/(R*T) launches, one step per round.
//
// Not timed: on a loaded machine a run may be slow, never wrong.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/sanitizer_preload.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/truth_file.h"
#include "agent/tests/under_agent.h"
#include "proto/events.h"
#include "proto/schema_enums.h"

namespace prof::testing {
namespace {

uint64_t Total(const std::map<std::string, uint64_t>& counts) {
  uint64_t total = 0;
  for (const auto& [name, count] : counts) total += count;
  return total;
}

struct StressRun {
  TraceSummary trace;
  double truth_launches = 0;
  int64_t per_round = 0;  // launches per round = the samples each round's step reports
};

StressRun RunStress(const std::string& name, int threads, int64_t launches, int rounds,
                    std::map<std::string, std::string> environment = {}) {
  const std::string output = FreshFolder(name);
  const std::string truth_path = output + "/../" + name + "_truth.json";
  const RunResult run =
      RunProgram(Program("testdata/workloads/launch_stress"),
                 {"--threads", std::to_string(threads), "--launches", std::to_string(launches),
                  "--rounds", std::to_string(rounds), "--truth", truth_path},
                 UnderAgent(output, std::move(environment)));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  StressRun result;
  result.trace = SummarizeFolder(output);
  const TruthFile truth(truth_path);
  REQUIRE(truth.ok());
  result.truth_launches = truth.Number({"totals", "kernels", "count"});
  result.per_round = launches / (int64_t{rounds} * threads) * threads;
  return result;
}

// The rounds' steps: those that report the round's launch count as their samples.
std::vector<size_t> RoundSteps(const StressRun& run) {
  std::vector<size_t> steps;
  for (size_t i = 0; i < run.trace.step_samples.size(); ++i) {
    if (run.trace.step_samples[i] == run.per_round) steps.push_back(i);
  }
  return steps;
}

// Host records lost (the agent's buffers); CUPTI's own drops of device activity records
// (LOSS_KIND_CUPTI_*) are the simulated CUPTI's buffers, not this path's.
uint64_t HostLosses(const TraceSummary& trace) {
  uint64_t lost = 0;
  for (int kind : {schema::LOSS_KIND_HOST_BUFFER_FULL, schema::LOSS_KIND_THREAD_LIMIT,
                   schema::LOSS_KIND_CONTROL_RECORD_LOST, schema::LOSS_KIND_HOST_RANGE_DROPPED}) {
    auto found = trace.losses.find(kind);
    if (found != trace.losses.end()) lost += found->second;
  }
  return lost;
}

std::string LossText(const TraceSummary& trace) {
  std::string text;
  for (const auto& [kind, count] : trace.losses) {
    text += "kind " + std::to_string(kind) + ": " + std::to_string(count) + "; ";
  }
  return text;
}

uint64_t LaunchesWithin(const TraceSummary& trace, std::pair<uint64_t, uint64_t> span) {
  return std::count_if(trace.launch_start_ns.begin(), trace.launch_start_ns.end(),
                       [&](uint64_t start) { return start >= span.first && start < span.second; });
}

TEST_CASE("one thread launching at full speed: every call and every step") {
  const int rounds = 10;
  const StressRun run = RunStress("pool_one_thread", 1, 1000000, rounds);
  CHECK(RoundSteps(run).size() == rounds);
  if (kSanitizerBuild) return;  // a sanitizer's writer is too slow to promise no loss
  INFO(LossText(run.trace));
  CHECK(HostLosses(run.trace) == 0);
  CHECK(Total(run.trace.launches) == run.truth_launches);
}

TEST_CASE("eight threads launching at full speed: every call and every step") {
  const int rounds = 10;
  const StressRun run = RunStress("pool_eight_threads", 8, 800000, rounds);
  CHECK(RoundSteps(run).size() == rounds);
  if (kSanitizerBuild) return;
  INFO(LossText(run.trace));
  CHECK(HostLosses(run.trace) == 0);
  CHECK(Total(run.trace.launches) == run.truth_launches);
}

TEST_CASE("a budget far too small keeps every step boundary and counts the loss per step") {
  const int rounds = 10;
  // 1 MiB holds about 9,000 records; the run makes 400,000 in bursts of 40,000.
  const StressRun run = RunStress("pool_tiny_budget", 8, 400000, rounds, {{"PROF_BUFFER_MB", "1"}});
  const TraceSummary& trace = run.trace;
  const std::vector<size_t> steps = RoundSteps(run);
  REQUIRE(steps.size() == rounds);
  CHECK(trace.losses.count(schema::LOSS_KIND_CONTROL_RECORD_LOST) == 0);
  uint64_t lost_in_steps = 0;
  for (size_t i : steps) {
    const int64_t step = trace.step_numbers[i];
    INFO("step " << step);
    uint64_t lost = 0;
    auto found = trace.losses_by_step.find(step);
    if (found != trace.losses_by_step.end()) {
      for (const auto& [kind, count] : found->second) lost += count;
    }
    // Each launch of the round is in the trace, inside its step, or counted lost in it.
    CHECK(LaunchesWithin(trace, trace.step_spans[i]) + lost ==
          static_cast<uint64_t>(run.per_round));
    lost_in_steps += lost;
  }
  CHECK(lost_in_steps > 0);
  CHECK(Total(trace.launches) + lost_in_steps == run.truth_launches);
}

}  // namespace
}  // namespace prof::testing
