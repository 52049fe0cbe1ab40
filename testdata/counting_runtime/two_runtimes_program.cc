// Three copies of a (counting) CUDA runtime in one process, each with its own callers:
//   A  linked by this program (global scope);
//   B  linked by runtime_b_user.so, which is opened with dlopen(RTLD_LOCAL) (argv[1]);
//   S  contained in and exported by static_exporter.so, also RTLD_LOCAL (argv[2]).
// Two threads per caller run that caller's calls at once (concurrent first calls). Then
// every copy's counters must show exactly its own caller's calls, as they do without an
// interposer (the test runs this program both ways). Exit 0 when they do.
//   two_runtimes_program <runtime_b_user.so> <static_exporter.so> [device queries]
// The optional count is the cudaGetDevice calls each copy must see per thread (0: none,
// as without an agent; an agent that records allocations asks once per malloc and free).
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "testdata/counting_runtime/counting_runtime.h"

extern "C" int UseRuntime(const char* name_one, const char* name_two, int launches);

namespace {

using UseFunction = int (*)(const char*, const char*, int);
constexpr int kThreadsPerCaller = 2;

struct Caller {
  const char* label;
  void* handle;  // where its runtime copy's counters are looked up
  UseFunction use;
  const char* names[2];
  int launches;  // per thread and kernel
};

const CountingRuntimeCounts* CountsOf(void* handle) {
  auto counts = reinterpret_cast<CountingRuntimeCountsFunction>(
      dlsym(handle, COUNTING_RUNTIME_COUNTS_SYMBOL));
  return counts ? counts() : nullptr;
}

// Each caller's library registers 1 kernel when it is loaded; each thread registers the
// caller's 2 kernels, launches each `launches` times, and makes
// one malloc, free, all-reduce and synchronize (runtime_user.cc).
bool CheckCounts(const Caller& caller, int device_queries) {
  const CountingRuntimeCounts* counts = CountsOf(caller.handle);
  if (!counts) {
    std::fprintf(stderr, "%s: no counters\n", caller.label);
    return false;
  }
  const int threads = kThreadsPerCaller;
  std::printf(
      "%s: registrations %d launches %d foreign %d mallocs %d frees %d all_reduces %d "
      "synchronizes %d device_queries %d\n",
      caller.label, counts->registrations, counts->launches, counts->foreign_launches,
      counts->mallocs, counts->frees, counts->all_reduces, counts->synchronizes,
      counts->device_queries);
  return counts->registrations == 1 + 2 * threads &&
         counts->launches == 2 * threads * caller.launches && counts->foreign_launches == 0 &&
         counts->mallocs == threads && counts->frees == threads && counts->all_reduces == threads &&
         counts->synchronizes == threads && counts->device_queries == threads * device_queries;
}

void* Open(const char* path) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) std::fprintf(stderr, "%s\n", dlerror());
  return handle;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  void* b_user = Open(argv[1]);
  void* exporter = Open(argv[2]);
  void* runtime_a = dlopen("libcounting_runtime_a.so", RTLD_NOW | RTLD_NOLOAD);
  void* runtime_b = dlopen("libcounting_runtime_b.so", RTLD_NOW | RTLD_NOLOAD);
  if (!b_user || !exporter || !runtime_a || !runtime_b) return 3;
  const Caller callers[] = {
      {"A", runtime_a, &UseRuntime, {"a_one", "a_two"}, 3},
      {"B",
       runtime_b,
       reinterpret_cast<UseFunction>(dlsym(b_user, "UseRuntime")),
       {"b_one", "b_two"},
       5},
      {"S",
       exporter,
       reinterpret_cast<UseFunction>(dlsym(exporter, "UseRuntime")),
       {"s_one", "s_two"},
       7},
  };
  std::vector<std::thread> threads;
  std::vector<int> failures(3 * kThreadsPerCaller, 0);
  for (int t = 0; t < kThreadsPerCaller; ++t) {
    for (int c = 0; c < 3; ++c) {
      const Caller& caller = callers[c];
      if (!caller.use) return 4;
      int* failed = &failures[t * 3 + c];
      threads.emplace_back([&caller, failed] {
        *failed = caller.use(caller.names[0], caller.names[1], caller.launches);
      });
    }
  }
  for (std::thread& thread : threads) thread.join();
  bool ok = true;
  for (int failed : failures) ok = ok && failed == 0;
  if (!ok) std::printf("some calls failed\n");
  const int device_queries = argc > 3 ? std::atoi(argv[3]) : 0;
  for (const Caller& caller : callers) ok = CheckCounts(caller, device_queries) && ok;
  std::printf("%s\n", ok ? "each runtime saw exactly its own calls" : "MISMATCH");
  return ok ? 0 : 1;
}
