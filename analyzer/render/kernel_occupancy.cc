#include "analyzer/render/kernel_occupancy.h"

#include <algorithm>
#include <cstdint>

namespace prof::analyzer {
namespace {

uint64_t RoundUp(uint64_t value, uint64_t step) { return (value + step - 1) / step * step; }

}  // namespace

std::optional<double> TheoreticalOccupancy(const KernelLaunch& launch, const SmLimits& limits) {
  const uint64_t threads = uint64_t{launch.block[0]} * launch.block[1] * launch.block[2];
  if (threads == 0 || threads > limits.max_threads_per_block) return std::nullopt;
  const uint64_t warps_per_block = (threads + 31) / 32;
  uint64_t blocks = std::min<uint64_t>(limits.max_blocks, limits.max_warps / warps_per_block);
  if (launch.registers_per_thread > 0) {
    const uint64_t registers_per_warp =
        RoundUp(uint64_t{launch.registers_per_thread} * 32, limits.register_granularity);
    const uint64_t warps_by_registers = limits.registers / registers_per_warp;
    blocks = std::min(blocks, warps_by_registers / warps_per_block);
  }
  const uint64_t shared = uint64_t{launch.static_shared_memory} + launch.dynamic_shared_memory;
  if (shared > 0) {
    const uint64_t per_block =
        RoundUp(shared + limits.shared_reserved_per_block, limits.shared_granularity);
    blocks = std::min(blocks, limits.shared_memory / per_block);
  }
  return static_cast<double>(blocks * warps_per_block) / limits.max_warps;
}

}  // namespace prof::analyzer
