#include "testdata/sim/nccl/group_state.h"

#include <utility>
#include <vector>

#include "testdata/sim/nccl/group_engine.h"
#include "testdata/sim/nccl/last_error.h"

namespace simnccl {
namespace {

struct ThreadGroup {
  int depth = 0;
  std::vector<std::unique_ptr<PendingOp>> queued;
};

thread_local ThreadGroup thread_group;

}  // namespace

ncclResult_t SubmitOp(std::unique_ptr<PendingOp> op) {
  if (thread_group.depth > 0) {
    thread_group.queued.push_back(std::move(op));
    return ncclSuccess;
  }
  std::vector<std::unique_ptr<PendingOp>> single;
  single.push_back(std::move(op));
  return RunOpsToCompletion(std::move(single));
}

ncclResult_t BeginGroup() {
  ++thread_group.depth;
  return ncclSuccess;
}

ncclResult_t EndGroup() {
  if (thread_group.depth == 0) {
    SetThreadLastError("ncclGroupEnd without a matching ncclGroupStart");
    return ncclInvalidUsage;
  }
  if (--thread_group.depth > 0) return ncclSuccess;
  std::vector<std::unique_ptr<PendingOp>> ops = std::move(thread_group.queued);
  thread_group.queued.clear();
  return RunOpsToCompletion(std::move(ops));
}

}  // namespace simnccl
