// The PROF_BUFFER_MB budget as a pool of fixed-size chunks that every thread's buffer
// borrows from as it needs them and gives back once the writer has drained them, so one
// hot thread can use the whole budget (as Perfetto's shared memory buffer hands chunks to
// its writers) while idle threads hold one chunk each.
//
// The memory is reserved once (address space only; pages become resident as chunks are
// first used) and never unmapped: a chunk's header may be read by a thread that lost a
// race for it, and records may be appended while the process exits.
//
// Thread safety: Take and Give from any thread, lock-free (a Treiber stack of chunk indexes
// whose head carries a tag against ABA, plus a bump index for never-used chunks). Configure
// once, before any Take (buffer_registry.cc: at the first thread's first record, under the
// registry's mutex, so no other thread can Take yet); ResetAfterFork in a fork child only,
// where the forking thread is the only one. PrefaultFresh from any thread (the writer), one
// at a time (a second caller meanwhile skips); it only reads fresh_ and asks the kernel for
// pages. Configure may run while the writer is in PrefaultFresh: both hold prefaulting_.
#ifndef PROF_AGENT_RECORD_CHUNK_POOL_H_
#define PROF_AGENT_RECORD_CHUNK_POOL_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace prof {

// One chunk: a header the producer and the writer share, then records back to back. A record
// never straddles two chunks; the end of a chunk past `committed` is unused.
//
// Memory order: the producer publishes each record with a release store of `committed`
// (bytes of complete records), and links the next chunk with a release store of `next` only
// after its last store to `committed`: a consumer that acquires a non-null `next` then reads
// the final `committed`, and may give the chunk back once it has consumed that much.
struct RecordChunk {
  std::atomic<RecordChunk*> next{nullptr};
  std::atomic<uint32_t> committed{0};
  uint32_t index = 0;                  // position in the pool (fixed)
  std::atomic<uint32_t> free_next{0};  // pool's free stack: index + 1 of the next free chunk
  uint8_t padding[40];

  uint8_t* data() { return reinterpret_cast<uint8_t*>(this + 1); }
};
static_assert(sizeof(RecordChunk) == 64, "records start 64 bytes into a chunk");

// 64 KiB: about 630 API-call records, so taking a chunk (a few atomic operations) is paid
// once per ~630 appends, and a 1 MiB budget still has 14 chunks.
constexpr size_t kChunkBytes = 64u << 10;
constexpr size_t kChunkPayload = kChunkBytes - sizeof(RecordChunk);

class ChunkPool {
 public:
  // `bytes` of budget for chunks: floor(bytes / kChunkBytes) of them, at least one.
  void Configure(size_t bytes);

  // A chunk with next = null and committed = 0, or nullptr when all are in use.
  RecordChunk* Take();
  void Give(RecordChunk* chunk);

  size_t chunk_count() const { return count_; }
  // Chunks in use now (relaxed: for statistics and the writer's wake mark).
  size_t in_use() const { return in_use_.load(std::memory_order_relaxed); }

  // Fork child: every chunk is free again (the inherited buffers are discarded).
  void ResetAfterFork();

  // The writer thread, once a pass: makes resident the never-used chunks the threads will take
  // next, twice as many as they took fresh since the last call (at most kPrefaultChunks
  // ahead), so a growing pool's page faults (~16 a chunk) are taken on the writer's core in
  // one call, not one by one in the recording thread's hook. A process that records nothing
  // takes no chunk and gets no page. MADV_POPULATE_WRITE (Linux 5.14) maps pages writable
  // without writing them, so a chunk a thread takes and writes meanwhile is not disturbed
  // (the kernel serializes the faults of a page; its contents are never touched), and the
  // mapping is never unmapped. Without it (EINVAL) the writer stops trying.
  void PrefaultFresh();
  bool prefault_supported() const { return !prefault_unsupported_; }
  static constexpr uint32_t kPrefaultChunks = 64;  // 4 MiB: what one 4 ms pass takes at most

 private:
  RecordChunk* At(uint32_t index) {
    return reinterpret_cast<RecordChunk*>(base_ + size_t{index} * kChunkBytes);
  }

  uint8_t* base_ = nullptr;
  size_t count_ = 0;
  std::atomic<uint64_t> free_head_{0};  // low 32 bits: index + 1 (0 = empty); high: tag
  std::atomic<uint32_t> fresh_{0};      // chunks below this have been handed out before
  std::atomic<size_t> in_use_{0};
  void ConfigureLocked(size_t bytes);
  void PrefaultFreshLocked();
  // PrefaultFresh's, read and written only while holding prefaulting_ (or at Configure and
  // ResetAfterFork, single-threaded).
  std::atomic<bool> prefaulting_{false};
  uint32_t fresh_seen_ = 0;  // fresh_ at the last call
  uint32_t populated_ = 0;   // chunks below this were made resident or handed out
  bool prefault_unsupported_ = false;
};

// The process's pool (never destroyed).
ChunkPool& TheChunkPool();

}  // namespace prof

#endif  // PROF_AGENT_RECORD_CHUNK_POOL_H_
