// Three ranks as threads of one process, on communicators from every constructor the
// agent must understand: ncclCommInitRankScalable (the world), ncclCommSplit (ranks 0
// and 1; rank 2 opts out) and ncclCommShrink (rank 0 excluded), each running the
// collectives listed below once per member. Exit status 0 when every call succeeded.
//   world (3 ranks): AllReduce 10 floats, sum
//   split (2 ranks): Gather 8 floats root 1, Scatter 8 floats root 0, AlltoAll 4 floats,
//                    Bcast 8 floats root 1
//   shrunk (2 ranks): ReduceScatter 6 floats max, AllGather 5 int32
// Then the main thread holds both ranks of an ncclCommInitAll clique:
//   initall (2 ranks): Reduce 12 floats to rank 0, sum, both ranks in one group
#include <nccl.h>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

constexpr int kRanks = 3;
std::atomic<int> failures{0};

void Check(ncclResult_t result, const char* what, int rank) {
  if (result == ncclSuccess) return;
  std::fprintf(stderr, "rank %d: %s failed: %s\n", rank, what, ncclGetErrorString(result));
  failures.fetch_add(1);
}

void OnSplit(ncclComm_t comm, int rank) {
  std::vector<float> send(32, 1.0f), recv(32, 0.0f);
  Check(ncclGather(send.data(), recv.data(), 8, ncclFloat32, 1, comm, nullptr), "ncclGather", rank);
  Check(ncclScatter(send.data(), recv.data(), 8, ncclFloat32, 0, comm, nullptr), "ncclScatter",
        rank);
  Check(ncclAlltoAll(send.data(), recv.data(), 4, ncclFloat32, comm, nullptr), "ncclAlltoAll",
        rank);
  Check(ncclBcast(recv.data(), 8, ncclFloat32, 1, comm, nullptr), "ncclBcast", rank);
}

void OnShrunk(ncclComm_t comm, int rank) {
  std::vector<float> send(32, 1.0f), recv(32, 0.0f);
  std::vector<int> ints(32, rank), gathered(32, 0);
  Check(ncclReduceScatter(send.data(), recv.data(), 6, ncclFloat32, ncclMax, comm, nullptr),
        "ncclReduceScatter", rank);
  Check(ncclAllGather(ints.data(), gathered.data(), 5, ncclInt32, comm, nullptr), "ncclAllGather",
        rank);
}

void Rank(int rank, ncclUniqueId id) {
  ncclComm_t world = nullptr;
  Check(ncclCommInitRankScalable(&world, kRanks, rank, 1, &id, nullptr), "ncclCommInitRankScalable",
        rank);
  if (world == nullptr) return;
  std::vector<float> values(10, static_cast<float>(rank));
  Check(ncclAllReduce(values.data(), values.data(), 10, ncclFloat32, ncclSum, world, nullptr),
        "ncclAllReduce", rank);
  ncclComm_t split = nullptr;
  Check(ncclCommSplit(world, rank == 2 ? NCCL_SPLIT_NOCOLOR : 0, rank, &split, nullptr),
        "ncclCommSplit", rank);
  if (split != nullptr) OnSplit(split, rank);
  if (rank != 0) {
    int excluded[] = {0};
    ncclComm_t shrunk = nullptr;
    Check(ncclCommShrink(world, excluded, 1, &shrunk, nullptr, NCCL_SHRINK_DEFAULT),
          "ncclCommShrink", rank);
    if (shrunk != nullptr) OnShrunk(shrunk, rank);
    if (shrunk != nullptr) ncclCommDestroy(shrunk);
  }
  if (split != nullptr) ncclCommDestroy(split);
  ncclCommDestroy(world);
}

void InitAllRanks() {
  ncclComm_t comms[2] = {nullptr, nullptr};
  Check(ncclCommInitAll(comms, 2, nullptr), "ncclCommInitAll", 0);
  if (comms[0] == nullptr || comms[1] == nullptr) return;
  std::vector<float> first(12, 1.0f), second(12, 2.0f), sum(12, 0.0f);
  Check(ncclGroupStart(), "ncclGroupStart", 0);
  Check(ncclReduce(first.data(), sum.data(), 12, ncclFloat32, ncclSum, 0, comms[0], nullptr),
        "ncclReduce", 0);
  Check(ncclReduce(second.data(), nullptr, 12, ncclFloat32, ncclSum, 0, comms[1], nullptr),
        "ncclReduce", 1);
  Check(ncclGroupEnd(), "ncclGroupEnd", 0);
  if (sum[0] != 3.0f) failures.fetch_add(1);
  ncclCommDestroy(comms[0]);
  ncclCommDestroy(comms[1]);
}

}  // namespace

int main() {
  ncclUniqueId id;
  if (ncclGetUniqueId(&id) != ncclSuccess) return 2;
  std::vector<std::thread> ranks;
  for (int rank = 0; rank < kRanks; ++rank) ranks.emplace_back(Rank, rank, id);
  for (std::thread& thread : ranks) thread.join();
  InitAllRanks();
  return failures.load() == 0 ? 0 : 1;
}
