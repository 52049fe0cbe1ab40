// A host program with protobuf runtimes of its own, recording on the simulated CUDA
// runtime: it dlopens (RTLD_GLOBAL) its own runtime (argv[1], libother_protobuf.so) and
// Debian's libprotobuf.so.32 (argv[2]), uses both before and during every step, and
// launches kernels in 6 steps with the truth written to argv[3]. It prints what each
// runtime answered; the agent must not change either answer (protobuf_clash_test.sh).
//
//   clash_workload OTHER_RUNTIME SYSTEM_PROTOBUF TRUTH_JSON
#include <dlfcn.h>

#include <cstdio>
#include <string>

#include "testdata/workloads/common/device_actions.h"
#include "testdata/workloads/common/prof_api.h"
#include "testdata/workloads/common/truth_recorder.h"

namespace {

constexpr int kSteps = 6;
constexpr int kLaunchesPerStep = 5;

void* Open(const char* path) {
  void* library = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
  if (!library) std::fprintf(stderr, "clash_workload: %s\n", dlerror());
  return library;
}

struct Runtimes {
  const char* (*other_version)() = nullptr;
  std::string (*system_version)(int) = nullptr;  // google::protobuf::internal::VersionString

  std::string Answers() const {
    return std::string("other runtime: ") + other_version() +
           "\nsystem protobuf: " + system_version(3021012) + "\n";
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  void* other = Open(argv[1]);
  void* system = Open(argv[2]);
  if (!other || !system) return 3;
  Runtimes runtimes;
  runtimes.other_version =
      reinterpret_cast<const char* (*)()>(dlsym(other, "other_runtime_version"));
  runtimes.system_version = reinterpret_cast<std::string (*)(int)>(
      dlsym(system, "_ZN6google8protobuf8internal13VersionStringB5cxx11Ei"));
  if (!runtimes.other_version || !runtimes.system_version) return 4;
  const std::string answers = runtimes.Answers();

  workloads::TruthRecorder truth("clash_workload", 0, 1);
  workloads::ProfApi prof(&truth);
  workloads::DeviceActions device(&truth);
  const workloads::Kernel kernel = workloads::RegisterKernel("_Z11tiny_kernelv");
  for (int step = 0; step < kSteps; ++step) {
    prof.BeginStep();
    for (int launch = 0; launch < kLaunchesPerStep; ++launch) {
      device.Launch(kernel, dim3(1), dim3(32), nullptr);
    }
    workloads::CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    if (runtimes.Answers() != answers) return 5;  // a runtime changed its mind mid-run
    prof.Step(1);
  }
  std::fputs(answers.c_str(), stdout);
  return truth.WriteFile(argv[3]) ? 0 : 1;
}
