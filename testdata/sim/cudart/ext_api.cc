// The simulator-only extension API (testdata/sim/include/sim/sim_ext.h) and the stream
// lookup the simulated CUPTI uses.
#include <dlfcn.h>
#include "sim/sim_ext.h"

#include <cupti_driver_cbid.h>

#include <mutex>

#include "testdata/sim/bridge/sim_bridge.h"
#include "testdata/sim/cudart/api_call.h"
#include "testdata/sim/cudart/clock.h"
#include "testdata/sim/cudart/config.h"
#include "testdata/sim/cudart/export.h"
#include "testdata/sim/cudart/kernel_launch.h"
#include "testdata/sim/cudart/kernel_registry.h"
#include "testdata/sim/cudart/runtime_state.h"
#include "testdata/sim/cudart/scheduler.h"
#include "testdata/sim/cudart/thread_context.h"
#include "testdata/sim/cudart/timing_model.h"

namespace {

// Reads one field of a stream under the lock; `fallback` for unknown streams.
template <typename Field>
auto ReadStream(cudaStream_t handle, Field field, decltype(field(sim::Stream())) fallback) {
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  sim::Stream* stream = sim::ResolveStream(state, handle, sim::NullStream::kLegacy);
  return stream == nullptr ? fallback : field(*stream);
}

}  // namespace

SIM_EXPORT uint64_t simNowNs(void) { return sim::MonotonicNowNs(); }

// Reported as the driver's cuLaunchKernel, never as a runtime call: that is how a library
// with a statically linked cudart (NCCL) looks to CUPTI.
SIM_EXPORT cudaError_t simLaunchNamedKernel(const char* name, dim3 grid, dim3 block,
                                            size_t dynamic_shared_memory, cudaStream_t stream,
                                            uint64_t duration_ns, uint64_t not_before_ns) {
  bool named = name != nullptr && *name != '\0';
  const char* interned = named ? sim::InternName(name) : nullptr;
  sim::ApiCall call(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel", nullptr, interned,
                    kSimDomainDriver);
  if (!named || !sim::ValidLaunchConfiguration(grid, block)) {
    return call.Return(cudaErrorInvalidValue);
  }
  sim::WorkItem item;
  item.kind = kSimWorkKernel;
  item.name = interned;
  item.grid = grid;
  item.block = block;
  item.dynamic_shared_memory = dynamic_shared_memory;
  item.duration_ns = duration_ns == SIM_DURATION_FROM_MODEL
                         ? sim::KernelDurationNs(interned, grid, block)
                         : duration_ns;
  return call.Return(sim::EnqueueWork(stream, sim::NullStream::kLegacy, item, call.correlation_id(),
                                      not_before_ns));
}

SIM_EXPORT uint64_t simStreamReadyTimeNs(cudaStream_t stream) {
  return ReadStream(
      stream, [](const sim::Stream& s) { return s.tail_ns; }, uint64_t{0});
}

SIM_EXPORT uint32_t simStreamId(cudaStream_t stream) {
  return ReadStream(
      stream, [](const sim::Stream& s) { return s.id; }, uint32_t{0});
}

SIM_EXPORT uint64_t simKernelDurationNs(const char* name, dim3 grid, dim3 block) {
  return sim::KernelDurationNs(name, grid, block);
}

SIM_EXPORT uint64_t simCopyDurationNs(size_t bytes, enum cudaMemcpyKind kind) {
  return sim::CopyDurationNs(bytes, kind);
}

SIM_EXPORT uint64_t simMemsetDurationNs(size_t bytes) { return sim::MemsetDurationNs(bytes); }

SIM_EXPORT double simTimeScale(void) { return sim::Config().time_scale; }

SIM_EXPORT uint64_t simSeed(void) { return sim::Config().seed; }

SIM_EXPORT const void* simRegisterKernel(const char* name) {
  const void* stub = sim::RegisterNamedKernel(name);
  if (stub == nullptr) return nullptr;
  // Announce the kernel the way nvcc-generated code does: through the dynamic symbol
  // __cudaRegisterFunction, so a preloaded profiler sees the registration (and learns the
  // name) exactly as it would in a real program. Registering again here is idempotent.
  using RegisterFunction =
      void (*)(void**, const char*, char*, const char*, int, uint3*, uint3*, dim3*, dim3*, int*);
  static const auto announce =
      reinterpret_cast<RegisterFunction>(dlsym(RTLD_DEFAULT, "__cudaRegisterFunction"));
  if (announce != nullptr) {
    announce(nullptr, static_cast<const char*>(stub), const_cast<char*>(name), name, -1, nullptr,
             nullptr, nullptr, nullptr, nullptr);
  }
  return stub;
}

SIM_EXPORT int simLastEnqueuedItem(uint64_t* start_ns, uint64_t* end_ns, uint32_t* correlation_id) {
  const sim::LastItem& item = sim::ThreadLastItem();
  if (!item.valid) return -1;
  if (start_ns != nullptr) *start_ns = item.start_ns;
  if (end_ns != nullptr) *end_ns = item.end_ns;
  if (correlation_id != nullptr) *correlation_id = item.correlation_id;
  return 0;
}

SIM_EXPORT int simInternalStreamInfo(const void* stream, uint32_t* stream_id, uint32_t* device,
                                     uint32_t* context_id) {
  sim::RuntimeState& state = sim::State();
  std::lock_guard<std::mutex> lock(state.mutex);
  sim::Stream* found = sim::ResolveStream(
      state, static_cast<cudaStream_t>(const_cast<void*>(stream)), sim::NullStream::kLegacy);
  if (found == nullptr) return -1;
  if (stream_id != nullptr) *stream_id = found->id;
  if (device != nullptr) *device = static_cast<uint32_t>(found->device);
  if (context_id != nullptr)
    *context_id = sim::ContextIdForDevice(static_cast<uint32_t>(found->device));
  return 0;
}
