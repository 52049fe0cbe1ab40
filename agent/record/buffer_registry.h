// Owns every thread's ThreadBuffer and the chunk pool they grow from. The hot path finds
// its buffer through one initial-exec thread-local pointer; the first record of a thread
// takes the slow path, which adopts a released buffer or allocates one (if the
// PROF_BUFFER_MB budget allows) and registers it under a mutex. Chunks come from the pool
// as the buffer needs them, without the mutex (thread_buffer.h).
//
// Budget: PROF_BUFFER_MB is split between the chunk pool and the buffers' control rings,
// which are counted at their most (one per possible buffer: BufferLimits), so the memory
// for records never exceeds the budget.
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

// How a budget is split (see above).
struct BufferLimits {
  size_t max_buffers = 0;    // threads that can hold a buffer at once
  size_t pool_bytes = 0;     // for data chunks
  uint32_t wake_chunks = 0;  // a thread holding this many chunks wakes the writer
};
BufferLimits BufferLimitsFor(size_t total_bytes);

// Sets the budget, at load (before any thread records).
void ConfigureBuffers(size_t total_bytes);

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

// Writer: reports and clears the records lost because a thread found no buffer (more
// threads than BufferLimits::max_buffers), by step: report(loss kind, step, count).
void TakeThreadLimitDrops(const std::function<void(int32_t, int64_t, uint64_t)>& report);

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
