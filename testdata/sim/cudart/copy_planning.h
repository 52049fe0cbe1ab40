// Validates a copy or memset and describes it as a WorkItem: direction (inferred for
// cudaMemcpyDefault), memory kinds of both sides, and modeled duration.
#ifndef PROF_TESTDATA_SIM_CUDART_COPY_PLANNING_H_
#define PROF_TESTDATA_SIM_CUDART_COPY_PLANNING_H_

#include <cuda_runtime_api.h>

#include "testdata/sim/cudart/work_item.h"

namespace sim {

// Errors like the real runtime: cudaErrorInvalidMemcpyDirection for an unknown kind,
// cudaErrorInvalidValue for NULL pointers with count > 0 or a range that runs past the
// end of a runtime allocation.
cudaError_t PlanCopy(void* dst, const void* src, size_t count, cudaMemcpyKind kind, WorkItem* item);
cudaError_t PlanMemset(void* dst, int value, size_t count, WorkItem* item);

}  // namespace sim

#endif  // PROF_TESTDATA_SIM_CUDART_COPY_PLANNING_H_
