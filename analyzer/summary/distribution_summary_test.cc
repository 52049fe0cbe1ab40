// Which operator names count as communication (paddle's substring rule, §6.4 of
// paddle-summary-semantics.md), and the PyTorch names it must not catch.
#include <catch2/catch.hpp>

#include "analyzer/summary/distribution_summary.h"

namespace prof::analyzer {
namespace {

TEST_CASE("paddle's and PyTorch's collective operators are communication") {
  for (const char* name :
       {"c_allreduce_sum", "c_broadcast", "allreduce", "c10d::allreduce_", "c10d::broadcast_",
        "nccl:all_reduce", "c10d::allgather_", "_c10d_functional::all_gather_into_tensor",
        "c10d::reduce_scatter_", "c10d::alltoall_", "send_rpc"}) {
    INFO(name);
    CHECK(IsCommunicationOperatorName(name));
  }
}

TEST_CASE("shape operators that say broadcast are not communication") {
  for (const char* name : {"aten::broadcast_tensors", "aten::broadcast_to", "broadcast_tensors",
                           "broadcast_to", "broadcast_shape", "aten::expand", "matmul"}) {
    INFO(name);
    CHECK_FALSE(IsCommunicationOperatorName(name));
  }
}

}  // namespace
}  // namespace prof::analyzer
