#include "testdata/sim/nccl/op_description.h"

#include "testdata/sim/nccl/datatypes.h"

namespace simnccl {

const char* FuncName(Func func) {
  switch (func) {
    case Func::kBroadcast: return "Broadcast";
    case Func::kReduce: return "Reduce";
    case Func::kAllGather: return "AllGather";
    case Func::kReduceScatter: return "ReduceScatter";
    case Func::kAllReduce: return "AllReduce";
    case Func::kSend: return "Send";
    case Func::kRecv: return "Recv";
  }
  return "Unknown";
}

bool IsPointToPoint(Func func) { return func == Func::kSend || func == Func::kRecv; }

size_t AlgorithmBytes(const OpDescription& op, int nranks) {
  const size_t bytes = op.count * ElementSize(op.datatype);
  if (op.func == Func::kAllGather || op.func == Func::kReduceScatter) {
    return bytes * static_cast<size_t>(nranks);
  }
  return bytes;
}

size_t MessageBytes(const OpDescription& op) { return op.count * ElementSize(op.datatype); }

}  // namespace simnccl
