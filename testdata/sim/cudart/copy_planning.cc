#include "testdata/sim/cudart/copy_planning.h"

#include <cupti_activity.h>

#include <mutex>

#include "testdata/sim/cudart/runtime_state.h"
#include "testdata/sim/cudart/timing_model.h"

namespace sim {
namespace {

// No real buffer is this large; such a count is a negative size cast to size_t.
constexpr size_t kMaxPlausibleBytes = 1ull << 48;

struct Side {
  bool found = false;
  bool in_range = true;
  MemoryKind kind = MemoryKind::kPageable;
};

Side Describe(const RuntimeState& state, const void* pointer, size_t count) {
  Side side;
  uintptr_t base = 0;
  const Allocation* allocation = FindAllocation(state, pointer, &base);
  if (allocation == nullptr) return side;
  side.found = true;
  side.kind = allocation->kind;
  uintptr_t offset = reinterpret_cast<uintptr_t>(pointer) - base;
  side.in_range = offset + count <= allocation->size;
  return side;
}

bool IsDevice(MemoryKind kind) {
  return kind == MemoryKind::kDevice || kind == MemoryKind::kManaged;
}

cudaMemcpyKind InferKind(const Side& src, const Side& dst) {
  bool src_device = src.found && IsDevice(src.kind);
  bool dst_device = dst.found && IsDevice(dst.kind);
  if (src_device && dst_device) return cudaMemcpyDeviceToDevice;
  if (src_device) return cudaMemcpyDeviceToHost;
  if (dst_device) return cudaMemcpyHostToDevice;
  return cudaMemcpyHostToHost;
}

uint32_t CuptiCopyKind(cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToDevice: return CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    case cudaMemcpyDeviceToHost: return CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
    case cudaMemcpyDeviceToDevice: return CUPTI_ACTIVITY_MEMCPY_KIND_DTOD;
    case cudaMemcpyHostToHost: return CUPTI_ACTIVITY_MEMCPY_KIND_HTOH;
    default: return CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN;
  }
}

// The memory kind CUPTI reports for one side: the allocation's, else what the declared
// direction says that side is (an unknown pointer on the host side is pageable).
uint32_t ReportedKind(const Side& side, bool declared_device) {
  if (side.found) return static_cast<uint32_t>(side.kind);
  return static_cast<uint32_t>(declared_device ? MemoryKind::kDevice : MemoryKind::kPageable);
}

}  // namespace

cudaError_t PlanCopy(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                     WorkItem* item) {
  if (static_cast<int>(kind) < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) {
    return cudaErrorInvalidMemcpyDirection;
  }
  if (count == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr || count > kMaxPlausibleBytes) return cudaErrorInvalidValue;
  Side src_side;
  Side dst_side;
  {
    RuntimeState& state = State();
    std::lock_guard<std::mutex> lock(state.mutex);
    src_side = Describe(state, src, count);
    dst_side = Describe(state, dst, count);
  }
  if (!src_side.in_range || !dst_side.in_range) return cudaErrorInvalidValue;
  cudaMemcpyKind direction = kind == cudaMemcpyDefault ? InferKind(src_side, dst_side) : kind;
  item->kind = kSimWorkMemcpy;
  item->dst = dst;
  item->src = src;
  item->bytes = count;
  item->copy_kind = CuptiCopyKind(direction);
  item->src_kind = ReportedKind(
      src_side, direction == cudaMemcpyDeviceToHost || direction == cudaMemcpyDeviceToDevice);
  item->dst_kind = ReportedKind(
      dst_side, direction == cudaMemcpyHostToDevice || direction == cudaMemcpyDeviceToDevice);
  item->duration_ns = CopyDurationNs(count, direction);
  return cudaSuccess;
}

cudaError_t PlanMemset(void* dst, int value, size_t count, WorkItem* item) {
  if (count == 0) return cudaSuccess;
  if (dst == nullptr || count > kMaxPlausibleBytes) return cudaErrorInvalidValue;
  Side side;
  {
    RuntimeState& state = State();
    std::lock_guard<std::mutex> lock(state.mutex);
    side = Describe(state, dst, count);
  }
  if (!side.in_range) return cudaErrorInvalidValue;
  item->kind = kSimWorkMemset;
  item->dst = dst;
  item->bytes = count;
  item->memset_value = value;
  item->dst_kind = ReportedKind(side, /*declared_device=*/true);
  item->duration_ns = MemsetDurationNs(count);
  return cudaSuccess;
}

}  // namespace sim
