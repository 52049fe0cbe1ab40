// Exported communicator lifecycle and query functions of the simulated libnccl.so.2.
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <memory>
#include <string>
#include <vector>

#include "testdata/sim/nccl/api_guard.h"
#include "testdata/sim/nccl/comm.h"
#include "testdata/sim/nccl/comm_derive.h"
#include "testdata/sim/nccl/last_error.h"
#include "testdata/sim/nccl/unique_id.h"

using simnccl::Guarded;

namespace {

int CurrentDevice() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) device = 0;
  return device;
}

ncclResult_t InvalidArgument(const std::string& message) {
  simnccl::SetThreadLastError(message);
  return ncclInvalidArgument;
}

ncclResult_t InitRank(ncclComm_t* comm, int nranks, const ncclUniqueId& id, int rank) {
  if (comm == nullptr) return InvalidArgument("ncclCommInitRank: comm is NULL");
  if (nranks < 1 || rank < 0 || rank >= nranks) {
    return InvalidArgument("ncclCommInitRank: rank " + std::to_string(rank) + " outside [0, " +
                           std::to_string(nranks) + ")");
  }
  std::string error;
  ncclComm_t created = nullptr;
  ncclResult_t result = simnccl::CreateComm(id, nranks, rank, CurrentDevice(), &created, &error);
  if (result != ncclSuccess) {
    simnccl::SetThreadLastError("ncclCommInitRank: " + error);
    return result;
  }
  result = simnccl::WaitForAllRanksJoined(created);
  if (result != ncclSuccess) {
    simnccl::ReleaseComm(created, /*aborted=*/true);
    return result;
  }
  *comm = created;
  return ncclSuccess;
}

// All ranks live in this process, so each is created first and then all wait together.
ncclResult_t InitAll(ncclComm_t* comms, int ndev, const int* devlist) {
  if (comms == nullptr || ndev < 1) return InvalidArgument("ncclCommInitAll: bad arguments");
  ncclUniqueId id;
  simnccl::EncodeUniqueId(simnccl::MakeFreshUniqueId(), &id);
  std::vector<ncclComm_t> created(ndev, nullptr);
  for (int rank = 0; rank < ndev; ++rank) {
    std::string error;
    const int device = devlist != nullptr ? devlist[rank] : rank;
    const ncclResult_t result = simnccl::CreateComm(id, ndev, rank, device, &created[rank], &error);
    if (result != ncclSuccess) {
      for (ncclComm_t comm : created) simnccl::ReleaseComm(comm, /*aborted=*/true);
      simnccl::SetThreadLastError("ncclCommInitAll: " + error);
      return result;
    }
    created[rank]->owns_device_switch = true;
  }
  for (int rank = 0; rank < ndev; ++rank) {
    const ncclResult_t result = simnccl::WaitForAllRanksJoined(created[rank]);
    if (result != ncclSuccess) return result;
    comms[rank] = created[rank];
  }
  return ncclSuccess;
}

}  // namespace

extern "C" {

SIMNCCL_EXPORT ncclResult_t pncclGetVersion(int* version) {
  if (version == nullptr) return ncclInvalidArgument;
  *version = NCCL_VERSION_CODE;
  return ncclSuccess;
}

SIMNCCL_EXPORT ncclResult_t pncclGetUniqueId(ncclUniqueId* unique_id) {
  if (unique_id == nullptr) return InvalidArgument("ncclGetUniqueId: NULL argument");
  return Guarded([&] {
    simnccl::EncodeUniqueId(simnccl::MakeFreshUniqueId(), unique_id);
    return ncclSuccess;
  });
}

SIMNCCL_EXPORT ncclResult_t pncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id,
                                              int rank) {
  return Guarded([&] { return InitRank(comm, nranks, id, rank); });
}

// The configuration only tunes performance and blocking; the simulation is always
// blocking, so the config is accepted and otherwise ignored.
SIMNCCL_EXPORT ncclResult_t pncclCommInitRankConfig(ncclComm_t* comm, int nranks, ncclUniqueId id,
                                                    int rank, ncclConfig_t* /*config*/) {
  return Guarded([&] { return InitRank(comm, nranks, id, rank); });
}

// Every rank passes the same ids; the simulation needs only the first to rendezvous.
SIMNCCL_EXPORT ncclResult_t pncclCommInitRankScalable(ncclComm_t* comm, int nranks, int rank,
                                                      int id_count, ncclUniqueId* ids,
                                                      ncclConfig_t* /*config*/) {
  if (id_count < 1 || ids == nullptr) {
    return InvalidArgument("ncclCommInitRankScalable: no ncclUniqueId given");
  }
  return Guarded([&] { return InitRank(comm, nranks, ids[0], rank); });
}

SIMNCCL_EXPORT ncclResult_t pncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t* newcomm,
                                           ncclConfig_t* /*config*/) {
  return Guarded([&] { return simnccl::SplitComm(comm, color, key, newcomm); });
}

SIMNCCL_EXPORT ncclResult_t pncclCommShrink(ncclComm_t comm, int* exclude_ranks, int exclude_count,
                                            ncclComm_t* newcomm, ncclConfig_t* /*config*/,
                                            int /*shrink_flags*/) {
  return Guarded([&] { return simnccl::ShrinkComm(comm, exclude_ranks, exclude_count, newcomm); });
}

SIMNCCL_EXPORT ncclResult_t pncclCommInitAll(ncclComm_t* comms, int ndev, const int* devlist) {
  return Guarded([&] { return InitAll(comms, ndev, devlist); });
}

// Every op completes before its call returns, so there is nothing left to flush.
SIMNCCL_EXPORT ncclResult_t pncclCommFinalize(ncclComm_t comm) {
  return comm == nullptr ? ncclInvalidArgument : ncclSuccess;
}

SIMNCCL_EXPORT ncclResult_t pncclCommDestroy(ncclComm_t comm) {
  if (comm == nullptr) return ncclSuccess;  // NCCL accepts NULL here
  return Guarded([&] {
    simnccl::ReleaseComm(comm, /*aborted=*/false);
    return ncclSuccess;
  });
}

SIMNCCL_EXPORT ncclResult_t pncclCommAbort(ncclComm_t comm) {
  if (comm == nullptr) return ncclSuccess;
  return Guarded([&] {
    simnccl::ReleaseComm(comm, /*aborted=*/true);
    return ncclSuccess;
  });
}

SIMNCCL_EXPORT ncclResult_t pncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* async_error) {
  if (comm == nullptr || async_error == nullptr) return ncclInvalidArgument;
  *async_error = comm->sticky_error;
  return ncclSuccess;
}

SIMNCCL_EXPORT ncclResult_t pncclCommCount(const ncclComm_t comm, int* count) {
  if (comm == nullptr || count == nullptr) return ncclInvalidArgument;
  *count = comm->nranks;
  return ncclSuccess;
}

SIMNCCL_EXPORT ncclResult_t pncclCommUserRank(const ncclComm_t comm, int* rank) {
  if (comm == nullptr || rank == nullptr) return ncclInvalidArgument;
  *rank = comm->rank;
  return ncclSuccess;
}

SIMNCCL_EXPORT ncclResult_t pncclCommCuDevice(const ncclComm_t comm, int* device) {
  if (comm == nullptr || device == nullptr) return ncclInvalidArgument;
  *device = comm->device;
  return ncclSuccess;
}

SIMNCCL_EXPORT const char* pncclGetErrorString(ncclResult_t result) {
  switch (result) {
    case ncclSuccess: return "no error";
    case ncclUnhandledCudaError:
      return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case ncclSystemError: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case ncclInternalError:
      return "internal error - please report this issue to the NCCL developers";
    case ncclInvalidArgument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case ncclInvalidUsage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case ncclRemoteError: return "remote process exited or there was a network error";
    case ncclInProgress: return "NCCL operation in progress";
    default: return "unknown result code";
  }
}

SIMNCCL_EXPORT const char* pncclGetLastError(ncclComm_t comm) {
  if (comm != nullptr && !comm->last_error.empty()) return comm->last_error.c_str();
  return simnccl::ThreadLastError();
}

}  // extern "C"

SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclGetVersion, (int*))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclGetUniqueId, (ncclUniqueId*))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommInitRank, (ncclComm_t*, int, ncclUniqueId, int))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommInitRankConfig,
                   (ncclComm_t*, int, ncclUniqueId, int, ncclConfig_t*))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommInitAll, (ncclComm_t*, int, const int*))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommInitRankScalable,
                   (ncclComm_t*, int, int, int, ncclUniqueId*, ncclConfig_t*))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommSplit, (ncclComm_t, int, int, ncclComm_t*, ncclConfig_t*))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommShrink,
                   (ncclComm_t, int*, int, ncclComm_t*, ncclConfig_t*, int))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommFinalize, (ncclComm_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommDestroy, (ncclComm_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommAbort, (ncclComm_t))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommGetAsyncError, (ncclComm_t, ncclResult_t*))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommCount, (const ncclComm_t, int*))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommUserRank, (const ncclComm_t, int*))
SIMNCCL_WEAK_ALIAS(ncclResult_t, ncclCommCuDevice, (const ncclComm_t, int*))
SIMNCCL_WEAK_ALIAS(const char*, ncclGetErrorString, (ncclResult_t))
SIMNCCL_WEAK_ALIAS(const char*, ncclGetLastError, (ncclComm_t))
