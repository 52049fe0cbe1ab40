#include "agent/control/config.h"

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace prof {
namespace {

Config ParseWith(std::map<std::string, std::string> variables, std::vector<std::string>* warnings) {
  return ParseConfig(
      [&variables](const char* name) -> const char* {
        auto it = variables.find(name);
        return it == variables.end() ? nullptr : it->second.c_str();
      },
      warnings);
}

TEST_CASE("defaults when nothing is set") {
  std::vector<std::string> warnings;
  const Config config = ParseWith({}, &warnings);
  CHECK(warnings.empty());
  CHECK_FALSE(config.disabled);
  CHECK(config.schedule.record_everything);
  CHECK(config.output_dir == "./profiler_log");
  CHECK(config.worker_name.find("host_") == 0);
  CHECK(config.activities == kActivityAll);
  CHECK(config.buffer_bytes == (128ull << 20));
  CHECK(config.steps_per_file == 500);
  CHECK(config.log_level == LogLevel::kWarn);
}

TEST_CASE("every variable is read") {
  std::vector<std::string> warnings;
  const Config config = ParseWith({{"PROF_SCHEDULE", "skip_first=2,record=3"},
                                   {"PROF_OUTPUT_DIR", "/tmp/x"},
                                   {"PROF_WORKER_NAME", "w"},
                                   {"PROF_ACTIVITIES", "kernel,nvtx"},
                                   {"PROF_TIMER_ONLY", "1"},
                                   {"PROF_STEP_MARKER", "api:cudaGraphLaunch:2;kernel:*sgd*"},
                                   {"PROF_CUPTI_LIB", "/opt/libcupti.so"},
                                   {"PROF_BUFFER_MB", "16"},
                                   {"PROF_STEPS_PER_FILE", "0"},
                                   {"PROF_LOG_LEVEL", "debug"},
                                   {"PROF_STACKS", "yes"}},
                                  &warnings);
  CHECK(warnings.empty());
  CHECK(config.schedule.skip_first == 2);
  CHECK(config.schedule.record == 3);
  CHECK(config.output_dir == "/tmp/x");
  CHECK(config.worker_name == "w");
  // PROF_TIMER_ONLY wins over PROF_ACTIVITIES: only steps and Dataloader ranges.
  CHECK(config.activities == kActivityTimerOnly);
  CHECK(config.timer_only);
  REQUIRE(config.step_markers.size() == 2);
  CHECK(config.step_markers[0].api == "cudaGraphLaunch");
  CHECK(config.step_markers[0].every == 2);
  CHECK(config.step_markers[1].kernel_glob == "*sgd*");
  CHECK(config.cupti_library == "/opt/libcupti.so");
  CHECK(config.buffer_bytes == (16ull << 20));
  CHECK(config.steps_per_file == 0);
  CHECK(config.log_level == LogLevel::kDebug);
  CHECK(config.stacks);
  CHECK(config.applied.at("PROF_SCHEDULE") == "skip_first=2,closed=0,ready=0,record=3,repeat=0");
}

TEST_CASE("a bad value is one warning naming the variable, the value and what is used") {
  std::vector<std::string> warnings;
  const Config config = ParseWith({{"PROF_SCHEDULE", "record=0"},
                                   {"PROF_BUFFER_MB", "lots"},
                                   {"PROF_STEPS_PER_FILE", "-3"},
                                   {"PROF_DISABLE", "maybe"},
                                   {"PROF_ACTIVITIES", "kernels"},
                                   {"PROF_STEP_MARKER", "every:3"},
                                   {"PROF_LOG_LEVEL", "loud"}},
                                  &warnings);
  REQUIRE(warnings.size() == 8);  // PROF_ACTIVITIES: the unknown item, then "selects nothing"
  CHECK(std::find(warnings.begin(), warnings.end(),
                  "PROF_SCHEDULE='record=0' record must be > 0; using every step") != warnings.end());
  CHECK(std::find(warnings.begin(), warnings.end(),
                  "PROF_BUFFER_MB='lots' is not a number of MiB in 1..65536; using 128") !=
        warnings.end());
  CHECK(std::find(warnings.begin(), warnings.end(),
                  "PROF_STEPS_PER_FILE='-3' is not a number of steps in 0..1000000000 (0: no limit); using 500") !=
        warnings.end());
  CHECK(config.steps_per_file == 500);
  CHECK(config.schedule.record_everything);
  CHECK(config.buffer_bytes == (128ull << 20));
  CHECK_FALSE(config.disabled);
  CHECK(config.activities == kActivityAll);
  CHECK(config.step_markers.empty());
  CHECK(config.log_level == LogLevel::kWarn);
}

TEST_CASE("rank variables name the worker") {
  std::vector<std::string> warnings;
  const Config config = ParseWith({{"RANK", "3"}}, &warnings);
  CHECK(config.worker_name.size() > 7);
  CHECK(config.worker_name.substr(config.worker_name.size() - 7) == "_rank_3");
}

TEST_CASE("glob matching for kernel step markers") {
  CHECK(GlobMatch("*sgd*", "void sgd_update_kernel<float>"));
  CHECK(GlobMatch("gemm?", "gemm1"));
  CHECK_FALSE(GlobMatch("gemm?", "gemm12"));
  CHECK(GlobMatch("*", ""));
  CHECK_FALSE(GlobMatch("a*b", "acd"));
}

}  // namespace
}  // namespace prof
