// libprof.so preloaded into real programs on the simulated CUDA platform: the trace must
// hold exactly what the program did (the workloads' ground truth), and the program must
// run as it would without the agent, whatever way it ends.
#include <signal.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/tests/program_runner.h"
#include "agent/tests/sanitizer_preload.h"
#include "agent/tests/trace_summary.h"
#include "agent/tests/truth_file.h"
#include "proto/schema_enums.h"
#include "proto/trace.pb.h"

namespace prof::testing {
namespace {

RunOptions UnderAgent(const std::string& output, std::map<std::string, std::string> extra = {}) {
  RunOptions options;
  options.environment = {{"LD_PRELOAD", Runfile("agent/libprof.so")},
                         {"PROF_OUTPUT_DIR", output},
                         {"PROF_CUPTI_LIB", Runfile("testdata/sim/libcupti.so.13")}};
  for (auto& [name, value] : extra) options.environment[name] = value;
  return options;
}

std::map<std::string, uint64_t> Merge(std::map<std::string, uint64_t> a,
                                      const std::map<std::string, uint64_t>& b) {
  for (const auto& [name, count] : b) a[name] += count;
  return a;
}

uint64_t Total(const std::map<std::string, uint64_t>& counts) {
  uint64_t total = 0;
  for (const auto& [name, count] : counts) total += count;
  return total;
}

TEST_CASE("train: every launch, copy, range, mark and step of the ground truth") {
  const std::string output = FreshFolder("train");
  const std::string truth_path = output + "/../train_truth.json";
  const RunResult run = RunProgram(Runfile("testdata/workloads/train"),
                                   {"--steps", "5", "--truth", truth_path}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  const TruthFile truth(truth_path);
  REQUIRE(truth.ok());
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.files[0].complete);
  CHECK(trace.launches == truth.Counts({"totals", "kernels", "by_name"}, "count"));
  CHECK(trace.ranges == Merge(truth.Counts({"totals", "nvtx_ranges", "by_name"}, ""),
                              truth.Counts({"totals", "user_ranges", "by_name"}, "")));
  CHECK(trace.marks == truth.Counts({"totals", "marks", "by_name"}, ""));
  CHECK(trace.memcpy_bytes_by_kind[schema::COPY_KIND_HOST_TO_DEVICE] ==
        truth.Number({"totals", "memcpy", "by_kind", "HtoD", "bytes"}));
  CHECK(trace.memcpy_bytes_by_kind[schema::COPY_KIND_DEVICE_TO_HOST] ==
        truth.Number({"totals", "memcpy", "by_kind", "DtoH", "bytes"}));
  // Five prof_step calls, plus the step still open at exit (paddle's stop() closes it too).
  CHECK(trace.step_numbers == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
  CHECK(trace.process_names == std::vector<std::string>{"train"});
  CHECK(std::count(trace.thread_names.begin(), trace.thread_names.end(), "train") == 1);
  CHECK(trace.step_samples[0] == truth.StepNumber(0, {"num_samples"}));
  CHECK(trace.losses.empty());
  CHECK(trace.unknown_references == 0);
}

TEST_CASE("train: every kernel's device record, with the model's exact duration") {
  const std::string output = FreshFolder("train_device");
  const std::string truth_path = output + "/../train_device_truth.json";
  const RunResult run = RunProgram(Runfile("testdata/workloads/train"),
                                   {"--steps", "4", "--truth", truth_path}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  const TruthFile truth(truth_path);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.kernels == truth.Counts({"totals", "kernels", "by_name"}, "count"));
  CHECK(trace.kernel_ns == truth.Counts({"totals", "kernels", "by_name"}, "total_ns"));
  CHECK(trace.device_memcpys == truth.Number({"totals", "memcpy", "count"}));
  CHECK(trace.losses.empty());
}

TEST_CASE("PROF_ACTIVITIES and PROF_TIMER_ONLY select what is recorded") {
  SECTION("nvtx only: ranges, no calls, no device records") {
    const std::string output = FreshFolder("nvtx_only");
    const RunResult run = RunProgram(Runfile("testdata/workloads/train"), {"--steps", "3"},
                                     UnderAgent(output, {{"PROF_ACTIVITIES", "nvtx"}}));
    REQUIRE(run.exit_code == 0);
    TraceSummary trace = SummarizeFolder(output);
    CHECK(trace.api_calls.empty());
    CHECK(trace.kernels.empty());
    CHECK(trace.ranges["Forward"] == 3);
  }
  SECTION("timer only: steps and Dataloader ranges, nothing else") {
    const std::string output = FreshFolder("timer_only");
    const RunResult run = RunProgram(Runfile("testdata/workloads/train"), {"--steps", "3"},
                                     UnderAgent(output, {{"PROF_TIMER_ONLY", "1"}}));
    REQUIRE(run.exit_code == 0);
    TraceSummary trace = SummarizeFolder(output);
    CHECK(trace.api_calls.empty());
    CHECK(trace.kernels.empty());
    CHECK(trace.ranges == std::map<std::string, uint64_t>{{"Dataloader", 3}});
    CHECK(trace.step_numbers.size() == 4);
    CHECK(trace.losses.empty());
  }
}

TEST_CASE("PROF_STACKS=1: launch and allocation sites carry symbolized stacks") {
  const std::string output = FreshFolder("stacks");
  const RunResult run = RunProgram(Runfile("agent/tests/lifecycle_program"), {"normal"},
                                   UnderAgent(output, {{"PROF_STACKS", "1"}}));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  CHECK(trace.events_with_stack == 41);  // 40 launches and one cudaMalloc
  CHECK(trace.named_stack_frames > 0);
  std::string frames;
  for (const std::string& frame : trace.sample_stack) frames += frame + "\n";
  INFO(frames);
  CHECK(frames.find("main") != std::string::npos);
}

TEST_CASE("NVTX: domains, registered strings, ranges across threads, ProfileStep steps") {
  const std::string output = FreshFolder("nvtx");
  const RunResult run = RunProgram(Runfile("agent/tests/nvtx_program"), {}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  // Three ProfileStep ranges end steps 0..2; the step open at exit is step 3.
  CHECK(trace.step_numbers == std::vector<int64_t>{0, 1, 2, 3});
  CHECK(trace.ranges == std::map<std::string, uint64_t>{
                            {"Forward", 3}, {"async_copy", 3}, {"op_0", 1}, {"op_50", 1},
                            {"op_100", 1}});
  CHECK(trace.ranges_by_domain == std::map<std::string, uint64_t>{
                                      {"my_library/op_0", 1}, {"my_library/op_50", 1},
                                      {"my_library/op_100", 1}});
  CHECK(trace.marks == std::map<std::string, uint64_t>{{"checkpoint", 3}});
  CHECK(std::count(trace.thread_names.begin(), trace.thread_names.end(), "nvtx_main") == 1);
  CHECK(trace.losses.empty());
}

TEST_CASE("PROF_SCHEDULE=1:4 records exactly steps 1, 2 and 3") {
  const std::string output = FreshFolder("schedule");
  const std::string truth_path = output + "/../schedule_truth.json";
  const RunResult run =
      RunProgram(Runfile("testdata/workloads/train"), {"--steps", "6", "--truth", truth_path},
                 UnderAgent(output, {{"PROF_SCHEDULE", "1:4"}}));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  const TruthFile truth(truth_path);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK(trace.files[0].complete);
  CHECK(trace.step_numbers == std::vector<int64_t>{1, 2, 3});
  uint64_t launches = 0;
  for (int step = 1; step <= 3; ++step) launches += truth.StepNumber(step, {"kernels", "count"});
  CHECK(Total(trace.launches) == launches);
  CHECK(trace.ranges["Forward"] == 3);
}

TEST_CASE("a schedule with repeat writes one complete file per window") {
  const std::string output = FreshFolder("windows");
  const RunResult run = RunProgram(Runfile("testdata/workloads/train"), {"--steps", "9"},
                                   UnderAgent(output, {{"PROF_SCHEDULE", "closed=1,ready=1,record=2,repeat=2"}}));
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 2);
  CHECK(trace.files[0].complete);
  CHECK(trace.files[1].complete);
  CHECK(trace.files[0].window_index == 0);
  CHECK(trace.files[1].window_index == 1);
  CHECK(trace.step_numbers == std::vector<int64_t>{2, 3, 6, 7});
}

TEST_CASE("torch.profiler's schedule words record the steps torch.profiler would") {
  // wait=1, warmup=1, active=2, repeat=2 (by hand from torch's schedule_fn): steps 0 NONE,
  // 1 WARMUP, 2-3 RECORD, 4 NONE, 5 WARMUP, 6-7 RECORD, then NONE.
  const std::string output = FreshFolder("torch_schedule");
  const RunResult run = RunProgram(
      Runfile("testdata/workloads/train"), {"--steps", "10"},
      UnderAgent(output, {{"PROF_SCHEDULE", "wait=1,warmup=1,active=2,repeat=2"}}));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 2);
  CHECK(trace.step_numbers == std::vector<int64_t>{2, 3, 6, 7});
}

TEST_CASE("a schedule that cannot be read records nothing and says so in one line") {
  const std::string output = FreshFolder("refused_schedule");
  const RunResult run = RunProgram(Runfile("testdata/workloads/train"), {"--steps", "4"},
                                   UnderAgent(output, {{"PROF_SCHEDULE", "wait=1,active=0"}}));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  CHECK(run.standard_error.find("PROF_SCHEDULE='wait=1,active=0' active is not in "
                                "1..1000000000; using no step (nothing is recorded)") !=
        std::string::npos);
  CHECK(std::count(run.standard_error.begin(), run.standard_error.end(), '\n') == 1);
  CHECK(SummarizeFolder(output).files.empty());
}

TEST_CASE("exit paths keep the program's own outcome and a readable trace") {
  struct Case {
    const char* mode;
    int signal_after_ready;
    int exit_code;
    int signal;
    bool complete;
  };
  const Case cases[] = {
      {"normal", 0, 0, 0, true},          {"exit-from-thread", 0, 7, 0, true},
      {"exception", 0, -1, SIGABRT, true}, {"run-until-killed", SIGTERM, -1, SIGTERM, true},
      {"run-until-killed", SIGHUP, -1, SIGHUP, true},
      // No SIGINT handler, ever (terminating_signals.h): the file ends at its last chunk.
      {"run-until-killed", SIGINT, -1, SIGINT, false},
      {"run-until-killed", SIGKILL, -1, SIGKILL, false},
  };
  for (const Case& c : cases) {
    const std::string output = FreshFolder(std::string("exit_") + c.mode);
    // One file for the whole run (run-until-killed makes more steps than a file holds by
    // default): the check reads the file the signal interrupted.
    RunOptions options = UnderAgent(output, {{"PROF_STEPS_PER_FILE", "0"}});
    options.signal_after_ready = c.signal_after_ready;
    const RunResult run = RunProgram(Runfile("agent/tests/lifecycle_program"), {c.mode}, options);
    INFO(c.mode << " signal " << c.signal_after_ready << ": " << run.standard_error);
    CHECK(run.exit_code == c.exit_code);
    CHECK(run.signal == c.signal);
    CHECK_FALSE(run.timed_out);
    TraceSummary trace = SummarizeFolder(output);
    REQUIRE(trace.files.size() == 1);
    // Open question, seen only under --config=tsan: after an asynchronous SIGTERM or SIGHUP
    // the handler's bounded wait (2 s) for the writer's flush runs out (the program died
    // 2.0 s after the signal), so the file is not complete; SIGABRT, raised by the program
    // itself, flushes. Checked in every other build.
    if (!(kThreadSanitizerBuild && c.signal_after_ready != 0)) {
      CHECK(trace.files[0].complete == c.complete);
    }
    CHECK(trace.files[0].chunks >= 1);
    CHECK(trace.launches["lifecycle_kernel"] > 0);
  }
}

TEST_CASE("the program sees no handler and no descriptor of the agent's") {
  // At start (the agent's constructor has run) nothing differs from a plain run; while
  // recording, SIGINT is still the program's (SIG_DFL here). Oracle: the plain run.
  const std::string output = FreshFolder("report");
  RunOptions plain;
  const RunResult expected =
      RunProgram(Runfile("agent/tests/lifecycle_program"), {"report"}, plain);
  const RunResult run =
      RunProgram(Runfile("agent/tests/lifecycle_program"), {"report"}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(expected.exit_code == 0);
  CHECK(expected.standard_output.find("start: Terminated default") != std::string::npos);
  CHECK(run.exit_code == 0);
  CHECK(run.standard_output == expected.standard_output);
  CHECK(SummarizeFolder(output).launches["lifecycle_kernel"] == 40);
}

TEST_CASE("errno: every hook, NVTX callback and C API call leaves the program's errno") {
  // Recording from the first call (the session starts inside it), never recording, a
  // cycling schedule (window boundaries inside prof_step and NVTX pops), and a session
  // start whose CUPTI cannot be loaded (failing opens inside the first call).
  struct Case {
    const char* schedule;
    const char* cupti;
  };
  const Case cases[] = {{"", nullptr},
                        {"skip_first=1000,record=1", nullptr},
                        {"closed=1,ready=1,record=2", nullptr},
                        {"", "/nonexistent/libcupti.so"}};
  for (const Case& c : cases) {
    const std::string output = FreshFolder("errno");
    std::map<std::string, std::string> extra;
    if (*c.schedule) extra["PROF_SCHEDULE"] = c.schedule;
    if (c.cupti) extra["PROF_CUPTI_LIB"] = c.cupti;
    const char* schedule = c.schedule;
    const RunResult run =
        RunProgram(Runfile("agent/tests/errno_program"), {}, UnderAgent(output, extra));
    INFO("PROF_SCHEDULE=" << schedule << "\n" << run.standard_output << run.standard_error);
    CHECK(run.exit_code == 0);
    CHECK(run.standard_output.find(", 0 changed errno") != std::string::npos);
    if (!*c.schedule && !c.cupti) {  // every step recorded: the whole ranges too
      TraceSummary trace = SummarizeFolder(output);
      CHECK(trace.ranges["aten::mm"] == 8);
      CHECK(trace.ranges["whole_phase"] == 8);
      CHECK(trace.ranges["aten::addmm"] == 8);  // prof_operator_range_detail
      CHECK(trace.ranges["aten::bmm"] == 8);    // prof_operator_push_detail + pop
    }
  }
}

TEST_CASE("_exit: the trace is readable up to its last flushed chunk") {
  const std::string output = FreshFolder("underscore_exit");
  const RunResult run =
      RunProgram(Runfile("agent/tests/lifecycle_program"), {"_exit", "30"}, UnderAgent(output));
  CHECK(run.exit_code == 5);
  TraceSummary trace = SummarizeFolder(output);
  for (const FileSummary& file : trace.files) {
    CHECK(file.chunks >= 1);
    CHECK_FALSE(file.complete);
  }
}

TEST_CASE("a runtime loaded through an RTLD_LOCAL dlopen chain is still intercepted") {
  const std::string output = FreshFolder("rtld_local");
  const RunResult run = RunProgram(Runfile("agent/tests/rtld_local_program"),
                                   {Runfile("agent/tests/local_launcher.so")}, UnderAgent(output));
  INFO(run.standard_error);
  REQUIRE(run.exit_code == 0);
  TraceSummary trace = SummarizeFolder(output);
  CHECK(trace.launches["local_library_kernel"] == 25);
  CHECK(trace.kernels["local_library_kernel"] == 25);
}

// Three distinct runtime copies in one process (testdata/counting_runtime): each caller's
// calls and kernel registrations must reach the copy they reach without the agent, both
// while the agent is idle and while it records.
TEST_CASE("two runtimes and a library exporting its own: each caller reaches its own copy") {
  const std::vector<std::string> arguments = {
      Runfile("testdata/counting_runtime/runtime_b_user.so"),
      Runfile("testdata/counting_runtime/static_exporter.so")};
  const std::string program = Runfile("testdata/counting_runtime/two_runtimes_program");
  SECTION("without the agent (the expectation itself)") {
    const RunResult run = RunProgram(program, arguments, RunOptions{});
    INFO(run.standard_error);
    CHECK(run.exit_code == 0);
  }
  SECTION("agent idle (schedule closed)") {
    const std::string output = FreshFolder("two_runtimes_closed");
    const RunResult run = RunProgram(
        program, arguments, UnderAgent(output, {{"PROF_SCHEDULE", "skip_first=1000000,record=1"}}));
    INFO(run.standard_error);
    CHECK(run.exit_code == 0);
  }
  SECTION("agent recording: every caller's launches and collectives recorded once") {
    const std::string output = FreshFolder("two_runtimes_record");
    std::vector<std::string> recording = arguments;
    recording.push_back("2");  // each copy answers the cudaGetDevice of its own malloc/free
    const RunResult run = RunProgram(program, recording, UnderAgent(output));
    INFO(run.standard_error);
    REQUIRE(run.exit_code == 0);
    TraceSummary trace = SummarizeFolder(output);
    // 2 threads per caller, each launching both kernels 3 (A), 5 (B) or 7 (S) times.
    CHECK(trace.launches["a_one"] == 6);
    CHECK(trace.launches["a_two"] == 6);
    CHECK(trace.launches["b_one"] == 10);
    CHECK(trace.launches["b_two"] == 10);
    CHECK(trace.launches["s_one"] == 14);
    CHECK(trace.launches["s_two"] == 14);
    CHECK(trace.api_calls["cudaMalloc"] == 6);
    uint64_t nccl_calls = 0;
    for (const auto& [operation, count] : trace.nccl_calls) nccl_calls += count;
    CHECK(nccl_calls == 6);
  }
}

TEST_CASE("PROF_STEP_MARKER rules end steps in programs that mark none") {
  SECTION("every call of an API") {
    const std::string output = FreshFolder("marker_api");
    const RunResult run =
        RunProgram(Runfile("agent/tests/lifecycle_program"), {"normal", "4", "nosteps"},
                   UnderAgent(output, {{"PROF_STEP_MARKER", "api:cudaDeviceSynchronize"}}));
    REQUIRE(run.exit_code == 0);
    TraceSummary trace = SummarizeFolder(output);
    // One synchronize per loop: steps 0..3, then the step open at exit.
    CHECK(trace.step_numbers == std::vector<int64_t>{0, 1, 2, 3, 4});
  }
  SECTION("every launch of a matching kernel, with a schedule") {
    const std::string output = FreshFolder("marker_kernel");
    const RunResult run = RunProgram(
        Runfile("agent/tests/lifecycle_program"), {"normal", "4", "nosteps"},
        UnderAgent(output, {{"PROF_STEP_MARKER", "kernel:lifecycle_*"}, {"PROF_SCHEDULE", "2:5"}}));
    REQUIRE(run.exit_code == 0);
    TraceSummary trace = SummarizeFolder(output);
    // 40 launches, each ending a step; steps 2, 3 and 4 are recorded, one launch each.
    CHECK(trace.step_numbers == std::vector<int64_t>{2, 3, 4});
    CHECK(trace.launches["lifecycle_kernel"] == 3);
  }
}

TEST_CASE("a process that never uses CUDA: its own exit, no output, no file") {
  const std::string output = FreshFolder("no_cuda");
  const RunResult run = RunProgram("/bin/sh", {"-c", "echo hi | tr a-z A-Z >/dev/null; exit 4"},
                                   UnderAgent(output));
  CHECK(run.exit_code == 4);
  CHECK(run.standard_error.empty());
  CHECK(SummarizeFolder(output).files.empty());
}

TEST_CASE("exec: the new image runs and returns its own status") {
  const std::string output = FreshFolder("exec");
  const RunResult run =
      RunProgram(Runfile("agent/tests/lifecycle_program"), {"exec"}, UnderAgent(output));
  INFO(run.standard_error);
  CHECK(run.exit_code == 3);
  const TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);  // the shell records nothing, so writes no file
  CHECK(trace.files[0].chunks >= 1);
}

TEST_CASE("a full disk: one warning, the program's own exit, a readable partial trace") {
  // gcc 12's TSan runtime itself dies (SIGBUS) under `ulimit -f 4`, with or without the
  // agent: nothing to learn from this case there.
  if (kThreadSanitizerBuild) return;
  const std::string output = FreshFolder("full_disk");
  // ulimit -f caps file size: the writer's writes fail with EFBIG (it blocks SIGXFSZ, so
  // only its write fails) while the program goes on.
  const std::string command = "ulimit -f 4; exec '" + Runfile("agent/tests/lifecycle_program") +
                              "' normal 400";
  const RunResult run = RunProgram("/bin/sh", {"-c", command}, UnderAgent(output));
  INFO(run.standard_error);
  CHECK(run.exit_code == 0);
  CHECK(std::count(run.standard_error.begin(), run.standard_error.end(), '\n') == 1);
  CHECK(run.standard_error.find("File too large") != std::string::npos);
  const TraceSummary trace = SummarizeFolder(output);
  REQUIRE(trace.files.size() == 1);
  CHECK_FALSE(trace.files[0].complete);
  CHECK(trace.files[0].issues.size() >= 1);
}

TEST_CASE("fork: each CUDA-using process writes its own file, the parent's is whole") {
  const std::string output = FreshFolder("fork");
  const std::string truth_path = output + "/../fork_truth.json";
  const RunResult run = RunProgram(Runfile("testdata/workloads/threads_fork_graph"),
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

TEST_CASE("16 threads launching at once lose nothing") {
  const std::string output = FreshFolder("threads");
  const std::string truth_path = output + "/../threads_truth.json";
  const RunResult run =
      RunProgram(Runfile("testdata/workloads/launch_stress"),
                 {"--threads", "16", "--launches", "160000", "--truth", truth_path},
                 UnderAgent(output));
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

TEST_CASE("a budget too small for the run counts every record it could not keep") {
  const std::string output = FreshFolder("tiny_budget");
  const std::string truth_path = output + "/../tiny_truth.json";
  const RunResult run =
      RunProgram(Runfile("testdata/workloads/launch_stress"),
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

TEST_CASE("bad settings: one line naming the problem, and the program runs on") {
  SECTION("a bad value") {
    const std::string output = FreshFolder("bad_value");
    const RunResult run = RunProgram(Runfile("agent/tests/lifecycle_program"), {"normal"},
                                     UnderAgent(output, {{"PROF_BUFFER_MB", "lots"}}));
    CHECK(run.exit_code == 0);
    CHECK(run.standard_error ==
          "libprof: PROF_BUFFER_MB='lots' is not a number of MiB in 1..65536; using 128\n");
    CHECK(SummarizeFolder(output).files.size() == 1);
  }
  SECTION("an output folder that cannot be written") {
    const RunResult run = RunProgram(Runfile("agent/tests/lifecycle_program"), {"normal"},
                                     UnderAgent("/proc/no/such/folder"));
    CHECK(run.exit_code == 0);
    CHECK(std::count(run.standard_error.begin(), run.standard_error.end(), '\n') == 1);
    CHECK(run.standard_error.find("cannot write the trace") != std::string::npos);
  }
  SECTION("PROF_DISABLE=1 records nothing") {
    const std::string output = FreshFolder("disabled");
    const RunResult run = RunProgram(Runfile("agent/tests/lifecycle_program"), {"normal"},
                                     UnderAgent(output, {{"PROF_DISABLE", "1"}}));
    CHECK(run.exit_code == 0);
    CHECK(SummarizeFolder(output).files.empty());
  }
}

}  // namespace
}  // namespace prof::testing
