// NCCL interposition: communicator creation (always observed, so a window opened later
// knows each communicator's rank, size and cross-rank identity: nccl_identity.h) and every
// collective, send/recv and group call while recording (nccl_functions.h lists them).
// Bytes follow nccl-tests' convention (its size S: per-rank-piece collectives count every
// rank's piece), with the rank count read from the lock-free registry, never a lock.
#include <nccl.h>
#include <unistd.h>

#include <cstring>

#include "agent/control/config.h"
#include "agent/hooks/flight_event_hooks.h"
#include "agent/hooks/hook_support.h"
#include "agent/hooks/nccl_functions.h"
#include "agent/hooks/nccl_identity.h"
#include "agent/hooks/symbol_resolver.h"
#include "agent/record/api_ids.h"
#include "agent/record/flight_error.h"
#include "agent/record/flight_ring.h"
#include "agent/record/nccl_registry.h"
#include "proto/schema_enums.h"

#define PROF_REAL_NCCL(name) \
  PROF_RESOLVE_REAL(name);   \
  if (!real) return ncclSystemError

namespace prof {
namespace {

size_t ElementSize(ncclDataType_t type) {
  switch (type) {
    case ncclInt8:
    case ncclUint8: return 1;
    case ncclFloat16:
    case ncclBfloat16: return 2;
    case ncclInt32:
    case ncclUint32:
    case ncclFloat32: return 4;
    case ncclInt64:
    case ncclUint64:
    case ncclFloat64: return 8;
    default: return 1;  // fp8 types and anything newer
  }
}

// The library's own answers, for communicators the registry does not know and for the
// rank and size of split/shrunk communicators.
ncclResult_t RealCommCount(ncclComm_t comm, int* count) {
  PROF_REAL_NCCL(ncclCommCount);
  return real(comm, count);
}

ncclResult_t RealCommUserRank(ncclComm_t comm, int* rank) {
  PROF_REAL_NCCL(ncclCommUserRank);
  return real(comm, rank);
}

// Lock-free: the registry's table; a communicator created before the agent loaded, or
// whose size was not known yet at creation (non-blocking), is asked directly
// (ncclCommCount only reads the communicator) and the answer kept when it is registered.
int RankCount(ncclComm_t comm) {
  const int32_t known = CommunicatorRankCount(comm);
  if (known > 0) return known;
  int count = 0;
  if (!comm || RealCommCount(comm, &count) != ncclSuccess || count <= 0) return 1;
  LearnRankCount(comm, count);
  return count;
}

struct NcclCall {
  NcclFunction function;
  schema::NcclOperation operation;
  size_t count;
  ncclDataType_t type;
  ncclComm_t comm;
  cudaStream_t stream;
  int root_or_peer = -1;         // -1: none
  int reduction = -1;            // -1: none
  bool per_rank_pieces = false;  // count is per rank: bytes = count * e * ranks
};

// True while this thread is inside an NCCL function the agent hooked. NCCL calls its own
// public functions (ncclBcast calls ncclBroadcast) through the dynamic linker, so they
// come back here; they are part of the caller's one call, neither a second record nor a
// second marker hit. Per thread, so no synchronization; initial-exec, so one TLS load.
thread_local bool t_inside_nccl __attribute__((tls_model("initial-exec"))) = false;

template <typename Call>
ncclResult_t Inside(Call&& real) {
  t_inside_nccl = true;
  const ncclResult_t result = real();
  t_inside_nccl = false;
  return result;
}

// What the flight ring and the record share, computed once per call before it runs.
FlightCallArguments Describe(const NcclCall& call) {
  FlightCallArguments arguments;
  arguments.comm = call.comm;
  arguments.bytes = call.count * ElementSize(call.type);
  if (call.per_rank_pieces) arguments.bytes *= RankCount(call.comm);
  arguments.sequence = call.comm ? NextCallSequence(call.comm) : 0;
  arguments.count = call.count;
  arguments.stream = reinterpret_cast<uint64_t>(call.stream);
  arguments.root_or_peer = call.root_or_peer;
  arguments.reduction = static_cast<int16_t>(call.reduction);
  arguments.operation = static_cast<uint16_t>(call.operation);
  arguments.data_type = static_cast<uint8_t>(call.type);
  return arguments;
}

void AppendNcclRecord(const FlightCallArguments& call, uint64_t start, uint64_t end,
                      ncclResult_t result) {
  size_t size;
  NcclCallRecord* record = BeginRecord<NcclCallRecord>(nullptr, &size);
  if (!record) return;
  record->api = call.operation;
  record->status = result;
  record->start_ns = start;
  record->end_ns = end;
  record->comm = reinterpret_cast<uint64_t>(call.comm);
  record->bytes = call.bytes;
  record->count = call.count;
  record->stream = call.stream;
  record->root_or_peer = call.root_or_peer;
  record->reduction = call.reduction;
  record->data_type = call.data_type;
  record->reserved0 = 0;
  record->sequence = call.sequence;
  CommitRecord(size);
}

// The CUDA hooks' gate (hook_support.h RecordingGate), with the flight recorder keeping
// the session up (its hang check runs on the writer thread). Then the call is timed once,
// and the same two timestamps and sequence number go to the flight ring (PROF_FLIGHT=1,
// every call) and to the window's record (while recording). The flight path adds one
// fetch_add for the ticket, one for the communicator's sequence and the slot's stores; no
// lock, allocation or system call.
template <typename Call>
ncclResult_t TimedNccl(const NcclCall& call, Call&& real) {
  if (t_inside_nccl) return real();
  const bool flight = FlightOn();
  const bool record = RecordingGate(NcclMarkerId(call.function), nullptr, kActivityNccl, flight);
  if (!record && !flight) return Inside(real);
  FlightCallArguments arguments;
  {
    ErrnoPreserved keep;
    arguments = Describe(call);
  }
  const uint64_t start = MonotonicNs();
  const uint64_t ticket = flight ? FlightEnter(arguments, start) : 0;
  const ncclResult_t result = FlightTracked(ticket, arguments, [&] { return Inside(real); });
  const uint64_t end = MonotonicNs();
  ErrnoPreserved keep;
  FlightReturn(ticket, end, result);
  // A failed peer or a timeout: the writer dumps once (flight_error.h).
  if (flight && FlightDumpWorthyError(result)) NoteFlightError(result, ticket);
  if (record) AppendNcclRecord(arguments, start, end, result);
  return result;
}

NcclCall Collective(NcclFunction function, schema::NcclOperation operation, size_t count,
                    ncclDataType_t type, ncclComm_t comm, cudaStream_t stream) {
  return NcclCall{function, operation, count, type, comm, stream};
}

// ncclInProgress: a non-blocking communicator (ncclConfig_t.blocking = 0) exists and
// finishes initializing in the background; its pointer, rank and size are already valid.
bool Created(ncclResult_t result) { return result == ncclSuccess || result == ncclInProgress; }

// A communicator made from another (split, shrink): rank and size from the library.
void RegisterDerivedComm(ncclComm_t comm, uint64_t hash, uint64_t start) {
  ErrnoPreserved keep;
  int rank = -1;
  int ranks = 0;
  if (RealCommUserRank(comm, &rank) != ncclSuccess) rank = -1;
  if (RealCommCount(comm, &ranks) != ncclSuccess) ranks = 0;
  RegisterIdentity(comm, hash, rank, ranks, start);
}

}  // namespace
}  // namespace prof

using prof::Created;
using prof::NcclCall;
using prof::NcclHookIdle;
using prof::TimedNccl;
namespace schema = prof::schema;

PROF_EXPORT ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank) {
  PROF_REAL_NCCL(ncclCommInitRank);
  const uint64_t start = prof::MonotonicNs();
  const ncclResult_t result = real(comm, nranks, id, rank);
  if (Created(result) && comm) {
    prof::RegisterIdentity(*comm, prof::HashUniqueIds(&id, 1, sizeof(id)), rank, nranks, start);
  }
  return result;
}

PROF_EXPORT ncclResult_t ncclCommInitRankConfig(ncclComm_t* comm, int nranks, ncclUniqueId id,
                                                int rank, ncclConfig_t* config) {
  PROF_REAL_NCCL(ncclCommInitRankConfig);
  const uint64_t start = prof::MonotonicNs();
  const ncclResult_t result = real(comm, nranks, id, rank, config);
  if (Created(result) && comm) {
    prof::RegisterIdentity(*comm, prof::HashUniqueIds(&id, 1, sizeof(id)), rank, nranks, start);
  }
  return result;
}

PROF_EXPORT ncclResult_t ncclCommInitRankScalable(ncclComm_t* comm, int nranks, int rank,
                                                  int id_count, ncclUniqueId* ids,
                                                  ncclConfig_t* config) {
  PROF_REAL_NCCL(ncclCommInitRankScalable);
  const uint64_t start = prof::MonotonicNs();
  const ncclResult_t result = real(comm, nranks, rank, id_count, ids, config);
  if (Created(result) && comm && ids && id_count > 0) {
    const uint64_t hash = prof::HashUniqueIds(ids, id_count, sizeof(ncclUniqueId));
    prof::RegisterIdentity(*comm, hash, rank, nranks, start);
  }
  return result;
}

PROF_EXPORT ncclResult_t ncclCommInitAll(ncclComm_t* comms, int count, const int* devices) {
  PROF_REAL_NCCL(ncclCommInitAll);
  const uint64_t start = prof::MonotonicNs();
  const ncclResult_t result = real(comms, count, devices);
  if (Created(result) && comms) {
    // Every rank lives in this process: one identity, unique to this process and call.
    const uint64_t hash = prof::ProcessLocalIdentity(start);
    for (int rank = 0; rank < count; ++rank) {
      prof::RegisterIdentity(comms[rank], hash, rank, count, start);
    }
  }
  return result;
}

PROF_EXPORT ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t* newcomm,
                                       ncclConfig_t* config) {
  PROF_REAL_NCCL(ncclCommSplit);
  const uint64_t start = prof::MonotonicNs();
  const prof::CommDerivation derivation = prof::BeginDerivation(comm, start);
  const ncclResult_t result = real(comm, color, key, newcomm, config);
  if (Created(result) && newcomm && *newcomm) {
    prof::RegisterDerivedComm(*newcomm, prof::SplitIdentityOf(derivation, color), start);
  }
  return result;
}

PROF_EXPORT ncclResult_t ncclCommShrink(ncclComm_t comm, int* exclude_ranks, int exclude_count,
                                        ncclComm_t* newcomm, ncclConfig_t* config, int flags) {
  PROF_REAL_NCCL(ncclCommShrink);
  const uint64_t start = prof::MonotonicNs();
  const prof::CommDerivation derivation = prof::BeginDerivation(comm, start);
  const ncclResult_t result = real(comm, exclude_ranks, exclude_count, newcomm, config, flags);
  if (Created(result) && newcomm && *newcomm) {
    const uint64_t hash = prof::ShrinkIdentityOf(derivation, exclude_ranks, exclude_count);
    prof::RegisterDerivedComm(*newcomm, hash, start);
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
  if (NcclHookIdle()) return real(send, receive, count, type, op, comm, stream);
  NcclCall call = prof::Collective(prof::kNccl_ncclAllReduce, schema::NCCL_OPERATION_ALL_REDUCE,
                                   count, type, comm, stream);
  call.reduction = op;
  return TimedNccl(call, [&] { return real(send, receive, count, type, op, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclBroadcast(const void* send, void* receive, size_t count,
                                       ncclDataType_t type, int root, ncclComm_t comm,
                                       cudaStream_t stream) {
  PROF_REAL_NCCL(ncclBroadcast);
  if (NcclHookIdle()) return real(send, receive, count, type, root, comm, stream);
  NcclCall call = prof::Collective(prof::kNccl_ncclBroadcast, schema::NCCL_OPERATION_BROADCAST,
                                   count, type, comm, stream);
  call.root_or_peer = root;
  return TimedNccl(call, [&] { return real(send, receive, count, type, root, comm, stream); });
}

// In-place broadcast under its legacy name; recorded as a broadcast.
PROF_EXPORT ncclResult_t ncclBcast(void* buffer, size_t count, ncclDataType_t type, int root,
                                   ncclComm_t comm, cudaStream_t stream) {
  PROF_REAL_NCCL(ncclBcast);
  if (NcclHookIdle()) return real(buffer, count, type, root, comm, stream);
  NcclCall call = prof::Collective(prof::kNccl_ncclBcast, schema::NCCL_OPERATION_BROADCAST, count,
                                   type, comm, stream);
  call.root_or_peer = root;
  return TimedNccl(call, [&] { return real(buffer, count, type, root, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclReduce(const void* send, void* receive, size_t count,
                                    ncclDataType_t type, ncclRedOp_t op, int root, ncclComm_t comm,
                                    cudaStream_t stream) {
  PROF_REAL_NCCL(ncclReduce);
  if (NcclHookIdle()) return real(send, receive, count, type, op, root, comm, stream);
  NcclCall call = prof::Collective(prof::kNccl_ncclReduce, schema::NCCL_OPERATION_REDUCE, count,
                                   type, comm, stream);
  call.root_or_peer = root;
  call.reduction = op;
  return TimedNccl(call, [&] { return real(send, receive, count, type, op, root, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclAllGather(const void* send, void* receive, size_t send_count,
                                       ncclDataType_t type, ncclComm_t comm, cudaStream_t stream) {
  PROF_REAL_NCCL(ncclAllGather);
  if (NcclHookIdle()) return real(send, receive, send_count, type, comm, stream);
  NcclCall call = prof::Collective(prof::kNccl_ncclAllGather, schema::NCCL_OPERATION_ALL_GATHER,
                                   send_count, type, comm, stream);
  call.per_rank_pieces = true;
  return TimedNccl(call, [&] { return real(send, receive, send_count, type, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclReduceScatter(const void* send, void* receive, size_t receive_count,
                                           ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm,
                                           cudaStream_t stream) {
  PROF_REAL_NCCL(ncclReduceScatter);
  if (NcclHookIdle()) return real(send, receive, receive_count, type, op, comm, stream);
  NcclCall call =
      prof::Collective(prof::kNccl_ncclReduceScatter, schema::NCCL_OPERATION_REDUCE_SCATTER,
                       receive_count, type, comm, stream);
  call.reduction = op;
  call.per_rank_pieces = true;
  return TimedNccl(call,
                   [&] { return real(send, receive, receive_count, type, op, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclAlltoAll(const void* send, void* receive, size_t count,
                                      ncclDataType_t type, ncclComm_t comm, cudaStream_t stream) {
  PROF_REAL_NCCL(ncclAlltoAll);
  if (NcclHookIdle()) return real(send, receive, count, type, comm, stream);
  NcclCall call = prof::Collective(prof::kNccl_ncclAlltoAll, schema::NCCL_OPERATION_ALL_TO_ALL,
                                   count, type, comm, stream);
  call.per_rank_pieces = true;
  return TimedNccl(call, [&] { return real(send, receive, count, type, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclGather(const void* send, void* receive, size_t count,
                                    ncclDataType_t type, int root, ncclComm_t comm,
                                    cudaStream_t stream) {
  PROF_REAL_NCCL(ncclGather);
  if (NcclHookIdle()) return real(send, receive, count, type, root, comm, stream);
  NcclCall call = prof::Collective(prof::kNccl_ncclGather, schema::NCCL_OPERATION_GATHER, count,
                                   type, comm, stream);
  call.root_or_peer = root;
  call.per_rank_pieces = true;
  return TimedNccl(call, [&] { return real(send, receive, count, type, root, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclScatter(const void* send, void* receive, size_t count,
                                     ncclDataType_t type, int root, ncclComm_t comm,
                                     cudaStream_t stream) {
  PROF_REAL_NCCL(ncclScatter);
  if (NcclHookIdle()) return real(send, receive, count, type, root, comm, stream);
  NcclCall call = prof::Collective(prof::kNccl_ncclScatter, schema::NCCL_OPERATION_SCATTER, count,
                                   type, comm, stream);
  call.root_or_peer = root;
  call.per_rank_pieces = true;
  return TimedNccl(call, [&] { return real(send, receive, count, type, root, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclSend(const void* send, size_t count, ncclDataType_t type, int peer,
                                  ncclComm_t comm, cudaStream_t stream) {
  PROF_REAL_NCCL(ncclSend);
  if (NcclHookIdle()) return real(send, count, type, peer, comm, stream);
  NcclCall call = prof::Collective(prof::kNccl_ncclSend, schema::NCCL_OPERATION_SEND, count, type,
                                   comm, stream);
  call.root_or_peer = peer;
  return TimedNccl(call, [&] { return real(send, count, type, peer, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclRecv(void* receive, size_t count, ncclDataType_t type, int peer,
                                  ncclComm_t comm, cudaStream_t stream) {
  PROF_REAL_NCCL(ncclRecv);
  if (NcclHookIdle()) return real(receive, count, type, peer, comm, stream);
  NcclCall call = prof::Collective(prof::kNccl_ncclRecv, schema::NCCL_OPERATION_RECV, count, type,
                                   comm, stream);
  call.root_or_peer = peer;
  return TimedNccl(call, [&] { return real(receive, count, type, peer, comm, stream); });
}

PROF_EXPORT ncclResult_t ncclGroupStart() {
  PROF_REAL_NCCL(ncclGroupStart);
  if (NcclHookIdle()) return real();
  NcclCall call = prof::Collective(prof::kNccl_ncclGroupStart, schema::NCCL_OPERATION_GROUP_START,
                                   0, ncclInt8, nullptr, nullptr);
  return TimedNccl(call, [&] { return real(); });
}

PROF_EXPORT ncclResult_t ncclGroupEnd() {
  PROF_REAL_NCCL(ncclGroupEnd);
  if (NcclHookIdle()) return real();
  NcclCall call = prof::Collective(prof::kNccl_ncclGroupEnd, schema::NCCL_OPERATION_GROUP_END, 0,
                                   ncclInt8, nullptr, nullptr);
  return TimedNccl(call, [&] { return real(); });
}
