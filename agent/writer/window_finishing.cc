// Finishing windows: a closed window's file is finalized once its records are drained past
// its grace period (or past its end, for Flush), its still-open ranges closed or carried to
// the file that continues it; the windows still open are flushed every ~100 ms or every
// WindowFile::kChunkEvents events (the drain flushes a full chunk at once), so a crash
// loses little.
//
// Thread safety: writer thread (or Shutdown's inline finish, when no writer thread exists).
// Every step checks for an exit timeout (ParkIfAbandoned, writer_shutdown.cc).
#include <algorithm>

#include "agent/record/clock.h"
#include "agent/writer/trace_writer.h"
#include "agent/writer/window_readings.h"

namespace prof {
namespace {

constexpr uint64_t kFlushPeriodNs = 100000000;  // a crash loses at most ~100 ms

}  // namespace

void TraceWriter::FinishWindows(bool everything, bool flushing) {
  const uint64_t now = MonotonicNs();
  const bool periodic = now - last_flush_ns_ >= kFlushPeriodNs;
  if (periodic) last_flush_ns_ = now;
  // A closed window's grace is measured up to where records were drained, not up to now:
  // its records that waited beyond the drain horizon (drain_horizon.h) still reach it.
  const uint64_t drained = std::min(now, drained_before_ns_);
  // A closed window is finished once drained past its grace, or past its end when flushing.
  auto due = [drained, flushing](const WindowFile& window) {
    return window.closing() &&
           drained >= (flushing ? window.close_ns() : window.finalize_after_ns());
  };
  const bool finishing_any = everything || (!windows_.empty() && due(*windows_.front()));
  if (finishing_any && device_enabled_) {
    device_->Flush(true);  // may wait on CUPTI: an exit timeout can pass meanwhile
    ParkIfAbandoned();
    device_->Drain(*this);
  }
  while (!windows_.empty()) {
    ParkIfAbandoned();
    WindowFile& window = *windows_.front();
    const bool finish = everything || due(window);
    if (!finish) break;
    FinishWindow(window, now);
    windows_.PopFront();
  }
  for (auto& window : windows_) {
    ParkIfAbandoned();
    if (periodic || window->encoder().pending_events() >= WindowFile::kChunkEvents) {
      window->Flush(false);
    }
  }
}

// The oldest window's last records, readings and anchors; its file written and closed.
void TraceWriter::FinishWindow(WindowFile& window, uint64_t now) {
  window.EndIfOpen(now);
  if (window.continued()) {
    converter_.MoveOpenRanges(window.spec().index, window.continued_in());
  } else {
    converter_.CloseOpenRanges(window);
  }
  window.encoder().AddClockAnchor(HostAnchor("window close"));
  window.encoder().AddCpuUsage(
      CpuUsageOf(window.close_cpu().valid ? window.close_cpu() : SampleCpu()));
  if (device_enabled_) window.encoder().AddClockAnchor(device_->Anchor("window close"));
  window.Finish();
  finished_windows_.Note(window.spec().index, window.wrote_file() ? window.path() : "");
  converter_.ForgetWindow(window.spec().index);
}

}  // namespace prof
