#include "agent/writer/host_losses.h"

#include "agent/record/buffer_registry.h"
#include "agent/record/step_losses.h"

namespace prof {

void ReportHostLosses(ThreadBuffer* buffer, WindowFile& window) {
  auto report = [&window](int32_t kind, int64_t step, uint64_t count) {
    window.AddLoss(static_cast<schema::LossKind>(kind), count, step);
  };
  if (buffer) {
    buffer->TakeLosses(report);
    return;
  }
  TakeThreadLimitDrops(report);
  TakeDisplacedLosses(report);
}

}  // namespace prof
