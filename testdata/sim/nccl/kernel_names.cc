#include "testdata/sim/nccl/kernel_names.h"

#include "testdata/sim/nccl/datatypes.h"

namespace simnccl {
namespace {

constexpr char kDevArgs[] = "(ncclDevKernelArgsStorage<4096ul>)";
constexpr char kLegacyArgs[] = "(ncclDevComm*, unsigned long, ncclWork*)";

// NCCL builds AlltoAll, Gather and Scatter from grouped sends and receives, so they run
// in the send/recv kernel.
bool RunsAsSendRecv(Func func) {
  return IsPointToPoint(func) || func == Func::kAllToAll || func == Func::kGather ||
         func == Func::kScatter;
}

bool HasReduction(Func func) {
  return func == Func::kAllReduce || func == Func::kReduce || func == Func::kReduceScatter;
}

// NCCL >= 2.19 specialises Sum reductions and the data-movement collectives; other
// reduction operators run in the generic kernel.
std::string DevKernelName(const OpDescription& op) {
  if (RunsAsSendRecv(op.func)) return std::string("ncclDevKernel_SendRecv") + kDevArgs;
  if (!HasReduction(op.func)) {
    return std::string("ncclDevKernel_") + FuncName(op.func) + "_RING_LL" + kDevArgs;
  }
  if (op.redop != ncclSum) return std::string("ncclDevKernel_Generic") + kDevArgs;
  return std::string("ncclDevKernel_") + FuncName(op.func) + "_Sum_" +
         DevKernelTypeName(op.datatype) + "_RING_LL" + kDevArgs;
}

const char* LegacyRedOpName(const OpDescription& op) {
  switch (op.redop) {
    case ncclProd: return "Prod";
    case ncclMax:
    case ncclMin: return "MinMax";
    case ncclAvg: return IsFloatingType(op.datatype) ? "PreMulSum" : "SumPostDiv";
    default: return "Sum";
  }
}

// NCCL <= 2.18: one kernel per (function, operator, type); data movement and send/recv
// are instantiated as Sum over int8_t.
std::string LegacyKernelName(const OpDescription& op) {
  if (RunsAsSendRecv(op.func)) {
    return std::string("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t") + kLegacyArgs;
  }
  if (!HasReduction(op.func)) {
    return std::string("ncclKernel_") + FuncName(op.func) + "_RING_LL_Sum_int8_t" + kLegacyArgs;
  }
  return std::string("ncclKernel_") + FuncName(op.func) + "_RING_LL_" + LegacyRedOpName(op) + "_" +
         LegacyKernelTypeName(op.datatype) + kLegacyArgs;
}

}  // namespace

std::string KernelNameFor(const std::vector<const OpDescription*>& ops, bool legacy) {
  if (ops.empty()) return legacy ? LegacyKernelName(OpDescription{}) : DevKernelName({});
  const std::string first = legacy ? LegacyKernelName(*ops[0]) : DevKernelName(*ops[0]);
  for (const OpDescription* op : ops) {
    const std::string name = legacy ? LegacyKernelName(*op) : DevKernelName(*op);
    // Differently specialised ops fused into one launch: newer NCCL uses its generic
    // kernel; older NCCL launched the first op's kernel, which dispatched the rest.
    if (name != first) return legacy ? first : std::string("ncclDevKernel_Generic") + kDevArgs;
  }
  return first;
}

}  // namespace simnccl
