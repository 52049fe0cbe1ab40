// The exit: Shutdown drains and finishes every window within a time bound. Past it, the
// writer is abandoned: it parks for good at its next check (ParkIfAbandoned, between
// chunks, buffers and commands), so the static destructors that run once Shutdown returns
// never race with it. The files then end at their last complete chunk.
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <vector>

#include "agent/record/writer_doorbell.h"
#include "agent/writer/trace_writer.h"

namespace prof {
namespace {

constexpr auto kParkWait = std::chrono::milliseconds(200);  // after an exit timeout

}  // namespace

// Any thread (the exit handler's).
bool TraceWriter::Shutdown(uint64_t timeout_ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!thread_started_) {
    // Nothing ever opened a window, or the thread could not start: finish inline.
    std::vector<Command> commands;
    stopping_ = true;
    lock.unlock();
    commands_.TakeAll(&commands);
    RunCommands(commands, kDrainEverything);
    DrainHostRecords(kDrainEverything);
    FinishWindows(true);
    return true;
  }
  stopping_ = true;
  TheWriterDoorbell().Ring();
  if (finished_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), [this] { return done_; })) {
    return true;
  }
  // Out of time. Static destructors run once we return, so the writer must stop touching
  // anything: it parks at its next check (between chunks, buffers and commands), and we
  // wait for that, briefly. The files end at their last complete chunk.
  abandon_.store(true, std::memory_order_release);
  finished_.wait_for(lock, kParkWait, [this] { return done_ || parked_; });
  return false;
}

// Writer thread.
void TraceWriter::ParkIfAbandoned() {
  if (!abandon_.load(std::memory_order_acquire)) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    parked_ = true;
    finished_.notify_all();
  }
  // Blocks for good: this thread has every signal blocked, and the process is exiting.
  for (;;) pause();
}

}  // namespace prof
