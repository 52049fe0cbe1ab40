// Ranks inside one process: ncclCommInitAll driven from a single thread with a group
// (the classic one-process-many-GPUs pattern), and one thread per rank with
// ncclCommInitRank. Also the simple queries and error strings.
#include <catch2/catch.hpp>
#include <nccl.h>

#include <cstring>
#include <thread>
#include <vector>

TEST_CASE("ncclCommInitAll: one thread drives all ranks through a group") {
  constexpr int kRanks = 4;
  std::vector<ncclComm_t> comms(kRanks, nullptr);
  REQUIRE(ncclCommInitAll(comms.data(), kRanks, nullptr) == ncclSuccess);
  std::vector<std::vector<double>> buffers(kRanks);
  for (int rank = 0; rank < kRanks; ++rank) buffers[rank].assign(513, rank + 1.0);
  REQUIRE(ncclGroupStart() == ncclSuccess);
  for (int rank = 0; rank < kRanks; ++rank) {
    REQUIRE(ncclAllReduce(buffers[rank].data(), buffers[rank].data(), 513, ncclFloat64, ncclSum,
                          comms[rank], nullptr) == ncclSuccess);
  }
  REQUIRE(ncclGroupEnd() == ncclSuccess);
  for (int rank = 0; rank < kRanks; ++rank) {
    CHECK(buffers[rank][0] == 10.0);
    CHECK(buffers[rank][512] == 10.0);
    int count = 0, user_rank = -1, device = -1;
    CHECK(ncclCommCount(comms[rank], &count) == ncclSuccess);
    CHECK(ncclCommUserRank(comms[rank], &user_rank) == ncclSuccess);
    CHECK(ncclCommCuDevice(comms[rank], &device) == ncclSuccess);
    CHECK(count == kRanks);
    CHECK(user_rank == rank);
    CHECK(device == rank);
  }
  for (ncclComm_t comm : comms) CHECK(ncclCommDestroy(comm) == ncclSuccess);
}

TEST_CASE("one thread per rank with ncclCommInitRank") {
  constexpr int kRanks = 3;
  ncclUniqueId id;
  REQUIRE(ncclGetUniqueId(&id) == ncclSuccess);
  std::vector<int> results(kRanks, -1);
  std::vector<std::vector<int64_t>> gathered(kRanks, std::vector<int64_t>(kRanks * 5, 0));
  std::vector<std::thread> threads;
  for (int rank = 0; rank < kRanks; ++rank) {
    threads.emplace_back([&, rank] {
      ncclComm_t comm = nullptr;
      std::vector<int64_t> mine(5, rank * 7);
      ncclResult_t result = ncclCommInitRank(&comm, kRanks, id, rank);
      if (result == ncclSuccess) {
        result = ncclAllGather(mine.data(), gathered[rank].data(), 5, ncclInt64, comm, nullptr);
        ncclCommFinalize(comm);
        ncclCommDestroy(comm);
      }
      results[rank] = result;
    });
  }
  for (auto& thread : threads) thread.join();
  for (int rank = 0; rank < kRanks; ++rank) {
    CHECK(results[rank] == ncclSuccess);
    for (int peer = 0; peer < kRanks; ++peer) CHECK(gathered[rank][peer * 5 + 4] == peer * 7);
  }
}

TEST_CASE("version, error strings and argument checks") {
  int version = 0;
  CHECK(ncclGetVersion(&version) == ncclSuccess);
  CHECK(version == NCCL_VERSION_CODE);
  CHECK(std::strlen(ncclGetErrorString(ncclRemoteError)) > 0);
  CHECK(ncclAllReduce(nullptr, nullptr, 1, ncclFloat32, ncclSum, nullptr, nullptr) ==
        ncclInvalidArgument);
  ncclUniqueId garbage;
  std::memset(&garbage, 0, sizeof(garbage));
  ncclComm_t comm = nullptr;
  CHECK(ncclCommInitRank(&comm, 1, garbage, 0) == ncclInvalidArgument);
  CHECK(std::strlen(ncclGetLastError(nullptr)) > 0);
  CHECK(ncclGroupEnd() == ncclInvalidUsage);
}

TEST_CASE("a single-rank communicator works without peers") {
  ncclUniqueId id;
  REQUIRE(ncclGetUniqueId(&id) == ncclSuccess);
  ncclComm_t comm = nullptr;
  REQUIRE(ncclCommInitRank(&comm, 1, id, 0) == ncclSuccess);
  std::vector<float> data(10, 2.5f), out(10, 0.0f);
  CHECK(ncclAllReduce(data.data(), out.data(), 10, ncclFloat32, ncclSum, comm, nullptr) ==
        ncclSuccess);
  CHECK(out[9] == 2.5f);
  CHECK(ncclCommDestroy(comm) == ncclSuccess);
}
