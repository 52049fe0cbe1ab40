#include "agent/record/writer_doorbell.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace prof {
namespace {

long Futex(std::atomic<uint32_t>* word, int operation, uint32_t value, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), operation, value, timeout, nullptr,
                 0);
}

}  // namespace

namespace {
// Constant-initialized (no guard, nothing to construct or destroy): safe to ring from a
// signal handler and while the process exits.
WriterDoorbell g_doorbell;
}  // namespace

WriterDoorbell& TheWriterDoorbell() { return g_doorbell; }

void WriterDoorbell::Ring() {
  if (word_.exchange(1, std::memory_order_release) == 2) {
    // A hook rings between the program's call and the program's check of errno (and a
    // signal handler may ring): the system call must leave errno as it was.
    const int saved_errno = errno;
    Futex(&word_, FUTEX_WAKE_PRIVATE, 1, nullptr);
    errno = saved_errno;
  }
}

void WriterDoorbell::Wait(uint64_t timeout_ns) {
  uint32_t expected = 0;
  if (word_.compare_exchange_strong(expected, 2, std::memory_order_acquire)) {
    const timespec timeout = {static_cast<time_t>(timeout_ns / 1000000000),
                              static_cast<long>(timeout_ns % 1000000000)};
    // Returns when woken, when the word is no longer 2 (rung meanwhile), on a signal or at
    // the timeout: every case just ends the wait.
    Futex(&word_, FUTEX_WAIT_PRIVATE, 2, &timeout);
  }
  // A ring between the wake-up and this store is absorbed: the writer is about to drain
  // every buffer anyway, which is what the ring asked for.
  word_.store(0, std::memory_order_relaxed);
}

}  // namespace prof
