// `train`: a single-process training loop shaped like paddle's profiler guide, run on
// the simulated CUDA platform. Writes the ground truth of what it did to --truth PATH
// (or $SIM_TRUTH). Runs unchanged with or without the profiler agent preloaded.
//
//   train [--steps N] [--batch-size B] [--seed S] [--truth PATH]
//         [--slow-kernel NAME:FACTOR] [--extra-sync N]   (fault injection, off by default)
//         [--epoch-range 1]   (an NVTX range "epoch" around the whole loop)
#include <cuda_runtime_api.h>

#include <cstdio>
#include <optional>
#include <string>

#include "testdata/workloads/common/device_actions.h"
#include "testdata/workloads/common/flags.h"
#include "testdata/workloads/common/nvtx_scope.h"
#include "testdata/workloads/common/prof_api.h"
#include "testdata/workloads/common/training_model.h"
#include "testdata/workloads/common/truth_recorder.h"

namespace {

using workloads::Flags;

// Per-step bookkeeping outside the model: a user range around "logging" (through the
// agent's C API) and a mark every 5 steps.
void LogProgress(workloads::ProfApi* prof, int64_t step, float loss) {
  prof->RangePush("log_metrics");
  if (step % 5 == 0) {
    prof->Mark("eval_checkpoint");
    std::printf("step %lld loss %g\n", static_cast<long long>(step), loss);
  }
  prof->RangePop();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string truth_path = workloads::TruthPathFromArgsOrEnv(argc, argv);
  const Flags flags(argc, argv,
                    {{"steps", "20"},
                     {"batch-size", "32"},
                     {"seed", "1"},
                     {"slow-kernel", ""},
                     {"extra-sync", "0"},
                     {"epoch-range", "0"},
                     {"truth", ""}});
  workloads::TruthRecorder truth("train", 0, 1);
  for (const auto& flag : flags.all()) truth.SetArg(flag.first, flag.second);
  workloads::ProfApi prof(&truth);
  workloads::DeviceActions device(&truth);
  workloads::ModelShape shape;
  shape.batch_size = static_cast<int>(flags.Int("batch-size"));
  const int64_t steps = flags.Int("steps");
  {
    workloads::TrainingModel model(&device, shape, static_cast<uint64_t>(flags.Int("seed")));
    model.set_faults(workloads::FaultsFromFlags(flags));
    std::optional<workloads::NvtxScope> epoch;
    if (flags.Int("epoch-range") != 0) epoch.emplace(&truth, "epoch");
    for (int64_t step = 0; step < steps; ++step) {
      prof.BeginStep();
      model.LoadBatch(step);
      model.Forward();
      model.Backward();
      model.Optimize();
      const float loss = model.FetchLoss();
      LogProgress(&prof, step, loss);
      prof.Step(shape.batch_size);
    }
  }
  workloads::CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return truth.WriteFile(truth_path) ? 0 : 1;
}
