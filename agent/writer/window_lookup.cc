// Which open window a record belongs to: host records by their start time (WindowAt),
// device records by their API call's correlation id (WindowFor, the WindowRouter the
// device source calls), and the converter's lookups by index (WindowByIndex).
//
// Thread safety: writer thread (or Shutdown's inline finish, when no writer thread exists).
#include "agent/writer/trace_writer.h"

namespace prof {

WindowFile* TraceWriter::WindowAt(uint64_t host_time_ns) {
  if (windows_.empty()) return nullptr;
  for (auto it = windows_.rbegin(); it != windows_.rend(); ++it) {
    if ((*it)->spec().open_ns <= host_time_ns) return it->get();
  }
  return windows_.front().get();
}

WindowFile* TraceWriter::WindowByIndex(uint32_t index) {
  for (auto& window : windows_) {
    if (window->spec().index == index) return window.get();
  }
  return nullptr;
}

WindowFile* TraceWriter::WindowFor(uint64_t correlation_id, uint64_t host_time_ns) {
  if (correlation_id != 0 && !windows_.empty()) {
    // Launched before the first window's first recorded call: READY-step warm-up activity,
    // discarded by design (CUPTI is subscribed a step early so the window starts warm).
    const WindowFile& first = *windows_.front();
    if (first.min_correlation_id != 0 && correlation_id < first.min_correlation_id &&
        host_time_ns < first.spec().open_ns) {
      return nullptr;
    }
    for (auto& window : windows_) {
      if (correlation_id <= window->max_correlation_id) return window.get();
    }
    // Launched after the last window closed, while CUPTI was still subscribed (the writer
    // unsubscribes when it handles the command, some time after the step boundary).
    const WindowFile& last = *windows_.back();
    if (last.closing && !last.continued && host_time_ns > last.close_ns) return nullptr;
  }
  return WindowAt(host_time_ns);
}

}  // namespace prof
