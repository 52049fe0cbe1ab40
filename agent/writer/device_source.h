// What the writer needs from a source of device activity (CUPTI): turning it on and off,
// flushing, and draining completed records into the right window. Behind an interface so
// the writer is tested without CUPTI. All methods are called from the writer thread.
#ifndef PROF_AGENT_WRITER_DEVICE_SOURCE_H_
#define PROF_AGENT_WRITER_DEVICE_SOURCE_H_

#include <cstdint>

#include "agent/writer/window_file.h"
#include "proto/header_encoder.h"

namespace prof {

// Chooses the window a device record belongs to.
class WindowRouter {
 public:
  virtual ~WindowRouter() = default;
  // The window whose API calls include `correlation_id`; else the one open at
  // `host_time_ns`; nullptr when the record must be discarded: no window is left, or it
  // was launched during the READY warm-up step before the window opened.
  virtual WindowFile* WindowFor(uint64_t correlation_id, uint64_t host_time_ns) = 0;
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
