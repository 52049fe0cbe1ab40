#include "analyzer/pipeline/progress_line.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace prof::analyzer {

ProgressLine::ProgressLine(size_t files, const std::atomic<uint64_t>* events)
    : files_(files), events_(events) {
  if (!isatty(STDERR_FILENO)) return;
  thread_ = std::thread([this] { Run(); });
}

ProgressLine::~ProgressLine() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
  std::fprintf(stderr, "\r\033[K");
}

void ProgressLine::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return done_; })) {
    std::fprintf(stderr, "\rprofanalyze: reading %zu file(s): %.1fM events", files_,
                 events_->load(std::memory_order_relaxed) / 1e6);
  }
}

}  // namespace prof::analyzer
