#include "testdata/sim/nccl/peer_liveness.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "testdata/sim/nccl/comm.h"

namespace simnccl {
namespace {

// kill(pid, 0) succeeds for zombies, and a killed rank stays a zombie until its parent
// reaps it (often the launcher that is itself waiting on the survivors), so the state
// letter in /proc/<pid>/stat decides.
bool ProcessIsGone(int pid) {
  if (pid <= 0) return false;
  if (kill(pid, 0) != 0 && errno == ESRCH) return true;
  char path[64];
  std::snprintf(path, sizeof(path), "/proc/%d/stat", pid);
  FILE* file = std::fopen(path, "r");
  if (file == nullptr) return false;  // no procfs: rely on kill() and the timeout
  char line[512];
  const bool read_ok = std::fgets(line, sizeof(line), file) != nullptr;
  std::fclose(file);
  if (!read_ok) return false;
  // Format: "pid (comm) S ..."; comm may contain spaces and parentheses, so use the
  // last ')'.
  const std::string text(line);
  const size_t close_paren = text.rfind(')');
  if (close_paren == std::string::npos || close_paren + 2 >= text.size()) return false;
  const char state = text[close_paren + 2];
  return state == 'Z' || state == 'X';
}

}  // namespace

std::string PeerDeathReason(const ncclComm* comm, int peer) {
  const RankSlotHeader* slot = comm->segment->rank_header(peer);
  const uint32_t state = slot->state.load(std::memory_order_acquire);
  if (state == kRankAborted) return "rank " + std::to_string(peer) + " aborted its communicator";
  if (state == kRankDestroyed) {
    return "rank " + std::to_string(peer) + " destroyed its communicator";
  }
  if (ProcessIsGone(slot->pid.load(std::memory_order_acquire))) {
    return "rank " + std::to_string(peer) + " (pid " + std::to_string(slot->pid.load()) +
           ") is no longer running";
  }
  return "";
}

}  // namespace simnccl
