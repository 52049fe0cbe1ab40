// False-positive rate and detection power of the whole compare pipeline (trace files →
// loader → model → per-step profile → diff → rules), on small synthetic traces shaped
// like the simulated `train` workload: a 1-3 ms data-loader wait drawn from the run's
// seed, eight kernels whose durations follow a per-name model with 0.5% launch-to-launch
// jitter (like a real GPU; the simulator itself has none), and host API calls with
// log-normal jitter. Pairs with identical settings and different seeds must not be
// flagged (at most 1% of 150 pairs); pairs where one kernel is 10% slower must be
// flagged, naming that kernel.
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "absl/strings/str_cat.h"
#include "analyzer/testing/load_inputs.h"
#include "analyzer/compare/compare_report.h"
#include "analyzer/compare/rule_parser.h"
#include "analyzer/compare/run_profile.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer::compare {
namespace {

constexpr int kSteps = 12;
constexpr int kPairs = 150;
// The rules plus every kernel, API and call count: the strictest useful gate.
constexpr char kRules[] =
    "step_time>+3%,gpu_time>+5%,gpu_util<-2pt,kernel:*>+5%,api:*>+10%,api_calls:*>+0";

const char* const kKernels[] = {
    "volta_sgemm_128x64_nn",
    "_Z22elementwise_add_kernelIfEvPKT_S2_PS0_i",
    "_Z11relu_kernelIfLi256EEvPKT_PS0_i",
    "volta_sgemm_32x32_sliced1x4_nn",
    "_Z22softmax_forward_kernelIfLi10EEvPKT_PS0_i",
    "volta_sgemm_128x64_tn",
    "volta_sgemm_128x64_nt",
    "_Z17sgd_update_kernelIfEvPT_PKS0_fi",
};

struct Settings {
  uint64_t seed = 1;
  std::string slow_kernel;  // substring; empty: none
  double slow_factor = 1.0;
};

// Per-name base duration in [3 us, 60 us), like the simulator's model.
double KernelBaseNs(const std::string& name) {
  return 3000 + static_cast<double>(std::hash<std::string>{}(name) % 57000);
}

// One run: kSteps steps of data loading, launches, kernels and a synchronous copy.
std::string WriteRun(const Settings& settings, const std::string& file) {
  std::mt19937_64 random(settings.seed);
  std::uniform_real_distribution<double> loader(1e6, 3e6);
  std::lognormal_distribution<double> host_jitter(0, 0.2);
  std::normal_distribution<double> gpu_jitter(1, 0.005);
  testing::TestTrace trace;
  uint64_t now = 1000000;
  for (int step = 0; step < kSteps; ++step) {
    const uint64_t step_start = now;
    now += static_cast<uint64_t>(loader(random));
    uint64_t gpu = now;
    for (const char* kernel : kKernels) {
      const uint64_t call = static_cast<uint64_t>(4000 * host_jitter(random));
      double duration = KernelBaseNs(kernel) * gpu_jitter(random);
      if (!settings.slow_kernel.empty() &&
          std::string(kernel).find(settings.slow_kernel) != std::string::npos) {
        duration *= settings.slow_factor;
      }
      gpu = std::max(gpu, now + call) + 1000;
      trace.Range(1, schema::RANGE_KIND_OPERATOR, "op", now, now + call + 500);
      trace.Launch(1, now + 200, now + call, kernel, 0, 7, gpu,
                   gpu + static_cast<uint64_t>(duration));
      gpu += static_cast<uint64_t>(duration);
      now += call + 700;
    }
    const uint64_t copy = static_cast<uint64_t>(3000 * host_jitter(random));
    trace.ApiCall(1, "cudaMemcpy", now, std::max(now, gpu) + copy);
    now = std::max(now, gpu) + copy + 2000;
    trace.Step(1, step_start, now, step, 32);
  }
  return trace.Write(file);
}

RunProfile Profile(const std::string& path) {
  absl::StatusOr<LoadedInputs> inputs = LoadInputs({path}, 1);
  REQUIRE(inputs.ok());
  REQUIRE(inputs->processes.size() == 1);
  return BuildRunProfile(std::move(inputs->processes), ProfileOptions{});
}

CompareReport ComparePair(const Settings& base, const Settings& candidate, int pair) {
  CompareSettings settings;
  settings.rules = *ParseRules(kRules);
  const RunProfile base_profile = Profile(WriteRun(base, absl::StrCat("fp_base_", pair, ".pb")));
  const RunProfile new_profile = Profile(WriteRun(candidate, absl::StrCat("fp_new_", pair, ".pb")));
  return BuildCompareReport(base_profile, {"base"}, new_profile, {"new"}, settings);
}

std::vector<std::string> BrokenMetrics(const CompareReport& report) {
  std::vector<std::string> broken;
  for (const RuleResult& result : report.rules) {
    for (const ItemResult& item : result.items) {
      if (item.verdict == Verdict::kFail) broken.push_back(DisplayName(item.diff.key));
    }
  }
  return broken;
}

TEST_CASE("identical settings, different seeds: at most 1% of 150 pairs flagged") {
  int flagged = 0;
  for (int pair = 0; pair < kPairs; ++pair) {
    const CompareReport report = ComparePair({1000 + 2 * static_cast<uint64_t>(pair)},
                                             {1001 + 2 * static_cast<uint64_t>(pair)}, pair);
    if (!report.Failed()) continue;
    ++flagged;
    for (const std::string& metric : BrokenMetrics(report))
      UNSCOPED_INFO("pair " << pair << " flagged " << metric);
  }
  std::printf("false positives: %d of %d seeded pairs (%.2f%%) with --fail-on \"%s\"\n", flagged,
              kPairs, 100.0 * flagged / kPairs, kRules);
  CHECK(flagged <= kPairs / 100);
}

TEST_CASE("one kernel 10% slower: flagged in every pair, and only that kernel named") {
  int caught = 0;
  const int pairs = 30;
  for (int pair = 0; pair < pairs; ++pair) {
    Settings slow{5001 + 2 * static_cast<uint64_t>(pair), "relu_kernel", 1.1};
    const CompareReport report = ComparePair({5000 + 2 * static_cast<uint64_t>(pair)}, slow, pair);
    const std::vector<std::string> broken = BrokenMetrics(report);
    const bool named =
        std::find(broken.begin(), broken.end(), "kernel:relu_kernel<float, 256>") != broken.end();
    caught += named;
    for (const std::string& metric : broken) {
      if (metric.rfind("kernel:", 0) == 0) CHECK(metric == "kernel:relu_kernel<float, 256>");
    }
  }
  std::printf("10%% slower kernel: caught and named in %d of %d pairs\n", caught, pairs);
  CHECK(caught == pairs);
}

}  // namespace
}  // namespace prof::analyzer::compare
