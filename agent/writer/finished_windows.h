// The windows the writer has finished, for the process to learn that a window's file is
// complete (prof_windows_finished, prof_window_file; the Python Profiler's on_trace_ready).
//
// Thread safety: Note is called by the writer thread, once per window; count() is
// lock-free; Find takes a short lock that only Note and other Find calls take.
#ifndef PROF_AGENT_WRITER_FINISHED_WINDOWS_H_
#define PROF_AGENT_WRITER_FINISHED_WINDOWS_H_

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace prof {

class FinishedWindows {
 public:
  // Window `index` is finished: `path` is its file, "" when it recorded nothing.
  void Note(uint32_t index, const std::string& path) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      windows_.emplace_back(index, path);
    }
    count_.fetch_add(1, std::memory_order_release);
  }

  uint32_t count() const { return count_.load(std::memory_order_acquire); }

  // Whether window `index` is finished; then `*path` is its file ("": none).
  bool Find(uint32_t index, std::string* path) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [finished, file] : windows_) {
      if (finished != index) continue;
      *path = file;
      return true;
    }
    return false;
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<uint32_t, std::string>> windows_;  // in finishing order
  std::atomic<uint32_t> count_{0};
};

}  // namespace prof

#endif  // PROF_AGENT_WRITER_FINISHED_WINDOWS_H_
