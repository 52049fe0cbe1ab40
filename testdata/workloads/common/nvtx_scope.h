// An NVTX push/pop range through the real NVTX v3 headers (so a tool loaded through
// NVTX_INJECTION64_PATH sees exactly what it sees in real programs; without one the
// calls are no-ops), recorded in the truth by name.
#pragma once

#include <nvtx3/nvToolsExt.h>

#include "testdata/workloads/common/truth_recorder.h"

namespace workloads {

class NvtxScope {
 public:
  NvtxScope(TruthRecorder* truth, const char* name) {
    truth->RecordNvtxRange(name);
    nvtxRangePushA(name);
  }
  ~NvtxScope() { nvtxRangePop(); }
  NvtxScope(const NvtxScope&) = delete;
  NvtxScope& operator=(const NvtxScope&) = delete;
};

}  // namespace workloads
