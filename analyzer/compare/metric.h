// What compare measures per step: the families of metrics, their units and display
// names. A metric is a family plus, for per-name families, a name (a normalized kernel
// name, a CUDA API name, an operator name, an NCCL collective).
#ifndef PROF_ANALYZER_COMPARE_METRIC_H_
#define PROF_ANALYZER_COMPARE_METRIC_H_

#include <string>
#include <tuple>

#include "absl/strings/string_view.h"

namespace prof::analyzer::compare {

enum class MetricFamily {
  kStepTime,     // step duration (ns)
  kGpuTime,      // kernel time launched inside the step (ns)
  kGpuUtil,      // kernels' busy time (all devices merged) over the step (percent)
  kBusBw,        // NCCL bus bandwidth of the step's collectives (GB/s); per collective by name
  kKernel,       // per normalized kernel name: time launched inside the step (ns)
  kKernelCalls,  // per kernel name: launches inside the step
  kApi,          // per CUDA API name: host time of calls starting inside the step (ns)
  kApiCalls,     // per CUDA API name: calls starting inside the step
  kOperator,     // per operator (operator and NVTX ranges): host time (ns)
};

enum class MetricUnit { kNanoseconds, kPercent, kGigabytesPerSecond, kCount };

struct MetricKey {
  MetricFamily family = MetricFamily::kStepTime;
  std::string name;  // empty for whole-step metrics (and overall busbw)

  bool operator<(const MetricKey& other) const {
    return std::tie(family, name) < std::tie(other.family, other.name);
  }
  bool operator==(const MetricKey& other) const {
    return family == other.family && name == other.name;
  }
};

// "step_time", "kernel", "api_calls", ... as written in rules.
const char* FamilyName(MetricFamily family);
// Parses a family name; false when unknown.
bool ParseFamily(absl::string_view text, MetricFamily* family);
// Every family name, comma-separated (for error messages).
std::string KnownFamilies();

MetricUnit UnitOf(MetricFamily family);
// Families whose metrics are named (kernel, api, ...); busbw is optionally named.
bool IsPerName(MetricFamily family);
// Bandwidth and utilization: a decrease is the regression.
bool HigherIsBetter(MetricFamily family);

// "step_time", "kernel:relu_kernel<float, 256>", "busbw:ALL_REDUCE".
std::string DisplayName(const MetricKey& key);

}  // namespace prof::analyzer::compare

#endif  // PROF_ANALYZER_COMPARE_METRIC_H_
