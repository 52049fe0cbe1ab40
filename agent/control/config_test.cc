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
  REQUIRE(warnings.size() == 7);  // one per variable
  CHECK(std::find(
            warnings.begin(), warnings.end(),
            "PROF_SCHEDULE='record=0' record is not in 1..1000000000; using no step (nothing is "
            "recorded)") != warnings.end());
  CHECK(std::find(warnings.begin(), warnings.end(),
                  "PROF_BUFFER_MB='lots' is not a number of MiB in 1..65536; using 128") !=
        warnings.end());
  CHECK(std::find(warnings.begin(), warnings.end(),
                  "PROF_STEPS_PER_FILE='-3' is not a number of steps in 0..1000000000 (0: no "
                  "limit); using 500") != warnings.end());
  CHECK(config.steps_per_file == 500);
  // A schedule that cannot be read records nothing (not every step, which can fill a disk).
  CHECK_FALSE(config.schedule.record_everything);
  CHECK(config.schedule.off);
  CHECK(config.schedule.StateOf(0) == StepState::kClosed);
  CHECK(config.applied.at("PROF_SCHEDULE") == "off (windows from prof_start or a trigger only)");
  CHECK(config.buffer_bytes == (128ull << 20));
  CHECK_FALSE(config.disabled);
  CHECK(config.activities == kActivityAll);
  CHECK(config.step_markers.empty());
  CHECK(config.log_level == LogLevel::kWarn);
}

// The one warning a bad value of `variable` gives, or fails the test.
std::string OnlyWarning(const char* variable, const std::string& value) {
  std::vector<std::string> warnings;
  ParseWith({{variable, value}}, &warnings);
  INFO(variable << "='" << value.substr(0, 80) << "'");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].rfind(std::string(variable) + "='", 0) == 0);
  CHECK(warnings[0].find("; using ") != std::string::npos);
  CHECK(warnings[0].find('\n') == std::string::npos);
  CHECK(warnings[0].size() < 300);
  return warnings[0];
}

const char kInt64Max[] = "9223372036854775807";

TEST_CASE("PROF_SCHEDULE: a period that overflows int64 is refused, not divided by") {
  // closed+ready+record wrapped to 0 and every process died of SIGFPE in `t % period`.
  CHECK(OnlyWarning("PROF_SCHEDULE",
                    "closed=9223372036854775807,ready=9223372036854775807,record=2") ==
        "PROF_SCHEDULE='closed=9223372036854775807,ready=9223372036854775807,record=2' closed is "
        "not in 0..1000000000; using no step (nothing is recorded)");
  for (const std::string& bad :
       {std::string("record=") + kInt64Max, std::string("skip_first=") + kInt64Max + ",record=1",
        std::string("repeat=") + kInt64Max + ",record=1", std::string("ready=") + kInt64Max,
        std::string("record=1000000001"), std::string("record=99999999999999999999999999999"),
        std::string("record=-1"), std::string("record="), std::string("=3"),
        std::string("record==3"), std::string("record=3x"), std::string("record=0x3"),
        std::string("0:") + kInt64Max, std::string("-3:5"), std::string("5:5"),
        std::string("1:1000000001"), std::string(":"), std::string("1:"), std::string("a:b")}) {
    OnlyWarning("PROF_SCHEDULE", bad);
  }
}

TEST_CASE("PROF_SCHEDULE: the largest accepted schedule, and whitespace around values") {
  std::vector<std::string> warnings;
  Config config = ParseWith({{"PROF_SCHEDULE",
                              "skip_first=1000000000,closed=1000000000,ready=1000000000,"
                              "record=1000000000,repeat=1000000000"}},
                            &warnings);
  CHECK(warnings.empty());
  CHECK(config.schedule.record == 1000000000);
  config = ParseWith({{"PROF_SCHEDULE", " closed = 1 ,\trecord = 2 "}}, &warnings);
  CHECK(warnings.empty());
  CHECK(config.schedule.closed == 1);
  CHECK(config.schedule.record == 2);
  config = ParseWith({{"PROF_SCHEDULE", " 999999999:1000000000 "}}, &warnings);
  CHECK(warnings.empty());
  CHECK(config.schedule.record == 1);
  config =
      ParseWith({{"PROF_SCHEDULE", "wait=5,warmup=1,active=3,repeat=2,skip_first=10"}}, &warnings);
  CHECK(warnings.empty());
  CHECK(config.applied.at("PROF_SCHEDULE") == "skip_first=10,closed=5,ready=1,record=3,repeat=2");
}

TEST_CASE("numbers: INT64_MAX, negatives, huge digit strings and garbage are one warning each") {
  const std::string huge(5000, '9');
  for (const std::string& bad :
       {std::string(kInt64Max), std::string("18446744073709551617"), std::string("-1"),
        std::string("0"), std::string("65537"), huge, std::string("1e3"), std::string("0x10"),
        std::string("12abc"), std::string("1 2"), std::string("+"), std::string("-")}) {
    CHECK(OnlyWarning("PROF_BUFFER_MB", bad).find("; using 128") != std::string::npos);
  }
  for (const std::string& bad : {std::string(kInt64Max), std::string("-1"), huge,
                                 std::string("1000000001"), std::string("ten")}) {
    CHECK(OnlyWarning("PROF_STEPS_PER_FILE", bad).find("; using 500") != std::string::npos);
  }
  for (const std::string& bad : {std::string(kInt64Max), std::string("loud"), std::string("-1")}) {
    CHECK(OnlyWarning("PROF_LOG_LEVEL", bad).find("; using warn") != std::string::npos);
  }
  // A 5000-digit value is shortened in the message, which stays one line.
  CHECK(OnlyWarning("PROF_BUFFER_MB", huge).find("...") != std::string::npos);
  CHECK(OnlyWarning("PROF_BUFFER_MB", "12\n34").find("\\n") != std::string::npos);
}

TEST_CASE("numbers: whitespace around a value is accepted, a blank value is unset") {
  std::vector<std::string> warnings;
  Config config = ParseWith({{"PROF_BUFFER_MB", " 16\t"},
                             {"PROF_STEPS_PER_FILE", " 7 "},
                             {"PROF_LOG_LEVEL", " Info "},
                             {"PROF_STACKS", "   "}},
                            &warnings);
  CHECK(warnings.empty());
  CHECK(config.buffer_bytes == (16ull << 20));
  CHECK(config.steps_per_file == 7);
  CHECK(config.log_level == LogLevel::kInfo);
  CHECK_FALSE(config.stacks);
}

TEST_CASE("PROF_STEP_MARKER: N is in 1..1000000000; all bad rules make one line") {
  for (const std::string& bad :
       {std::string("api:cudaLaunchKernel:") + kInt64Max, std::string("api:cudaLaunchKernel:0"),
        std::string("api:cudaLaunchKernel:-2"), std::string("api:cudaLaunchKernel:1000000001"),
        std::string("api:cudaLaunchKernel:99999999999999999999999"), std::string("api::3"),
        std::string("api:a:b:c"), std::string("kernel:"), std::string("nonsense")}) {
    OnlyWarning("PROF_STEP_MARKER", bad);
  }
  std::vector<std::string> warnings;
  const Config config =
      ParseWith({{"PROF_STEP_MARKER", "api::3;kernel:*sgd*;nonsense; api:x:0"}}, &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        "PROF_STEP_MARKER='api::3;kernel:*sgd*;nonsense; api:x:0' has rules that are not "
        "api:NAME[:N] with N in 1..1000000000 or kernel:GLOB ('api::3', 'nonsense', 'api:x:0'); "
        "using kernel:*sgd*");
  REQUIRE(config.step_markers.size() == 1);
  CHECK(config.step_markers[0].kernel_glob == "*sgd*");
  CHECK(config.applied.at("PROF_STEP_MARKER") == "kernel:*sgd*");
}

TEST_CASE("PROF_ACTIVITIES: unknown names are one line, which says what is recorded") {
  std::vector<std::string> warnings;
  Config config = ParseWith({{"PROF_ACTIVITIES", "kernel, bogus,nvtx,kernels"}}, &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK(
      warnings[0] ==
      "PROF_ACTIVITIES='kernel, bogus,nvtx,kernels' names unknown activities ('bogus', "
      "'kernels'; known: cuda,kernel,memcpy,memset,nccl,nvtx,memory,sync,all); using kernel,nvtx");
  CHECK(config.activities == (kActivityKernel | kActivityNvtx));
  CHECK(OnlyWarning("PROF_ACTIVITIES", "kernels").find("; using all") != std::string::npos);
  CHECK(OnlyWarning("PROF_ACTIVITIES", ",,,").find("; using all") != std::string::npos);
}

TEST_CASE("flags: every PROF_* flag takes the same spellings, PROF_PYTHON included") {
  for (const char* flag : {"PROF_DISABLE", "PROF_TIMER_ONLY", "PROF_STACKS", "PROF_PYTHON",
                           "PROF_PYTHON_OPS", "PROF_SHAPES", "PROF_ATEN_STACKS"}) {
    for (const char* bad : {"2", "-1", kInt64Max, "maybe", "1 1", "truee"}) OnlyWarning(flag, bad);
    for (const char* on : {"1", "true", " Yes ", "ON"}) {
      std::vector<std::string> warnings;
      const Config config = ParseWith({{flag, on}}, &warnings);
      INFO(flag << "='" << on << "'");
      CHECK(warnings.empty());
      CHECK(config.applied.at(flag) == "1");
    }
    for (const char* off : {"0", "false", " No ", "OFF"}) {
      std::vector<std::string> warnings;
      const Config config = ParseWith({{flag, off}}, &warnings);
      INFO(flag << "='" << off << "'");
      CHECK(warnings.empty());
      CHECK(config.applied.at(flag) == "0");
    }
  }
  std::vector<std::string> warnings;
  CHECK(ParseWith({}, &warnings).applied.at("PROF_PYTHON") == "1");
  CHECK(ParseWith({}, &warnings).applied.at("PROF_PYTHON_OPS") == "1");
  CHECK(ParseWith({}, &warnings).applied.at("PROF_SHAPES") == "0");
  CHECK(ParseWith({}, &warnings).applied.at("PROF_ATEN_STACKS") == "0");
  CHECK(ParseWith({{"PROF_SHAPES", "1"}}, &warnings).shapes);
}

TEST_CASE("PROF_PYTHON_OPS: 1 records ATen operators, python the Python-level functions") {
  const struct {
    const char* value;
    PythonOperators mode;
    const char* applied;
  } cases[] = {{"1", PythonOperators::kAten, "1"},
               {" aten ", PythonOperators::kAten, "1"},
               {"ON", PythonOperators::kAten, "1"},
               {"python", PythonOperators::kPython, "python"},
               {" Python ", PythonOperators::kPython, "python"},
               {"no", PythonOperators::kOff, "0"}};
  for (const auto& each : cases) {
    std::vector<std::string> warnings;
    const Config config = ParseWith({{"PROF_PYTHON_OPS", each.value}}, &warnings);
    INFO("PROF_PYTHON_OPS='" << each.value << "'");
    CHECK(warnings.empty());
    CHECK(config.python_operators == each.mode);
    CHECK(config.applied.at("PROF_PYTHON_OPS") == each.applied);
  }
  std::vector<std::string> warnings;
  CHECK(ParseWith({}, &warnings).python_operators == PythonOperators::kAten);  // the default
  CHECK(OnlyWarning("PROF_PYTHON_OPS", "pyton") ==
        "PROF_PYTHON_OPS='pyton' is not 1/aten, python or 0 (any PROF_* flag spelling); using 1");
}

TEST_CASE("PROF_ATEN_SOURCE: auto, observer or profiler, any case; else auto and a warning") {
  for (const auto& [value, applied] : std::vector<std::pair<const char*, const char*>>{
           {"observer", "observer"}, {" Profiler ", "profiler"}, {"AUTO", "auto"}}) {
    std::vector<std::string> warnings;
    INFO("PROF_ATEN_SOURCE='" << value << "'");
    CHECK(ParseWith({{"PROF_ATEN_SOURCE", value}}, &warnings).applied.at("PROF_ATEN_SOURCE") ==
          applied);
    CHECK(warnings.empty());
  }
  std::vector<std::string> warnings;
  CHECK(ParseWith({}, &warnings).applied.at("PROF_ATEN_SOURCE") == "auto");
  CHECK(OnlyWarning("PROF_ATEN_SOURCE", "observers") ==
        "PROF_ATEN_SOURCE='observers' is not auto, observer or profiler; using auto");
}

TEST_CASE("PROF_WORKER_NAME is a file-name part: no '/', at most 200 bytes") {
  OnlyWarning("PROF_WORKER_NAME", "a/b");
  OnlyWarning("PROF_WORKER_NAME", std::string(201, 'w'));
  OnlyWarning("PROF_WORKER_NAME", "a\nb");
  std::vector<std::string> warnings;
  const Config config = ParseWith({{"PROF_WORKER_NAME", "a/b"}}, &warnings);
  CHECK(config.worker_name.find("host_") == 0);
  CHECK(ParseWith({{"PROF_WORKER_NAME", std::string(200, 'w')}}, &warnings).worker_name ==
        std::string(200, 'w'));
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

TEST_CASE("PROF_CLOCK: tsc (the default) or monotonic, any case") {
  std::vector<std::string> warnings;
  const Config defaults = ParseWith({}, &warnings);
  CHECK(defaults.clock_tsc);
  CHECK(defaults.applied.at("PROF_CLOCK") == "tsc");
  const Config monotonic = ParseWith({{"PROF_CLOCK", " Monotonic "}}, &warnings);
  CHECK_FALSE(monotonic.clock_tsc);
  CHECK(monotonic.applied.at("PROF_CLOCK") == "monotonic");
  CHECK(ParseWith({{"PROF_CLOCK", "TSC"}}, &warnings).clock_tsc);
  CHECK(warnings.empty());
  OnlyWarning("PROF_CLOCK", "rdtsc");
  OnlyWarning("PROF_CLOCK", "monotonic_raw");
  CHECK(ParseWith({{"PROF_CLOCK", "rdtsc"}}, &warnings).clock_tsc);
}

}  // namespace
}  // namespace prof
