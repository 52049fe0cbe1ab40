#include "testdata/workloads/common/rendezvous.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace workloads {
namespace {

// Files written more than a few seconds before this process started belong to an
// earlier run (ranks of one job start within moments of each other).
constexpr time_t kStaleSlackSeconds = 5;

bool ReadIdFile(const std::string& path, time_t not_before, ncclUniqueId* id) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0 || info.st_mtime < not_before) return false;
  std::ifstream in(path, std::ios::binary);
  in.read(id->internal, sizeof(id->internal));
  return in.gcount() == static_cast<std::streamsize>(sizeof(id->internal));
}

}  // namespace

std::string DefaultRendezvousPath() {
  const char* explicit_path = std::getenv("SIM_RENDEZVOUS_FILE");
  if (explicit_path != nullptr && *explicit_path != '\0') return explicit_path;
  const char* tmpdir = std::getenv("TMPDIR");
  const char* port = std::getenv("MASTER_PORT");
  return std::string(tmpdir != nullptr && *tmpdir ? tmpdir : "/tmp") + "/sim-nccl-rendezvous." +
         (port != nullptr && *port ? port : "29500") + ".id";
}

bool ShareUniqueId(int rank, const std::string& path, int timeout_ms, ncclUniqueId* id) {
  if (rank == 0) {
    if (ncclGetUniqueId(id) != ncclSuccess) return false;
    const std::string temporary = path + ".tmp." + std::to_string(getpid());
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      out.write(id->internal, sizeof(id->internal));
      if (!out.good()) return false;
    }
    return std::rename(temporary.c_str(), path.c_str()) == 0;
  }
  const time_t not_before = time(nullptr) - kStaleSlackSeconds;
  for (int waited_ms = 0; waited_ms < timeout_ms; waited_ms += 10) {
    if (ReadIdFile(path, not_before, id)) return true;
    usleep(10 * 1000);
  }
  std::fprintf(stderr, "rank %d: no rendezvous file %s after %d ms\n", rank, path.c_str(),
               timeout_ms);
  return false;
}

void RemoveRendezvousFile(int rank, const std::string& path) {
  if (rank == 0) std::remove(path.c_str());
}

}  // namespace workloads
