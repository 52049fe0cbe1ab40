// Runs one collective on one rank with inputs from a fixed formula and checks the output
// against the value computed on the host, for every data type and reduction operator the
// simulation supports. Used inside forked ranks, so it reports by return value and
// stderr, not by Catch2 assertions.
#pragma once

#include <nccl.h>

#include <cstddef>
#include <string>

namespace simnccl_test {

enum class Collective {
  kAllReduce,
  kAllReduceInPlace,
  kReduce,
  kBroadcast,
  kBcast,
  kAllGather,
  kReduceScatter,
  kAllToAll,
  kGather,
  kScatter
};

const char* CollectiveName(Collective collective);

// Returns the number of mismatching checks (0: all right). `count` is NCCL's count
// argument for the collective (per rank for AllGather, ReduceScatter, AlltoAll, Gather and
// Scatter).
int CheckCollectiveAllTypes(ncclComm_t comm, Collective collective, size_t count);

}  // namespace simnccl_test
