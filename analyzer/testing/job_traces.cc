#include "analyzer/testing/job_traces.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_format.h"
#include "analyzer/testing/test_trace.h"

namespace prof::analyzer::testing {
namespace {

constexpr uint64_t kClockBase = 1000000000;  // every host clock reads about 1 s at true time 0
constexpr uint64_t kThread = 1;
constexpr uint64_t kKernelDelay = 10000;  // a call's NCCL kernel starts 10 us after the call

// A deterministic value in [0, 1) from (a, b).
double Unit(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull + b * 0xC2B2AE3D27D4EB4Full + 0x165667B19E3779F9ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<double>(x >> 11) / static_cast<double>(uint64_t{1} << 53);
}

// How long `rank` computes before the all-reduce of `step`.
uint64_t ComputeTime(const JobSpec& spec, int rank, int step) {
  uint64_t compute = spec.compute_ns + static_cast<uint64_t>(Unit(rank, step) * spec.jitter_ns);
  if (rank == spec.straggler_rank && step >= spec.straggler_first_step &&
      step <= spec.straggler_last_step) {
    compute += spec.straggler_extra_ns;
  }
  if (rank == spec.late_rank) compute += spec.late_extra_ns;
  return compute;
}

// All ranks' traces, built step by step on the true clock.
class JobWriter {
 public:
  JobWriter(const JobSpec& spec, const JobTruth& truth) : spec_(spec), truth_(truth) {
    for (int rank = 0; rank < spec.ranks; ++rank) {
      auto trace = std::make_unique<TestTrace>(rank, 5000 + rank);
      trace->header().set_world_size(spec.ranks);
      trace->header().set_host_name(absl::StrFormat("node%03d", rank / spec.ranks_per_host));
      traces_.push_back(std::move(trace));
    }
  }

  // One step on every rank, each rank's events in time order.
  void Step(int step) {
    const uint64_t start = now_;
    std::vector<uint64_t> reduce(spec_.ranks), gather(spec_.ranks);
    for (int rank = 0; rank < spec_.ranks; ++rank)
      reduce[rank] = start + ComputeTime(spec_, rank, step);
    const std::vector<uint64_t> reduced =
        GroupEnds(reduce, &JobWriter::ReduceGroup, spec_.transfer_ns);
    for (int rank = 0; rank < spec_.ranks; ++rank) {
      gather[rank] = reduced[ReduceGroup(rank)] + spec_.optimizer_ns +
                     static_cast<uint64_t>(Unit(rank, step + 7919) * spec_.jitter_ns);
    }
    const std::vector<uint64_t> gathered =
        GroupEnds(gather, &JobWriter::GatherGroup, spec_.gather_transfer_ns);
    now_ = *std::max_element(gathered.begin(), gathered.end()) + 100000;
    const bool world = spec_.tensor_parallel <= 1;
    for (int rank = 0; rank < spec_.ranks; ++rank) {
      TestTrace& trace = *traces_[rank];
      trace.Step(kThread, Clock(rank, start), Clock(rank, now_), step, 32);
      trace.Launch(kThread, Clock(rank, start + 10000), Clock(rank, start + 15000), "gemm_kernel",
                   0, 7, Clock(rank, start + 20000), Clock(rank, start + spec_.compute_ns / 2));
      const int tp = spec_.tensor_parallel;
      Call(rank, schema::NCCL_OPERATION_ALL_REDUCE, reduce[rank], reduced[ReduceGroup(rank)],
           world ? 2 * step + 1 : step + 1, 64 << 20,
           world ? kJobCommHash : TensorGroupHash(ReduceGroup(rank)), world ? spec_.ranks : tp);
      if (step == spec_.missing_step && rank == spec_.missing_rank) continue;
      Call(rank, schema::NCCL_OPERATION_ALL_GATHER, gather[rank], gathered[GatherGroup(rank)],
           world ? 2 * step + 2 : step + 1, 1 << 20,
           world ? kJobCommHash : DataGroupHash(GatherGroup(rank)),
           world ? spec_.ranks : spec_.ranks / tp);
    }
  }

  void Write(JobTruth* truth) {
    for (int rank = 0; rank < spec_.ranks; ++rank) {
      const std::string path = absl::StrFormat("%s/rank_%05d.pb", truth->folder, rank);
      traces_[rank]->WriteFile(path);
      truth->paths.push_back(path);
    }
  }

 private:
  uint64_t Clock(int rank, uint64_t true_ns) const { return truth_.HostClock(rank, true_ns); }

  // The all-reduce's group (tensor parallel) and the all-gather's (data parallel).
  int ReduceGroup(int rank) const {
    return spec_.tensor_parallel > 1 ? rank / spec_.tensor_parallel : 0;
  }
  int GatherGroup(int rank) const {
    return spec_.tensor_parallel > 1 ? rank % spec_.tensor_parallel : 0;
  }

  // Per group: the time its last member's kernel starts plus `transfer_ns`, when a
  // collective that waits for every member ends.
  std::vector<uint64_t> GroupEnds(const std::vector<uint64_t>& calls,
                                  int (JobWriter::*group_of)(int) const,
                                  uint64_t transfer_ns) const {
    std::vector<uint64_t> last(calls.size(), 0);
    for (int rank = 0; rank < spec_.ranks; ++rank) {
      uint64_t& group = last[(this->*group_of)(rank)];
      group = std::max(group, calls[rank]);
    }
    for (uint64_t& end : last) end += kKernelDelay + transfer_ns;
    return last;
  }

  // `rank` calls at `call` (true time); its kernel starts kKernelDelay later, ends at `end`.
  void Call(int rank, schema::NcclOperation operation, uint64_t call, uint64_t end,
            int64_t sequence, uint64_t bytes, uint64_t comm_hash, int comm_size) {
    TestTrace& trace = *traces_[rank];
    trace.Nccl(kThread, operation, Clock(rank, call), Clock(rank, call + 20000), bytes, comm_size,
               sequence, comm_hash);
    const uint64_t launch = trace.ApiCall(kThread, "cudaLaunchKernel", Clock(rank, call + 2000),
                                          Clock(rank, call + 8000));
    const char* kernel =
        operation == schema::NCCL_OPERATION_ALL_REDUCE
            ? "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
            : "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    trace.Kernel(kernel, 0, 9, Clock(rank, call + kKernelDelay), Clock(rank, end), launch);
  }

  const JobSpec& spec_;
  const JobTruth& truth_;
  std::vector<std::unique_ptr<TestTrace>> traces_;
  uint64_t now_ = 1000000;  // true time of the first step
};

}  // namespace

uint64_t TensorGroupHash(int group) { return 0x7E500000000ull + group; }
uint64_t DataGroupHash(int group) { return 0xDA7A00000000ull + group; }

uint64_t JobTruth::HostClock(int rank, uint64_t true_ns) const {
  const int host = rank / ranks_per_host;
  const double drift = host_drift_ppm[host] * 1e-6 * static_cast<double>(true_ns);
  return static_cast<uint64_t>(static_cast<int64_t>(kClockBase + true_ns) + host_offset_ns[host] +
                               static_cast<int64_t>(drift));
}

JobTruth WriteJobTraces(const JobSpec& spec, const std::string& folder) {
  JobTruth truth;
  truth.folder = folder;
  truth.ranks_per_host = spec.ranks_per_host;
  const int hosts = (spec.ranks + spec.ranks_per_host - 1) / spec.ranks_per_host;
  for (int host = 0; host < hosts; ++host) {
    truth.host_offset_ns.push_back(
        static_cast<int64_t>((2 * Unit(host, 1) - 1) * spec.max_offset_ns));
    truth.host_drift_ppm.push_back((2 * Unit(host, 2) - 1) * spec.max_drift_ppm);
  }
  JobWriter writer(spec, truth);
  for (int step = 0; step < spec.steps; ++step) writer.Step(step);
  writer.Write(&truth);
  return truth;
}

}  // namespace prof::analyzer::testing
