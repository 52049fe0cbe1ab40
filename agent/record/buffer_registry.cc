#include "agent/record/buffer_registry.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <new>
#include <vector>

namespace prof {
namespace internal {
thread_local ThreadBuffer* t_buffer __attribute__((tls_model("initial-exec"))) = nullptr;
}  // namespace internal

namespace {

thread_local uint64_t t_thread_id __attribute__((tls_model("initial-exec"))) = 0;
// After the slow path failed on this thread, it is not retried before this time (so a
// thread over budget does not take the mutex on every record).
thread_local uint64_t t_retry_after_ns __attribute__((tls_model("initial-exec"))) = 0;
constexpr uint64_t kRetryDelayNs = 1000000;

uint64_t NowNs() {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + now.tv_nsec;
}

struct Registry {
  std::mutex mutex;
  std::vector<ThreadBuffer*> buffers;  // guarded by mutex
  size_t total_bytes = 128u << 20;
  size_t buffer_bytes = 4u << 20;
  std::atomic<uint64_t> thread_limit_drops{0};
  pthread_key_t exit_key;
  std::atomic<void (*)()> session_start_callback{nullptr};
  std::mutex start_mutex;  // held while the callback runs
};

// Never destroyed: threads may record while the process exits.
Registry& TheRegistry() {
  static Registry* registry = [] {
    auto* created = new Registry;
    // Runs when a thread exits: once drained, the buffer can be adopted by a new thread.
    pthread_key_create(&created->exit_key, [](void* buffer) {
      static_cast<ThreadBuffer*>(buffer)->owner_exited.store(true, std::memory_order_release);
    });
    return created;
  }();
  return *registry;
}

}  // namespace

void ConfigureBuffers(size_t total_bytes, size_t buffer_bytes) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.total_bytes = total_bytes;
  registry.buffer_bytes = buffer_bytes;
}

uint64_t CurrentThreadId() {
  if (t_thread_id == 0) t_thread_id = static_cast<uint64_t>(syscall(SYS_gettid));
  return t_thread_id;
}

namespace {

// A drained buffer of an exited thread, adopted by the calling thread; or a new buffer
// when the budget allows; or nullptr. Called with the registry's mutex held.
ThreadBuffer* AdoptOrAllocate(Registry& registry) {
  for (ThreadBuffer* buffer : registry.buffers) {
    if (buffer->owner_exited.load(std::memory_order_acquire) && buffer->empty()) {
      buffer->Adopt(CurrentThreadId());
      return buffer;
    }
  }
  if ((registry.buffers.size() + 1) * registry.buffer_bytes > registry.total_bytes) return nullptr;
  auto* buffer = new (std::nothrow) ThreadBuffer(CurrentThreadId(), registry.buffer_bytes);
  if (buffer) registry.buffers.push_back(buffer);
  return buffer;
}

}  // namespace

ThreadBuffer* internal::CreateCurrentThreadBuffer() {
  Registry& registry = TheRegistry();
  if (t_retry_after_ns != 0 && NowNs() < t_retry_after_ns) {
    registry.thread_limit_drops.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  ThreadBuffer* buffer = nullptr;
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    buffer = AdoptOrAllocate(registry);
  }
  if (!buffer) {
    t_retry_after_ns = NowNs() + kRetryDelayNs;
    registry.thread_limit_drops.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  t_retry_after_ns = 0;
  pthread_setspecific(registry.exit_key, buffer);
  t_buffer = buffer;
  EnsureSessionStarted();
  return buffer;
}

void SetSessionStartCallback(void (*callback)()) {
  TheRegistry().session_start_callback.store(callback);
}

std::atomic<bool> internal::g_session_started{false};

// Set on the thread running the start: a CUDA call or record made by the start itself
// (CUPTI calling back while it is enabled) must not wait for the start to finish.
thread_local bool t_starting_session __attribute__((tls_model("initial-exec"))) = false;

void internal::StartSessionSlow() {
  if (t_starting_session) return;
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.start_mutex);
  if (g_session_started.load(std::memory_order_acquire)) return;
  t_starting_session = true;
  if (auto callback = registry.session_start_callback.load()) callback();
  t_starting_session = false;
  g_session_started.store(true, std::memory_order_release);
}

void ForEachBuffer(const std::function<void(ThreadBuffer&)>& visit) {
  Registry& registry = TheRegistry();
  std::vector<ThreadBuffer*> snapshot;
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    snapshot = registry.buffers;
  }
  // Buffers are only freed by this (the writer) thread, so the snapshot stays valid.
  for (ThreadBuffer* buffer : snapshot) visit(*buffer);
}

uint64_t TakeThreadLimitDrops() {
  return TheRegistry().thread_limit_drops.exchange(0, std::memory_order_relaxed);
}

// The start lock first: a session start in progress (it may take a thread's first buffer,
// and so the registry lock) finishes before the fork.
// start_mutex is not taken before a fork: a thread starting the session holds it while
// the start calls into CUPTI, whose own fork handler (run before ours) may hold a lock
// that call waits for: a deadlock (TSan reported the lock-order inversion on the
// simulated CUPTI). The child rebuilds start_mutex instead; it uses nothing the start sets.
void LockBuffersForFork() { TheRegistry().mutex.lock(); }

void UnlockBuffersAfterFork() { TheRegistry().mutex.unlock(); }

void ResetBuffersAfterFork() {
  Registry& registry = TheRegistry();
  // Only this thread exists in the child, and it holds `mutex` (LockBuffersForFork), so
  // nothing was half-changed: it unlocks it, as its own (a mutex rebuilt in place would
  // still look held to TSan). start_mutex may have been held by a thread that is gone: it
  // is rebuilt. The inherited buffers are leaked: their records are the parent's, and
  // freeing them is not worth the risk.
  registry.mutex.unlock();
  registry.buffers.clear();
  internal::t_buffer = nullptr;
  t_thread_id = 0;
  t_retry_after_ns = 0;
  registry.thread_limit_drops.store(0);
  new (&registry.start_mutex) std::mutex();
  internal::g_session_started.store(false);
}

}  // namespace prof
