// errno across every kind of agent entry point, for the agent's errno test: before each
// call the program sets errno to a value no call here sets, and checks it afterwards. The
// simulated runtime, NVTX and the C API never set errno themselves, so any change is the
// agent's (a session start, /proc reads, dlsym, a buffer allocation, a window boundary).
// Prints each changed call and exits 1 if there was one.
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <errno.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <thread>

#include "sim/sim_ext.h"

namespace {

constexpr int kMarker = 12345;  // not an errno value any library call sets
int g_changed = 0;
int g_calls = 0;

void Check(const char* what, const std::function<void()>& call) {
  errno = kMarker;
  call();
  ++g_calls;
  if (errno != kMarker) {
    std::printf("errno changed by %s: %d\n", what, errno);
    ++g_changed;
  }
}

template <typename Function>
Function CApi(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_DEFAULT, name));
}

void OneStep(const void* kernel, void* device, void* host, int step) {
  static auto step_function = CApi<void (*)(int64_t)>("prof_step");
  static auto push = CApi<void (*)(const char*)>("prof_range_push");
  static auto pop = CApi<void (*)()>("prof_range_pop");
  static auto mark = CApi<void (*)(const char*)>("prof_mark");
  static auto push_detail = CApi<void (*)(const char*, const char*, const char*, const char*)>(
      "prof_operator_push_detail");
  static auto operator_pop = CApi<void (*)()>("prof_operator_pop");
  static auto operator_range =
      CApi<void (*)(const char*, uint64_t, uint64_t)>("prof_operator_range");
  static auto operator_ranges =
      CApi<void (*)(size_t, const char* const*, const uint64_t*, const uint64_t*)>(
          "prof_operator_ranges");
  static auto phase_range = CApi<void (*)(const char*, uint64_t, uint64_t)>("prof_phase_range");
  static auto user_range = CApi<void (*)(const char*, uint64_t, uint64_t)>("prof_user_range");
  static auto recording = CApi<int (*)()>("prof_recording");
  static auto goes_on = CApi<int (*)(int)>("prof_window_goes_on");
  static auto range_detail =
      CApi<void (*)(const char*, uint64_t, uint64_t, const char*, const char*, const char*)>(
          "prof_operator_range_detail");
  static auto observer_start = CApi<int (*)(int)>("prof_torch_observer_start");
  static auto observer_stop = CApi<int (*)()>("prof_torch_observer_stop");
  Check("nvtxRangePushA", [] { nvtxRangePushA("Forward"); });
  Check("cudaLaunchKernel",
        [&] { cudaLaunchKernel(kernel, dim3(2), dim3(64), nullptr, 0, nullptr); });
  Check("cudaMemcpy", [&] { cudaMemcpy(host, device, 256, cudaMemcpyDeviceToHost); });
  Check("cudaMemsetAsync", [&] { cudaMemsetAsync(device, 0, 256, nullptr); });
  Check("nvtxMarkA", [] { nvtxMarkA("mark"); });
  Check("nvtxRangePop", [] { nvtxRangePop(); });
  if (push) Check("prof_range_push", [&] { push("user"); });
  if (pop) Check("prof_range_pop", [&] { pop(); });
  if (mark) Check("prof_mark", [&] { mark("user mark"); });
  if (push_detail) {
    Check("prof_operator_push_detail",
          [&] { push_detail("aten::bmm", "[[1, 2, 3], [1, 3, 4]]", "", "e.py:1"); });
  }
  if (operator_pop) Check("prof_operator_pop", [&] { operator_pop(); });
  if (operator_range) Check("prof_operator_range", [&] { operator_range("aten::mm", 1000, 2000); });
  if (operator_ranges) {
    static const char* const kNames[] = {"aten::relu", "aten::t"};
    static const uint64_t kStarts[] = {1000, 1100};
    static const uint64_t kEnds[] = {2000, 1200};
    Check("prof_operator_ranges", [&] { operator_ranges(2, kNames, kStarts, kEnds); });
  }
  if (phase_range) Check("prof_phase_range", [&] { phase_range("whole_phase", 1000, 3000); });
  if (user_range)
    Check("prof_user_range", [&] { user_range("Optimizer.step#SGD.step", 1000, 3000); });
  if (recording) Check("prof_recording", [&] { recording(); });
  if (goes_on) Check("prof_window_goes_on", [&] { goes_on(-1); });
  if (range_detail) {
    Check("prof_operator_range_detail",
          [&] { range_detail("aten::addmm", 1000, 2000, "[[4], [2, 3], [3, 4]]", "", "e.py:2"); });
  }
  // No libtorch_cpu here: the search of the loaded objects and its refusal keep errno too.
  if (observer_start) Check("prof_torch_observer_start", [&] { observer_start(10); });
  if (observer_stop) Check("prof_torch_observer_stop", [&] { observer_stop(); });
  Check("cudaDeviceSynchronize", [] { cudaDeviceSynchronize(); });
  if (step_function) Check("prof_step", [&] { step_function(step); });
}

}  // namespace

int main() {
  const void* kernel = simRegisterKernel("errno_kernel");
  void* device = nullptr;
  char host[256];
  Check("cudaMalloc (the first call)", [&] { cudaMalloc(&device, 4096); });
  for (int step = 0; step < 8; ++step) OneStep(kernel, device, host, step);
  std::thread([&] {  // a new thread's first record allocates its buffer
    Check("cudaLaunchKernel (a new thread's first)",
          [&] { cudaLaunchKernel(kernel, dim3(1), dim3(32), nullptr, 0, nullptr); });
  })
      .join();
  Check("cudaFree", [&] { cudaFree(device); });
  std::printf("%d calls, %d changed errno\n", g_calls, g_changed);
  return g_changed == 0 ? 0 : 1;
}
