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
    case Func::kAllToAll: return "AlltoAll";
    case Func::kGather: return "Gather";
    case Func::kScatter: return "Scatter";
  }
  return "Unknown";
}

bool IsPointToPoint(Func func) { return func == Func::kSend || func == Func::kRecv; }

bool IsPerRankPieces(Func func) {
  return func == Func::kAllGather || func == Func::kReduceScatter || func == Func::kAllToAll ||
         func == Func::kGather || func == Func::kScatter;
}

size_t AlgorithmBytes(const OpDescription& op, int nranks) {
  const size_t bytes = op.count * ElementSize(op.datatype);
  return IsPerRankPieces(op.func) ? bytes * static_cast<size_t>(nranks) : bytes;
}

size_t MessageBytes(const OpDescription& op) { return op.count * ElementSize(op.datatype); }

}  // namespace simnccl
