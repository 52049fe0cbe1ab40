// Hands the ncclUniqueId from rank 0 to the other ranks when they are separate programs
// started by a launcher (torchrun-style RANK / WORLD_SIZE / LOCAL_RANK), through a file:
// rank 0 writes it atomically (write + rename), the others poll for it, bounded. A file
// older than this process is ignored as left over from an earlier run.
#pragma once

#include <nccl.h>

#include <string>

namespace workloads {

// The file used when none is given: $SIM_RENDEZVOUS_FILE, else
// ${TMPDIR:-/tmp}/sim-nccl-rendezvous.<MASTER_PORT or 29500>.id
std::string DefaultRendezvousPath();

// Rank 0 creates the id and publishes it; other ranks wait up to `timeout_ms` for it.
bool ShareUniqueId(int rank, const std::string& path, int timeout_ms, ncclUniqueId* id);

// Rank 0 removes the file once every rank has joined (after ncclCommInitRank).
void RemoveRendezvousFile(int rank, const std::string& path);

}  // namespace workloads
