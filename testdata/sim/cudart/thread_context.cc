#include "testdata/sim/cudart/thread_context.h"

#include <atomic>

namespace sim {
namespace {

thread_local int current_device = 0;
thread_local cudaError_t last_error = cudaSuccess;
thread_local uint64_t thread_serial = 0;
thread_local LastItem last_item;
std::atomic<uint64_t> next_thread_serial{1};

}  // namespace

int CurrentDevice() { return current_device; }
void SetCurrentDevice(int device) { current_device = device; }

void RecordLastError(cudaError_t error) {
  if (error != cudaSuccess) last_error = error;
}
cudaError_t PeekLastError() { return last_error; }
cudaError_t TakeLastError() {
  cudaError_t error = last_error;
  last_error = cudaSuccess;
  return error;
}

uint64_t ThreadSerial() {
  if (thread_serial == 0) thread_serial = next_thread_serial.fetch_add(1);
  return thread_serial;
}

LastItem& ThreadLastItem() { return last_item; }

}  // namespace sim
