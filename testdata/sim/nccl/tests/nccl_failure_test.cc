// No call may hang when a peer is gone: a killed, aborted or never-arriving peer ends the
// wait with ncclRemoteError (dead or aborted) or ncclSystemError (timeout), within a
// bounded time, and the error sticks to the communicator.
#include <catch2/catch.hpp>
#include <nccl.h>
#include <sim/sim_ext.h>

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "testdata/sim/nccl/tests/rank_harness.h"

namespace {

constexpr int kKilledBySigkill = 128 + SIGKILL;

// Rank 0 all-reduces and must get `expected` within `max_ms`; it then checks that the
// error sticks. Returns 0 when all of that holds.
int SurvivorAllReduce(ncclComm_t comm, ncclResult_t expected, uint64_t max_ms) {
  std::vector<float> data(64, 1.0f);
  const uint64_t start = simNowNs();
  const ncclResult_t result =
      ncclAllReduce(data.data(), data.data(), 64, ncclFloat32, ncclSum, comm, nullptr);
  const uint64_t elapsed_ms = (simNowNs() - start) / 1000000;
  std::fprintf(stderr, "survivor got %s after %llu ms: %s\n", ncclGetErrorString(result),
               static_cast<unsigned long long>(elapsed_ms), ncclGetLastError(comm));
  if (result != expected || elapsed_ms > max_ms) return 1;
  ncclResult_t async_error = ncclSuccess;
  ncclCommGetAsyncError(comm, &async_error);
  if (async_error != expected) return 4;
  const ncclResult_t again =
      ncclAllReduce(data.data(), data.data(), 64, ncclFloat32, ncclSum, comm, nullptr);
  if (again != expected) return 5;
  ncclCommAbort(comm);
  return 0;
}

}  // namespace

TEST_CASE("a killed peer ends the wait with ncclRemoteError long before the timeout") {
  const auto body = [](int rank, int n, const ncclUniqueId& id) {
    setenv("SIM_NCCL_TIMEOUT_MS", "20000", 1);
    ncclComm_t comm = nullptr;
    if (ncclCommInitRank(&comm, n, id, rank) != ncclSuccess) return 2;
    if (rank == 1) raise(SIGKILL);
    return SurvivorAllReduce(comm, ncclRemoteError, 3000);
  };
  CHECK(simnccl_test::RunRanks(2, body) == std::vector<int>{0, kKilledBySigkill});
}

TEST_CASE("a peer that aborts its communicator ends the wait with ncclRemoteError") {
  const auto body = [](int rank, int n, const ncclUniqueId& id) {
    setenv("SIM_NCCL_TIMEOUT_MS", "20000", 1);
    ncclComm_t comm = nullptr;
    if (ncclCommInitRank(&comm, n, id, rank) != ncclSuccess) return 2;
    if (rank != 0) {
      usleep(100 * 1000);
      ncclCommAbort(comm);
      return 0;
    }
    return SurvivorAllReduce(comm, ncclRemoteError, 3000);
  };
  CHECK(simnccl_test::RunRanks(3, body) == std::vector<int>(3, 0));
}

TEST_CASE("a hung peer ends the wait with ncclSystemError after SIM_NCCL_TIMEOUT_MS") {
  const auto body = [](int rank, int n, const ncclUniqueId& id) {
    setenv("SIM_NCCL_TIMEOUT_MS", "300", 1);
    ncclComm_t comm = nullptr;
    if (ncclCommInitRank(&comm, n, id, rank) != ncclSuccess) return 2;
    if (rank == 1) {
      usleep(1500 * 1000);  // alive but never calls the collective
      return 0;
    }
    return SurvivorAllReduce(comm, ncclSystemError, 1200);
  };
  CHECK(simnccl_test::RunRanks(2, body) == std::vector<int>(2, 0));
}

TEST_CASE("init with a rank that never joins times out") {
  const auto body = [](int rank, int n, const ncclUniqueId& id) {
    setenv("SIM_NCCL_TIMEOUT_MS", "300", 1);
    if (rank == 1) return 0;
    ncclComm_t comm = nullptr;
    return ncclCommInitRank(&comm, n, id, rank) == ncclSystemError ? 0 : 1;
  };
  CHECK(simnccl_test::RunRanks(2, body) == std::vector<int>(2, 0));
}

TEST_CASE("a send to a dead receiver ends with ncclRemoteError") {
  const auto body = [](int rank, int n, const ncclUniqueId& id) {
    setenv("SIM_NCCL_TIMEOUT_MS", "20000", 1);
    setenv("SIM_NCCL_MAILBOX_BYTES", "1024", 1);
    ncclComm_t comm = nullptr;
    if (ncclCommInitRank(&comm, n, id, rank) != ncclSuccess) return 2;
    if (rank == 1) raise(SIGKILL);
    std::vector<char> data(1 << 16, 'x');
    const ncclResult_t result = ncclSend(data.data(), data.size(), ncclInt8, 1, comm, nullptr);
    return result == ncclRemoteError ? 0 : 1;
  };
  CHECK(simnccl_test::RunRanks(2, body) == std::vector<int>{0, kKilledBySigkill});
}
