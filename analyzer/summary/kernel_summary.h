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

// Adds one window's kernels; returns which calls a device kernel record answered (a byte
// per call), for the launches' count that the walk over the calls makes (HostLaunchCounter).
std::vector<uint8_t> AddKernelFigures(const AnalysisContext& window, KernelFigures* figures);

// Counts the window's launching calls, and those no device kernel record answered, as the
// one walk over the calls (AddCallFigures, cuda_api_summary.h) meets them: a walk of its
// own read every 80-byte call again for the one field.
class HostLaunchCounter {
 public:
  // `answered`: AddKernelFigures' answer for the window.
  HostLaunchCounter(const TraceModel& model, std::vector<uint8_t> answered, KernelFigures* figures);

  // Whether call `index` launched a kernel with a recorded configuration; counts it among
  // the unanswered ones when no device record answered it. The caller sums the launches
  // and adds them once (AddLaunches): a store through the figures each call may alias
  // every other figure of the walk.
  bool Launched(size_t index, const ApiCall& call) {
    const int32_t launch = call.launch;
    if (launch == kNoIndex || static_cast<size_t>(launch) >= launch_count_) return false;
    if (!answered_[index]) AddUnanswered(launch);
    return true;
  }
  void AddLaunches(uint64_t launches) { figures_->launches += launches; }

 private:
  // Out of line: rare (no device record), and its map would take the walk's registers.
  void AddUnanswered(int32_t launch);

  const TraceModel& model_;
  std::vector<uint8_t> answered_;
  size_t launch_count_;
  KernelFigures* figures_;
};
std::optional<SummaryTable> KernelSummary(const KernelFigures& figures,
                                          const RenderContext& context);
// Present when some launch has no device kernel record.
std::optional<SummaryTable> KernelLaunchSummary(const KernelFigures& figures,
                                                const RenderContext& context);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_KERNEL_SUMMARY_H_
