#include "agent/writer/emergency_flush.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

#include "agent/record/writer_doorbell.h"

namespace prof {
namespace {

static_assert(sizeof(std::atomic<int>) == sizeof(int) && std::atomic<int>::is_always_lock_free,
              "the futex word is a plain int");

std::atomic<bool> g_requested{false};
std::atomic<int> g_signal{0};  // lock-free int: async-signal-safe to store
std::atomic<bool> g_writer_running{false};
std::atomic<int> g_acknowledged{0};  // the futex word: 1 once the writer finished

int64_t MonotonicMs() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  return static_cast<int64_t>(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
}

}  // namespace

void RequestEmergencyFlush(int timeout_ms, int signal_number) {
  if (!g_writer_running.load()) return;
  g_signal.store(signal_number);  // before the request: the writer reads it after
  g_requested.store(true);
  TheWriterDoorbell().Ring();  // the writer starts now, not at its next timer (<= 10 ms)
  const int64_t deadline = MonotonicMs() + timeout_ms;
  // FUTEX_WAIT returns at once if the word is no longer 0, so a wake that comes before
  // the wait is not missed; EINTR and spurious returns loop until the deadline.
  for (int64_t left = timeout_ms; g_acknowledged.load() == 0 && left > 0;
       left = deadline - MonotonicMs()) {
    struct timespec wait = {static_cast<time_t>(left / 1000),
                            static_cast<long>(left % 1000) * 1000000};
    syscall(SYS_futex, reinterpret_cast<int*>(&g_acknowledged), FUTEX_WAIT_PRIVATE, 0, &wait,
            nullptr, 0);
  }
}

int EmergencyFlushSignal() { return g_signal.load(); }

void MarkWriterRunning(bool running) { g_writer_running.store(running); }

bool EmergencyFlushRequested() { return g_requested.load(std::memory_order_relaxed); }

void AcknowledgeEmergencyFlush() {
  g_acknowledged.store(1);
  syscall(SYS_futex, reinterpret_cast<int*>(&g_acknowledged), FUTEX_WAKE_PRIVATE, 1 << 30, nullptr,
          nullptr, 0);
}

void ResetEmergencyFlushAfterFork() {
  g_requested.store(false);
  g_signal.store(0);
  g_writer_running.store(false);
  g_acknowledged.store(0);
}

}  // namespace prof
