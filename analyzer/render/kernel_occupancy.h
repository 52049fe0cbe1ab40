// Theoretical occupancy of a kernel launch: the share of an SM's warp slots its blocks can
// fill, limited by threads, registers and shared memory (the CUDA occupancy calculator's
// arithmetic). The trace does not record which GPU ran the kernel, so the limits are
// those of one assumed device, named in kOccupancyDeviceLimits and in every export.
//
// Pure functions; thread-safe.
#ifndef PROF_ANALYZER_RENDER_KERNEL_OCCUPANCY_H_
#define PROF_ANALYZER_RENDER_KERNEL_OCCUPANCY_H_

#include <optional>

#include "analyzer/model/trace_model.h"

namespace prof::analyzer {

// The per-SM limits the arithmetic assumes (compute capability 9.0, H100).
struct SmLimits {
  unsigned max_warps = 64;
  unsigned max_blocks = 32;
  unsigned max_threads_per_block = 1024;
  unsigned registers = 65536;
  unsigned register_granularity = 256;  // registers per warp are allocated in these steps
  unsigned shared_memory = 233472;      // 228 KiB
  unsigned shared_granularity = 128;
  unsigned shared_reserved_per_block = 1024;  // the system's share of each block
};

inline constexpr char kOccupancyDeviceLimits[] =
    "sm_90 (H100): 64 warps, 32 blocks, 65536 registers (256 per warp step), 228 KiB shared "
    "memory (1 KiB reserved per block) per SM";

// Active warps / max warps in [0, 1]; nullopt when the block size is unknown or invalid.
std::optional<double> TheoreticalOccupancy(const KernelLaunch& launch, const SmLimits& limits = {});

}  // namespace prof::analyzer

#endif  // PROF_ANALYZER_RENDER_KERNEL_OCCUPANCY_H_
