// libprof and another CUPTI client in one program (cupti/cupti_neighbours.h), both orders,
// with the Kineto stand-in of the simulated platform (testdata/sim/kineto) making the
// calls torch.profiler's Kineto makes. neighbour_app runs 2 kernels a step, 2 ms a step.
#include <string>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/under_agent.h"
#include "proto/schema_enums.h"

namespace prof::testing {
namespace {

constexpr uint64_t kKernelsPerStep = 2;

struct Outcome {
  RunResult run;
  TraceSummary trace;
  int kineto_gpu = -1;
  long kineto_kernels = -1;
};

Outcome Run(const std::string& name, const std::string& schedule,
            std::vector<std::string> arguments) {
  Outcome outcome;
  const std::string output = FreshFolder(name);
  arguments.insert(arguments.end(), {"--step-us", "2000"});
  outcome.run = RunProgram(Program("testdata/workloads/neighbour_app"), arguments,
                           UnderAgent(output, {{"PROF_SCHEDULE", schedule}}));
  std::sscanf(outcome.run.standard_output.c_str(), "kineto_gpu %d\nkineto_kernels %ld",
              &outcome.kineto_gpu, &outcome.kineto_kernels);
  outcome.trace = SummarizeFolder(output);
  return outcome;
}

uint64_t Paused(const TraceSummary& trace) {
  const auto it = trace.losses.find(schema::LOSS_KIND_DEVICE_TRACING_PAUSED);
  return it == trace.losses.end() ? 0 : it->second;
}

TEST_CASE("torch.profiler first: it keeps its kernels; libprof waits, then records again") {
  // Kineto subscribes at step 0, traces steps 1-5, unsubscribes at step 12; libprof's
  // window is steps 3-27. The program pauses 300 ms after the unsubscription, so the writer
  // (a pass every 10 ms) takes CUPTI back before step 12's kernels even on a loaded machine
  // under a sanitizer; without the pause, 16 ms of steps raced it (a TSan run kept 4 steps).
  const Outcome outcome =
      Run("kineto_first", "skip_first=2,ready=1,record=25,repeat=1",
          {"--steps", "30", "--kineto-init", "0", "--kineto-trace", "1:6", "--kineto-shutdown",
           "12", "--shutdown-pause-us", "300000"});
  INFO(outcome.run.standard_error);
  REQUIRE(outcome.run.exit_code == 0);
  CHECK(outcome.kineto_gpu == 1);
  CHECK(outcome.kineto_kernels == 5 * kKernelsPerStep);
  CHECK(outcome.trace.step_numbers.size() == 25);
  // Device activity again from step 12 on (steps 12-27), all 16 steps whole given the pause;
  // two steps of slack for CUPTI's enabling on a loaded machine.
  const uint64_t kernels = Total(outcome.trace.kernels);
  CHECK(kernels >= (28 - 12 - 2) * kKernelsPerStep);
  CHECK(kernels <= (28 - 12) * kKernelsPerStep);
  CHECK(outcome.trace.unmatched_device_records == 0);
  CHECK(Paused(outcome.trace) == 1);
  CHECK(outcome.run.standard_error.find("holds CUPTI: libprof records host activity only") !=
        std::string::npos);
}

TEST_CASE("libprof first: torch.profiler started in a window gets all its kernels") {
  // libprof's window is steps 2-16; Kineto subscribes at step 6 and traces steps 6-9.
  const Outcome outcome = Run("agent_first", "skip_first=1,ready=1,record=15,repeat=1",
                              {"--steps", "20", "--kineto-init", "6", "--kineto-trace", "6:10"});
  INFO(outcome.run.standard_error);
  REQUIRE(outcome.run.exit_code == 0);
  CHECK(outcome.kineto_gpu == 1);
  CHECK(outcome.kineto_kernels == 4 * kKernelsPerStep);
  // Steps 2-5 recorded whole before libprof let go; Kineto holds CUPTI to the end.
  CHECK(Total(outcome.trace.kernels) == 4 * kKernelsPerStep);
  CHECK(outcome.trace.unmatched_device_records == 0);
  CHECK(Paused(outcome.trace) == 1);
}

TEST_CASE("libprof's own operator collection: Kineto carries on CPU-only, every kernel kept") {
  const Outcome outcome =
      Run("own_collection", "skip_first=1,ready=1,record=15,repeat=1",
          {"--steps", "20", "--kineto-init", "6", "--kineto-trace", "6:10", "--own-collection"});
  INFO(outcome.run.standard_error);
  REQUIRE(outcome.run.exit_code == 0);
  CHECK(outcome.kineto_gpu == 0);
  CHECK(outcome.kineto_kernels == 0);
  CHECK(Total(outcome.trace.kernels) == 15 * kKernelsPerStep);
  CHECK(outcome.trace.unmatched_device_records == 0);
  CHECK(Paused(outcome.trace) == 0);
}

}  // namespace
}  // namespace prof::testing
