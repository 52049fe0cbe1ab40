// The deterministic duration model. Every duration already includes SIM_TIME_SCALE.
//
// Kernels: a per-name base cost in [3 us, 60 us) drawn from hash(name, SIM_SEED), plus half
// the base for every extra "wave" of threads beyond what one H200 (132 SMs x 2048 resident
// threads) holds at once. Copies and memsets: a fixed latency plus bytes / bandwidth, with
// a bandwidth per copy direction.
#ifndef PROF_TESTDATA_SIM_CUDART_TIMING_MODEL_H_
#define PROF_TESTDATA_SIM_CUDART_TIMING_MODEL_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace sim {

uint64_t KernelDurationNs(const char* name, dim3 grid, dim3 block);
uint64_t CopyDurationNs(size_t bytes, cudaMemcpyKind kind);
uint64_t MemsetDurationNs(size_t bytes);

// Delay between enqueueing work on an idle stream and its start on the device.
uint64_t LaunchLatencyNs();

// Stable 64-bit hash of a string (FNV-1a), also used for kernel ids.
uint64_t HashName(const char* name);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_TIMING_MODEL_H_
