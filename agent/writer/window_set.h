// The writer's windows, oldest first: the one open and those closed but not yet finalized
// (they take late records during a grace period). WindowSet owns them, decides which one a
// record belongs to, and is the only code that changes a window's closing state: host
// records go by their start time (At), device records by their API call's correlation id
// (For, what the writer's WindowRouter answers), the record converter's lookups by index.
//
// Thread safety: writer thread (or Shutdown's inline finish, when no writer thread exists).
#ifndef PROF_AGENT_WRITER_WINDOW_SET_H_
#define PROF_AGENT_WRITER_WINDOW_SET_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "agent/record/cpu_sample.h"
#include "agent/writer/window_file.h"

namespace prof {

class WindowSet {
 public:
  using Windows = std::deque<std::unique_ptr<WindowFile>>;

  bool empty() const { return windows_.empty(); }
  size_t size() const { return windows_.size(); }
  // The oldest and the newest window; null when there is none.
  WindowFile* front() { return windows_.empty() ? nullptr : windows_.front().get(); }
  WindowFile* back() { return windows_.empty() ? nullptr : windows_.back().get(); }
  Windows::const_iterator begin() const { return windows_.begin(); }
  Windows::const_iterator end() const { return windows_.end(); }

  // Adds the newest window (its file opens at its first chunk); returns it.
  WindowFile& Open(const WindowSpec& spec, const std::string& path, FileHeaderValue header,
                   bool needs_cuda_activity);
  // Every window not closing yet ends at `close_ns`, with the CPU reading `cpu`, and is
  // finalized once records are drained past `finalize_after_ns`. `continued_in` >= 0: a
  // split, the window goes on in the file of that index.
  void CloseOpen(uint64_t close_ns, const CpuSample& cpu, uint64_t finalize_after_ns,
                 int64_t continued_in);
  bool AnyClosing() const;
  // Removes the oldest window (finished).
  void PopFront() { windows_.pop_front(); }

  // The window containing `host_time_ns` (the newest opened at or before it; the oldest
  // for an earlier time); null when there is none.
  // The newest window's check is inline: the drain asks for each record, and nearly all
  // belong to it (an out-of-line call and a reverse walk of the deque were ~20
  // instructions an operator on the writer; callgrind, issue 26).
  WindowFile* At(uint64_t host_time_ns) {
    if (!windows_.empty() && windows_.back()->spec().open_ns <= host_time_ns) {
      return windows_.back().get();
    }
    return AtOlder(host_time_ns);
  }
  // A device record's window: see window_set.cc.
  WindowFile* For(uint64_t correlation_id, uint64_t host_time_ns);
  WindowFile* ByIndex(uint32_t index);

 private:
  WindowFile* AtOlder(uint64_t host_time_ns);  // At past the newest window

  Windows windows_;
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_WINDOW_SET_H_
