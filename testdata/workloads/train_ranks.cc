// `train_ranks`: data-parallel training on N simulated GPUs, one process per rank, each
// with its own NCCL communicator. Gradient buckets are all-reduced on a separate
// communication stream while backward continues (cudaStreamWaitEvent orders them), and
// the optimizer waits for the all-reduces, like PyTorch DDP. Between forward and backward
// each rank exchanges activations within its group (ranks r / G, G = --group-size), on a
// communicator made with ncclCommSplit like PyTorch's new_group: AllGather,
// ReduceScatter, AlltoAll, Gather, Scatter and Bcast, once each per step.
//
//   train_ranks --ranks N [--steps N] [--batch-size B] [--seed S] [--truth PATH]
//       [--group-size G] (default 2; 0: no split communicator)
//       [--slow-kernel NAME:FACTOR] [--extra-sync N]   (fault injection, off by default)
//       [--stop-rank R --stop-before K [--stop-how hang|exit]]  (a hang: collective_stop.h)
//       [--mismatch-rank R --mismatch-at K]  (a broadcast where the others all-reduce)
//       [--slow-step N:MS]  (step N sleeps MS ms first, as a data-loader stall does)
//       [--stuck-rank R --stuck-at K [--stuck-ms MS]]  (a kernel that never finishes
//                       holds up collective #K on the GPU: collective_stop.h)
//       forks N rank processes itself;
//   RANK=r WORLD_SIZE=n [LOCAL_RANK=l] train_ranks [...]   (e.g. under torchrun)
//       one rank per process; rank 0 passes the NCCL id through a rendezvous file
//       (--rendezvous PATH, default $SIM_RENDEZVOUS_FILE or /tmp/sim-nccl-rendezvous.*).
// Each rank writes its own truth file: "{rank}" in the path is replaced by the rank,
// otherwise ".rank<N>" is inserted before ".json". Exit status is non-zero if any rank
// failed.
#include <cuda_runtime_api.h>
#include <nccl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "testdata/workloads/common/collective_stop.h"
#include "testdata/workloads/common/device_actions.h"
#include "testdata/workloads/common/fault_injection.h"
#include "testdata/workloads/common/flags.h"
#include "testdata/workloads/common/prof_api.h"
#include "testdata/workloads/common/rendezvous.h"
#include "testdata/workloads/common/training_model.h"
#include "testdata/workloads/common/truth_recorder.h"

namespace {

using workloads::CheckCuda;
using workloads::CheckNccl;

struct RankSetup {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  ncclUniqueId id;
};

int EnvInt(const char* name, int fallback) {
  const char* text = std::getenv(name);
  return text != nullptr && *text != '\0' ? std::atoi(text) : fallback;
}

// After the loop: all-reduce each rank's (rank + 1) and check the sum, so a run whose
// communication is numerically wrong fails instead of writing a plausible truth.
bool ValidateAllReduce(workloads::DeviceActions* device, const RankSetup& setup, ncclComm_t comm,
                       cudaStream_t stream, workloads::CollectiveStop* stop) {
  float* value = nullptr;
  CheckCuda(cudaMalloc(reinterpret_cast<void**>(&value), sizeof(float)), "cudaMalloc");
  const float mine = static_cast<float>(setup.rank + 1);
  device->CopyAsync(value, &mine, sizeof(float), cudaMemcpyHostToDevice, stream);
  stop->BeforeWorldCollective(stream);
  device->AllReduce(value, value, 1, comm, stream);
  CheckCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  float sum = 0.0f;
  device->CopySync(&sum, value, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(value);
  const float expected = setup.world_size * (setup.world_size + 1) / 2.0f;
  if (sum != expected) {
    std::fprintf(stderr, "rank %d: all-reduce gave %g, expected %g\n", setup.rank, sum, expected);
    return false;
  }
  return true;
}

// DDP-style wiring: each gradient bucket is all-reduced on the communication stream as
// soon as backward produced it; the optimizer waits for the last all-reduce.
void WireGradientAllReduce(workloads::TrainingModel* model, workloads::DeviceActions* device,
                           ncclComm_t comm, cudaStream_t comm_stream, cudaEvent_t comm_done,
                           workloads::CollectiveStop* stop) {
  model->set_bucket_ready_hook([=](const workloads::GradientBucket& bucket) {
    CheckCuda(cudaStreamWaitEvent(comm_stream, bucket.ready, 0), "cudaStreamWaitEvent");
    stop->BeforeWorldCollective(comm_stream);
    if (stop->Mismatched()) {
      CheckNccl(ncclBroadcast(bucket.gradients, bucket.gradients, bucket.count, ncclFloat, 0, comm,
                              comm_stream),
                "ncclBroadcast", comm);
      return;
    }
    device->AllReduce(bucket.gradients, bucket.gradients, bucket.count, comm, comm_stream);
  });
  model->set_before_optimizer_hook([=] {
    CheckCuda(cudaEventRecord(comm_done, comm_stream), "cudaEventRecord");
    CheckCuda(cudaStreamWaitEvent(model->compute_stream(), comm_done, 0), "cudaStreamWaitEvent");
  });
}

// The sub-group's activation exchange (tensor/expert parallel style) on a split
// communicator: every collective a group issues, on the communication stream.
class GroupExchange {
 public:
  static constexpr size_t kCount = 4096;  // elements per rank of the group

  GroupExchange(workloads::DeviceActions* device, ncclComm_t comm, cudaStream_t stream)
      : device_(device), comm_(comm), stream_(stream) {
    if (comm_ == nullptr) return;
    CheckNccl(ncclCommCount(comm_, &ranks_), "ncclCommCount", comm_);
    const size_t bytes = kCount * ranks_ * sizeof(float);
    CheckCuda(cudaMalloc(reinterpret_cast<void**>(&send_), bytes), "cudaMalloc");
    CheckCuda(cudaMalloc(reinterpret_cast<void**>(&recv_), bytes), "cudaMalloc");
  }
  ~GroupExchange() {
    cudaFree(send_);
    cudaFree(recv_);
  }

  void Run() {
    if (comm_ == nullptr) return;
    for (const char* op :
         {"AllGather", "ReduceScatter", "AlltoAll", "Gather", "Scatter", "Broadcast"}) {
      device_->GroupCollective(op, send_, recv_, kCount, comm_, stream_);
    }
  }

 private:
  workloads::DeviceActions* device_;
  ncclComm_t comm_;
  cudaStream_t stream_;
  int ranks_ = 1;
  float* send_ = nullptr;
  float* recv_ = nullptr;
};

// The group's communicator: ranks r / group_size share one (nullptr when off).
ncclComm_t SplitGroup(ncclComm_t world, const RankSetup& setup, int64_t group_size) {
  if (group_size <= 0) return nullptr;
  ncclComm_t group = nullptr;
  CheckNccl(
      ncclCommSplit(world, static_cast<int>(setup.rank / group_size), setup.rank, &group, nullptr),
      "ncclCommSplit", world);
  return group;
}

// --slow-step N:MS: the step and the milliseconds it stalls ({-1, 0}: none).
std::pair<int64_t, int64_t> SlowStep(const std::string& flag) {
  if (flag.empty()) return {-1, 0};
  long long step = -1, ms = 0;
  if (std::sscanf(flag.c_str(), "%lld:%lld", &step, &ms) != 2 || step < 0 || ms <= 0) {
    std::fprintf(stderr, "--slow-step expects N:MS (a step >= 0, milliseconds > 0), got '%s'\n",
                 flag.c_str());
    std::exit(2);
  }
  return {step, ms};
}

void TrainLoop(workloads::TrainingModel* model, workloads::ProfApi* prof, GroupExchange* group,
               int64_t steps, int batch_size, std::pair<int64_t, int64_t> slow_step) {
  for (int64_t step = 0; step < steps; ++step) {
    prof->BeginStep();
    if (step == slow_step.first) usleep(static_cast<useconds_t>(slow_step.second * 1000));
    model->LoadBatch(step);
    model->Forward();
    group->Run();
    model->Backward();
    model->Optimize();
    model->FetchLoss();
    prof->RangePush("log_metrics");
    prof->RangePop();
    prof->Step(batch_size);
  }
}

int RunRank(const RankSetup& setup, const workloads::Flags& flags, const std::string& truth_path) {
  int devices = 1;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) {
    CheckCuda(cudaSetDevice(setup.local_rank % devices), "cudaSetDevice");
  }
  workloads::TruthRecorder truth("train_ranks", setup.rank, setup.world_size);
  for (const auto& flag : flags.all()) truth.SetArg(flag.first, flag.second);
  workloads::ProfApi prof(&truth);
  workloads::DeviceActions device(&truth);
  ncclComm_t comm = nullptr;
  CheckNccl(ncclCommInitRank(&comm, setup.world_size, setup.id, setup.rank), "ncclCommInitRank",
            nullptr);
  workloads::RemoveRendezvousFile(setup.rank, flags.String("rendezvous"));
  ncclComm_t group_comm = SplitGroup(comm, setup, flags.Int("group-size"));
  cudaStream_t comm_stream;
  cudaEvent_t comm_done;
  CheckCuda(cudaStreamCreateWithFlags(&comm_stream, cudaStreamNonBlocking), "cudaStreamCreate");
  CheckCuda(cudaEventCreateWithFlags(&comm_done, cudaEventDisableTiming), "cudaEventCreate");
  workloads::ModelShape shape;
  shape.batch_size = static_cast<int>(flags.Int("batch-size"));
  bool valid = false;
  workloads::CollectiveStop stop(flags, setup.rank);
  {
    workloads::TrainingModel model(&device, shape, flags.Int("seed") + setup.rank);
    model.set_faults(workloads::FaultsFromFlags(flags));
    WireGradientAllReduce(&model, &device, comm, comm_stream, comm_done, &stop);
    GroupExchange group(&device, group_comm, comm_stream);
    TrainLoop(&model, &prof, &group, flags.Int("steps"), shape.batch_size,
              SlowStep(flags.String("slow-step")));
    valid = ValidateAllReduce(&device, setup, comm, comm_stream, &stop);
  }
  CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  if (group_comm != nullptr) ncclCommDestroy(group_comm);
  ncclCommDestroy(comm);
  cudaEventDestroy(comm_done);
  cudaStreamDestroy(comm_stream);
  const bool written = truth.WriteFile(workloads::PerRankPath(truth_path, setup.rank));
  return valid && written ? 0 : 1;
}

// --ranks N: fork one process per rank (before any CUDA call in this process) and wait.
int LaunchRanks(int nranks, const workloads::Flags& flags, const std::string& truth_path) {
  RankSetup setup;
  setup.world_size = nranks;
  CheckNccl(ncclGetUniqueId(&setup.id), "ncclGetUniqueId", nullptr);
  std::vector<pid_t> children;
  for (int rank = 0; rank < nranks; ++rank) {
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
      setup.rank = setup.local_rank = rank;
      std::exit(RunRank(setup, flags, truth_path));
    }
    children.push_back(pid);
  }
  // Like torchrun's agent: once one rank failed, the ones still running get SIGTERM (a
  // rank stuck before a collective would otherwise never end).
  int failures = 0;
  for (int left = nranks; left > 0; --left) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) break;
    int rank = 0;
    while (rank < nranks && children[rank] != pid) ++rank;
    if (rank < nranks) children[rank] = 0;  // reaped: its pid may be reused, never signal it
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;
    std::fprintf(stderr, "train_ranks: rank %d failed (status 0x%x)\n", rank, status);
    if (failures++ > 0) continue;
    for (pid_t other : children) {
      if (other > 0) kill(other, SIGTERM);  // an exited, unreaped child is a zombie: harmless
    }
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string truth_path = workloads::TruthPathFromArgsOrEnv(argc, argv);
  const workloads::Flags flags(argc, argv,
                               {{"steps", "10"},
                                {"batch-size", "32"},
                                {"seed", "1"},
                                {"slow-kernel", ""},
                                {"extra-sync", "0"},
                                {"ranks", "0"},
                                {"truth", ""},
                                {"group-size", "2"},
                                {"stop-rank", "-1"},
                                {"stop-before", "0"},
                                {"stop-how", "hang"},
                                {"mismatch-rank", "-1"},
                                {"mismatch-at", "0"},
                                {"slow-step", ""},
                                {"stuck-rank", "-1"},
                                {"stuck-at", "0"},
                                {"stuck-ms", "3600000"},
                                {"rendezvous", workloads::DefaultRendezvousPath()}});
  if (flags.Int("ranks") > 0)
    return LaunchRanks(static_cast<int>(flags.Int("ranks")), flags, truth_path);
  RankSetup setup;
  setup.rank = EnvInt("RANK", 0);
  setup.world_size = EnvInt("WORLD_SIZE", 1);
  setup.local_rank = EnvInt("LOCAL_RANK", setup.rank);
  if (!workloads::ShareUniqueId(setup.rank, flags.String("rendezvous"), 30000, &setup.id)) return 1;
  return RunRank(setup, flags, truth_path);
}
