// The flight recorder end to end: `train_ranks` on 8 simulated ranks under libprof.so with
// PROF_FLIGHT=1 and no recording window (PROF_SCHEDULE=off); rank 3 stops before
// all-reduce #25 (sleeps), the other 7 block in it. Their writers dump after
// PROF_FLIGHT_HANG_S (1 s), the simulated NCCL times them out (4 s), the launcher then
// SIGTERMs rank 3 (as torchrun does), whose flush handler dumps too. Every rank leaves a
// dump and `profanalyze hang` names rank 3 and #25; without rank 3's dump it names the
// missing rank instead. Run as torchrun runs it (one process per rank, no launcher to
// SIGTERM the others) with rank 3 exiting instead, the other 7 see ncclRemoteError and
// dump for it before they exit; `profanalyze hang` blames the rank with no dump.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "agent/tests/sanitizer_preload.h"
#include "analyzer/e2e/workload_runner.h"
#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer::e2e {
namespace {

namespace fs = std::filesystem;

// What `command` prints (stdout and stderr), and its exit status in `*status`.
std::string Run(const std::string& command, int* status) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  size_t got = 0;
  while ((got = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, got);
  *status = pclose(pipe);
  return output;
}

std::string HangJson(const std::string& folder) {
  int status = 0;
  const std::string out =
      Run(Runfile("analyzer/cli/profanalyze") + " hang " + folder + " --format json", &status);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  return out;
}

// The rank of a dump: its rank in the world communicator (forked ranks have no RANK).
int RankOf(const TraceModel& model) {
  for (const NcclCall& call : model.nccl_calls) {
    if (call.rank_count == 8) return call.comm_rank;
  }
  return -1;
}

TEST_CASE("8 ranks, one stops before all-reduce #25: every rank dumps, hang names it") {
  const std::string out = FreshFolder("flight_hang");
  const std::string command =
      "env LD_PRELOAD=\"" + prof::testing::WithSanitizerRuntime(Runfile("agent/libprof.so")) +
      "\" PROF_CUPTI_LIB=" +
      Runfile("testdata/sim/libcupti.so.13") +
      " PROF_FLIGHT=1 PROF_FLIGHT_HANG_S=1 PROF_SCHEDULE=off PROF_OUTPUT_DIR=" + out +
      " SIM_NCCL_TIMEOUT_MS=4000 " + Runfile("testdata/workloads/train_ranks") +
      " --ranks 8 --steps 14 --group-size 0 --stop-rank 3 --stop-before 25";
  int status = 0;
  const std::string log = Run(command, &status);
  INFO(log);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) != 0);  // the job failed, as a hung job does

  std::set<int> ranks;
  std::string culprit_reason;
  const std::string subset = FreshFolder("flight_hang_without_3");
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string path = entry.path().string();
    REQUIRE(path.find(".flight_") != std::string::npos);  // no window file: the schedule is off
    absl::StatusOr<TraceModel> model = LoadTraceFile(path);
    REQUIRE(model.ok());
    REQUIRE(model->headers.front().has_flight());
    const int rank = RankOf(*model);
    ranks.insert(rank);
    if (rank == 3) culprit_reason = model->headers.front().flight().reason();
    if (rank != 3) fs::copy_file(entry.path(), fs::path(subset) / entry.path().filename());
  }
  CHECK(ranks == std::set<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(culprit_reason == "signal SIGTERM");

  const std::string json = HangJson(out);
  INFO(json);
  CHECK(json.find("\"dumps\":8") != std::string::npos);
  CHECK(json.find("\"missing_ranks\":[]") != std::string::npos);
  CHECK(json.find("\"culprits\":[{\"rank\":3,") != std::string::npos);
  CHECK(json.find("\"seq\":25,\"operation\":\"ALL_REDUCE\",\"dump_missing\":false") != std::string::npos);

  SECTION("without the culprit's dump, the missing rank is named and blamed") {
    const std::string partial = HangJson(subset);
    INFO(partial);
    CHECK(partial.find("\"dumps\":7") != std::string::npos);
    CHECK(partial.find("\"missing_ranks\":[3]") != std::string::npos);
    CHECK(partial.find("\"culprits\":[{\"rank\":3,") != std::string::npos);
    CHECK(partial.find("\"seq\":25,\"operation\":\"ALL_REDUCE\",\"dump_missing\":true") != std::string::npos);
  }
}

// `train_ranks` as 8 separate processes (RANK, WORLD_SIZE) sharing a rendezvous file.
std::string TorchrunStyle(const std::string& out, const std::string& rank_arguments) {
  std::string command = "sh -c 'for r in 0 1 2 3 4 5 6 7; do RANK=$r WORLD_SIZE=8 ";
  // Quoted: under a sanitizer the value is two paths (sanitizer_preload.h).
  command += "LD_PRELOAD=\"" + prof::testing::WithSanitizerRuntime(Runfile("agent/libprof.so")) +
             "\" PROF_CUPTI_LIB=" +
             Runfile("testdata/sim/libcupti.so.13") +
             " PROF_FLIGHT=1 PROF_FLIGHT_HANG_S=60 PROF_SCHEDULE=off PROF_OUTPUT_DIR=" + out +
             " SIM_NCCL_TIMEOUT_MS=30000 " + Runfile("testdata/workloads/train_ranks") +
             " --rendezvous " + out + "/rendezvous " + rank_arguments + " & done; wait'";
  return command;
}

TEST_CASE("one rank exits before all-reduce #25: the others dump on the NCCL error") {
  const std::string out = FreshFolder("flight_nccl_error");
  int status = 0;
  // The hang limit (60 s) and NCCL's timeout (30 s) are far: only the error can dump.
  const std::string log = Run(TorchrunStyle(out, "--steps 14 --group-size 0 --stop-rank 3 "
                                                 "--stop-before 25 --stop-how exit"),
                              &status);
  INFO(log);
  std::set<int> ranks;
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".prof.pb") == std::string::npos) continue;  // the rendezvous file
    REQUIRE(name.find(".flight_0.") != std::string::npos);  // one dump a process
    absl::StatusOr<TraceModel> model = LoadTraceFile(entry.path().string());
    REQUIRE(model.ok());
    REQUIRE(model->headers.front().has_flight());
    CHECK(model->headers.front().flight().reason() == "nccl error: ncclRemoteError");
    ranks.insert(RankOf(*model));
  }
  CHECK(ranks == std::set<int>{0, 1, 2, 4, 5, 6, 7});

  const std::string json = HangJson(out);
  INFO(json);
  CHECK(json.find("\"dumps\":7") != std::string::npos);
  CHECK(json.find("\"missing_ranks\":[3]") != std::string::npos);
  CHECK(json.find("\"culprits\":[{\"rank\":3,") != std::string::npos);
  CHECK(json.find("\"seq\":25,\"operation\":\"ALL_REDUCE\",\"dump_missing\":true") != std::string::npos);
}

}  // namespace
}  // namespace prof::analyzer::e2e
