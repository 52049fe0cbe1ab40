// NCCL interposition: communicator creation (always observed, so a window opened later
// knows each communicator's rank, size and hash) and every collective, send/recv and group
// call while recording. Bytes follow nccl-tests' convention (per-rank buffer size).
#include <nccl.h>

#include <cstring>

#include "agent/control/config.h"
#include "agent/hooks/hook_support.h"
#include "agent/hooks/symbol_resolver.h"
#include "agent/record/api_ids.h"
#include "agent/record/nccl_registry.h"
#include "proto/trace.pb.h"

#define PROF_REAL_NCCL(name)                                        \
  PROF_RESOLVE_REAL(name);                                          \
  if (!real) return ncclSystemError

namespace prof {
namespace {

size_t ElementSize(ncclDataType_t type) {
  switch (type) {
    case ncclInt8: case ncclUint8: return 1;
    case ncclFloat16: case ncclBfloat16: return 2;
    case ncclInt32: case ncclUint32: case ncclFloat32: return 4;
    case ncclInt64: case ncclUint64: case ncclFloat64: return 8;
    default: return 1;  // fp8 types and anything newer
  }
}

int RankCount(ncclComm_t comm) {
  CommunicatorValue value;
  return LookupCommunicator(comm, &value) && value.rank_count > 0 ? value.rank_count : 1;
}

uint64_t HashId(const ncclUniqueId& id) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a: the same on every rank
  for (char byte : id.internal) hash = (hash ^ static_cast<uint8_t>(byte)) * 1099511628211ull;
  return hash;
}

struct NcclCall {
  trace::NcclOperation operation;
  size_t count;
  ncclDataType_t type;
  uint64_t bytes;
  ncclComm_t comm;
  cudaStream_t stream;
  int root_or_peer = -1;  // -1: none
  int reduction = -1;     // -1: none
};

template <typename Call>
ncclResult_t TimedNccl(const NcclCall& call, Call&& real) {
  CheckMarkers(static_cast<uint16_t>(kApiCount + call.operation), nullptr);
  if (!Recording() || !ActivityEnabled(kActivityNccl)) return real();
  EnsureSessionStarted();
  EnableDeferredDeviceActivity();
  const uint64_t start = MonotonicNs();
  const ncclResult_t result = real();
  const uint64_t end = MonotonicNs();
  size_t size;
  Record* record = BeginRecord(RecordKind::kNcclCall, nullptr, &size);
  if (!record) return result;
  record->api = static_cast<uint16_t>(call.operation);
  record->status = result;
  record->start_ns = start;
  record->end_ns = end;
  record->args[0] = call.count;
  record->args[1] = static_cast<uint64_t>(call.type) |
                    (call.reduction >= 0 ? (uint64_t{static_cast<uint8_t>(call.reduction)} << 8) |
                                               (1u << 17)
                                         : 0) |
                    (call.root_or_peer >= 0 ? (1u << 16) : 0);
  record->args[2] = call.root_or_peer >= 0 ? static_cast<uint64_t>(call.root_or_peer) : 0;
  record->args[3] = reinterpret_cast<uint64_t>(call.stream);
  const uint64_t comm = reinterpret_cast<uint64_t>(call.comm);
  record->launch.grid[0] = static_cast<uint32_t>(comm);
  record->launch.grid[1] = static_cast<uint32_t>(comm >> 32);
  record->launch.block[0] = static_cast<uint32_t>(call.bytes);
  record->launch.block[1] = static_cast<uint32_t>(call.bytes >> 32);
  CommitRecord(size);
  return result;
}

void RegisterComm(ncclComm_t comm, uint64_t hash, int rank, int ranks, uint64_t start) {
  CommunicatorValue value;
  value.comm_hash = hash;
  value.rank = rank;
  value.rank_count = ranks;
  value.init_start_ns = start;
  value.init_duration_ns = MonotonicNs() - start;
  RegisterCommunicator(comm, value);
}

}  // namespace

uint16_t NcclMarkerApiId(const std::string& name) {
  static const struct { const char* name; trace::NcclOperation operation; } kNames[] = {
      {"ncclAllReduce", trace::NCCL_OPERATION_ALL_REDUCE},
      {"ncclBroadcast", trace::NCCL_OPERATION_BROADCAST},
      {"ncclReduce", trace::NCCL_OPERATION_REDUCE},
      {"ncclAllGather", trace::NCCL_OPERATION_ALL_GATHER},
      {"ncclReduceScatter", trace::NCCL_OPERATION_REDUCE_SCATTER},
      {"ncclSend", trace::NCCL_OPERATION_SEND},
      {"ncclRecv", trace::NCCL_OPERATION_RECV},
      {"ncclAlltoAll", trace::NCCL_OPERATION_ALL_TO_ALL},
      {"ncclGroupEnd", trace::NCCL_OPERATION_GROUP_END}};
  for (const auto& entry : kNames) {
    if (name == entry.name) return static_cast<uint16_t>(kApiCount + entry.operation);
  }
  return kApiNone;
}

}  // namespace prof

using prof::HookIdle;
using prof::NcclCall;
using prof::TimedNccl;
namespace trace = prof::trace;

PROF_EXPORT ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank) {
  PROF_REAL_NCCL(ncclCommInitRank);
  const uint64_t start = prof::MonotonicNs();
  const ncclResult_t result = real(comm, nranks, id, rank);
  if (result == ncclSuccess && comm) prof::RegisterComm(*comm, prof::HashId(id), rank, nranks, start);
  return result;
}

PROF_EXPORT ncclResult_t ncclCommInitRankConfig(ncclComm_t* comm, int nranks, ncclUniqueId id,
                                                int rank, ncclConfig_t* config) {
  PROF_REAL_NCCL(ncclCommInitRankConfig);
  const uint64_t start = prof::MonotonicNs();
  const ncclResult_t result = real(comm, nranks, id, rank, config);
  if (result == ncclSuccess && comm) prof::RegisterComm(*comm, prof::HashId(id), rank, nranks, start);
  return result;
}

PROF_EXPORT ncclResult_t ncclCommInitAll(ncclComm_t* comms, int count, const int* devices) {
  PROF_REAL_NCCL(ncclCommInitAll);
  const uint64_t start = prof::MonotonicNs();
  const ncclResult_t result = real(comms, count, devices);
  if (result == ncclSuccess && comms) {
    const uint64_t hash = reinterpret_cast<uint64_t>(comms[0]) ^ static_cast<uint64_t>(getpid());
    for (int rank = 0; rank < count; ++rank) prof::RegisterComm(comms[rank], hash, rank, count, start);
  }
  return result;
}

PROF_EXPORT ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  PROF_REAL_NCCL(ncclCommDestroy);
  // The registration stays: records of this communicator may not be written yet.
  return real(comm);
}

PROF_EXPORT ncclResult_t ncclAllReduce(const void* send, void* receive, size_t count,
                                       ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm,
                                       cudaStream_t stream) {
  PROF_REAL_NCCL(ncclAllReduce);
  if (HookIdle()) return real(send, receive, count, type, op, comm, stream);
  NcclCall call{trace::NCCL_OPERATION_ALL_REDUCE, count, type, count * prof::ElementSize(type), comm, stream};
  call.reduction = op;
  return TimedNccl(call, [&] { return real(send, receive, count, type, op, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclBroadcast(const void* send, void* receive, size_t count,
                                       ncclDataType_t type, int root, ncclComm_t comm,
                                       cudaStream_t stream) {
  PROF_REAL_NCCL(ncclBroadcast);
  if (HookIdle()) return real(send, receive, count, type, root, comm, stream);
  NcclCall call{trace::NCCL_OPERATION_BROADCAST, count, type, count * prof::ElementSize(type), comm, stream};
  call.root_or_peer = root;
  return TimedNccl(call, [&] { return real(send, receive, count, type, root, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclReduce(const void* send, void* receive, size_t count,
                                    ncclDataType_t type, ncclRedOp_t op, int root, ncclComm_t comm,
                                    cudaStream_t stream) {
  PROF_REAL_NCCL(ncclReduce);
  if (HookIdle()) return real(send, receive, count, type, op, root, comm, stream);
  NcclCall call{trace::NCCL_OPERATION_REDUCE, count, type, count * prof::ElementSize(type), comm, stream};
  call.root_or_peer = root;
  call.reduction = op;
  return TimedNccl(call, [&] { return real(send, receive, count, type, op, root, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclAllGather(const void* send, void* receive, size_t send_count,
                                       ncclDataType_t type, ncclComm_t comm, cudaStream_t stream) {
  PROF_REAL_NCCL(ncclAllGather);
  if (HookIdle()) return real(send, receive, send_count, type, comm, stream);
  const uint64_t bytes = send_count * prof::ElementSize(type) * prof::RankCount(comm);
  NcclCall call{trace::NCCL_OPERATION_ALL_GATHER, send_count, type, bytes, comm, stream};
  return TimedNccl(call, [&] { return real(send, receive, send_count, type, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclReduceScatter(const void* send, void* receive, size_t receive_count,
                                           ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm,
                                           cudaStream_t stream) {
  PROF_REAL_NCCL(ncclReduceScatter);
  if (HookIdle()) return real(send, receive, receive_count, type, op, comm, stream);
  const uint64_t bytes = receive_count * prof::ElementSize(type) * prof::RankCount(comm);
  NcclCall call{trace::NCCL_OPERATION_REDUCE_SCATTER, receive_count, type, bytes, comm, stream};
  call.reduction = op;
  return TimedNccl(call,
                   [&] { return real(send, receive, receive_count, type, op, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclSend(const void* send, size_t count, ncclDataType_t type, int peer,
                                  ncclComm_t comm, cudaStream_t stream) {
  PROF_REAL_NCCL(ncclSend);
  if (HookIdle()) return real(send, count, type, peer, comm, stream);
  NcclCall call{trace::NCCL_OPERATION_SEND, count, type, count * prof::ElementSize(type), comm, stream};
  call.root_or_peer = peer;
  return TimedNccl(call, [&] { return real(send, count, type, peer, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclRecv(void* receive, size_t count, ncclDataType_t type, int peer,
                                  ncclComm_t comm, cudaStream_t stream) {
  PROF_REAL_NCCL(ncclRecv);
  if (HookIdle()) return real(receive, count, type, peer, comm, stream);
  NcclCall call{trace::NCCL_OPERATION_RECV, count, type, count * prof::ElementSize(type), comm, stream};
  call.root_or_peer = peer;
  return TimedNccl(call, [&] { return real(receive, count, type, peer, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclGroupStart() {
  PROF_REAL_NCCL(ncclGroupStart);
  if (HookIdle()) return real();
  NcclCall call{trace::NCCL_OPERATION_GROUP_START, 0, ncclInt8, 0, nullptr, nullptr};
  return TimedNccl(call, [&] { return real(); });
}

PROF_EXPORT ncclResult_t ncclGroupEnd() {
  PROF_REAL_NCCL(ncclGroupEnd);
  if (HookIdle()) return real();
  NcclCall call{trace::NCCL_OPERATION_GROUP_END, 0, ncclInt8, 0, nullptr, nullptr};
  return TimedNccl(call, [&] { return real(); });
}
