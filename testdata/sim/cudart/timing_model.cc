#include "testdata/sim/cudart/timing_model.h"

#include <cmath>

#include "testdata/sim/cudart/config.h"

namespace sim {
namespace {

constexpr uint64_t kKernelBaseMinNs = 3000;
constexpr uint64_t kKernelBaseSpanNs = 57000;
constexpr uint64_t kResidentThreads = 132ull * 2048ull;
constexpr uint64_t kMaxWaves = 100000;
constexpr uint64_t kCopyLatencyNs = 1500;
constexpr uint64_t kMemsetLatencyNs = 1000;
constexpr uint64_t kLaunchLatencyNs = 1000;

// Bytes per nanosecond == GB/s.
double CopyBandwidth(cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToDevice: return 25.0;
    case cudaMemcpyDeviceToHost: return 22.0;
    case cudaMemcpyDeviceToDevice: return 1500.0;
    case cudaMemcpyHostToHost: return 10.0;
    default: return 20.0;
  }
}
constexpr double kMemsetBandwidth = 2500.0;

uint64_t Mix(uint64_t value) {  // splitmix64 finalizer: spreads nearby seeds apart
  value += 0x9e3779b97f4a7c15ull;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
  return value ^ (value >> 31);
}

uint64_t Scaled(double ns) { return static_cast<uint64_t>(std::llround(ns * Config().time_scale)); }

}  // namespace

uint64_t HashName(const char* name) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const char* c = name; c != nullptr && *c != '\0'; ++c) {
    hash = (hash ^ static_cast<unsigned char>(*c)) * 0x100000001b3ull;
  }
  return hash;
}

uint64_t KernelDurationNs(const char* name, dim3 grid, dim3 block) {
  uint64_t base = kKernelBaseMinNs + Mix(HashName(name) ^ Mix(Config().seed)) % kKernelBaseSpanNs;
  uint64_t threads = static_cast<uint64_t>(grid.x) * grid.y * grid.z *
                     (static_cast<uint64_t>(block.x) * block.y * block.z);
  uint64_t waves = threads == 0 ? 1 : (threads + kResidentThreads - 1) / kResidentThreads;
  if (waves > kMaxWaves) waves = kMaxWaves;
  return Scaled(static_cast<double>(base) + static_cast<double>(base / 2) * (waves - 1));
}

uint64_t CopyDurationNs(size_t bytes, cudaMemcpyKind kind) {
  return Scaled(kCopyLatencyNs + static_cast<double>(bytes) / CopyBandwidth(kind));
}

uint64_t MemsetDurationNs(size_t bytes) {
  return Scaled(kMemsetLatencyNs + static_cast<double>(bytes) / kMemsetBandwidth);
}

uint64_t LaunchLatencyNs() { return Scaled(kLaunchLatencyNs); }

}  // namespace sim
