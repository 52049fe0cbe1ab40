// Copies, memsets, allocations and frees.
#include "agent/control/config.h"
#include "agent/hooks/cudart_hooks.h"
#include "proto/schema_enums.h"

namespace prof {
namespace {

// Asks the runtime that served the call: `runtime_function` (the real function the hook
// called) stands in as the caller, so its own runtime's cudaGetDevice is found.
template <typename Function>
const void* Address(Function function) {
  return reinterpret_cast<const void*>(function);
}

int CurrentDevice(const void* runtime_function) {
  ErrnoPreserved keep;  // runs after the real call: the caller sees that call's errno
  static RealSymbol symbol;
  const auto get_device =
      reinterpret_cast<decltype(&cudaGetDevice)>(symbol.For(runtime_function, "cudaGetDevice"));
  int device = 0;
  if (!get_device || get_device(&device) != cudaSuccess) return -1;
  return device;
}

// An allocation or free, as its own record beside the API call.
void RecordMemory(bool is_free, const void* address, size_t bytes, int device,
                  schema::MemoryKind kind, const void* stream, bool has_stream) {
  ErrnoPreserved keep;
  if (!Recording() || !ActivityEnabled(kActivityMemory) || !address) return;
  uint64_t frames[kMaxStackFrames];
  const int frame_count =
      !is_free && internal::g_stacks ? CaptureCallStack(frames, kMaxStackFrames) : 0;
  size_t size;
  MemoryRecord* record = BeginRecord<MemoryRecord>(nullptr, &size, frame_count * 8);
  if (!record) return;
  if (frame_count) AttachFrames(record, frames, frame_count);
  record->subkind = static_cast<uint8_t>(kind);
  record->flags |= is_free ? kRecordMemoryFree : 0;  // after AttachFrames (the stack bits)
  record->start_ns = record->end_ns = MonotonicNs();
  record->address = reinterpret_cast<uint64_t>(address);
  record->bytes = bytes;
  record->device = device;
  record->reserved0 = 0;
  record->stream_plus_one = has_stream ? StreamArgument(stream) : 0;
  CommitRecord(size);
}

ApiArguments Copy(size_t bytes, cudaMemcpyKind kind, const void* stream, bool has_stream) {
  ApiArguments arguments;
  arguments.bytes = bytes;
  arguments.copy_kind = static_cast<uint64_t>(kind) + 1;
  arguments.stream_plus_one = has_stream ? StreamArgument(stream) : 0;
  return arguments;
}

ApiArguments Fill(size_t bytes, const void* stream, bool has_stream) {
  ApiArguments arguments;
  arguments.bytes = bytes;
  arguments.stream_plus_one = has_stream ? StreamArgument(stream) : 0;
  return arguments;
}

}  // namespace
}  // namespace prof

using prof::HookIdle;
using prof::TimedApiCall;

PROF_EXPORT cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  PROF_REAL_CUDART(cudaMemcpy);
  if (HookIdle()) return real(dst, src, count, kind);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaMemcpy, prof::Copy(count, kind, nullptr, false),
                                   [&] { return real(dst, src, count, kind); });
}

PROF_EXPORT cudaError_t cudaMemcpy_ptds(void* dst, const void* src, size_t count,
                                        cudaMemcpyKind kind) {
  PROF_REAL_CUDART(cudaMemcpy_ptds);
  if (HookIdle()) return real(dst, src, count, kind);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaMemcpy_ptds,
                                   prof::Copy(count, kind, nullptr, false),
                                   [&] { return real(dst, src, count, kind); });
}

PROF_EXPORT cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count,
                                        cudaMemcpyKind kind, cudaStream_t stream) {
  PROF_REAL_CUDART(cudaMemcpyAsync);
  if (HookIdle()) return real(dst, src, count, kind, stream);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaMemcpyAsync,
                                   prof::Copy(count, kind, stream, true),
                                   [&] { return real(dst, src, count, kind, stream); });
}

PROF_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count,
                                             cudaMemcpyKind kind, cudaStream_t stream) {
  PROF_REAL_CUDART(cudaMemcpyAsync_ptsz);
  if (HookIdle()) return real(dst, src, count, kind, stream);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaMemcpyAsync_ptsz,
                                   prof::Copy(count, kind, stream, true),
                                   [&] { return real(dst, src, count, kind, stream); });
}

PROF_EXPORT cudaError_t cudaMemset(void* dst, int value, size_t count) {
  PROF_REAL_CUDART(cudaMemset);
  if (HookIdle()) return real(dst, value, count);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaMemset, prof::Fill(count, nullptr, false),
                                   [&] { return real(dst, value, count); });
}

PROF_EXPORT cudaError_t cudaMemset_ptds(void* dst, int value, size_t count) {
  PROF_REAL_CUDART(cudaMemset_ptds);
  if (HookIdle()) return real(dst, value, count);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaMemset_ptds, prof::Fill(count, nullptr, false),
                                   [&] { return real(dst, value, count); });
}

PROF_EXPORT cudaError_t cudaMemsetAsync(void* dst, int value, size_t count, cudaStream_t stream) {
  PROF_REAL_CUDART(cudaMemsetAsync);
  if (HookIdle()) return real(dst, value, count, stream);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaMemsetAsync, prof::Fill(count, stream, true),
                                   [&] { return real(dst, value, count, stream); });
}

PROF_EXPORT cudaError_t cudaMemsetAsync_ptsz(void* dst, int value, size_t count,
                                             cudaStream_t stream) {
  PROF_REAL_CUDART(cudaMemsetAsync_ptsz);
  if (HookIdle()) return real(dst, value, count, stream);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaMemsetAsync_ptsz, prof::Fill(count, stream, true),
                                   [&] { return real(dst, value, count, stream); });
}

PROF_EXPORT cudaError_t cudaMalloc(void** pointer, size_t size) {
  PROF_REAL_CUDART(cudaMalloc);
  if (HookIdle()) return real(pointer, size);
  const cudaError_t result = TimedApiCall<cudaError_t>(
      prof::kApi_cudaMalloc, prof::Fill(size, nullptr, false), [&] { return real(pointer, size); });
  if (result == cudaSuccess && pointer) {
    prof::RecordMemory(false, *pointer, size, prof::CurrentDevice(prof::Address(real)),
                       prof::schema::MEMORY_KIND_DEVICE, nullptr, false);
  }
  return result;
}

PROF_EXPORT cudaError_t cudaFree(void* pointer) {
  PROF_REAL_CUDART(cudaFree);
  if (HookIdle()) return real(pointer);
  prof::RecordMemory(true, pointer, 0, prof::CurrentDevice(prof::Address(real)),
                     prof::schema::MEMORY_KIND_DEVICE, nullptr, false);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaFree, prof::ApiArguments(),
                                   [&] { return real(pointer); });
}

PROF_EXPORT cudaError_t cudaMallocAsync(void** pointer, size_t size, cudaStream_t stream) {
  PROF_REAL_CUDART(cudaMallocAsync);
  if (HookIdle()) return real(pointer, size, stream);
  const cudaError_t result =
      TimedApiCall<cudaError_t>(prof::kApi_cudaMallocAsync, prof::Fill(size, stream, true),
                                [&] { return real(pointer, size, stream); });
  if (result == cudaSuccess && pointer) {
    prof::RecordMemory(false, *pointer, size, prof::CurrentDevice(prof::Address(real)),
                       prof::schema::MEMORY_KIND_DEVICE_POOL, stream, true);
  }
  return result;
}

PROF_EXPORT cudaError_t cudaFreeAsync(void* pointer, cudaStream_t stream) {
  PROF_REAL_CUDART(cudaFreeAsync);
  if (HookIdle()) return real(pointer, stream);
  prof::RecordMemory(true, pointer, 0, prof::CurrentDevice(prof::Address(real)),
                     prof::schema::MEMORY_KIND_DEVICE_POOL, stream, true);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaFreeAsync, prof::Fill(0, stream, true),
                                   [&] { return real(pointer, stream); });
}

PROF_EXPORT cudaError_t cudaMallocHost(void** pointer, size_t size) {
  PROF_REAL_CUDART(cudaMallocHost);
  if (HookIdle()) return real(pointer, size);
  const cudaError_t result =
      TimedApiCall<cudaError_t>(prof::kApi_cudaMallocHost, prof::Fill(size, nullptr, false),
                                [&] { return real(pointer, size); });
  if (result == cudaSuccess && pointer) {
    prof::RecordMemory(false, *pointer, size, -1, prof::schema::MEMORY_KIND_PINNED, nullptr, false);
  }
  return result;
}

PROF_EXPORT cudaError_t cudaHostAlloc(void** pointer, size_t size, unsigned int flags) {
  PROF_REAL_CUDART(cudaHostAlloc);
  if (HookIdle()) return real(pointer, size, flags);
  const cudaError_t result =
      TimedApiCall<cudaError_t>(prof::kApi_cudaHostAlloc, prof::Fill(size, nullptr, false),
                                [&] { return real(pointer, size, flags); });
  if (result == cudaSuccess && pointer) {
    prof::RecordMemory(false, *pointer, size, -1, prof::schema::MEMORY_KIND_PINNED, nullptr, false);
  }
  return result;
}

PROF_EXPORT cudaError_t cudaFreeHost(void* pointer) {
  PROF_REAL_CUDART(cudaFreeHost);
  if (HookIdle()) return real(pointer);
  prof::RecordMemory(true, pointer, 0, -1, prof::schema::MEMORY_KIND_PINNED, nullptr, false);
  return TimedApiCall<cudaError_t>(prof::kApi_cudaFreeHost, prof::ApiArguments(),
                                   [&] { return real(pointer); });
}
