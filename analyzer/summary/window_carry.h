// Work that runs past the last step of its window, handed on to the next window's unions.
//
// A process is analyzed one window at a time (report.h). The union tables (Device,
// Overview, Distribution) clip each kind of work to the steps; a kernel launched in a
// window's last step may still run when the next window's first step has begun, and a
// window split into several files (PROF_STEPS_PER_FILE) has such boundaries everywhere.
// The part of each interval past its window's end is carried into the next window, where
// it joins that window's own intervals before clipping, so the sums equal those of one
// merged model. The carry holds only work in flight at a window boundary.
//
// Not thread-safe; one per process, fed windows in time order.
#ifndef PROF_ANALYZER_SUMMARY_WINDOW_CARRY_H_
#define PROF_ANALYZER_SUMMARY_WINDOW_CARRY_H_

#include <array>
#include <cstdint>
#include <vector>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/intervals.h"

namespace prof::analyzer {

// One kind per union a table computes (each table carries its own).
enum class UnionKind : uint8_t {
  kOperatorRanges,
  kUserRanges,
  kNvtxRanges,
  kApiCalls,  // Overview, host
  kKernels,
  kMemcpys,
  kMemsets,          // Overview, device
  kKernelsByDevice,  // Device
  kCommunicationHost,
  kCommunicationGpu,
  kComputation,  // Distribution
  kCount,
};

struct CarriedInterval {
  uint64_t start = 0;
  uint64_t end = 0;
  uint32_t device = 0;
  bool counted = false;  // the event was already counted as a call in an earlier window
};

struct ClippedUnion {
  IntervalList intervals;  // sorted, disjoint, inside the window's steps
  uint64_t calls = 0;      // events overlapping the steps, each counted in one window only
};

class WindowCarry {
 public:
  // The union of `own` (this window's events of `kind`) and the intervals carried in,
  // clipped to the window's steps; hands the parts past the window's end on. `device`
  // >= 0: `own` are that device's events, and only its carried intervals join them.
  ClippedUnion Union(const AnalysisContext& window, UnionKind kind, IntervalList own,
                     int device = -1);

  // The devices of the kernels carried in for kKernelsByDevice.
  std::vector<uint32_t> CarriedDevices() const;

  // For a union of `kind` taken from the union of `like` (the same events: a second merge
  // of millions of them saved). True when both carry the same intervals into this window,
  // whatever their devices; Union(`like`) first, then HandOnLike, so that what `kind`
  // hands on is what `like` handed on, and a later window can take `kind`'s own union.
  bool CarriesLike(UnionKind kind, UnionKind like) const;
  void HandOnLike(UnionKind kind, UnionKind like);

  // Between windows: what was handed on becomes what is carried in.
  void NextWindow();

 private:
  using Lists = std::array<std::vector<CarriedInterval>, static_cast<size_t>(UnionKind::kCount)>;
  Lists in_;
  Lists out_;
};

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_WINDOW_CARRY_H_
