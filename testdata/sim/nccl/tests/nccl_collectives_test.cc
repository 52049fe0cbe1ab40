// Every collective across 2 and 4 forked ranks, for float, double, int32, int64 and
// uint8 and every built-in reduction: results must equal the host-computed values.
#include <catch2/catch.hpp>
#include <nccl.h>

#include <cstdlib>
#include <vector>

#include "testdata/sim/nccl/tests/collective_check.h"
#include "testdata/sim/nccl/tests/rank_harness.h"

using simnccl_test::Collective;

namespace {

// Each rank initialises its communicator and checks `collective` with `count`.
int CheckOnRank(int rank, int nranks, const ncclUniqueId& id, Collective collective, size_t count) {
  ncclComm_t comm = nullptr;
  if (ncclCommInitRank(&comm, nranks, id, rank) != ncclSuccess) return 2;
  const int failures = simnccl_test::CheckCollectiveAllTypes(comm, collective, count);
  ncclCommDestroy(comm);
  return failures == 0 ? 0 : 1;
}

std::vector<int> AllZero(int nranks) { return std::vector<int>(nranks, 0); }

}  // namespace

TEST_CASE("collectives give exact results across forked ranks") {
  const int nranks = GENERATE(2, 4);
  const Collective collective = GENERATE(
      Collective::kAllReduce, Collective::kAllReduceInPlace, Collective::kReduce,
      Collective::kBroadcast, Collective::kBcast, Collective::kAllGather,
      Collective::kReduceScatter, Collective::kAllToAll, Collective::kGather, Collective::kScatter);
  INFO(simnccl_test::CollectiveName(collective) << " on " << nranks << " ranks");
  const auto body = [collective](int rank, int n, const ncclUniqueId& id) {
    return CheckOnRank(rank, n, id, collective, 1000);
  };
  CHECK(simnccl_test::RunRanks(nranks, body) == AllZero(nranks));
}

TEST_CASE("messages larger than the staging slot take several rounds") {
  // The capacity travels inside the unique id, so setting it before ncclGetUniqueId
  // (inside RunRanks) is enough.
  setenv("SIM_NCCL_SLOT_BYTES", "4096", 1);
  const int nranks = GENERATE(2, 4);
  const Collective collective = GENERATE(
      Collective::kAllReduce, Collective::kAllGather, Collective::kReduceScatter,
      Collective::kBroadcast, Collective::kAllToAll, Collective::kGather, Collective::kScatter);
  INFO(simnccl_test::CollectiveName(collective) << " on " << nranks << " ranks");
  const auto body = [collective](int rank, int n, const ncclUniqueId& id) {
    return CheckOnRank(rank, n, id, collective, 5003);
  };
  CHECK(simnccl_test::RunRanks(nranks, body) == AllZero(nranks));
  unsetenv("SIM_NCCL_SLOT_BYTES");
}

TEST_CASE("zero-element collectives complete") {
  const auto body = [](int rank, int n, const ncclUniqueId& id) {
    return CheckOnRank(rank, n, id, Collective::kAllReduce, 0);
  };
  CHECK(simnccl_test::RunRanks(2, body) == AllZero(2));
}
