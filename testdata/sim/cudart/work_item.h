// One unit of device work as the scheduler sees it: enough to time it, to report it to
// CUPTI and, for graph nodes, to replay its effect on memory.
#ifndef PROF_TESTDATA_SIM_CUDART_WORK_ITEM_H_
#define PROF_TESTDATA_SIM_CUDART_WORK_ITEM_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "testdata/sim/bridge/sim_bridge.h"

namespace sim {

struct WorkItem {
  SimDeviceWorkKind kind = kSimWorkKernel;
  uint64_t duration_ns = 0;
  bool is_async = true;      // reported to CUPTI (MEMCPY_ASYNC / MEMSET_ASYNC flag)
  bool blocks_host = false;  // the call waits for it (illegal while capturing)
  // Kernels.
  const char* name = nullptr;  // interned, never freed
  dim3 grid;
  dim3 block;
  size_t dynamic_shared_memory = 0;
  // Copies and memsets: the effect, applied when the item is enqueued or replayed.
  void* dst = nullptr;
  const void* src = nullptr;
  size_t bytes = 0;
  int memset_value = 0;
  uint32_t copy_kind = 0;  // CUPTI_ACTIVITY_MEMCPY_KIND_*
  uint32_t src_kind = 0;   // CUPTI_ACTIVITY_MEMORY_KIND_*
  uint32_t dst_kind = 0;
};

// Moves the bytes of a copy or memset item (kernels have no modeled effect).
void ApplyMemoryEffect(const WorkItem& item);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_WORK_ITEM_H_
