// Distribution Summary: communication (NCCL calls and communication operators on the
// host, NCCL kernels of both name generations on the GPU), computation (all other
// kernels) and their overlap, as unions clipped to the step windows, over T. Printed
// only when there is communication.
#ifndef PROF_ANALYZER_SUMMARY_DISTRIBUTION_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_DISTRIBUTION_SUMMARY_H_

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/device_unions.h"
#include "analyzer/summary/summary_table.h"
#include "analyzer/summary/window_carry.h"

namespace prof::analyzer {

struct CommunicationFigures {
  IntervalList host;        // NCCL calls and communication operators
  uint64_t host_calls = 0;  // distinct intervals
  IntervalList gpu;         // NCCL kernels
  uint64_t gpu_calls = 0;
  IntervalList communication;  // host ∪ gpu
  IntervalList computation;    // non-NCCL kernels
  IntervalList overlap;        // communication ∩ computation
};

// Operator names that are collectives (paddle's lower-cased substrings, both spellings),
// but never an ATen operator or a shape operator such as broadcast_tensors.
bool IsCommunicationOperatorName(absl::string_view name);

// One window's unions (with the work carried into it). `device_unions`, when the window
// has them (else null), give the computation union whenever it is their kernels' union.
CommunicationFigures ComputeCommunication(const AnalysisContext& window,
                                          const DeviceUnions* device_unions, WindowCarry* carry);

// The lengths and counts of every window's unions, summed.
struct CommunicationTotals {
  uint64_t host_ns = 0;
  uint64_t host_calls = 0;
  uint64_t gpu_ns = 0;
  uint64_t gpu_calls = 0;
  uint64_t communication_ns = 0;
  uint64_t computation_ns = 0;
  uint64_t overlap_ns = 0;
  // Some window's union (clipped to its steps) is not empty.
  bool any_host = false;
  bool any_gpu = false;
  bool any_communication = false;

  void Add(const CommunicationFigures& window);
};

std::optional<SummaryTable> DistributionSummary(const CommunicationTotals& totals,
                                                const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_DISTRIBUTION_SUMMARY_H_
