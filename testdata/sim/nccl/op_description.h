// What one NCCL call asked for, independent of how it is executed: enough to run the
// data exchange, name the kernel and price it with the timing model.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>

namespace simnccl {

enum class Func {
  kBroadcast,
  kReduce,
  kAllGather,
  kReduceScatter,
  kAllReduce,
  kSend,
  kRecv,
  kAllToAll,
  kGather,
  kScatter  // NCCL >= 2.28 API collectives (run as send/recv in NCCL)
};

struct OpDescription {
  Func func = Func::kAllReduce;
  const void* sendbuff = nullptr;
  void* recvbuff = nullptr;
  // NCCL's own count argument: per rank for AllGather (sendcount), ReduceScatter
  // (recvcount), AlltoAll, Gather and Scatter (elements per peer), the message for the
  // others.
  size_t count = 0;
  ncclDataType_t datatype = ncclFloat32;
  ncclRedOp_t redop = ncclSum;
  int root_or_peer = 0;  // root for Broadcast/Reduce/Gather/Scatter, peer for Send/Recv
  cudaStream_t stream = nullptr;
};

const char* FuncName(Func func);  // "AllReduce", "Send", "AlltoAll", ...

bool IsPointToPoint(Func func);

// Whether the op's buffers hold one piece per rank (count elements each): AllGather,
// ReduceScatter, AlltoAll, Gather, Scatter.
bool IsPerRankPieces(Func func);

// Bytes nccl-tests uses for algbw (S in its PERFORMANCE.md): count*e, times nranks for
// the per-rank-piece collectives (IsPerRankPieces).
size_t AlgorithmBytes(const OpDescription& op, int nranks);

// The message size a profiler reports for the call: count*e (AllGather: the send side,
// ReduceScatter: the receive side), the same as NCCL's own "size" in its logs.
size_t MessageBytes(const OpDescription& op);

}  // namespace simnccl
