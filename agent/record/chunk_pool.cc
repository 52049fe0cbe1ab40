#include "agent/record/chunk_pool.h"

#include <sched.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <new>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older headers lack it
#endif

namespace prof {

ChunkPool& TheChunkPool() {
  static ChunkPool* pool = new ChunkPool;  // never destroyed: see chunk_pool.h
  return *pool;
}

// Before any Take (a reconfiguration in a test leaks the old mapping:
// chunks still held from it are never given back to the new one, see Give). The writer
// thread may already be running PrefaultFresh (the pool is configured at the first
// thread's first record): Configure holds PrefaultFresh's flag while the fields change, so
// the writer sees the old pool or the new one, never a mix. It waits at most one madvise.
void ChunkPool::Configure(size_t bytes) {
  while (prefaulting_.exchange(true, std::memory_order_acquire)) sched_yield();
  ConfigureLocked(bytes);
  prefaulting_.store(false, std::memory_order_release);
}

void ChunkPool::ConfigureLocked(size_t bytes) {
  size_t count = bytes / kChunkBytes;
  if (count == 0) count = 1;
  if (count > UINT32_MAX - 1) count = UINT32_MAX - 1;
  // MAP_NORESERVE: the budget is address space until a chunk is first written.
  void* memory = mmap(nullptr, count * kChunkBytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) {
    base_ = nullptr;
    count_ = 0;
    return;
  }
  base_ = static_cast<uint8_t*>(memory);
  count_ = count;
  free_head_.store(0, std::memory_order_relaxed);
  fresh_.store(0, std::memory_order_relaxed);
  in_use_.store(0, std::memory_order_relaxed);
  fresh_seen_ = 0;
  populated_ = 0;
}

RecordChunk* ChunkPool::Take() {
  uint64_t head = free_head_.load(std::memory_order_acquire);
  while (static_cast<uint32_t>(head) != 0) {
    RecordChunk* chunk = At(static_cast<uint32_t>(head) - 1);
    // May read a chunk another thread has just taken: harmless (memory is never unmapped),
    // and the tag makes the CAS fail then.
    const uint64_t next = chunk->free_next.load(std::memory_order_relaxed);
    const uint64_t replacement = ((head >> 32) + 1) << 32 | next;
    if (free_head_.compare_exchange_weak(head, replacement, std::memory_order_acquire,
                                         std::memory_order_acquire)) {
      chunk->next.store(nullptr, std::memory_order_relaxed);
      chunk->committed.store(0, std::memory_order_relaxed);
      in_use_.fetch_add(1, std::memory_order_relaxed);
      return chunk;
    }
  }
  // Never-used chunks: handed out in address order, each once.
  uint32_t fresh = fresh_.load(std::memory_order_relaxed);
  while (fresh < count_) {
    if (fresh_.compare_exchange_weak(fresh, fresh + 1, std::memory_order_relaxed)) {
      RecordChunk* chunk = new (At(fresh)) RecordChunk;
      chunk->index = fresh;
      in_use_.fetch_add(1, std::memory_order_relaxed);
      return chunk;
    }
  }
  return nullptr;
}

void ChunkPool::Give(RecordChunk* chunk) {
  const uint8_t* address = reinterpret_cast<const uint8_t*>(chunk);
  if (!chunk || address < base_ || address >= base_ + count_ * kChunkBytes) return;
  in_use_.fetch_sub(1, std::memory_order_relaxed);
  uint64_t head = free_head_.load(std::memory_order_relaxed);
  do {
    chunk->free_next.store(static_cast<uint32_t>(head), std::memory_order_relaxed);
  } while (!free_head_.compare_exchange_weak(head, ((head >> 32) + 1) << 32 | (chunk->index + 1),
                                             std::memory_order_release, std::memory_order_relaxed));
}

void ChunkPool::ResetAfterFork() {
  // The child has no writer thread: a flag its parent's writer held at the fork is stale.
  prefaulting_.store(false, std::memory_order_relaxed);
  free_head_.store(0, std::memory_order_relaxed);
  fresh_.store(0, std::memory_order_relaxed);
  in_use_.store(0, std::memory_order_relaxed);
  fresh_seen_ = 0;
  populated_ = 0;
}

void ChunkPool::PrefaultFresh() {
  // One caller at a time (the process has one writer; a test may run two): the other skips.
  if (prefaulting_.exchange(true, std::memory_order_acquire)) return;
  PrefaultFreshLocked();
  prefaulting_.store(false, std::memory_order_release);
}

void ChunkPool::PrefaultFreshLocked() {
  const uint32_t fresh = fresh_.load(std::memory_order_relaxed);
  const uint32_t taken = fresh - std::min(fresh, fresh_seen_);
  fresh_seen_ = fresh;
  if (taken == 0 || prefault_unsupported_) return;
  const size_t ahead = std::min<size_t>(2 * size_t{taken}, kPrefaultChunks);
  const size_t start = std::max(populated_, fresh);
  const size_t end = std::min(count_, size_t{fresh} + ahead);
  if (start >= end) return;
  if (madvise(At(static_cast<uint32_t>(start)), (end - start) * kChunkBytes,
              MADV_POPULATE_WRITE) != 0 &&
      errno == EINVAL) {
    prefault_unsupported_ = true;
  }
  populated_ = static_cast<uint32_t>(end);
}

}  // namespace prof
