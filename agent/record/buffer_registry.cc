#include "agent/record/buffer_registry.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <new>
#include <vector>

#include "agent/record/step_losses.h"
#include "proto/schema_enums.h"

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
  std::vector<ThreadBuffer*> buffers;                 // guarded by mutex
  BufferLimits limits = BufferLimitsFor(128u << 20);  // guarded by mutex
  bool pool_ready = false;  // guarded by mutex: the pool is mapped at the first buffer
  StepLossCounter thread_limit_drops{schema::LOSS_KIND_THREAD_LIMIT};
  pthread_key_t exit_key;
  std::atomic<void (*)()> session_start_callback{nullptr};
  std::mutex start_mutex;  // held while the callback runs
};

// Never destroyed: threads may record while the process exits.
Registry& TheRegistry() {
  static Registry* registry = [] {
    auto* created = new Registry;
    // Runs on a thread as it exits: once drained, the buffer can be adopted by a new
    // thread. The thread forgets it first: a destructor that runs after this one and
    // records (other libraries' thread-exit code calling CUDA) gets a buffer of its own
    // (and this destructor again), never writes into one the writer may give away.
    pthread_key_create(&created->exit_key, [](void* buffer) {
      if (internal::t_buffer == buffer) internal::t_buffer = nullptr;
      static_cast<ThreadBuffer*>(buffer)->owner_exited.store(true, std::memory_order_release);
    });
    return created;
  }();
  return *registry;
}

}  // namespace

// One control ring per 16 KiB of budget (8 to 1024 buffers): 1/4 of a small budget, 1/32
// of the default 128 MiB; the rest is the pool. The writer is woken when one thread holds
// 1/16 of the pool (2 to 16 chunks: 128 KiB to 1 MiB).
BufferLimits BufferLimitsFor(size_t total_bytes) {
  BufferLimits limits;
  limits.max_buffers = std::min<size_t>(1024, std::max<size_t>(8, total_bytes / (16u << 10)));
  const size_t control = limits.max_buffers * kControlRingBytes;
  limits.pool_bytes = total_bytes > control + kChunkBytes ? total_bytes - control : kChunkBytes;
  limits.wake_chunks = static_cast<uint32_t>(
      std::min<size_t>(16, std::max<size_t>(2, limits.pool_bytes / kChunkBytes / 16)));
  return limits;
}

void ConfigureBuffers(size_t total_bytes) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.limits = BufferLimitsFor(total_bytes);
  if (registry.pool_ready) TheChunkPool().Configure(registry.limits.pool_bytes);  // tests
}

uint64_t CurrentThreadId() {
  if (t_thread_id == 0) t_thread_id = static_cast<uint64_t>(syscall(SYS_gettid));
  return t_thread_id;
}

namespace {

// A buffer of an exited thread that the writer has drained and released, adopted by the
// calling thread; or a new buffer when the budget allows; or nullptr. Called with the
// registry's mutex held.
ThreadBuffer* AdoptOrAllocate(Registry& registry) {
  for (ThreadBuffer* buffer : registry.buffers) {
    if (buffer->released()) {
      buffer->Adopt(CurrentThreadId());
      return buffer;
    }
  }
  if (registry.buffers.size() >= registry.limits.max_buffers) return nullptr;
  if (!registry.pool_ready) {
    TheChunkPool().Configure(registry.limits.pool_bytes);
    registry.pool_ready = true;
  }
  auto* buffer = new (std::nothrow)
      ThreadBuffer(CurrentThreadId(), &TheChunkPool(), registry.limits.wake_chunks);
  if (buffer) registry.buffers.push_back(buffer);
  return buffer;
}

}  // namespace

ThreadBuffer* internal::CreateCurrentThreadBuffer() {
  Registry& registry = TheRegistry();
  if (t_retry_after_ns != 0 && NowNs() < t_retry_after_ns) {
    registry.thread_limit_drops.Add(CurrentStep());
    return nullptr;
  }
  ThreadBuffer* buffer = nullptr;
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    buffer = AdoptOrAllocate(registry);
  }
  if (!buffer) {
    t_retry_after_ns = NowNs() + kRetryDelayNs;
    registry.thread_limit_drops.Add(CurrentStep());
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

void TakeThreadLimitDrops(const std::function<void(int32_t, int64_t, uint64_t)>& report) {
  TheRegistry().thread_limit_drops.Take(report);
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
  registry.thread_limit_drops.Take([](int32_t, int64_t, uint64_t) {});
  TheChunkPool().ResetAfterFork();
  ResetStepLossesAfterFork();
  new (&registry.start_mutex) std::mutex();
  internal::g_session_started.store(false);
}

}  // namespace prof
