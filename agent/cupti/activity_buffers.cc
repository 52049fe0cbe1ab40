#include "agent/cupti/activity_buffers.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>

#include "agent/cupti/fork_guard.h"

namespace prof {
namespace {

struct BufferPool {
  std::mutex mutex;  // guards everything below
  std::vector<uint8_t*> free_buffers;
  std::vector<ActivityBuffer> completed;
  size_t buffer_bytes = 4u << 20;  // Kineto's size: ~19k kernel records
  size_t max_buffers = 8;
  size_t existing = 0;  // free + lent to CUPTI + completed
  std::vector<const uint8_t*> made;  // every buffer in existence: IsAgentBuffer
  bool may_refuse = false;
  // In a forked child, the parent's pool this one replaced: never used nor freed (its mutex
  // may be held by a thread that no longer exists), only kept reachable, so that it is not
  // a leak (LeakSanitizer in --config=asan reports an unreachable one at the child's exit).
  BufferPool* abandoned = nullptr;
};

// Replaced in a forked child, whose inherited mutex may be locked by a thread that no
// longer exists (see BufferPool::abandoned).
std::atomic<BufferPool*> g_pool{new BufferPool()};

BufferPool& Pool() { return *g_pool.load(std::memory_order_acquire); }

// A free buffer, or permission (counted in `existing`) to allocate a new one; nullptr
// with `*allocate` false when the pool is at its cap and may refuse.
uint8_t* TakeFreeBuffer(BufferPool& pool, bool* allocate, size_t* bytes) {
  std::lock_guard<std::mutex> lock(pool.mutex);
  *bytes = pool.buffer_bytes;
  *allocate = false;
  if (!pool.free_buffers.empty()) {
    uint8_t* buffer = pool.free_buffers.back();
    pool.free_buffers.pop_back();
    return buffer;
  }
  if (pool.existing >= pool.max_buffers && pool.may_refuse) return nullptr;
  ++pool.existing;
  *allocate = true;
  return nullptr;
}

void ForgetBuffer(BufferPool& pool) {
  std::lock_guard<std::mutex> lock(pool.mutex);
  --pool.existing;
}

void NoteMade(BufferPool& pool, const uint8_t* buffer) {
  std::lock_guard<std::mutex> lock(pool.mutex);
  pool.made.push_back(buffer);
}

}  // namespace

void ConfigureActivityBuffers(size_t buffer_bytes, size_t max_buffers, bool may_refuse) {
  BufferPool& pool = Pool();
  std::lock_guard<std::mutex> lock(pool.mutex);
  // Buffers already made keep their size; only new ones get the new size.
  if (pool.existing == 0) pool.buffer_bytes = buffer_bytes;
  pool.max_buffers = max_buffers;
  pool.may_refuse = may_refuse;
}

void CUPTIAPI OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = nullptr;
  *size = 0;
  *max_records = 0;  // as many as fit
  if (CuptiInheritedFromParent()) return;
  BufferPool& pool = Pool();
  bool allocate = false;
  size_t bytes = 0;
  uint8_t* taken = TakeFreeBuffer(pool, &allocate, &bytes);
  if (allocate) {
    // Outside the lock; 8-byte alignment is what CUPTI requires.
    taken = static_cast<uint8_t*>(std::aligned_alloc(8, bytes));
    if (taken) {
      NoteMade(pool, taken);
    } else {
      ForgetBuffer(pool);
    }
  }
  if (!taken) return;  // refused: CUPTI drops these records and counts them
  *buffer = taken;
  *size = bytes;
}

void CUPTIAPI OnBufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t size,
                                size_t valid_size) {
  if (!buffer) return;
  if (CuptiInheritedFromParent()) {
    std::free(buffer);  // a child never drains: the parent reports these records
    return;
  }
  BufferPool& pool = Pool();
  std::lock_guard<std::mutex> lock(pool.mutex);
  pool.completed.push_back(ActivityBuffer{buffer, size, valid_size});
}

bool IsAgentBuffer(const uint8_t* buffer) {
  BufferPool& pool = Pool();
  std::lock_guard<std::mutex> lock(pool.mutex);
  return std::find(pool.made.begin(), pool.made.end(), buffer) != pool.made.end();
}

std::vector<ActivityBuffer> TakeCompletedBuffers() {
  std::vector<ActivityBuffer> taken;
  BufferPool& pool = Pool();
  std::lock_guard<std::mutex> lock(pool.mutex);
  taken.swap(pool.completed);
  return taken;
}

void RecycleBuffers(const std::vector<ActivityBuffer>& buffers) {
  BufferPool& pool = Pool();
  std::lock_guard<std::mutex> lock(pool.mutex);
  for (const ActivityBuffer& buffer : buffers) {
    if (buffer.size == pool.buffer_bytes) {
      pool.free_buffers.push_back(buffer.data);
    } else {
      std::free(buffer.data);  // made before a reconfiguration
      --pool.existing;
      const auto made = std::find(pool.made.begin(), pool.made.end(), buffer.data);
      if (made != pool.made.end()) pool.made.erase(made);
    }
  }
}

void ResetActivityBuffersAfterFork() {
  BufferPool* fresh = new BufferPool();
  fresh->abandoned = g_pool.load(std::memory_order_acquire);
  g_pool.store(fresh, std::memory_order_release);
}

}  // namespace prof
