// PROF_STEP_MARKER kernel rules: a kernel matches whether it was registered before or after
// the globs were set (DT_NEEDED libraries register theirs before libprof's constructor),
// aliases follow their kernel, and the launch path's lookup is safe against concurrent
// registrations (the lock-free table's contract: an entry, once inserted, is seen by every
// later lookup; nothing is ever seen that was not inserted).
#include "agent/record/kernel_names.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace prof {
namespace {

// Distinct addresses to stand for host stubs (never called).
char g_stubs[8192];
const void* Stub(int i) { return &g_stubs[i]; }

TEST_CASE("kernel rules: registered before or after the globs, aliases included") {
  RegisterKernelName(Stub(0), "optimizer_step_kernel");  // before: a DT_NEEDED library
  RegisterKernelName(Stub(1), "forward_kernel");
  RegisterKernelAlias(Stub(2), Stub(0));     // a cudaKernel_t of the early kernel
  CHECK_FALSE(IsStepMarkerKernel(Stub(0)));  // no rule yet
  SetStepMarkerKernelGlobs({"optimizer_*", "*_end"});
  CHECK(IsStepMarkerKernel(Stub(0)));
  CHECK(IsStepMarkerKernel(Stub(2)));
  CHECK_FALSE(IsStepMarkerKernel(Stub(1)));
  RegisterKernelName(Stub(3), "loop_end");  // after: a module loaded later
  RegisterKernelName(Stub(4), "backward_kernel");
  RegisterKernelAlias(Stub(5), Stub(3));
  CHECK(IsStepMarkerKernel(Stub(3)));
  CHECK(IsStepMarkerKernel(Stub(5)));
  CHECK_FALSE(IsStepMarkerKernel(Stub(4)));
  CHECK_FALSE(IsStepMarkerKernel(Stub(6)));  // never registered
  CHECK_FALSE(IsStepMarkerKernel(nullptr));
  CHECK(KernelNameOf(Stub(2)) == "optimizer_step_kernel");
}

TEST_CASE("kernel rules: lookups race registrations safely") {
  SetStepMarkerKernelGlobs({"marker_*"});
  constexpr int kRegistrars = 3;
  constexpr int kPerRegistrar = 300;  // 900 kernels, every other one a marker
  std::atomic<int> registered[kRegistrars];
  for (auto& count : registered) count.store(0);
  std::atomic<bool> done{false};
  std::atomic<int> wrong{0};
  auto stub = [](int registrar, int i) { return Stub(100 + registrar * kPerRegistrar + i); };
  std::vector<std::thread> threads;
  for (int r = 0; r < kRegistrars; ++r) {
    threads.emplace_back([&, r] {
      for (int i = 0; i < kPerRegistrar; ++i) {
        const std::string name = (i % 2 ? "other_" : "marker_") + std::to_string(r * 1000 + i);
        RegisterKernelName(stub(r, i), name.c_str());
        // The registering thread sees its marker at once.
        if (IsStepMarkerKernel(stub(r, i)) != (i % 2 == 0)) wrong.fetch_add(1);
        registered[r].store(i + 1, std::memory_order_release);
      }
    });
  }
  for (int l = 0; l < 2; ++l) {
    threads.emplace_back([&] {
      while (!done.load()) {
        for (int r = 0; r < kRegistrars; ++r) {
          const int upto = registered[r].load(std::memory_order_acquire);
          // Every registration completed before this load is seen; non-markers never are.
          for (int i = 0; i < upto; ++i) {
            if (IsStepMarkerKernel(stub(r, i)) != (i % 2 == 0)) wrong.fetch_add(1);
          }
          for (int i = upto; i < kPerRegistrar; ++i) {
            if (i % 2 && IsStepMarkerKernel(stub(r, i))) wrong.fetch_add(1);
          }
        }
      }
    });
  }
  for (int r = 0; r < kRegistrars; ++r) threads[r].join();
  done.store(true);
  for (size_t t = kRegistrars; t < threads.size(); ++t) threads[t].join();
  CHECK(wrong.load() == 0);
}

TEST_CASE("kernel rules: a full table keeps its markers and refuses new ones") {
  SetStepMarkerKernelGlobs({"full_*"});
  int accepted = 0;
  for (int i = 0; i < kMaxStepMarkerKernels + 10; ++i) {
    const std::string name = "full_" + std::to_string(i);
    RegisterKernelName(Stub(2000 + i), name.c_str());
    if (IsStepMarkerKernel(Stub(2000 + i))) ++accepted;
  }
  // Earlier tests' markers share the table; it never holds more than its limit.
  CHECK(accepted > 0);
  CHECK(accepted <= kMaxStepMarkerKernels);
  CHECK(StepMarkerKernelCount() == kMaxStepMarkerKernels);
  CHECK(IsStepMarkerKernel(Stub(2000)));  // what got in stays in
  CHECK_FALSE(IsStepMarkerKernel(Stub(2000 + kMaxStepMarkerKernels + 9)));
}

}  // namespace
}  // namespace prof
