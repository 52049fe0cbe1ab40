// The virtual timeline of collectives: a collective kernel never starts before the last
// rank arrived (host call or its stream becoming free, whichever is later), its duration
// is exactly the model's, and kernel names follow the selected NCCL generation.
#include <catch2/catch.hpp>
#include <nccl.h>
#include <sim/sim_ext.h>
#include <sim/sim_nccl_ext.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "testdata/sim/nccl/tests/rank_harness.h"

namespace {

constexpr size_t kCount = 1 << 16;

// Facts ranks share outside NCCL, in memory mapped before the fork.
struct Shared {
  uint64_t late_arrival_ns;    // when the late rank called (host)
  uint64_t busy_stream_until;  // when the busy rank's stream becomes free
};

int AllReduceAndDescribe(ncclComm_t comm, simNcclLaunchInfo* info) {
  std::vector<float> data(kCount, 1.0f);
  if (ncclAllReduce(data.data(), data.data(), kCount, ncclFloat32, ncclSum, comm, nullptr) !=
      ncclSuccess) {
    return 2;
  }
  if (simNcclLastLaunches(info, 1) != 1) return 3;
  if (info->end_ns - info->start_ns != info->duration_ns) return 4;
  if (info->duration_ns != simNcclCallDurationNs("AllReduce", kCount, ncclFloat32, 2)) return 5;
  return 0;
}

}  // namespace

TEST_CASE("the collective kernel starts after the last rank's host arrival") {
  auto* shared = static_cast<Shared*>(simnccl_test::SharedScratch(sizeof(Shared)));
  const auto body = [shared](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = nullptr;
    if (ncclCommInitRank(&comm, n, id, rank) != ncclSuccess) return 10;
    if (rank == 1) {
      usleep(150 * 1000);
      shared->late_arrival_ns = simNowNs();
    }
    simNcclLaunchInfo info;
    const int status = AllReduceAndDescribe(comm, &info);
    if (status != 0) return status;
    std::fprintf(stderr, "rank %d: not_before %llu start %llu late arrival %llu\n", rank,
                 (unsigned long long)info.not_before_ns, (unsigned long long)info.start_ns,
                 (unsigned long long)shared->late_arrival_ns);
    if (info.not_before_ns < shared->late_arrival_ns) return 6;
    if (info.start_ns < info.not_before_ns) return 7;
    const std::string name = info.kernel_name;
    if (name != "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)") {
      return 8;
    }
    ncclCommDestroy(comm);
    return 0;
  };
  CHECK(simnccl_test::RunRanks(2, body) == std::vector<int>(2, 0));
}

TEST_CASE("the collective kernel waits for a peer whose stream is still busy") {
  auto* shared = static_cast<Shared*>(simnccl_test::SharedScratch(sizeof(Shared)));
  const auto body = [shared](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = nullptr;
    if (ncclCommInitRank(&comm, n, id, rank) != ncclSuccess) return 10;
    if (rank == 0) {
      // A long compute kernel keeps rank 0's stream busy well past both host calls.
      if (simLaunchNamedKernel("busy_compute_kernel", dim3(1), dim3(1), 0, nullptr,
                               200 * 1000 * 1000ull, 0) != cudaSuccess) {
        return 11;
      }
      shared->busy_stream_until = simStreamReadyTimeNs(nullptr);
    }
    simNcclLaunchInfo info;
    const int status = AllReduceAndDescribe(comm, &info);
    if (status != 0) return status;
    if (info.start_ns < shared->busy_stream_until) return 6;
    ncclCommDestroy(comm);
    return 0;
  };
  CHECK(simnccl_test::RunRanks(2, body) == std::vector<int>(2, 0));
}

TEST_CASE("SIM_NCCL_KERNEL_NAMES=legacy selects the NCCL <= 2.18 names") {
  setenv("SIM_NCCL_KERNEL_NAMES", "legacy", 1);
  CHECK(std::string(simNcclCallKernelName("AllReduce", ncclFloat32, ncclSum)) ==
        "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)");
  CHECK(std::string(simNcclCallKernelName("Send", ncclFloat32, ncclSum)) ==
        "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)");
  unsetenv("SIM_NCCL_KERNEL_NAMES");
  CHECK(std::string(simNcclCallKernelName("AllGather", ncclFloat32, ncclSum)) ==
        "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
  CHECK(std::string(simNcclCallKernelName("AllReduce", ncclFloat32, ncclMax)) ==
        "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)");
}

TEST_CASE("durations grow with message size and follow the bus-bandwidth factors") {
  const uint64_t small = simNcclCallDurationNs("AllReduce", 1024, ncclFloat32, 4);
  const uint64_t large = simNcclCallDurationNs("AllReduce", 64 << 20, ncclFloat32, 4);
  CHECK(large > small);
  // Large messages: time is dominated by S * 2(n-1)/n / busbw; busbw defaults to 100 GB/s.
  const double bytes = (64 << 20) * 4.0;
  const double expected_ns = bytes * 2 * 3 / 4 / 100.0;
  CHECK(static_cast<double>(large) == Approx(expected_ns).epsilon(0.01));
  CHECK(simNcclCallDurationNs("Bogus", 1, ncclFloat32, 2) == 0);
  // AlltoAll, Gather, Scatter: S = count*e*n moved at (n-1)/n, like AllGather (nccl-tests).
  for (const char* func : {"AlltoAll", "Gather", "Scatter"}) {
    INFO(func);
    CHECK(simNcclCallDurationNs(func, 16 << 20, ncclFloat32, 4) ==
          simNcclCallDurationNs("AllGather", 16 << 20, ncclFloat32, 4));
    CHECK(std::string(simNcclCallKernelName(func, ncclFloat32, ncclSum)) ==
          "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)");
  }
}
