#include "testdata/sim/nccl/timing_model.h"

#include <sim/sim_ext.h>

#include <cmath>

#include "testdata/sim/nccl/env_config.h"

namespace simnccl {
namespace {

double BusFactor(Func func, int nranks) {
  const double n = nranks;
  switch (func) {
    case Func::kAllReduce: return 2.0 * (n - 1) / n;
    case Func::kAllGather:
    case Func::kReduceScatter:
    case Func::kAllToAll:
    case Func::kGather:
    case Func::kScatter: return (n - 1) / n;
    default: return 1.0;
  }
}

int AlgorithmSteps(Func func, int nranks) {
  switch (func) {
    case Func::kAllReduce: return 2 * (nranks - 1);
    case Func::kAllGather:
    case Func::kReduceScatter:
    case Func::kAllToAll:
    case Func::kGather:
    case Func::kScatter: return nranks - 1;
    default: return 1;
  }
}

}  // namespace

uint64_t OpCostNs(Func func, size_t algorithm_bytes, int nranks) {
  // GB/s with GB = 1e9 bytes, as nccl-tests counts: bytes / (GB/s) = nanoseconds.
  const double transfer_ns =
      static_cast<double>(algorithm_bytes) * BusFactor(func, nranks) / ConfiguredBusBandwidthGBps();
  const double latency_ns =
      static_cast<double>(AlgorithmSteps(func, nranks)) * ConfiguredStepLatencyNs();
  return static_cast<uint64_t>(std::llround(transfer_ns + latency_ns));
}

uint64_t KernelDurationNs(const std::vector<const OpDescription*>& ops, int nranks) {
  double total = static_cast<double>(ConfiguredBaseLatencyNs());
  for (const OpDescription* op : ops) {
    total += static_cast<double>(OpCostNs(op->func, AlgorithmBytes(*op, nranks), nranks));
  }
  return static_cast<uint64_t>(std::llround(total * simTimeScale()));
}

}  // namespace simnccl
