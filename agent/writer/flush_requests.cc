// Flush(): a thread asks the writer to finish every window closed so far without the usual
// grace for late records (prof_flush, the Python Profiler's window ends), and waits for it.
// Requests are tickets: flushes_asked_ counts the calls, the writer takes the newest at the
// start of a pass (one pass serves every call before it) and completes it once no closed
// window is left.
#include <chrono>
#include <mutex>

#include "agent/record/writer_doorbell.h"
#include "agent/writer/trace_writer.h"

namespace prof {

// Any thread.
bool TraceWriter::Flush(uint64_t timeout_ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!thread_started_ || done_) return true;  // no thread: no window was ever handed over
  const uint64_t ticket = ++flushes_asked_;
  TheWriterDoorbell().Ring();  // rings are never lost: the writer's next Wait returns at once
  return finished_.wait_for(lock, std::chrono::nanoseconds(timeout_ns),
                            [this, ticket] { return flushes_done_ >= ticket || done_; });
}

// Writer thread, at the start of a pass.
bool TraceWriter::TakeRequests(uint64_t* flush) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (flushes_asked_ > flushes_taken_) *flush = flushes_taken_ = flushes_asked_;
  return stopping_;
}

// Writer thread, after FinishWindows: the flush is done when no window is left closing.
void TraceWriter::CompleteFlush(uint64_t* flush) {
  if (*flush == 0 || AnyWindowClosing()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  flushes_done_ = *flush;
  *flush = 0;
  finished_.notify_all();
}

// Writer thread.
bool TraceWriter::AnyWindowClosing() const { return windows_.AnyClosing(); }

}  // namespace prof
