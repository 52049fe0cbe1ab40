// Point-to-point transfers: grouped ring exchanges (every rank sends right and receives
// from the left in one group, which deadlocks unless both progress together), pairwise
// swaps larger than a mailbox, several sends to one peer in one group, and self-sends.
#include <catch2/catch.hpp>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "testdata/sim/nccl/tests/rank_harness.h"

namespace {

float Payload(int rank, size_t index, int message) {
  return static_cast<float>(rank * 100000 + message * 10000 + index % 9973);
}

std::vector<float> MakeMessage(int rank, size_t count, int message) {
  std::vector<float> data(count);
  for (size_t i = 0; i < count; ++i) data[i] = Payload(rank, i, message);
  return data;
}

int CheckMessage(const std::vector<float>& got, int from, int message, int rank) {
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != Payload(from, i, message)) {
      std::fprintf(stderr, "rank %d: element %zu of message %d from rank %d is %g\n", rank, i,
                   message, from, got[i]);
      return 1;
    }
  }
  return 0;
}

// Rank r sends `messages` messages to r+1 and receives as many from r-1, all in one group.
int RingExchange(int rank, int nranks, const ncclUniqueId& id, size_t count, int messages) {
  ncclComm_t comm = nullptr;
  if (ncclCommInitRank(&comm, nranks, id, rank) != ncclSuccess) return 2;
  const int right = (rank + 1) % nranks;
  const int left = (rank + nranks - 1) % nranks;
  std::vector<std::vector<float>> outgoing, incoming;
  for (int m = 0; m < messages; ++m) {
    outgoing.push_back(MakeMessage(rank, count, m));
    incoming.emplace_back(count, -1.0f);
  }
  ncclGroupStart();
  for (int m = 0; m < messages; ++m) {
    ncclSend(outgoing[m].data(), count, ncclFloat32, right, comm, nullptr);
    ncclRecv(incoming[m].data(), count, ncclFloat32, left, comm, nullptr);
  }
  const ncclResult_t result = ncclGroupEnd();
  if (result != ncclSuccess) {
    std::fprintf(stderr, "rank %d: group failed: %s\n", rank, ncclGetLastError(comm));
    return 3;
  }
  int failures = 0;
  for (int m = 0; m < messages; ++m) failures += CheckMessage(incoming[m], left, m, rank);
  ncclCommDestroy(comm);
  return failures == 0 ? 0 : 1;
}

}  // namespace

TEST_CASE("grouped ring send/recv delivers every message") {
  const int nranks = GENERATE(2, 4);
  const int messages = GENERATE(1, 3);
  const auto body = [messages](int rank, int n, const ncclUniqueId& id) {
    return RingExchange(rank, n, id, 4099, messages);
  };
  CHECK(simnccl_test::RunRanks(nranks, body) == std::vector<int>(nranks, 0));
}

TEST_CASE("send/recv larger than the mailbox is split into chunks") {
  setenv("SIM_NCCL_MAILBOX_BYTES", "1024", 1);
  const auto body = [](int rank, int n, const ncclUniqueId& id) {
    return RingExchange(rank, n, id, 10007, 2);
  };
  CHECK(simnccl_test::RunRanks(2, body) == std::vector<int>(2, 0));
  unsetenv("SIM_NCCL_MAILBOX_BYTES");
}

TEST_CASE("a rank can send to itself inside a group") {
  const auto body = [](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = nullptr;
    if (ncclCommInitRank(&comm, n, id, rank) != ncclSuccess) return 2;
    std::vector<float> out = MakeMessage(rank, 300, 0), in(300, 0.0f);
    ncclGroupStart();
    ncclSend(out.data(), out.size(), ncclFloat32, rank, comm, nullptr);
    ncclRecv(in.data(), in.size(), ncclFloat32, rank, comm, nullptr);
    if (ncclGroupEnd() != ncclSuccess) return 3;
    ncclCommDestroy(comm);
    return CheckMessage(in, rank, 0, rank);
  };
  CHECK(simnccl_test::RunRanks(2, body) == std::vector<int>(2, 0));
}

TEST_CASE("ungrouped blocking send on one rank matches recv on the other") {
  const auto body = [](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = nullptr;
    if (ncclCommInitRank(&comm, n, id, rank) != ncclSuccess) return 2;
    std::vector<float> data = MakeMessage(0, 777, 5);
    if (rank == 0 &&
        ncclSend(data.data(), data.size(), ncclFloat32, 1, comm, nullptr) != ncclSuccess) {
      return 3;
    }
    if (rank == 1) {
      std::vector<float> in(777, 0.0f);
      if (ncclRecv(in.data(), in.size(), ncclFloat32, 0, comm, nullptr) != ncclSuccess) return 3;
      if (CheckMessage(in, 0, 5, rank) != 0) return 1;
    }
    ncclCommDestroy(comm);
    return 0;
  };
  CHECK(simnccl_test::RunRanks(2, body) == std::vector<int>(2, 0));
}
