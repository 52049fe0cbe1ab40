// The flight recorder end to end: `train_ranks` on 8 simulated ranks under libprof.so with
// PROF_FLIGHT=1 and no recording window (PROF_SCHEDULE=off); rank 3 stops before
// all-reduce #25 (sleeps), the other 7 block in it. Their writers dump after
// PROF_FLIGHT_HANG_S (1 s), the simulated NCCL times them out (4 s; longer under a
// sanitizer: HangLimits), the launcher then SIGTERMs rank 3 (as torchrun does), whose flush
// handler dumps too. Every rank leaves a
// dump and `profanalyze hang` names rank 3 and #25 and what it did last (its last CUDA
// call, range and kernel launch); without rank 3's dump it names the
// missing rank instead. Run as torchrun runs it (one process per rank, no launcher to
// SIGTERM the others) with rank 3 exiting instead, the other 7 see ncclRemoteError and
// dump for it before they exit; `profanalyze hang` blames the rank with no dump.
// Also: a mismatched collective (one rank broadcasts where the others all-reduce) flagged,
// with rings too small for the run (the overwritten calls counted); a slow step dumped
// once; a shared trigger folder through which the hung ranks make the culprit dump too.
// And a hang on the GPU: every host call returns (as real NCCL's do) and one rank's
// all-reduce never starts behind a stuck kernel; the CUDA events around each call show it.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/tests/sanitizer_preload.h"
#include "analyzer/e2e/flight_e2e_support.h"
#include "analyzer/e2e/workload_runner.h"
#include "analyzer/read/trace_file_loader.h"

namespace prof::analyzer::e2e {
namespace {

namespace fs = std::filesystem;

// `train_ranks --ranks 8 ...` under the agent with the flight recorder on.
std::string EightRanks(const std::string& out, const std::string& environment,
                       const std::string& arguments) {
  return FlightRanks(8, out, environment, arguments);
}

std::string Run(const std::string& command, int* status) { return RunCommand(command, status); }

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
      EightRanks(out, HangLimits(),
                 "--steps 14 --group-size 0 --stop-rank 3 --stop-before 25");
  int status = 0;
  const std::string log = Run(command, &status);
  INFO(log);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) != 0);  // the job failed, as a hung job does

  std::set<int> ranks;
  std::string culprit_reason;
  size_t culprit_api_calls = 0;
  std::string culprit_path;
  const std::string subset = FreshFolder("flight_hang_without_3");
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string path = entry.path().string();
    REQUIRE(path.find(".flight_") != std::string::npos);  // no window file: the schedule is off
    absl::StatusOr<TraceModel> model = LoadTraceFile(path);
    REQUIRE(model.ok());
    REQUIRE(model->headers.front().has_flight());
    const int rank = RankOf(*model);
    ranks.insert(rank);
    if (rank == 3) {
      culprit_reason = model->headers.front().flight().reason();
      culprit_api_calls = model->api_calls.size();
      culprit_path = path;
    }
    if (rank != 3) fs::copy_file(entry.path(), fs::path(subset) / entry.path().filename());
  }
  CHECK(ranks == std::set<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(culprit_reason == "signal SIGTERM");

  const std::string json = HangJson(out);
  INFO(json);
  CHECK(json.find("\"dumps\":8") != std::string::npos);
  CHECK(json.find("\"missing_ranks\":[]") != std::string::npos);
  CHECK(json.find("\"culprits\":[{\"rank\":3,") != std::string::npos);
  CHECK(json.find("\"seq\":25,\"operation\":\"ALL_REDUCE\",\"dump_missing\":false") !=
        std::string::npos);
  // What rank 3 did last, as train_ranks does it: in backward (NVTX "Backward", still open),
  // after the second matmul_grad's launches (kSgemmGradX2 is volta_sgemm_64x32_sliced1x4_nt,
  // on the compute stream), bucket 1's ready hook waits on the event with
  // cudaStreamWaitEvent and then stops before the all-reduce (collective_stop.cc).
  CHECK(json.find("\"last_api_call\":\"cudaStreamWaitEvent (returned)\"") != std::string::npos);
  CHECK(json.find("\"last_range\":\"Backward (open at the dump)\"") != std::string::npos);
  CHECK(json.find("\"last_kernel\":\"volta_sgemm_64x32_sliced1x4_nt on stream 0x") !=
        std::string::npos);
  // The host activity is ordinary trace data in the culprit's dump (no window was open).
  CHECK(culprit_api_calls > 0);
  // What its rings held and lost is counted in `info` (one ring: the main thread's).
  int info_status = 0;
  const std::string info =
      Run(Runfile("analyzer/cli/profanalyze") + " info " + culprit_path, &info_status);
  INFO(info);
  CHECK(info.find("flight host activity: ") != std::string::npos);
  CHECK(info.find("overwritten by the rings of 4096 per thread") != std::string::npos);
  CHECK(info.find("0 thread(s) without a ring") != std::string::npos);

  SECTION("without the culprit's dump, the missing rank is named and blamed") {
    const std::string partial = HangJson(subset);
    INFO(partial);
    CHECK(partial.find("\"dumps\":7") != std::string::npos);
    CHECK(partial.find("\"missing_ranks\":[3]") != std::string::npos);
    CHECK(partial.find("\"culprits\":[{\"rank\":3,") != std::string::npos);
    CHECK(partial.find("\"seq\":25,\"operation\":\"ALL_REDUCE\",\"dump_missing\":true") !=
          std::string::npos);
  }
}

// `train_ranks` as 8 separate processes (RANK, WORLD_SIZE) sharing a rendezvous file.
std::string TorchrunStyle(const std::string& out, const std::string& rank_arguments) {
  std::string command = "sh -c 'for r in 0 1 2 3 4 5 6 7; do RANK=$r WORLD_SIZE=8 ";
  // Quoted: under a sanitizer the value is two paths (sanitizer_preload.h).
  command += "LD_PRELOAD=\"" + prof::testing::WithSanitizerRuntime(Runfile("agent/libprof.so")) +
             "\" PROF_CUPTI_LIB=" + Runfile("testdata/sim/libcupti.so.13") +
             " PROF_FLIGHT=1 PROF_FLIGHT_HANG_S=60 PROF_SCHEDULE=off PROF_OUTPUT_DIR=" + out +
             " SIM_NCCL_TIMEOUT_MS=30000 " + Runfile("testdata/workloads/train_ranks") +
             " --rendezvous " + out + "/rendezvous " + rank_arguments + " & done; wait'";
  return command;
}

TEST_CASE("one rank exits before all-reduce #25: the others dump on the NCCL error") {
  const std::string out = FreshFolder("flight_nccl_error");
  int status = 0;
  // The hang limit (60 s) and NCCL's timeout (30 s) are far: only the error can dump.
  const std::string log = Run(TorchrunStyle(out,
                                            "--steps 14 --group-size 0 --stop-rank 3 "
                                            "--stop-before 25 --stop-how exit"),
                              &status);
  INFO(log);
  std::set<int> ranks;
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".prof.pb") == std::string::npos) continue;  // the rendezvous file
    REQUIRE(name.find(".flight_0.") != std::string::npos);     // one dump a process
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
  CHECK(json.find("\"seq\":25,\"operation\":\"ALL_REDUCE\",\"dump_missing\":true") !=
        std::string::npos);
}

struct Dump {
  std::string path;
  TraceModel model;
  const std::string& reason() const { return model.headers.front().flight().reason(); }
};

// Every dump in `out`, loaded, by rank (in the order found).
std::map<int, std::vector<Dump>> DumpsByRank(const std::string& out) {
  std::map<int, std::vector<Dump>> dumps;
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string path = entry.path().string();
    if (path.find(".flight_") == std::string::npos) continue;
    absl::StatusOr<TraceModel> model = LoadTraceFile(path);
    REQUIRE(model.ok());
    REQUIRE(model->headers.front().has_flight());
    const int rank = RankOf(*model);
    dumps[rank].push_back({path, std::move(*model)});
  }
  return dumps;
}

TEST_CASE("a mismatched collective is flagged; calls the small rings overwrote are counted") {
  const std::string out = FreshFolder("flight_mismatch");
  // Rank 5 broadcasts where the others all-reduce (#20, same count); rank 3 then stops
  // before #25 so the job hangs and every rank dumps. Rings of 16 calls: a waiting rank
  // entered #1..#25 and keeps #10..#25 (9 overwritten), rank 3 entered 24 (8): 7 x 9 + 8.
  int status = 0;
  const std::string log =
      Run(EightRanks(out, "PROF_FLIGHT_ENTRIES=16 " + HangLimits(),
                     "--steps 14 --group-size 0 --stop-rank 3 --stop-before 25 "
                     "--mismatch-rank 5 --mismatch-at 20"),
          &status);
  INFO(log);
  const std::string json = HangJson(out);
  INFO(json);
  CHECK(json.find("\"calls_overwritten\":71") != std::string::npos);
  CHECK(json.find("\"culprits\":[{\"rank\":3,") != std::string::npos);
  CHECK(json.find("\"seq\":20,\"variants\":[{\"operation\":\"ALL_REDUCE\"") != std::string::npos);
  CHECK(json.find("\"ranks\":[0,1,2,3,4,6,7]},{\"operation\":\"BROADCAST\"") != std::string::npos);
  CHECK(json.find("\"ranks\":[5]}]}]") != std::string::npos);

  // `info` on rank 0's hang dump: the header's counts and the Data Quality row.
  std::string rank0;
  const std::map<int, std::vector<Dump>> dumps = DumpsByRank(out);
  for (const Dump& dump : dumps.at(0)) {
    if (dump.reason() == "hang") rank0 = dump.path;
  }
  REQUIRE(!rank0.empty());
  const std::string info = Run(Runfile("analyzer/cli/profanalyze") + " info " + rank0, &status);
  INFO(info);
  CHECK(info.find("25 NCCL call(s) seen, 9 overwritten by the ring of 16, 0 torn") !=
        std::string::npos);
  CHECK(NumberAfter(info, "NCCL calls overwritten in the flight ring") == 9);
}

TEST_CASE("a slow step dumps once and names the step") {
  const std::string out = FreshFolder("flight_slow_step");
  // One rank, 30 steps of a few ms; step 20 stalls 1 s (a data loader): > 20x the median.
  // Nothing else may dump: no hang limit is reached, and the job ends normally. Under a
  // sanitizer, on a loaded machine, a step took over 50 ms: the stall is 4 s there.
  const int stall_ms = prof::testing::kSanitizerBuild ? 4000 : 1000;
  int status = 0;
  const std::string log = Run(
      "env LD_PRELOAD=\"" + prof::testing::WithSanitizerRuntime(Runfile("agent/libprof.so")) +
          "\" PROF_CUPTI_LIB=" + Runfile("testdata/sim/libcupti.so.13") +
          " PROF_FLIGHT=1 PROF_FLIGHT_SLOW_FACTOR=20 PROF_SCHEDULE=off PROF_OUTPUT_DIR=" + out +
          " " + Runfile("testdata/workloads/train_ranks") + " --ranks 1 --steps 30 --group-size 0" +
          " --slow-step 20:" + std::to_string(stall_ms) + " --rendezvous " + out + "/rendezvous",
      &status);
  INFO(log);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  std::vector<std::string> dumps;
  for (const auto& entry : fs::directory_iterator(out)) {
    if (entry.path().string().find(".flight_") != std::string::npos)
      dumps.push_back(entry.path().string());
  }
  REQUIRE(dumps.size() == 1);
  absl::StatusOr<TraceModel> model = LoadTraceFile(dumps[0]);
  REQUIRE(model.ok());
  const trace::FlightDump& flight = model->headers.front().flight();
  CHECK(flight.reason() == "slow-step");
  CHECK(flight.detail().rfind("step 20 took ", 0) == 0);
  // The dump holds the slow step itself (the one that just ended).
  bool has_step_20 = false;
  for (const HostRange& range : model->ranges) {
    if (range.type == RangeType::kProfileStep && range.step_number == 20) {
      has_step_20 = true;
      CHECK(range.end_ns - range.start_ns >= stall_ms * 1000000ull);
    }
  }
  CHECK(has_step_20);
}

TEST_CASE("through the trigger folder, the hung ranks' dumps make the culprit dump too") {
  const std::string out = FreshFolder("flight_trigger_folder");
  const std::string folder = out + "/trigger";
  int status = 0;
  const std::string log = Run(
      EightRanks(out,
                 HangLimits() + " PROF_FLIGHT_TRIGGER_DIR=" + folder,
                 "--steps 14 --group-size 0 --stop-rank 3 --stop-before 25"),
      &status);
  INFO(log);
  // Each of the 7 ranks that hang announces its dump in the folder.
  size_t announcements = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    CHECK(name.size() > 5);
    CHECK(name.substr(name.size() - 5) == ".hang");
    ++announcements;
  }
  CHECK(announcements == 7);
  // Rank 3, stopped outside any NCCL call, has no hang to see: it dumps for the folder's
  // files, seconds before the SIGTERM that ends it.
  std::map<int, std::vector<Dump>> dumps = DumpsByRank(out);
  std::multiset<std::string> culprit_reasons;
  for (const Dump& dump : dumps[3]) culprit_reasons.insert(dump.reason());
  CHECK(culprit_reasons == std::multiset<std::string>{"signal SIGTERM", "trigger file"});
  // The others dumped for their own hang, not again for each other's announcement.
  for (int rank : {0, 1, 2, 4, 5, 6, 7}) {
    INFO("rank " << rank);
    size_t hang = 0, triggered = 0;
    for (const Dump& dump : dumps[rank]) {
      hang += dump.reason() == "hang";
      triggered += dump.reason() == "trigger file";
    }
    CHECK(hang == 1);
    CHECK(triggered <= 1);  // a folder look just before its own hang check: at most once
  }
  const std::string json = HangJson(out);
  INFO(json);
  CHECK(json.find("\"culprits\":[{\"rank\":3,") != std::string::npos);
}

TEST_CASE("a kernel that never finishes: the call returned, the GPU state names the rank") {
  const std::string out = FreshFolder("flight_gpu_hang");
  // 4 ranks; rank 2's GPU stalls for 5 s (12 s under a sanitizer) just before world
  // collective #3 (an all-reduce of step 1): its host calls return, its #3 stays enqueued
  // behind the stuck kernel, the others' #3 start and wait for it, and every rank blocks in
  // its next synchronization. The writers dump after PROF_FLIGHT_HANG_S (HangSeconds()),
  // 4 s before the kernel ends and the job too.
  int status = 0;
  const std::string log =
      Run("env LD_PRELOAD=\"" + prof::testing::WithSanitizerRuntime(Runfile("agent/libprof.so")) +
              "\" PROF_CUPTI_LIB=" + Runfile("testdata/sim/libcupti.so.13") +
              " PROF_FLIGHT=1 PROF_FLIGHT_HANG_S=" + std::to_string(HangSeconds()) +
              " PROF_SCHEDULE=off PROF_OUTPUT_DIR=" + out + " " +
              Runfile("testdata/workloads/train_ranks") +
              " --ranks 4 --steps 3 --group-size 0 --stuck-rank 2 --stuck-at 3 --stuck-ms " +
              std::to_string(HangSeconds() * 1000 + 4000) +
              " --rendezvous " + out + "/rendezvous",
          &status);
  INFO(log);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);  // the stall ends: nothing was killed
  std::map<int, std::vector<Dump>> dumps;
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string path = entry.path().string();
    if (path.find(".flight_") == std::string::npos) continue;
    absl::StatusOr<TraceModel> model = LoadTraceFile(path);
    REQUIRE(model.ok());
    int rank = -1;  // the world communicator here has 4 ranks
    for (const NcclCall& call : model->nccl_calls) {
      if (call.rank_count == 4) rank = call.comm_rank;
    }
    dumps[rank].push_back({path, std::move(*model)});
  }
  REQUIRE(dumps.size() == 4);
  for (const auto& [rank, rank_dumps] : dumps) {
    INFO("rank " << rank);
    REQUIRE(rank_dumps.size() == 1);  // one hang, one dump
    const trace::FlightDump& flight = rank_dumps[0].model.headers.front().flight();
    CHECK(flight.reason() == "hang");
    // All-reduce #3 returned; on rank 2 it never started, elsewhere it started.
    CHECK(flight.detail().find("all-reduce #3 ") == 0);
    CHECK(flight.detail().find(rank == 2 ? "returned, enqueued on the GPU, not started"
                                         : "returned, started on the GPU, not completed") !=
          std::string::npos);
    CHECK(flight.device_untracked() == 0);
  }
  const std::string info =
      Run(Runfile("analyzer/cli/profanalyze") + " info " + dumps[2][0].path, &status);
  INFO(info);
  CHECK(info.find(" unfinished, 0 not followed on the GPU") != std::string::npos);

  const std::string json = HangJson(out);
  INFO(json);
  CHECK(json.find("\"dumps\":4") != std::string::npos);
  CHECK(json.find("\"culprits\":[{\"rank\":2,") != std::string::npos);
  CHECK(json.find("\"seq\":3,\"operation\":\"ALL_REDUCE\",\"dump_missing\":false") !=
        std::string::npos);
  CHECK(json.find("\"state\":\"enqueued, not completed\"}]") != std::string::npos);
  const std::string text = Run(Runfile("analyzer/cli/profanalyze") + " hang " + out, &status);
  INFO(text);
  CHECK(text.find("rank 2: ALL_REDUCE #3 on communicator ") != std::string::npos);
  CHECK(text.find(" enqueued, not completed on its GPU") != std::string::npos);
}

}  // namespace
}  // namespace prof::analyzer::e2e
