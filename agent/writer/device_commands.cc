// The writer's side of the device commands (SetDeviceEnabled, trace_writer.cc).
//
// Subscribing is where CUPTI's cost lies (dlopen, cuptiSubscribe, activity buffers): it runs
// here, never on a program thread, and is acknowledged through device_commands_done_. In a
// process that has not loaded CUDA yet, it is deferred to the first CUDA call, which asks
// again (cuda_presence.h); both the deferral and its cancellation happen here, in command
// order. A window that opened before the subscription (a READY step shorter than it, a
// stalled writer, ready=0, CUDA loaded late) lacks its earlier launches' device records:
// NoteLateDevice says so in its file.
//
// Thread safety: writer thread (or Shutdown's inline finish, when no writer thread exists).
#include "agent/control/log.h"
#include "agent/record/clock.h"
#include "agent/record/cuda_presence.h"
#include "agent/writer/trace_writer.h"

namespace prof {

void TraceWriter::RunDeviceCommand(bool enable) {
  if (enable && !device_enabled_ && device_) {
    if (!CudaLibraryLoaded()) {
      internal::g_device_deferred.store(true);
    } else {
      device_enabled_ = device_->Enable();
      if (device_enabled_) {
        device_subscribed_anchor_ = device_->Anchor("device activity subscribed");
        device_enabled_at_ns_ = MonotonicNs();
        for (const auto& window : windows_) {
          if (!window->closing()) NoteLateDevice(*window);
        }
      }
    }
  } else if (!enable) {
    internal::g_device_deferred.store(false);
    if (device_enabled_) {
      device_->Flush(true);
      device_->Drain(*this);
      device_->Disable();
      device_enabled_ = false;
    }
  }
  device_commands_done_.fetch_add(1, std::memory_order_release);
}

// A window that opened before the subscription (see step_controller.h on READY) has no
// device records for its launches before it: its file gets the anchor taken when the
// subscription took effect, so a reader knows from when device activity is whole, and the
// first such window of the process a warning.
void TraceWriter::NoteLateDevice(WindowFile& window) {
  if (!device_enabled_ || window.spec().open_ns >= device_enabled_at_ns_) return;
  window.encoder().AddClockAnchor(device_subscribed_anchor_);
  if (warned_late_device_) return;
  warned_late_device_ = true;
  // A schedule without a READY step asked for this: said at info level only.
  Log(config_.schedule.ready > 0 ? LogLevel::kWarn : LogLevel::kInfo,
      "device activity was subscribed %.1f ms after window %u opened; its "
      "launches before then have no device records (a longer READY step "
      "avoids this)",
      (device_enabled_at_ns_ - window.spec().open_ns) / 1e6, window.spec().index);
}

}  // namespace prof
