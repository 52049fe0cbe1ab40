#include "agent/writer/window_set.h"

#include <utility>

namespace prof {

WindowFile& WindowSet::Open(const WindowSpec& spec, const std::string& path, FileHeaderValue header,
                            bool needs_cuda_activity) {
  windows_.push_back(
      std::make_unique<WindowFile>(spec, path, std::move(header), needs_cuda_activity));
  return *windows_.back();
}

void WindowSet::CloseOpen(uint64_t close_ns, const CpuSample& cpu, uint64_t finalize_after_ns,
                          int64_t continued_in) {
  for (auto& window : windows_) {
    if (!window->closing()) window->StartClosing(close_ns, cpu, finalize_after_ns, continued_in);
  }
}

bool WindowSet::AnyClosing() const {
  for (const auto& window : windows_) {
    if (window->closing()) return true;
  }
  return false;
}

WindowFile* WindowSet::AtOlder(uint64_t host_time_ns) {
  if (windows_.empty()) return nullptr;
  for (auto it = windows_.rbegin(); it != windows_.rend(); ++it) {
    if ((*it)->spec().open_ns <= host_time_ns) return it->get();
  }
  return windows_.front().get();
}

WindowFile* WindowSet::ByIndex(uint32_t index) {
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
WindowFile* WindowSet::For(uint64_t correlation_id, uint64_t host_time_ns) {
  if (windows_.empty()) return nullptr;
  if (correlation_id != 0) {
    const WindowFile* previous = nullptr;
    for (auto& window : windows_) {
      if (correlation_id <= window->max_correlation_id()) {
        const bool continues_previous = previous && previous->continued();  // a split window
        if (correlation_id < window->min_correlation_id() && !continues_previous) return nullptr;
        return window.get();
      }
      previous = window.get();
    }
    const WindowFile& last = *windows_.back();
    if (last.closing() && !last.continued() && host_time_ns > last.close_ns()) return nullptr;
  }
  if (host_time_ns < windows_.front()->spec().open_ns) return nullptr;  // before any window
  return At(host_time_ns);
}

}  // namespace prof
