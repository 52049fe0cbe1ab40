// Concurrency under libprof.so: a forked CUDA-using child writes its own file, a child
// forked while the flight recorder runs dumps only its own activity under its own pid, 70
// threads each keep their call in the flight recorder (7 on small rings), 16
// launching threads lose nothing, and a budget too small counts every record it lost.
#include <signal.h>

#include <cstdint>
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/sanitizer_preload.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/truth_file.h"
#include "agent/tests/under_agent.h"
#include "proto/schema_enums.h"
#include "proto/trace.pb.h"
#include "proto/trace_file_reader.h"

namespace prof::testing {
namespace {

TEST_CASE("fork: each CUDA-using process writes its own file, the parent's is whole") {
  const std::string output = FreshFolder("fork");
  const std::string truth_path = output + "/../fork_truth.json";
  const RunResult run = RunProgram(Program("testdata/workloads/threads_fork_graph"),
                                   {"--threads", "4", "--truth", truth_path}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 2);  // the parent and the CUDA-using child
  CHECK(trace.files[0].pid != trace.files[1].pid);
  const TruthFile parent(truth_path);
  const TruthFile child(output + "/../fork_truth.child_cuda.json");
  REQUIRE(parent.ok());
  REQUIRE(child.ok());
  // Graph replays run kernels without launch calls; the launches made while capturing are
  // real calls whose kernels only run at replay.
  const double graph_nodes = parent.Number({"graph", "nodes"});
  const double replayed = graph_nodes * parent.Number({"graph", "replays"});
  CHECK(Total(trace.launches) == parent.Number({"totals", "kernels", "count"}) - replayed +
                                     graph_nodes + child.Number({"totals", "kernels", "count"}));
}

TEST_CASE("flight recorder and fork: the child's dump is its own, named by its pid") {
  // The child starts its writer thread after a fork of a multi-threaded parent, which
  // TSan does not support (its runtime ends the child: "starting new threads after
  // multi-threaded fork is not supported"): nothing to learn there.
  if (kThreadSanitizerBuild) return;
  const std::string output = FreshFolder("flight_fork");
  const RunResult run =
      RunProgram(Program("agent/tests/flight_fork_program"), {},
                 UnderAgent(output, {{"PROF_FLIGHT", "1"}, {"PROF_SCHEDULE", "off"}}));
  INFO(run.standard_output << run.standard_error);
  REQUIRE(run.exit_code == 0);  // the child ended by SIGTERM, as it meant to
  const size_t at = run.standard_output.find("child ");
  REQUIRE(at != std::string::npos);
  const int64_t child = std::stoll(run.standard_output.substr(at + 6));
  // Nothing dumps in the parent (no hang, no signal); the child dumps at its SIGTERM.
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.files[0].pid == child);
  CHECK(trace.files[0].path.find("_child_" + std::to_string(child) + ".flight_0.prof.pb") !=
        std::string::npos);
  // Its own ranges and steps only: the rings and the step ring forgot the parent's at fork.
  CHECK(trace.ranges == std::map<std::string, uint64_t>{
                            {"child_0", 1}, {"child_1", 1}, {"child_2", 1}});
  CHECK(trace.api_calls.empty());  // the parent's cudaMalloc and cudaMemsets are not there
  CHECK(trace.step_numbers.size() >= 3);
}

TEST_CASE("flight recorder, 70 threads at once: each keeps its call, 7 on small rings") {
  const std::string output = FreshFolder("flight_threads");
  const RunResult run =
      RunProgram(Program("agent/tests/flight_threads_program"), {},
                 UnderAgent(output, {{"PROF_FLIGHT", "1"}, {"PROF_SCHEDULE", "off"}}));
  INFO(run.standard_output << run.standard_error);
  CHECK(run.signal == SIGTERM);  // the program ends itself so; the agent dumps first
  const TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.files[0].path.find(".flight_0.prof.pb") != std::string::npos);
  // 71 threads made calls: the main thread and 63 others took the 64 full rings.
  auto reader = TraceFileReader::Open(trace.files[0].path);
  REQUIRE(reader.ok());
  CHECK((*reader)->header().flight().host_threads_small() == 7);
  CHECK((*reader)->header().flight().host_threads_refused() == 0);
  CHECK(trace.api_calls.at("cudaMemset") == 70);  // every thread's call, none lost
  CHECK(trace.api_calls.at("cudaMalloc") == 1);
  CHECK(trace.losses.empty());
}

TEST_CASE("16 threads launching at once lose nothing") {
  const std::string output = FreshFolder("threads");
  const std::string truth_path = output + "/../threads_truth.json";
  const RunResult run = RunProgram(
      Program("testdata/workloads/launch_stress"),
      {"--threads", "16", "--launches", "160000", "--truth", truth_path}, UnderAgent(output));
  REQUIRE(run.exit_code == 0);
  const TruthFile truth(truth_path);
  TraceSummary trace = SummarizeFolder(output);
  // Every launch is in the trace or counted as lost, and in a normal build none is lost. A
  // sanitizer build's writer runs several times slower, on a machine the sanitizer's own
  // work keeps busy, so buffers may fill there: only the accounting must hold, and the run
  // still gives TSan and ASan 16 threads on the rings at once.
  uint64_t host_lost = 0;
  for (const auto& [kind, count] : trace.losses) {
    if (kind == trace::LOSS_KIND_HOST_BUFFER_FULL || kind == trace::LOSS_KIND_THREAD_LIMIT) {
      host_lost += count;
    }
  }
  CHECK(Total(trace.launches) + host_lost == truth.Number({"totals", "kernels", "count"}));
  if (!kSanitizerBuild) CHECK(trace.losses.empty());
}

TEST_CASE("a drain pass of many launches is written in chunks of at most 16384 events") {
  // A pass drains tens of thousands of launches (4 ms of a full-speed loop, more when the
  // writer waits for a core); a chunk must not take them all (window_file.h's kChunkEvents:
  // its columns would grow past the cache, in fresh pages). 16384 and the drained
  // launches' bookkeeping (the thread's name, the window's anchors) may add a few events.
  const std::string output = FreshFolder("chunk_size");
  const std::string truth_path = output + "/../chunk_size_truth.json";
  const RunResult run =
      RunProgram(Program("testdata/workloads/launch_stress"),
                 {"--launches", "300000", "--truth", truth_path}, UnderAgent(output));
  REQUIRE(run.exit_code == 0);
  const TruthFile truth(truth_path);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(Total(trace.launches) == truth.Number({"totals", "kernels", "count"}));
  CHECK(trace.files[0].complete);
  // Full chunks were written. Under a sanitizer the launch loop runs several times slower
  // and a 4 ms pass drains fewer than 16384 launches (12599 at most in a TSan run): only
  // the upper bound can be checked there.
  if (!kSanitizerBuild) CHECK(trace.files[0].largest_chunk_events >= 16384);
  CHECK(trace.files[0].largest_chunk_events <= 16384 + 16);
  CHECK(trace.files[0].chunks >= 300000 / (16384 + 16));
}

TEST_CASE("a budget too small for the run counts every record it could not keep") {
  const std::string output = FreshFolder("tiny_budget");
  const std::string truth_path = output + "/../tiny_truth.json";
  const RunResult run =
      RunProgram(Program("testdata/workloads/launch_stress"),
                 {"--threads", "8", "--launches", "400000", "--truth", truth_path},
                 UnderAgent(output, {{"PROF_BUFFER_MB", "1"}}));
  REQUIRE(run.exit_code == 0);
  const TruthFile truth(truth_path);
  TraceSummary trace = SummarizeFolder(output);
  const uint64_t lost = trace.losses[schema::LOSS_KIND_HOST_BUFFER_FULL] +
                        trace.losses[schema::LOSS_KIND_THREAD_LIMIT];
  CHECK(lost > 0);
  CHECK(Total(trace.launches) + lost >= truth.Number({"totals", "kernels", "count"}));
}

}  // namespace
}  // namespace prof::testing
