// Owns every thread's ThreadBuffer. The hot path finds its buffer through one initial-exec
// thread-local pointer; the first record of a thread takes the slow path, which allocates
// the buffer (if the PROF_BUFFER_MB budget allows) and registers it under a mutex.
//
// Thread safety: CurrentThreadBuffer() from any thread; ForEachBuffer and Reclaim from
// the writer thread. Fork: see LockBuffersForFork.
#ifndef PROF_AGENT_RECORD_BUFFER_REGISTRY_H_
#define PROF_AGENT_RECORD_BUFFER_REGISTRY_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "agent/record/thread_buffer.h"

namespace prof {

// Sets the budget: buffers of `buffer_bytes` each, at most `total_bytes` in all.
void ConfigureBuffers(size_t total_bytes, size_t buffer_bytes);

namespace internal {
extern thread_local ThreadBuffer* t_buffer __attribute__((tls_model("initial-exec")));
ThreadBuffer* CreateCurrentThreadBuffer();
}  // namespace internal

// The calling thread's buffer, or nullptr when the budget is exhausted (counted). Buffers
// of exited threads are reused once drained, so short-lived threads do not use it up.
inline ThreadBuffer* CurrentThreadBuffer() {
  ThreadBuffer* buffer = internal::t_buffer;
  return buffer ? buffer : internal::CreateCurrentThreadBuffer();
}

// Writer thread: visits every registered buffer (live or exited).
void ForEachBuffer(const std::function<void(ThreadBuffer&)>& visit);

// Records lost because a thread found no buffer (budget exhausted); reading resets it.
uint64_t TakeThreadLimitDrops();

// The session's start (writer thread, CUPTI, the first window) cannot run in the library
// constructor, so it runs once, at the first recorded CUDA call or record: `callback` is
// called exactly once per process (again in a forked child), and other threads wait for
// it to finish so their first records find the session started.
void SetSessionStartCallback(void (*callback)());

namespace internal {
extern std::atomic<bool> g_session_started;
void StartSessionSlow();
}  // namespace internal

// One load on the recording path; the first call runs the session's start.
inline void EnsureSessionStarted() {
  if (!internal::g_session_started.load(std::memory_order_acquire)) internal::StartSessionSlow();
}

// fork(): the prepare handler takes the registry's lock, so no thread is inside the
// registry when the address space is copied; the parent then releases it, and the child
// (only the forking thread exists) releases it too, rebuilds the session-start lock and
// discards every inherited buffer.
void LockBuffersForFork();
void UnlockBuffersAfterFork();
void ResetBuffersAfterFork();

// The kernel thread id of the caller (cached per thread).
uint64_t CurrentThreadId();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_BUFFER_REGISTRY_H_
