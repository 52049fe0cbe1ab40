// What the writer needs from a source of device activity (CUPTI), and the one thing the
// source gets from the writer: a window to put each converted event in. Both behind
// interfaces, in a target of their own below the writer and the CUPTI adapter
// (//agent/writer:device_source): the writer is tested without CUPTI, and the adapter adds
// events to a window without seeing the writer's files, their encoder or their bookkeeping. All
// methods are called from the writer thread.
#ifndef PROF_AGENT_WRITER_DEVICE_SOURCE_H_
#define PROF_AGENT_WRITER_DEVICE_SOURCE_H_

#include <cstdint>
#include <string_view>

#include "proto/events.h"
#include "proto/header_encoder.h"
#include "proto/schema_enums.h"

namespace prof {

// One window as a device source sees it: its events, the per-file names they refer to, its
// clock anchors and the device events it lost. (The writer's WindowFile.)
class DeviceWindow {
 public:
  virtual StringId InternString(std::string_view text) = 0;
  virtual KernelConfigId InternKernelConfig(const KernelConfigValue& config) = 0;
  virtual void AddKernel(const KernelEvent& kernel) = 0;
  virtual void AddMemcpy(const MemcpyEvent& copy) = 0;
  virtual void AddMemset(const MemsetEvent& memset) = 0;
  virtual void AddSynchronization(const SynchronizationEvent& sync) = 0;
  virtual void AddClockAnchor(const ClockAnchorValue& anchor) = 0;
  // A window with losses writes a file even if no event reached it, so the loss is shown.
  virtual void AddLoss(schema::LossKind kind, uint64_t count) = 0;

 protected:
  ~DeviceWindow() = default;  // owned and destroyed by the writer, never through this
};

// Chooses the window a device record belongs to.
class WindowRouter {
 public:
  virtual ~WindowRouter() = default;
  // The window whose API calls include `correlation_id`; else the one open at
  // `host_time_ns`; nullptr when the record must be discarded: no window is left, or it
  // was launched during the READY warm-up step before the window opened.
  virtual DeviceWindow* WindowFor(uint64_t correlation_id, uint64_t host_time_ns) = 0;
};

class DeviceActivitySource {
 public:
  virtual ~DeviceActivitySource() = default;
  // READY: subscribe and enable the activity kinds. Returns false (having logged one
  // warning) when device activity cannot be recorded; host tracing goes on.
  virtual bool Enable() = 0;
  // After the last window: unsubscribe so the program pays nothing more.
  virtual void Disable() = 0;
  // Asks for completed buffers; `forced` also returns incomplete ones (window end).
  virtual void Flush(bool forced) = 0;
  // Moves the records of completed buffers into windows; counts drops in them.
  virtual void Drain(WindowRouter& router) = 0;
  // A clock anchor pairing the host clock with the device-record clock.
  virtual ClockAnchorValue Anchor(const char* reason) = 0;
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_DEVICE_SOURCE_H_
