// The per-caller resolver against the counting runtimes (testdata/counting_runtime): two
// versioned copies, A and B (B reached through runtime_b_user.so), both opened RTLD_LOCAL
// here. Expected definitions come from dlsym on each copy's own handle, which no resolver
// is involved in.
#include "agent/hooks/symbol_resolver.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "agent/hooks/loaded_objects.h"
#include "agent/hooks/symbol_version.h"

// Counts every dlopen of the process (the resolver's included), to see which lookups
// search the loaded objects and which are answered from the cache.
std::atomic<int> g_dlopen_calls{0};

extern "C" void* dlopen(const char* file, int mode) {
  using Dlopen = void* (*)(const char*, int);
  static const auto real = reinterpret_cast<Dlopen>(dlsym(RTLD_NEXT, "dlopen"));
  g_dlopen_calls++;
  return real(file, mode);
}

namespace prof {
namespace {

std::string Runfile(const std::string& path) {
  const char* root = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return std::string(root ? root : ".") + "/" + (workspace ? workspace : "prof") + "/" + path;
}

void* OpenLocal(const char* name) {
  void* handle = dlopen(Runfile(std::string("testdata/counting_runtime/") + name).c_str(),
                        RTLD_NOW | RTLD_LOCAL);
  INFO(dlerror());
  REQUIRE(handle);
  return handle;
}

void* RuntimeA() {
  static void* handle = OpenLocal("libcounting_runtime_a.so");
  return handle;
}

void* UserOfB() {
  static void* handle = OpenLocal("runtime_b_user.so");
  return handle;
}

void* RuntimeB() {
  UserOfB();
  return dlopen("libcounting_runtime_b.so", RTLD_NOW | RTLD_NOLOAD);
}

std::string Version(const void* address_inside, const char* name) {
  LoadedObject object;
  if (!FindObjectHolding(reinterpret_cast<uintptr_t>(address_inside), &object)) return "?";
  char version[128];
  BoundVersion(object, name, version, sizeof version);
  return version;
}

void LocalFunction() {}

// First, before any counting runtime is loaded.
TEST_CASE("a name nothing defines is searched again only once more objects are loaded") {
  RealSymbol symbol;
  const char* const name = "countingRuntimeCounts";
  const void* caller = reinterpret_cast<const void*>(&LocalFunction);
  int before = g_dlopen_calls.load();
  CHECK(symbol.For(caller, name) == nullptr);
  CHECK(g_dlopen_calls.load() > before);  // searched the loaded objects
  before = g_dlopen_calls.load();
  CHECK(symbol.For(caller, name) == nullptr);
  CHECK(symbol.For(caller, name) == nullptr);
  CHECK(g_dlopen_calls.load() == before);  // answered from the cache
  void* runtime = RuntimeA();
  CHECK(symbol.For(caller, name) == dlsym(runtime, "countingRuntimeCounts"));
}

TEST_CASE("the version an object binds a name with") {
  const void* in_a = dlsym(RuntimeA(), "countingRuntimeCounts");
  const void* in_b_user = dlsym(UserOfB(), "UseRuntime");
  REQUIRE(in_a);
  REQUIRE(in_b_user);
  CHECK(Version(in_a, "cudaLaunchKernel") == "COUNTING_RUNTIME_A");       // its definition
  CHECK(Version(in_b_user, "cudaLaunchKernel") == "COUNTING_RUNTIME_B");  // its reference
  CHECK(Version(in_b_user, "ncclAllReduce") == "COUNTING_RUNTIME_B");
  CHECK(Version(in_a, "no_such_name").empty());
  CHECK(Version(reinterpret_cast<const void*>(&LocalFunction), "dlerror").rfind("GLIBC_", 0) == 0);
}

TEST_CASE("each caller reaches the copy in its own scope, from many threads at once") {
  void* runtime_a = RuntimeA();
  void* runtime_b = RuntimeB();
  REQUIRE(runtime_b);
  void* const expected_a = dlsym(runtime_a, "cudaLaunchKernel");
  void* const expected_b = dlsym(runtime_b, "cudaLaunchKernel");
  REQUIRE(expected_a != expected_b);
  const void* in_a = dlsym(runtime_a, "countingRuntimeCounts");
  const void* in_b_user = dlsym(UserOfB(), "UseRuntime");
  RealSymbol symbol;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) {
        const bool from_a = (i + t) % 2 == 0;
        void* found = symbol.For(from_a ? in_a : in_b_user, "cudaLaunchKernel");
        if (found != (from_a ? expected_a : expected_b)) wrong++;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong.load() == 0);
}

}  // namespace
}  // namespace prof
