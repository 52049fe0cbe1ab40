// Kernel Summary: every kernel (also those whose launching call is unknown), grouped by
// demangled name: calls and GPU Total / Avg / Max / Min over the sum of all kernels.
// Sorted by total, or by GPUAvg / GPUMax / GPUMin; CPU keys sort by total (paddle).
//
// Kernel Launch Summary (host side): the launches no device kernel record answered (CUPTI
// absent, disabled or of an unsupported version, or its records lost), grouped by kernel
// name and the grid / block / dynamic shared memory the launching call passed: calls only,
// since the host cannot know device times; its first line counts them among all launches.
#ifndef PROF_ANALYZER_SUMMARY_KERNEL_SUMMARY_H_
#define PROF_ANALYZER_SUMMARY_KERNEL_SUMMARY_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/named_items.h"
#include "analyzer/summary/summary_table.h"

namespace prof::analyzer {

// A launch configuration as the launching call passed it: name, grid, block, dynamic
// shared memory.
using HostLaunchKey = std::array<uint32_t, 8>;

struct KernelFigures {
  NamedItems<NamedItem> kernels;  // gpu only
  double all_kernels_ns = 0;
  uint64_t launches = 0;  // calls with a recorded launch configuration
  // Those no device kernel record answered, by configuration: calls, in first-seen order.
  std::map<HostLaunchKey, uint64_t> unanswered;
  std::vector<HostLaunchKey> unanswered_order;
  uint64_t unanswered_launches = 0;
};

// Adds one window's kernels.
void AddKernelFigures(const AnalysisContext& window, KernelFigures* figures);
std::optional<SummaryTable> KernelSummary(const KernelFigures& figures,
                                          const RenderContext& context);
// Present when some launch has no device kernel record.
std::optional<SummaryTable> KernelLaunchSummary(const KernelFigures& figures,
                                                const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_KERNEL_SUMMARY_H_
