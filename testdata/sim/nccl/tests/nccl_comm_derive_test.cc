// Communicators derived from others (ncclCommSplit, ncclCommShrink) and made with
// ncclCommInitRankScalable: sizes, ranks, a hash shared by exactly the members, and
// collectives that move the right data.
#include <catch2/catch.hpp>
#include <nccl.h>

#include <cstdio>
#include <vector>

#include "testdata/sim/nccl/tests/collective_check.h"
#include "testdata/sim/nccl/tests/rank_harness.h"

using simnccl_test::Collective;

namespace {

// Each rank's view of its derived communicator, written to shared memory.
struct View {
  int size;
  int rank;
  int in_group;  // 0 when the rank got no communicator (NCCL_SPLIT_NOCOLOR)
};

int Describe(ncclComm_t comm, View* view) {
  view->in_group = comm != nullptr;
  if (comm == nullptr) return 0;
  if (ncclCommCount(comm, &view->size) != ncclSuccess) return 3;
  if (ncclCommUserRank(comm, &view->rank) != ncclSuccess) return 4;
  return 0;
}

}  // namespace

TEST_CASE("ncclCommSplit: one communicator per color, ordered by key, data moves right") {
  constexpr int kRanks = 4;
  View* views = static_cast<View*>(simnccl_test::SharedScratch(sizeof(View) * kRanks));
  const auto body = [views](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t world = nullptr;
    if (ncclCommInitRank(&world, n, id, rank) != ncclSuccess) return 2;
    // Colors 0 (ranks 0, 2) and 1 (ranks 1, 3); rank 3 opts out; keys reverse the order.
    const int color = rank == 3 ? NCCL_SPLIT_NOCOLOR : rank % 2;
    ncclComm_t part = nullptr;
    if (ncclCommSplit(world, color, -rank, &part, nullptr) != ncclSuccess) return 5;
    if (const int failed = Describe(part, &views[rank])) return failed;
    int failures = 0;
    if (part != nullptr && views[rank].size > 1) {
      for (Collective c : {Collective::kAllGather, Collective::kAllToAll, Collective::kScatter}) {
        failures += simnccl_test::CheckCollectiveAllTypes(part, c, 37);
      }
    }
    // The parent still works after the split.
    failures += simnccl_test::CheckCollectiveAllTypes(world, Collective::kAllReduce, 5);
    if (part) ncclCommDestroy(part);
    ncclCommDestroy(world);
    return failures == 0 ? 0 : 1;
  };
  REQUIRE(simnccl_test::RunRanks(kRanks, body) == std::vector<int>(kRanks, 0));
  CHECK(views[0].in_group == 1);
  CHECK(views[0].size == 2);
  CHECK(views[0].rank == 1);  // key 0 sorts after rank 2's key -2
  CHECK(views[2].rank == 0);
  CHECK(views[1].size == 1);
  CHECK(views[1].rank == 0);
  CHECK(views[3].in_group == 0);
}

TEST_CASE("ncclCommShrink: the remaining ranks, renumbered in order") {
  constexpr int kRanks = 4;
  View* views = static_cast<View*>(simnccl_test::SharedScratch(sizeof(View) * kRanks));
  const auto body = [views](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t world = nullptr;
    if (ncclCommInitRank(&world, n, id, rank) != ncclSuccess) return 2;
    int excluded[] = {1};
    int failures = 0;
    if (rank != 1) {
      ncclComm_t shrunk = nullptr;
      if (ncclCommShrink(world, excluded, 1, &shrunk, nullptr, NCCL_SHRINK_DEFAULT) !=
          ncclSuccess) {
        return 5;
      }
      if (const int failed = Describe(shrunk, &views[rank])) return failed;
      failures += simnccl_test::CheckCollectiveAllTypes(shrunk, Collective::kGather, 11);
      ncclCommDestroy(shrunk);
    }
    ncclCommDestroy(world);
    return failures == 0 ? 0 : 1;
  };
  REQUIRE(simnccl_test::RunRanks(kRanks, body) == std::vector<int>(kRanks, 0));
  CHECK(views[0].size == 3);
  CHECK(views[0].rank == 0);
  CHECK(views[2].rank == 1);
  CHECK(views[3].rank == 2);
}

TEST_CASE("ncclCommInitRankScalable: the same communicator as ncclCommInitRank") {
  const auto body = [](int rank, int n, const ncclUniqueId& id) {
    ncclUniqueId ids[2] = {id, id};
    ncclComm_t comm = nullptr;
    if (ncclCommInitRankScalable(&comm, n, rank, 2, ids, nullptr) != ncclSuccess) return 2;
    const int failures = simnccl_test::CheckCollectiveAllTypes(comm, Collective::kBcast, 9);
    ncclCommDestroy(comm);
    return failures == 0 ? 0 : 1;
  };
  CHECK(simnccl_test::RunRanks(3, body) == std::vector<int>(3, 0));
}
