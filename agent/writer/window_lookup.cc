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

// A device record belongs to the window whose steps launched it. CUPTI is on from READY
// (a step early) and its buffers hold that work too, some of it still running when the
// window opens: correlation ids grow with every call, so an id below a window's first
// recorded call was launched before the window opened (READY or CLOSED steps), and is
// no window's, by design (not a loss). An id above every recorded call is either a call
// not drained yet (found by time) or made after the last window closed, while CUPTI was
// still on.
WindowFile* TraceWriter::WindowFor(uint64_t correlation_id, uint64_t host_time_ns) {
  if (windows_.empty()) return nullptr;
  if (correlation_id != 0) {
    const WindowFile* previous = nullptr;
    for (auto& window : windows_) {
      if (correlation_id <= window->max_correlation_id) {
        const bool continues_previous = previous && previous->continued;  // a split window
        if (correlation_id < window->min_correlation_id && !continues_previous) return nullptr;
        return window.get();
      }
      previous = window.get();
    }
    const WindowFile& last = *windows_.back();
    if (last.closing && !last.continued && host_time_ns > last.close_ns) return nullptr;
  }
  if (host_time_ns < windows_.front()->spec().open_ns) return nullptr;  // before any window
  return WindowAt(host_time_ns);
}

}  // namespace prof
