// Per-thread runtime state: current device, last error, and identity for per-thread
// default streams.
#ifndef PROF_TESTDATA_SIM_CUDART_THREAD_CONTEXT_H_
#define PROF_TESTDATA_SIM_CUDART_THREAD_CONTEXT_H_

#include <cuda_runtime_api.h>

#include <cstdint>

namespace sim {

int CurrentDevice();
void SetCurrentDevice(int device);

// The error cudaGetLastError returns; cudaSuccess never overwrites it.
void RecordLastError(cudaError_t error);
cudaError_t PeekLastError();
cudaError_t TakeLastError();

// A small number unique to the calling thread, for keying its per-thread default streams.
uint64_t ThreadSerial();

// Ground truth of the calling thread's last directly enqueued device item.
struct LastItem {
  bool valid = false;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint32_t correlation_id = 0;
};
LastItem& ThreadLastItem();

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_THREAD_CONTEXT_H_
