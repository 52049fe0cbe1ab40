// The unions of a window's device work that the Device and Overview Summaries share,
// taken in one walk over the device records: per device the union of its kernels (the
// Device Summary's busy time), and the unions of all copies and all memsets. The
// Overview's kernel row is the union of the per-device unions, so the kernels are merged
// once, not once per table (each merge sorts and clips millions of intervals).
//
// Computed per window after the analysis context, not in the context's own walk: the
// context lives through every summary of the window, and raw interval lists held there
// would add 16 bytes per record to the peak while the other summaries build theirs.
#ifndef PROF_ANALYZER_SUMMARY_DEVICE_UNIONS_H_
#define PROF_ANALYZER_SUMMARY_DEVICE_UNIONS_H_

#include <cstdint>
#include <map>

#include "analyzer/summary/analysis_context.h"
#include "analyzer/summary/intervals.h"
#include "analyzer/summary/window_carry.h"

namespace prof::analyzer {

struct DeviceUnions {
  // Per device (with the devices of kernels carried in): its kernels merged and clipped
  // to the steps, and the kernels counted inside them.
  std::map<uint32_t, ClippedUnion> kernels_by_device;
  ClippedUnion memcpys;
  ClippedUnion memsets;
  bool any_kernel = false;  // the window has own records of the kind (inside the steps or not)
  bool any_memcpy = false;
  bool any_memset = false;

  // Every device's kernels counted, their union (devices overlap) and its length.
  uint64_t KernelCalls() const;
  IntervalList AllKernels() const;
  uint64_t AllKernelsLength() const;
};

// The window's unions, with the work carried into it; hands on what runs past it.
// `with_copies` false (no Overview wanted) skips the copy and memset unions.
DeviceUnions ComputeDeviceUnions(const AnalysisContext& window, WindowCarry* carry,
                                 bool with_copies);

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_SUMMARY_DEVICE_UNIONS_H_
