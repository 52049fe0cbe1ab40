// Exported collective, point-to-point and group functions of the simulated libnccl.so.2.
// Each validates its arguments like NCCL, builds an op and submits it to the thread's
// group (group_state.h).
#include <nccl.h>

#include <memory>
#include <string>

#include "testdata/sim/nccl/api_guard.h"
#include "testdata/sim/nccl/collective_op.h"
#include "testdata/sim/nccl/comm.h"
#include "testdata/sim/nccl/datatypes.h"
#include "testdata/sim/nccl/group_state.h"
#include "testdata/sim/nccl/p2p_op.h"

using simnccl::Func;
using simnccl::Guarded;
using simnccl::OpDescription;

namespace {

ncclResult_t Reject(ncclComm_t comm, ncclResult_t result, const OpDescription& op,
                    const std::string& why) {
  const std::string message = std::string("nccl") + simnccl::FuncName(op.func) + ": " + why;
  if (comm == nullptr) {
    simnccl::SetThreadLastError(message);
    return result;
  }
  comm->last_error = message;
  simnccl::SetThreadLastError(message);
  return result;  // argument errors do not break the communicator, so not sticky
}

ncclResult_t Validate(ncclComm_t comm, const OpDescription& op) {
  if (comm == nullptr) return Reject(comm, ncclInvalidArgument, op, "comm is NULL");
  if (comm->sticky_error != ncclSuccess) return comm->sticky_error;
  if (simnccl::ElementSize(op.datatype) == 0) {
    return Reject(comm, ncclInvalidArgument, op, "invalid datatype " + std::to_string(op.datatype));
  }
  const bool reduces =
      op.func == Func::kAllReduce || op.func == Func::kReduce || op.func == Func::kReduceScatter;
  if (reduces && !simnccl::CanReduce(op.datatype, op.redop)) {
    return Reject(comm, ncclInvalidArgument, op,
                  "reduction op " + std::to_string(op.redop) + " over datatype " +
                      std::to_string(op.datatype) + " is not simulated");
  }
  const bool rooted = op.func != Func::kAllReduce && op.func != Func::kAllGather &&
                      op.func != Func::kReduceScatter && op.func != Func::kAllToAll;
  if (rooted && (op.root_or_peer < 0 || op.root_or_peer >= comm->nranks)) {
    return Reject(comm, ncclInvalidArgument, op,
                  "root/peer " + std::to_string(op.root_or_peer) + " outside [0, " +
                      std::to_string(comm->nranks) + ")");
  }
  if (op.count > 0) {
    const bool root = comm->rank == op.root_or_peer;
    const bool needs_send = op.func != Func::kRecv &&
                            !((op.func == Func::kBroadcast || op.func == Func::kScatter) && !root);
    const bool needs_recv = op.func != Func::kSend &&
                            !((op.func == Func::kReduce || op.func == Func::kGather) && !root);
    if ((needs_send && op.sendbuff == nullptr) || (needs_recv && op.recvbuff == nullptr)) {
      return Reject(comm, ncclInvalidArgument, op, "NULL buffer");
    }
  }
  return ncclSuccess;
}

ncclResult_t Submit(ncclComm_t comm, const OpDescription& op) {
  return Guarded([&]() -> ncclResult_t {
    const ncclResult_t valid = Validate(comm, op);
    if (valid != ncclSuccess) return valid;
    if (simnccl::IsPointToPoint(op.func)) {
      return simnccl::SubmitOp(std::make_unique<simnccl::P2pOp>(comm, op));
    }
    return simnccl::SubmitOp(std::make_unique<simnccl::CollectiveOp>(comm, op));
  });
}

OpDescription Describe(Func func, const void* sendbuff, void* recvbuff, size_t count,
                       ncclDataType_t datatype, ncclRedOp_t redop, int root_or_peer,
                       cudaStream_t stream) {
  OpDescription op;
  op.func = func;
  op.sendbuff = sendbuff;
  op.recvbuff = recvbuff;
  op.count = count;
  op.datatype = datatype;
  op.redop = redop;
  op.root_or_peer = root_or_peer;
  op.stream = stream;
  return op;
}

}  // namespace

extern "C" {

SIMNCCL_EXPORT ncclResult_t pncclAllReduce(const void* sendbuff, void* recvbuff, size_t count,
                                           ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                                           cudaStream_t stream) {
  return Submit(comm,
                Describe(Func::kAllReduce, sendbuff, recvbuff, count, datatype, op, 0, stream));
}

SIMNCCL_EXPORT ncclResult_t pncclBroadcast(const void* sendbuff, void* recvbuff, size_t count,
                                           ncclDataType_t datatype, int root, ncclComm_t comm,
                                           cudaStream_t stream) {
  return Submit(
      comm, Describe(Func::kBroadcast, sendbuff, recvbuff, count, datatype, ncclSum, root, stream));
}

// Like NCCL, through the public ncclBroadcast: the call goes through the dynamic linker,
// so an interposer of both sees ncclBroadcast called from inside its ncclBcast.
SIMNCCL_EXPORT ncclResult_t pncclBcast(void* buff, size_t count, ncclDataType_t datatype, int root,
                                       ncclComm_t comm, cudaStream_t stream) {
  return ncclBroadcast(buff, buff, count, datatype, root, comm, stream);
}

SIMNCCL_EXPORT ncclResult_t pncclReduce(const void* sendbuff, void* recvbuff, size_t count,
                                        ncclDataType_t datatype, ncclRedOp_t op, int root,
                                        ncclComm_t comm, cudaStream_t stream) {
  return Submit(comm,
                Describe(Func::kReduce, sendbuff, recvbuff, count, datatype, op, root, stream));
}

SIMNCCL_EXPORT ncclResult_t pncclAllGather(const void* sendbuff, void* recvbuff, size_t sendcount,
                                           ncclDataType_t datatype, ncclComm_t comm,
                                           cudaStream_t stream) {
  return Submit(comm, Describe(Func::kAllGather, sendbuff, recvbuff, sendcount, datatype, ncclSum,
                               0, stream));
}

SIMNCCL_EXPORT ncclResult_t pncclReduceScatter(const void* sendbuff, void* recvbuff,
                                               size_t recvcount, ncclDataType_t datatype,
                                               ncclRedOp_t op, ncclComm_t comm,
                                               cudaStream_t stream) {
  return Submit(
      comm, Describe(Func::kReduceScatter, sendbuff, recvbuff, recvcount, datatype, op, 0, stream));
}

SIMNCCL_EXPORT ncclResult_t pncclAlltoAll(const void* sendbuff, void* recvbuff, size_t count,
                                          ncclDataType_t datatype, ncclComm_t comm,
                                          cudaStream_t stream) {
  return Submit(comm,
                Describe(Func::kAllToAll, sendbuff, recvbuff, count, datatype, ncclSum, 0, stream));
}

SIMNCCL_EXPORT ncclResult_t pncclGather(const void* sendbuff, void* recvbuff, size_t count,
                                        ncclDataType_t datatype, int root, ncclComm_t comm,
                                        cudaStream_t stream) {
  return Submit(
      comm, Describe(Func::kGather, sendbuff, recvbuff, count, datatype, ncclSum, root, stream));
}

SIMNCCL_EXPORT ncclResult_t pncclScatter(const void* sendbuff, void* recvbuff, size_t count,
                                         ncclDataType_t datatype, int root, ncclComm_t comm,
                                         cudaStream_t stream) {
  return Submit(
      comm, Describe(Func::kScatter, sendbuff, recvbuff, count, datatype, ncclSum, root, stream));
}

SIMNCCL_EXPORT ncclResult_t pncclSend(const void* sendbuff, size_t count, ncclDataType_t datatype,
                                      int peer, ncclComm_t comm, cudaStream_t stream) {
  return Submit(comm,
                Describe(Func::kSend, sendbuff, nullptr, count, datatype, ncclSum, peer, stream));
}

SIMNCCL_EXPORT ncclResult_t pncclRecv(void* recvbuff, size_t count, ncclDataType_t datatype,
                                      int peer, ncclComm_t comm, cudaStream_t stream) {
  return Submit(comm,
                Describe(Func::kRecv, nullptr, recvbuff, count, datatype, ncclSum, peer, stream));
}

SIMNCCL_EXPORT ncclResult_t pncclGroupStart() {
  return Guarded([] { return simnccl::BeginGroup(); });
}

SIMNCCL_EXPORT ncclResult_t pncclGroupEnd() {
  return Guarded([] { return simnccl::EndGroup(); });
}

}  // extern "C"

SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclAllReduce,
                   (const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t,
                    cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclBroadcast,
                   (const void*, void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclBcast,
                   (void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclReduce,
                   (const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, int, ncclComm_t,
                    cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclAllGather,
                   (const void*, void*, size_t, ncclDataType_t, ncclComm_t, cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclReduceScatter,
                   (const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t,
                    cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclAlltoAll,
                   (const void*, void*, size_t, ncclDataType_t, ncclComm_t, cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclGather,
                   (const void*, void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclScatter,
                   (const void*, void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclSend,
                   (const void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclRecv,
                   (void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclGroupStart, ())
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclGroupEnd, ())
